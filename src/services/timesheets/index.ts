/**
 * Timesheets: what sits between the punch and the pay (docs/decisions/timesheets.md). Opened by the
 * clock-in and submitted by the clock-out (in their own batches), approved by the business or
 * automatically, edited with a reason, disputed by the worker; only approved time is invoiced and paid.
 */
export { approvalRefusal, approveTimesheet, hoursWords } from './approve';
export { disputeTimesheet, editTimesheet, resolveDispute } from './changes';
export { getTimesheet, listBusinessTimesheets, listShifterTimesheets, sweepTimesheets } from './list';
export { type LoadedTimesheet, timesheetOfShift } from './load';
export {
  autoApproveAt,
  CONSENT_EDIT_MINUTES,
  MAX_BREAKS,
  paidMinutes,
  periodLockAt,
  periodStartOf,
  policyOf,
  ROUNDING_CHOICES,
  roundToNearest,
  TIMESHEET_WINDOWS,
} from './policy';
export { checkBreaks, timesheetOnClockIn, timesheetOnClockOut } from './punches';
export {
  BREAK_ATTESTATIONS,
  clockOutTimesheetFields,
  disputeTimesheetInput,
  EDIT_REASONS,
  editTimesheetInput,
  listTimesheetsQuery,
  resolveDisputeInput,
  TIMESHEET_ACTIONS,
  TIMESHEET_ISSUES,
  TIMESHEET_STATUSES,
  timesheetIdParams,
  timesheetListSchema,
  timesheetSchema,
  type TimesheetView,
} from './schemas';
