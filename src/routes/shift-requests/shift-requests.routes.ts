import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '../../lib/errors';
import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { uploadGuard } from '../../lib/uploads';
import {
  cancelBody,
  cancelledShiftSchema,
  changedShiftSchema,
  changeRequestBody,
  CLOCK_PHOTO_MAX_BYTES,
  CLOCK_PHOTO_UNUSED_HOURS,
  clockBody,
  clockPhotoForm,
  clockPhotoParams,
  clockPhotoQuery,
  clockPhotoSchema,
  conflictsQuery,
  conflictsSchema,
  declineBody,
  listBroadcastsBody,
  listRequestsBody,
  MAX_CLOCK_PHOTOS_PER_SIDE,
  postedShiftSchema,
  sendRequestInput,
  shiftListSchema,
  shiftRequestSchema,
  unassignBody,
  unassignedShiftSchema,
} from '../../services/shifts';

const tags = ['Shift requests'];
const one = (d: string) => jsonContent(shiftRequestSchema, d);
const FINAL: ErrorCode[] = [
  'SHFT-COMPLETED-ERR',
  'SHFT-EXPIRED-ERR',
  'SHFT-DECLINED-ERR',
  'SHFT-SUPERSEDED-ERR',
  'SHFT-CANCELLED-ERR',
  'SHFT-STATE-ERR',
];

export const sendRequest = authRoute({
  method: 'post',
  operationId: 'sendShiftRequest',
  authorization: 'business-member',
  path: '/v1/shift_request/send_request',
  tags,
  summary: 'Post one shift: targeted to a connected shifter, or broadcast to the crew',
  description:
    'The shift is posted even when its poster should know something about it; `warnings` says what (empty when nothing): `shifter_busy` when the targeted shifter already has an accepted shift overlapping it (listed as GET /v1/shift_request/conflicts lists them), `empty_crew` for a broadcast of a business with no crew, which nobody is told of. See docs/decisions/shift-requests.md "Warnings when posting".',
  request: { body: jsonBody(sendRequestInput) },
  responses: { 201: jsonContent(postedShiftSchema, 'The created request (status 1, pending), with its warnings.') },
  errors: [
    'BUSINESS-NOT-FND-ERR',
    'SHFT-NOT-CONNECTED-ERR',
    'SHIFTER-PAUSED-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const listRequests = authRoute({
  method: 'post',
  operationId: 'listShiftRequests',
  authorization: 'party',
  path: '/v1/shift_request/list_of_requests',
  tags,
  summary: "The caller's shift requests (either side), newest first",
  request: { body: jsonBody(listRequestsBody) },
  responses: { 200: jsonContent(shiftListSchema, 'A page of requests.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const listBroadcasts = authRoute({
  method: 'post',
  operationId: 'listBroadcastRequests',
  authorization: 'party',
  path: '/v1/shift_request/list_of_broadcast_requests',
  tags,
  summary: 'Open broadcasts the caller may claim or manages; optionally ranked by relevance',
  description:
    'Newest first. With sort_by_relevance and shifter_id, best fit first with relevance_score (0–100) on each row, from role history, pay against the shifter’s usual rate (with at least 3 worked shifts in the currency over 90 days) or else the going rate of the city and role, distance, past shifts with the business, conflicts with accepted shifts and, for a shifter with fewer than 3 worked shifts, how soon the shift starts (see docs/decisions/shift-requests.md).',
  request: { body: jsonBody(listBroadcastsBody) },
  responses: { 200: jsonContent(shiftListSchema, 'A page of open broadcasts.') },
});

export const conflicts = authRoute({
  method: 'get',
  operationId: 'getShiftConflicts',
  authorization: 'party',
  path: '/v1/shift_request/conflicts',
  tags,
  summary: "The shifter's accepted shifts overlapping a window",
  description:
    'Half-open windows [in, out) on real instants; an overnight shift from the day before that runs into the window counts. The shifter and admins get every overlapping shift in `data`. A business (owner or active teammate) gets in `data` only the shifts at businesses it acts for; the shifter’s other overlapping shifts are listed in `busy` as bare windows (starts_at, ends_at), with nothing else of the other business.',
  request: { query: conflictsQuery },
  responses: {
    200: jsonContent(conflictsSchema, 'Overlapping accepted shifts.'),
  },
  errors: ['SHIFTER-NOT-FND-ERR', 'BUSINESS-NOT-FND-ERR'],
});

export const getOne = authRoute({
  method: 'get',
  operationId: 'getShiftRequest',
  authorization: 'party',
  path: '/v1/shift_request/{id}',
  tags,
  summary: 'One shift request (parties only)',
  request: { params: idParam },
  responses: { 200: one('The request.') },
  errors: ['SHFT-NOT-FND-ERR'],
});

const transition = <P extends string>(
  path: P,
  operationId: string,
  authorization: 'shifter' | 'business-member',
  summary: string,
  errors: ErrorCode[],
) =>
  authRoute({
    method: 'post',
    operationId,
    authorization,
    path: `/v1/shift_request/{id}/${path}`,
    tags,
    summary,
    request: { params: idParam },
    responses: { 200: one('The request after the change.') },
    errors: ['SHFT-NOT-FND-ERR', ...errors],
  });

export const accept = transition(
  'accept',
  'acceptShiftRequest',
  'shifter',
  'The targeted shifter accepts (pending → accepted); on a broadcast, claims it',
  [...FINAL, 'SHFT-CONFLICT-ERR', 'CLAIM-LOST-ERR', 'SHFT-OWN-BUSINESS-ERR'],
);
export const decline = authRoute({
  method: 'post',
  operationId: 'declineShiftRequest',
  authorization: 'shifter',
  path: '/v1/shift_request/{id}/decline',
  tags,
  summary: 'The targeted shifter declines (pending → declined)',
  request: { params: idParam, body: { ...jsonBody(declineBody), required: false } },
  responses: { 200: one('The request after the change.') },
  errors: ['SHFT-NOT-FND-ERR', ...FINAL],
});
export const claim = transition('claim', 'claimShiftRequest', 'shifter', 'Claim an open broadcast: the first claim wins', [
  ...FINAL,
  'CLAIM-LOST-ERR',
  'SHFT-CONFLICT-ERR',
  'SHFT-OWN-BUSINESS-ERR',
]);
export const noShow = transition(
  'no_show',
  'markShiftNoShow',
  'business-member',
  'The business marks an accepted shift as a no-show after its start',
  FINAL,
);

export const cancel = authRoute({
  method: 'post',
  operationId: 'cancelShiftRequest',
  authorization: 'party',
  path: '/v1/shift_request/{id}/cancel',
  tags,
  summary: 'Cancel (either party); a shifter cancel may re-broadcast the shift (auto-fill)',
  request: { params: idParam, body: jsonBody(cancelBody) },
  responses: {
    200: jsonContent(cancelledShiftSchema, 'Cancelled (status 7); the id of the re-broadcast when auto-fill ran.'),
  },
  errors: ['SHFT-NOT-FND-ERR', ...FINAL, 'SHFT-WORKED-ERR', 'SHFT-STARTED-ERR'],
});

export const unassign = authRoute({
  method: 'post',
  operationId: 'unassignShiftRequest',
  authorization: 'business-member',
  path: '/v1/shift_request/{id}/unassign',
  tags,
  summary: 'The business takes the shifter off an accepted targeted shift: it is cancelled and goes out to the crew as an open broadcast',
  description:
    'The business side only (owner, active teammate, admin); the shifter gets 403, anyone else 404. Only an accepted targeted shift that is not clocked in, not a no-show and whose start is still ahead; any other state is 409 (the codes below). In one write the assignment becomes cancelled (7, cancelled_by business, the shifter notified) and the same shift (date, times, role, rate, note) is posted to the crew as an open broadcast whose parent_id is the cancelled row (the crew notified, except the shifter taken off). A pre-paid assignment is refunded in full. Idempotent with an Idempotency-Key. See docs/decisions/shift-requests.md "Unassign".',
  request: { params: idParam, body: { ...jsonBody(unassignBody), required: false } },
  responses: {
    200: jsonContent(unassignedShiftSchema, 'The cancelled assignment and the open broadcast that replaces it.'),
  },
  errors: ['SHFT-NOT-FND-ERR', ...FINAL, 'SHFT-WORKED-ERR', 'SHFT-STARTED-ERR', 'CONFLICT-ERR'],
});

export const changeRequest = authRoute({
  method: 'put',
  operationId: 'changeShiftRequest',
  authorization: 'business-member',
  path: '/v1/shift_request/change_request',
  tags,
  summary: 'Change a pending request: the original becomes superseded (4) and a pending child replaces it',
  description:
    'The child carries `warnings` as send_request answers them: `shifter_busy` when the targeted shifter already has an accepted shift overlapping the new times, `empty_crew` for a broadcast of a business with no crew.',
  request: { body: jsonBody(changeRequestBody) },
  responses: {
    201: jsonContent(changedShiftSchema, 'The superseded original and its pending child.'),
  },
  errors: ['SHFT-NOT-FND-ERR', ...FINAL, 'SHFT-NOT-CONNECTED-ERR', 'SHIFTER-PAUSED-ERR'],
});

const clockRoute = <P extends 'clock_in' | 'clock_out'>(
  path: P,
  operationId: 'clockIn' | 'clockOut',
  summary: string,
  errors: ErrorCode[],
) =>
  authRoute({
    method: 'post',
    operationId,
    authorization: 'party',
    path: `/v1/shift_request/{id}/${path}`,
    tags,
    summary,
    description:
      'Idempotent: repeating it returns the stored result. The shifter calls it; or the business as a kiosk passing the shifter id as actor_id (the punch is the shifter’s); or the business (owner, active teammate, admin) acting as itself on the shifter’s behalf (the punch is the manager’s, and im_here is refused). Clock-in opens 60 minutes before the scheduled start and closes at the scheduled end. Clock-out comes at least 1 minute after the clock-in; the shifter or a kiosk may clock out from 15 minutes before the scheduled end, the business acting as itself at any time (an early end). photo_url must name a photo clock_photo stored for this shift and side. Every body field is optional; a client that sends none keeps working without geofence enforcement.',
    request: { params: idParam, body: { ...jsonBody(clockBody), required: false } },
    responses: { 200: one('The shift with its clock record.') },
    errors: ['SHFT-NOT-FND-ERR', ...FINAL, 'SHFT-PHOTO-REQ-ERR', ...errors],
  });

export const clockIn = clockRoute('clock_in', 'clockIn', 'Clock in (shift start)', ['GEOFENCE-ERR', 'SHFT-CLOCK-WINDOW-ERR']);
export const clockOut = clockRoute('clock_out', 'clockOut', 'Clock out (shift end): the shift is then worked', ['SHFT-CLOCK-WINDOW-ERR']);

export const clockPhoto = authRoute({
  method: 'post',
  operationId: 'uploadClockPhoto',
  authorization: 'party',
  path: '/v1/shift_request/{id}/clock_photo',
  tags,
  summary: `Upload a clock photo (multipart field "file"; JPEG, PNG, GIF, WebP or HEIC; at most 8 MB; at most ${MAX_CLOCK_PHOTOS_PER_SIDE} per shift and side)`,
  description: `A photo no punch uses within ${CLOCK_PHOTO_UNUSED_HOURS} hours of its upload is removed; the one a clock_in or clock_out used stays with the shift.`,
  request: {
    params: idParam,
    query: clockPhotoQuery,
    body: { required: true, content: { 'multipart/form-data': { schema: clockPhotoForm } } },
  },
  middleware: [uploadGuard(CLOCK_PHOTO_MAX_BYTES, 'clock photo')],
  responses: {
    201: jsonContent(clockPhotoSchema, 'Pass url back as photo_url to clock_in/clock_out.'),
  },
  errors: [
    'SHFT-NOT-FND-ERR',
    ...FINAL,
    'CLOCK-PHOTO-LIMIT-ERR',
    'PAYLOAD-TOO-LARGE-ERR',
    'UNSUPPORTED-MEDIA-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const readClockPhoto = authRoute({
  method: 'get',
  operationId: 'getClockPhoto',
  authorization: 'party',
  path: '/v1/uploads/clock-photos/{shift_request_id}/{side}/{file}',
  tags,
  summary: 'A clock photo (parties of the shift only)',
  request: { params: clockPhotoParams },
  responses: {
    200: { description: 'The image.', content: { 'image/*': { schema: z.any().openapi({ type: 'string', format: 'binary' }) } } },
  },
  errors: ['SHFT-NOT-FND-ERR', 'UPLOAD-NOT-FND-ERR'],
});
