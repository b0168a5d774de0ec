import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { timesheets } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { ShiftRow } from '../kernel';
import type { TimesheetRow } from './load';
import { autoApproveAt, type BreakEntry, disputeUntil, type TimesheetPolicy, unpaidMinutesOf } from './policy';
import type { BreakInput } from './schemas';

/*
 * What the clock writes into a timesheet, in the punch's own batch (each statement conditional on the
 * punch's guard having applied): the clock-in opens it, the clock-out submits it with the attested
 * breaks. The punch itself stays on the shift request, never changed.
 */

const MINUTE = 60_000;

function openRow(shift: Pick<ShiftRow, 'id' | 'business_id' | 'shifter_id'>, inAt: number, now: number): TimesheetRow {
  return {
    id: newId('timesheet'),
    shift_request_id: shift.id,
    business_id: shift.business_id,
    shifter_id: shift.shifter_id!,
    status: 'open',
    in_at: inAt,
    out_at: null,
    breaks: '[]',
    unpaid_break_minutes: 0,
    break_attestation: null,
    worker_note: null,
    left_early: false,
    edit_reason: null,
    edit_note: null,
    edited_at: null,
    edited_by_user_id: null,
    dispute_until: null,
    submitted_at: null,
    auto_approve_at: null,
    approved_at: null,
    approved_how: null,
    approved_by_user_id: null,
    paid_minutes: null,
    pay_minor: null,
    last_op_id: null,
    created_at: now,
    updated_at: now,
  };
}

/** The clock-in's statement: the shift's timesheet, open from the punch (one per shift). */
export function timesheetOnClockIn(
  db: Db,
  shift: Pick<ShiftRow, 'id' | 'business_id' | 'shifter_id'>,
  inAt: number,
  now: number,
  applied: SQL,
) {
  return insertWhere(db, timesheets, openRow(shift, inAt, now), applied).onConflictDoNothing({ target: timesheets.shift_request_id });
}

/**
 * Breaks as given at clock-out or in an edit, checked against the clocked span: each inside it, none
 * overlapping another, the unpaid ones shorter than the span. 400 VALIDATION-ERR on `breaks` otherwise.
 */
export function checkBreaks(breaks: readonly BreakInput[] | undefined, inAt: number, outAt: number): BreakEntry[] {
  const list = (breaks ?? [])
    .map((b) => ({ start_at: Date.parse(b.start), end_at: Date.parse(b.end), paid: b.paid ?? false }))
    .sort((a, b) => a.start_at - b.start_at);
  const bad = (message: string) => new AppError('VALIDATION-ERR', `breaks: ${message}`, [{ field: 'breaks', message }]);
  list.forEach((b, i) => {
    if (b.start_at < inAt - MINUTE || b.end_at > outAt + MINUTE) throw bad('each break falls inside the clocked time');
    const prev = list[i - 1];
    if (prev && b.start_at < prev.end_at) throw bad('breaks overlap');
  });
  if (unpaidMinutesOf(list) * MINUTE >= outAt - inAt && list.some((b) => !b.paid)) throw bad('unpaid breaks cannot fill the whole shift');
  return list;
}

export interface ClockOutTimesheet {
  shift: Pick<ShiftRow, 'id' | 'business_id' | 'shifter_id' | 'ends_at' | 'shift_date'>;
  inAt: number;
  outAt: number;
  breaks: BreakEntry[];
  attestation: 'taken' | 'short' | 'waived' | undefined;
  note: string | undefined;
  policy: TimesheetPolicy;
  now: number;
}

/**
 * The clock-out's statements: the timesheet (made now if the clock-in predates timesheets) is
 * submitted with its out time, breaks, attestation and note, whether it ended early, the worker's
 * window to dispute and when it approves itself if nobody answers.
 */
export function timesheetOnClockOut(db: Db, c: ClockOutTimesheet, applied: SQL) {
  return [
    timesheetOnClockIn(db, c.shift, c.inAt, c.now, applied),
    db
      .update(timesheets)
      .set({
        status: 'submitted',
        out_at: c.outAt,
        breaks: JSON.stringify(c.breaks),
        unpaid_break_minutes: unpaidMinutesOf(c.breaks),
        break_attestation: c.attestation ?? (c.breaks.length ? 'taken' : null),
        worker_note: c.note || null,
        left_early: c.outAt < c.shift.ends_at,
        submitted_at: c.now,
        dispute_until: disputeUntil(c.policy, c.now),
        auto_approve_at: autoApproveAt(c.policy, c.shift.shift_date, c.now),
        updated_at: c.now,
      })
      .where(and(eq(timesheets.shift_request_id, c.shift.id), eq(timesheets.status, 'open'), applied)),
  ];
}
