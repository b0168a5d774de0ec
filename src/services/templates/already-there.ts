import { type SQL, sql } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { SHIFT_STATUS } from '../kernel';

/**
 * "Already there", the rule template generate and copy week share (docs/decisions/shift-templates.md):
 * a LIVE shift request of the business on the date (pending, accepted or worked; a declined,
 * cancelled, expired or superseded one never counts) identical in time, role and person (the same
 * shifter for a targeted shift, a broadcast for a broadcast one).
 */
export const LIVE_STATUSES = [SHIFT_STATUS.pending, SHIFT_STATUS.accepted, SHIFT_STATUS.completed] as const;

export interface SameShift {
  businessId: string;
  shiftIn: string;
  shiftOut: string;
  roleId: number;
  /** The shifter of a targeted shift, or null for a broadcast. */
  shifterId: string | null;
}

/** A live shift request of the business on `date`. */
export function liveOnDateSql(businessId: string, date: string | SQL): SQL {
  return sql`${shiftRequests.business_id} = ${businessId} AND ${shiftRequests.shift_date} = ${date} AND ${shiftRequests.request_status} IN (${sql.join(
    LIVE_STATUSES.map((v) => sql.raw(String(v))),
    sql`, `,
  )})`;
}

/** …identical in time, role and person to `s` (with liveOnDateSql: the same shift). */
export function sameShiftSql(s: SameShift): SQL {
  const person = s.shifterId ? sql`${shiftRequests.shifter_id} = ${s.shifterId}` : sql`${shiftRequests.is_broadcast} = 1`;
  return sql`${shiftRequests.shift_in} = ${s.shiftIn} AND ${shiftRequests.shift_out} = ${s.shiftOut} AND ${shiftRequests.shiftrole_id} = ${s.roleId} AND ${person}`;
}

/** How many live shifts identical to `s` the business has on `date`, as a scalar subquery. */
export function sameShiftCountSql(s: SameShift, date: string): SQL {
  return sql`(SELECT COUNT(*) FROM ${shiftRequests} WHERE ${liveOnDateSql(s.businessId, date)} AND ${sameShiftSql(s)})`;
}

/** The key copy week groups identical shifts by: date, times, role and person. */
export function sameShiftKey(date: string, s: Omit<SameShift, 'businessId'>): string {
  return [date, s.shiftIn, s.shiftOut, s.roleId, s.shifterId ?? 'broadcast'].join('|');
}
