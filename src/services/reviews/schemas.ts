import { z } from '@hono/zod-openapi';
import { DISPUTE_STATUSES, PARTY_KINDS } from '../../db/schema';
import { ID_MAX_LENGTH } from '../../lib/ids';

// The reviews domain's request and response schemas: the route contracts import them, the services
// take z.infer of the request schemas and build z.infer of the response schemas.

import { type PartyKind, pagingQuery } from '../kernel';

export type { PartyKind };
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const REVIEW_TEXT_MAX = 2000;
export const RESPONSE_TEXT_MAX = 2000;
export const DISPUTE_REASON_MAX = 1000;
/** Parties per batch-average call (one JSON parameter in SQL; kept under the API's array bound). */
export const MAX_BATCH_PARTIES = 50;
export const TREND_MAX_DAYS = 365;
export const TREND_DEFAULT_DAYS = 90;
/** Below this many days the trend has daily buckets, else weekly ones from Monday (DECISIONS.md). */
export const TREND_DAILY_BELOW_DAYS = 30;

export const partyKindSchema = z.enum(PARTY_KINDS).openapi({ description: 'A party is a shifter or a business.' });
const partyId = z.string().min(1).max(ID_MAX_LENGTH);

/** The reviewed party of the read operations. */
export const reviewedPartyQuery = z.object({
  review_on: partyKindSchema,
  review_on_id: partyId.openapi({ description: 'The shifter id or business id, as review_on says.' }),
});
export type ReviewedPartyQuery = z.infer<typeof reviewedPartyQuery>;

export const reviewIdQuery = z.object({ review_id: partyId.openapi({ description: 'The review.' }) });
export type ReviewIdQuery = z.infer<typeof reviewIdQuery>;

export const createReviewInput = z
  .object({
    review_on: partyKindSchema.openapi({ description: 'The kind of the reviewed party: a shifter reviews a business and vice versa.' }),
    review_on_id: partyId.openapi({ description: 'The reviewed shifter or business.' }),
    review_by: partyKindSchema
      .optional()
      .openapi({ description: 'The reviewing party kind; always the other kind than review_on (default: that one).' }),
    review_by_id: partyId.optional().openapi({
      description:
        "The reviewing party: the caller's own shifter profile (the default when a shifter reviews), or a business the caller owns or is an active teammate of (default: the pinned shift's business, else the caller's default business).",
    }),
    rating: z.number().int().min(1).max(5).openapi({ description: 'Whole stars, 1–5.' }),
    review_text: z
      .string()
      .trim()
      .max(REVIEW_TEXT_MAX)
      .nullish()
      .openapi({ description: `At most ${REVIEW_TEXT_MAX} characters.` }),
    shift_request_id: partyId.nullish().openapi({
      description:
        'Optional pin: a worked shift between exactly these two parties. A reviewing party reviews each worked shift at most once, pinned or not (REVIEW-EXISTS-ERR); without a pin the review counts against the latest worked shift it has not reviewed yet.',
    }),
  })
  .openapi('CreateReview');
export type CreateReviewInput = z.infer<typeof createReviewInput>;

export const listReviewsQuery = z.object({
  review_on: partyKindSchema.optional(),
  review_on_id: partyId.optional().openapi({ description: 'Reviews of this party (with review_on).' }),
  review_by: partyKindSchema.optional(),
  review_by_id: partyId.optional().openapi({ description: 'Reviews written by this party (with review_by).' }),
  ...pagingQuery(),
});
export type ListReviewsQuery = z.infer<typeof listReviewsQuery>;

export const batchAveragesInput = z
  .object({
    parties: z
      .array(z.object({ review_on: partyKindSchema, review_on_id: partyId }))
      .min(1)
      .max(MAX_BATCH_PARTIES)
      .openapi({ description: `1–${MAX_BATCH_PARTIES} reviewed parties; answered in the same order.` }),
  })
  .openapi('ReviewAveragesRequest');
export type BatchAveragesInput = z.infer<typeof batchAveragesInput>;

export const trendQuery = reviewedPartyQuery.extend({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(TREND_MAX_DAYS)
    .default(TREND_DEFAULT_DAYS)
    .openapi({
      description: `Window in days ending today, 1–${TREND_MAX_DAYS} (default ${TREND_DEFAULT_DAYS}); under ${TREND_DAILY_BELOW_DAYS}: daily buckets, else weekly from Monday.`,
    }),
});
export type TrendQuery = z.infer<typeof trendQuery>;

export const respondInput = z
  .object({ response_text: z.string().trim().min(1).max(RESPONSE_TEXT_MAX).openapi({ description: "The reviewee's public response." }) })
  .openapi('RespondToReview');
export type RespondInput = z.infer<typeof respondInput>;

export const disputeInput = z
  .object({ reason: z.string().trim().min(1).max(DISPUTE_REASON_MAX).openapi({ description: 'Why the review should be removed.' }) })
  .openapi('DisputeReview');
export type DisputeInput = z.infer<typeof disputeInput>;

export const DECISIONS = ['upheld', 'rejected'] as const;
export type Decision = (typeof DECISIONS)[number];
export const resolveQuery = reviewIdQuery.extend({
  decision: z.enum(DECISIONS).openapi({ description: 'upheld hides the review from every list and aggregate; rejected keeps it.' }),
});
export type ResolveQuery = z.infer<typeof resolveQuery>;

export const STATUS_FILTERS = ['pending', 'all'] as const;
export const disputesQuery = z.object({
  status_filter: z
    .enum(STATUS_FILTERS)
    .default('pending')
    .openapi({ description: 'pending (default): the open queue, oldest first; all: every disputed review, newest dispute first.' }),
  limit: listReviewsQuery.shape.limit,
  cursor: listReviewsQuery.shape.cursor,
});
export type DisputesQuery = z.infer<typeof disputesQuery>;

// ---- Responses ----

export const reviewSchema = z
  .object({
    id: z.string(),
    review_by: partyKindSchema.openapi({ description: 'The reviewing party kind.' }),
    review_by_id: z.string(),
    review_by_name: z.string().nullable().openapi({ description: 'Display name of the reviewing shifter or business.' }),
    review_on: partyKindSchema.openapi({ description: 'The reviewed party kind.' }),
    review_on_id: z.string(),
    review_on_name: z.string().nullable(),
    shift_request_id: z.string().nullable().openapi({ description: 'The pinned worked shift; null on reviews without a pin.' }),
    rating: z.number().int().min(1).max(5),
    review_text: z.string().nullable(),
    response_text: z.string().nullable(),
    response_at: z.string().nullable(),
    dispute_status: z
      .enum(DISPUTE_STATUSES)
      .optional()
      .openapi({ description: 'Absent when there is no dispute. Upheld reviews are left out of every list and aggregate.' }),
    dispute_reason: z
      .string()
      .optional()
      .openapi({ description: 'Shown to the two parties (owners and active teammates) and admins only; absent for anyone else.' }),
    disputed_at: z.string().optional(),
    dispute_resolved_at: z.string().nullable().optional(),
    dispute_resolved_by_user_id: z.string().nullable().optional().openapi({ description: 'Shown to the two parties and admins only.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Review');
export type ReviewView = z.infer<typeof reviewSchema>;

export const reviewListSchema = z
  .object({ data: z.array(reviewSchema), next_cursor: z.string().nullable() })
  .openapi('ReviewList', { description: 'Newest first; upheld-dispute reviews left out.' });
export type ReviewList = z.infer<typeof reviewListSchema>;

export const ratingSchema = z
  .object({
    average: z.number().nullable().openapi({ description: 'Mean rating rounded half-up at 2 decimals; null without reviews.' }),
    count: z.number().int(),
  })
  .openapi('Ratings', { description: 'Over the reviews not removed by an upheld dispute.' });
export type Rating = z.infer<typeof ratingSchema>;

export const partyAverageSchema = z
  .object({ review_on: partyKindSchema, review_on_id: z.string(), average: ratingSchema.shape.average, count: z.number().int() })
  .openapi('ReviewAverage');
export type PartyAverage = z.infer<typeof partyAverageSchema>;

export const batchAveragesSchema = z.object({ data: z.array(partyAverageSchema) }).openapi('ReviewAverages');
export type BatchAverages = z.infer<typeof batchAveragesSchema>;

export const histogramSchema = partyAverageSchema
  .extend({
    histogram: z
      .array(z.object({ rating: z.number().int().min(1).max(5), count: z.number().int() }))
      .openapi({ description: 'Always five rows, ratings 1 to 5.' }),
  })
  .openapi('ReviewHistogram');
export type Histogram = z.infer<typeof histogramSchema>;

export const BUCKETS = ['day', 'week'] as const;
export const trendSchema = partyAverageSchema
  .extend({
    days: z.number().int(),
    bucket: z.enum(BUCKETS).openapi({ description: `day when days < ${TREND_DAILY_BELOW_DAYS}, else week (weeks start on Monday).` }),
    timezone: z.string().openapi({ description: "The reviewed party's time zone: bucket days are its calendar days." }),
    from: z.string().openapi({ description: 'First day of the window (YYYY-MM-DD).' }),
    to: z.string().openapi({ description: 'Last day of the window: today in the party zone.' }),
    buckets: z.array(
      z.object({
        start: z.string().openapi({ description: 'First day of the bucket (a Monday for weekly buckets).' }),
        end: z.string().openapi({ description: 'Last day of the bucket, inclusive.' }),
        average: z.number().nullable(),
        count: z.number().int(),
      }),
    ),
  })
  .openapi('ReviewTrend', { description: 'average/count on the top level are over the whole window.' });
export type Trend = z.infer<typeof trendSchema>;
