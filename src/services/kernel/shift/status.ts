import { and, type Column, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { shiftRequests, timesheets } from '../../../db/schema';

/** request_status values (DECISIONS.md "Shift request status values"). */
export const SHIFT_STATUS = {
  pending: 1,
  accepted: 2,
  declined: 3,
  superseded: 4,
  completed: 5,
  expired: 6,
  cancelled: 7,
} as const;
export type ShiftStatusName = keyof typeof SHIFT_STATUS;
export type ShiftStatus = (typeof SHIFT_STATUS)[ShiftStatusName];
export const SHIFT_STATUS_NAMES = Object.keys(SHIFT_STATUS) as [ShiftStatusName, ...ShiftStatusName[]];

/**
 * A row's request_status (a plain integer column) as a known status and its name. A value outside
 * the table is a broken row, not something to show: it throws (a logged 500).
 */
export function readStatus(value: number): { value: ShiftStatus; name: ShiftStatusName } {
  for (const name of SHIFT_STATUS_NAMES) if (SHIFT_STATUS[name] === value) return { value: SHIFT_STATUS[name], name };
  throw new Error(`request_status ${value} is not a known status`);
}

/**
 * The one "worked" predicate: status 2 or 5, shift_end_at set, not a no-show. Earnings, labor costs,
 * crew analytics, invoices, going rate and shift-pinned reviews all use this and nothing else.
 */
export function workedShiftSql(): SQL {
  return and(
    inArray(shiftRequests.request_status, [SHIFT_STATUS.accepted, SHIFT_STATUS.completed]),
    isNotNull(shiftRequests.shift_end_at),
    eq(shiftRequests.is_noshow, false),
  )!;
}

export function isWorked(row: { request_status: number; shift_end_at: number | null; is_noshow: boolean }): boolean {
  return (
    (row.request_status === SHIFT_STATUS.accepted || row.request_status === SHIFT_STATUS.completed) &&
    row.shift_end_at !== null &&
    !row.is_noshow
  );
}

/**
 * True (in SQL) when the shift's time is approved: its timesheet is approved or locked
 * (services/timesheets). Only approved time is paid out (payments/payouts.ts).
 */
export function timeApprovedSql(shiftRequestId: Column | string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${timesheets} WHERE ${timesheets.shift_request_id} = ${shiftRequestId} AND ${timesheets.status} IN ('approved', 'locked'))`;
}
