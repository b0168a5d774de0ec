import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import {
  CONSENT_EDIT_MINUTES,
  disputeTimesheetInput,
  editTimesheetInput,
  listTimesheetsQuery,
  resolveDisputeInput,
  timesheetIdParams,
  timesheetListSchema,
  timesheetSchema,
} from '../../services/timesheets';

const tags = ['Timesheets'];

const STATES =
  'States: open (clocked in) → submitted (clocked out) → approved (by the business, automatically at its deadline, or by a dispute left unanswered; its invoice is made then) → locked (its pay period closed). Only approved time is invoiced and paid out.';

export const listBusinessTimesheets = authRoute({
  method: 'get',
  operationId: 'listBusinessTimesheets',
  authorization: 'business-member',
  path: '/v1/business/{id}/timesheets',
  tags,
  summary: "A business's timesheets, newest first, by pay period and status",
  description: `${STATES} The owner, an active teammate or an admin; pay (hourly_rate, pay) only for the owner and admins. Each row carries allowed_actions, the refusals of the others in words, and issues: what to look at before approving (none: safe to approve in bulk).`,
  request: { params: idParam, query: listTimesheetsQuery },
  responses: { 200: jsonContent(timesheetListSchema, 'A page of timesheets.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const listShifterTimesheets = authRoute({
  method: 'get',
  operationId: 'listShifterTimesheets',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/timesheets',
  tags,
  summary: "A worker's own timesheets, newest first, with the business's answers",
  description: `${STATES} The worker (or an admin).`,
  request: { params: idParam, query: listTimesheetsQuery },
  responses: { 200: jsonContent(timesheetListSchema, 'A page of timesheets.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'FORBIDDEN-ERR'],
});

export const getTimesheet = authRoute({
  method: 'get',
  operationId: 'getTimesheet',
  authorization: 'party',
  path: '/v1/timesheets/{id}',
  tags,
  summary: 'One timesheet: the punches as made, the counted times, breaks, edits, the dispute, and what the caller may do',
  request: { params: timesheetIdParams },
  responses: { 200: jsonContent(timesheetSchema, 'The timesheet.') },
  errors: ['TIMESHEET-NOT-FND-ERR'],
});

export const approveTimesheet = authRoute({
  method: 'put',
  operationId: 'approveTimesheet',
  authorization: 'business-member',
  path: '/v1/timesheets/{id}/approve',
  tags,
  summary: 'Approve a submitted timesheet: its invoice is made for the approved time',
  description:
    'The business (owner, active teammate or admin). The paid minutes are the rounded out − rounded in (the business’s rounding), less unpaid breaks; the invoice is those minutes × the rate, rounded half up once. Refused while a dispute is open (TIMESHEET-STATE-ERR), and after an edit while the worker may still dispute it (TIMESHEET-WINDOW-ERR, details.opens_at). Repeating it on an approved timesheet answers it as it stands.',
  request: { params: timesheetIdParams },
  responses: { 200: jsonContent(timesheetSchema, 'The approved timesheet.') },
  errors: ['TIMESHEET-NOT-FND-ERR', 'FORBIDDEN-ERR', 'TIMESHEET-STATE-ERR', 'TIMESHEET-WINDOW-ERR'],
});

export const editTimesheet = authRoute({
  method: 'put',
  operationId: 'editTimesheet',
  authorization: 'business-member',
  path: '/v1/timesheets/{id}/edit',
  tags,
  summary: 'Correct a submitted timesheet’s times or breaks, with a reason code',
  description: `The business, with reason missed_punch, break_correction, sent_home, early_release, stayed_late, no_show or other (with a note). The punches themselves are kept as made. A move of either end by more than ${CONSENT_EDIT_MINUTES} minutes needs the worker’s consent (TIMESHEET-CONSENT-ERR). The worker is told and may dispute it within the business’s dispute window; approval waits for that window. An approved or locked timesheet is never rewritten (TIMESHEET-LOCKED-ERR).`,
  request: { params: timesheetIdParams, body: jsonBody(editTimesheetInput) },
  responses: { 200: jsonContent(timesheetSchema, 'The edited timesheet.') },
  errors: ['TIMESHEET-NOT-FND-ERR', 'FORBIDDEN-ERR', 'TIMESHEET-STATE-ERR', 'TIMESHEET-LOCKED-ERR', 'TIMESHEET-CONSENT-ERR'],
});

export const disputeTimesheet = authRoute({
  method: 'post',
  operationId: 'disputeTimesheet',
  authorization: 'party',
  path: '/v1/timesheets/{id}/dispute',
  tags,
  summary: 'The worker disputes a submitted timesheet, proposing the times they say are right',
  description:
    'The worker, within dispute_until (12 hours after the submission or the last edit by default). The business answers by answer_due_at (72 hours by default); unanswered, the dispute resolves for the worker: their times are approved and invoiced.',
  request: { params: timesheetIdParams, body: jsonBody(disputeTimesheetInput) },
  responses: { 201: jsonContent(timesheetSchema, 'The timesheet with its open dispute.') },
  errors: ['TIMESHEET-NOT-FND-ERR', 'FORBIDDEN-ERR', 'TIMESHEET-STATE-ERR', 'TIMESHEET-LOCKED-ERR', 'TIMESHEET-WINDOW-ERR'],
});

export const resolveTimesheetDispute = authRoute({
  method: 'put',
  operationId: 'resolveTimesheetDispute',
  authorization: 'business-member',
  path: '/v1/timesheets/{id}/dispute/resolve',
  tags,
  summary: 'Answer an open dispute: accept the worker’s times (approving them) or reject it with a reason',
  request: { params: timesheetIdParams, body: jsonBody(resolveDisputeInput) },
  responses: { 200: jsonContent(timesheetSchema, 'The timesheet with the answered dispute.') },
  errors: ['TIMESHEET-NOT-FND-ERR', 'FORBIDDEN-ERR', 'TIMESHEET-STATE-ERR'],
});
