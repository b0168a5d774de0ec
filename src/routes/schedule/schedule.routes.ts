import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { COPY_WEEK_MAX_SHIFTS, copyWeekInput, copyWeekPreviewSchema, copyWeekQuery, copyWeekResultSchema } from '../../services/templates';

const tags = ['Schedule'];

const copyErrors = ['VALIDATION-ERR', 'BUSINESS-NOT-FND-ERR'] as const;

export const copyWeekPreview = authRoute({
  method: 'get',
  operationId: 'previewCopyWeek',
  authorization: 'business-member',
  path: '/v1/schedule/copy_week/preview',
  tags,
  summary: 'What copying a week of the schedule would make and skip now, writing nothing',
  description: `The same plan as copy_week, read now: each shift of the source week moved to the same weekday of the target week on the same wall clock, as it would be made (pending, as send_request makes it), and each shift it would skip with its reason and words. At most ${COPY_WEEK_MAX_SHIFTS} are made in one run; the rest are skipped as \`over_limit\` and made by the next run. The owner or an active teammate.`,
  request: { query: copyWeekQuery },
  responses: { 200: jsonContent(copyWeekPreviewSchema, 'What copy_week would do.') },
  errors: [...copyErrors],
});

export const copyWeek = authRoute({
  method: 'post',
  operationId: 'copyWeek',
  authorization: 'business-member',
  path: '/v1/schedule/copy_week',
  tags,
  summary: "Copy a week of the business's schedule into another week",
  description: `Makes the shifts the preview lists, in one batch: every shift of the source week (Monday to Sunday in the business's time zone; default the week before the target) on the same weekday and wall-clock times of the target week (default next week; this week or later), the same role, rate, note and person (a targeted shift is asked of its shifter again; a broadcast goes to the crew again). Skipped, each with its reason: shifts that were cancelled, declined or expired; a live shift identical in date, times, role and person already there (so running it again makes nothing); a start already past; a person who left the crew, paused requests or already works then; at most ${COPY_WEEK_MAX_SHIFTS} made per run. Safe to retry: the same Idempotency-Key replays the answer, and a second run makes nothing twice. 201 when something was made, else 200.`,
  request: { body: jsonBody(copyWeekInput) },
  responses: {
    201: jsonContent(copyWeekResultSchema, 'Shifts were made.'),
    200: jsonContent(copyWeekResultSchema, 'Nothing new to make.'),
  },
  errors: [...copyErrors, 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});
