import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { dateSchema, postingWarningSchema, shiftRequestSchema } from '../shifts';

// Copy a week of the schedule (POST /v1/schedule/copy_week and its preview): the request and
// answer shapes. The rules are in copy-week.ts; docs/decisions/shift-templates.md "Copy a week".

/** The most shifts one copy makes; past it the rest are left for the next run (`over_limit`). */
export const COPY_WEEK_MAX_SHIFTS = 200;

/** How far from this week a target (ahead) or a source (either way) may lie: a year of weeks. */
export const COPY_WEEK_MAX_WEEKS = 52;

const weekField = (what: string, dflt: string) =>
  dateSchema.optional().openapi({
    example: '2027-01-04',
    description: `Any date of the week ${what} (weeks run Monday to Sunday in the business's time zone). Default: ${dflt}.`,
  });

export const copyWeekInput = z
  .object({
    business_id: z
      .string()
      .min(1)
      .max(ID_MAX_LENGTH)
      .optional()
      .openapi({ description: "The business whose schedule is copied; default: the caller's default business." }),
    source_week: weekField('to copy', 'the week before the target week'),
    target_week: weekField(
      'to fill',
      `next week. This week is allowed (its shifts whose start has passed are skipped); an earlier week, or one more than ${COPY_WEEK_MAX_WEEKS} weeks ahead, is refused`,
    ),
  })
  .openapi('CopyWeekInput');
export type CopyWeekInput = z.infer<typeof copyWeekInput>;

/** The same fields as a query string, for the preview (a GET). */
export const copyWeekQuery = z.object({
  business_id: copyWeekInput.shape.business_id.openapi({ param: { name: 'business_id', in: 'query' } }),
  source_week: copyWeekInput.shape.source_week.openapi({ param: { name: 'source_week', in: 'query' } }),
  target_week: copyWeekInput.shape.target_week.openapi({ param: { name: 'target_week', in: 'query' } }),
});

/**
 * Why a shift of the source week is not copied:
 * - `already_there`: a live shift (pending, accepted or worked) identical in date, times, role and
 *   person is already in the target week (as many as the source week has of it);
 * - `shifter_busy`: the targeted person already works then (an accepted shift overlapping it);
 * - `cancelled`, `declined`, `expired`: the source shift was not kept (only live ones are copied);
 * - `past`: its start in the target week has already passed;
 * - `not_connected`, `paused`: the person left the crew, or has paused requests;
 * - `refused`: posting it now is refused for another reason (a role no longer offered, a time a clock
 *   change removes), said in `message`;
 * - `over_limit`: past the most one run makes: running it again copies it.
 */
export const COPY_SKIP_REASONS = [
  'already_there',
  'shifter_busy',
  'cancelled',
  'declined',
  'expired',
  'past',
  'not_connected',
  'paused',
  'refused',
  'over_limit',
] as const;
export type CopySkipReason = (typeof COPY_SKIP_REASONS)[number];

/** A shift of the copy: the source shift moved to its day of the target week, on the same wall clock. */
const copiedShiftSchema = z.object({
  source_shift_request_id: z.string().openapi({ description: 'The shift of the source week it is copied from.' }),
  shift_date: z.string().openapi({ description: 'Its date in the target week (the same weekday).' }),
  shift_in: z.string(),
  shift_out: z.string(),
  starts_at: z.string().openapi({ description: "The real instant, in the business's zone (a DST week moves it, not the wall clock)." }),
  ends_at: z.string(),
  shiftrole_id: z.number().int(),
  role: z.string().nullable(),
  shifter_id: z.string().nullable(),
  shifter_name: z.string().nullable(),
  is_broadcast: z
    .number()
    .int()
    .openapi({ type: 'integer', enum: [0, 1], description: '1: open to the crew; 0: asked of shifter_id.' }),
  hourly_rate: z.number(),
  currency: z.string(),
  scheduled_pay: z.number().openapi({ description: 'Hours × rate of its real length, rounded once at the minor unit.' }),
});

const skippedShiftSchema = copiedShiftSchema
  .omit({ starts_at: true, ends_at: true, hourly_rate: true, scheduled_pay: true, currency: true })
  .extend({
    reason: z.enum(COPY_SKIP_REASONS).openapi({
      description:
        'already_there (a live shift identical in date, times, role and person is in the target week), shifter_busy (the person already works then), cancelled, declined or expired (the source shift was not kept), past (its start has passed), not_connected, paused, refused (see message), over_limit (past the most one run makes: run it again).',
    }),
    message: z.string().openapi({ description: 'Why, in words for a person.' }),
  });
export type CopiedShift = z.infer<typeof copiedShiftSchema>;
export type SkippedShift = z.infer<typeof skippedShiftSchema>;

const head = {
  business_id: z.string(),
  timezone: z.string().openapi({ description: "The business's zone: dates and times are wall-clock there." }),
  source_week_start: z.string().openapi({ description: 'The Monday of the week copied.' }),
  target_week_start: z.string().openapi({ description: 'The Monday of the week filled.' }),
  limit: z.number().int().openapi({ description: 'The most shifts one run makes.' }),
  skipped: z.array(skippedShiftSchema).openapi({ description: 'Shifts of the source week not copied, each with its reason; by start.' }),
  warnings: z.array(postingWarningSchema).openapi({
    description: 'What the poster should know, as send_request says it (empty_crew: the broadcasts reach nobody).',
  }),
};

/** GET /v1/schedule/copy_week/preview: what a copy would make and skip now, nothing written. */
export const copyWeekPreviewSchema = z
  .object({ ...head, would_create: z.array(copiedShiftSchema).openapi({ description: 'The shifts the copy would make, by start.' }) })
  .openapi('CopyWeekPreview');
export type CopyWeekPreview = z.infer<typeof copyWeekPreviewSchema>;

/** POST /v1/schedule/copy_week: what was made and what was skipped. */
export const copyWeekResultSchema = z
  .object({
    ...head,
    created: z
      .array(shiftRequestSchema)
      .openapi({ description: 'The shift requests made, by start: pending, as send_request makes them.' }),
  })
  .openapi('CopyWeekResult');
export type CopyWeekResult = z.infer<typeof copyWeekResultSchema>;
