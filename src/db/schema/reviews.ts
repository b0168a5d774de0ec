import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { shiftRequests } from './shifts';
import { users } from './users';

export const PARTY_KINDS = ['shifter', 'business'] as const;
export const DISPUTE_STATUSES = ['pending', 'upheld', 'rejected'] as const;

/**
 * A party's review of the other party of a shift between them (spec 2.9). `review_by`/`review_by_id`
 * is the reviewing party, `review_on`/`review_on_id` the reviewed one. New reviews may pin one worked
 * shift (`shift_request_id`); older rows have it null. Every review counts against one worked shift of
 * the pair (`counted_shift_id`: the pinned one, or one the service chose for an unpinned review), and a
 * reviewing party has at most one review per worked shift: the unique index
 * `reviews_one_per_worked_shift` refuses a second, whatever wins a race (docs/decisions/reviews.md).
 * A review whose dispute was upheld is left out of every list and aggregate.
 */
export const reviews = sqliteTable(
  'reviews',
  {
    id: text('id').primaryKey(), // rev_…
    /** The person who wrote it (the reviewing party's owner or teammate). */
    reviewer_user_id: text('reviewer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    review_by: text('review_by', { enum: PARTY_KINDS }).notNull(),
    review_by_id: text('review_by_id').notNull(),
    review_on: text('review_on', { enum: PARTY_KINDS }).notNull(),
    review_on_id: text('review_on_id').notNull(),
    shift_request_id: text('shift_request_id').references(() => shiftRequests.id, { onDelete: 'set null' }),
    /** The worked shift this review counts against (null only on rows older than the rule that had no shift left). */
    counted_shift_id: text('counted_shift_id').references(() => shiftRequests.id, { onDelete: 'set null' }),
    rating: integer('rating').notNull(), // 1–5
    review_text: text('review_text'),
    response_text: text('response_text'),
    response_at: integer('response_at'),
    dispute_status: text('dispute_status', { enum: DISPUTE_STATUSES }),
    dispute_reason: text('dispute_reason'),
    disputed_at: integer('disputed_at'),
    dispute_resolved_at: integer('dispute_resolved_at'),
    dispute_resolved_by_user_id: text('dispute_resolved_by_user_id'),
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    index('reviews_on_idx').on(t.review_on, t.review_on_id, t.created_at),
    index('reviews_by_idx').on(t.review_by, t.review_by_id),
    index('reviews_dispute_idx').on(t.dispute_status, t.disputed_at),
    uniqueIndex('reviews_one_per_pinned_shift')
      .on(t.shift_request_id, t.review_by, t.review_by_id)
      .where(sql`shift_request_id IS NOT NULL`),
    uniqueIndex('reviews_one_per_worked_shift')
      .on(t.review_by, t.review_by_id, t.counted_shift_id)
      .where(sql`counted_shift_id IS NOT NULL`),
  ],
);
