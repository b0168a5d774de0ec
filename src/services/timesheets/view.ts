import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import { seesPay } from '../access';
import type { LoadedTimesheet, TimesheetSide } from './load';
import { paidMinutes, parseBreaks, periodStartOf, roundToNearest, timesheetPayMinor } from './policy';
import { allowedActions, timesheetIssues } from './rules';
import type { EditReason, TimesheetView } from './schemas';

/** The minutes and pay the timesheet counts now (fixed at approval: the stored figures then). */
export function countedNow(l: LoadedTimesheet): { minutes: number | null; payMinor: number | null } {
  const { ts, shift } = l;
  if (ts.paid_minutes !== null && ts.pay_minor !== null) return { minutes: ts.paid_minutes, payMinor: ts.pay_minor };
  if (ts.out_at === null) return { minutes: null, payMinor: null };
  const minutes = paidMinutes(
    { in_at: ts.in_at, out_at: ts.out_at, unpaid_break_minutes: ts.unpaid_break_minutes },
    shift.business.timesheet_rounding_minutes,
  );
  return { minutes, payMinor: timesheetPayMinor(minutes, shift.row.hourly_rate_minor) };
}

/** A timesheet as its caller sees it: pay only for those who see the business's pay (the worker sees their own). */
export function timesheetView(l: LoadedTimesheet, who: TimesheetSide, now: number): TimesheetView {
  const { ts, shift, dispute } = l;
  const row = shift.row;
  const rounding = shift.business.timesheet_rounding_minutes;
  const pay = who.side === 'shifter' || seesPay(who.role);
  const counted = countedNow(l);
  const { allowed, refusals } = allowedActions(l, who, now);
  return {
    id: ts.id,
    shift_request_id: ts.shift_request_id,
    business_id: ts.business_id,
    business_name: shift.business.name,
    shifter_id: ts.shifter_id,
    shifter_name: shift.shifter?.display_name ?? null,
    role: shift.roleLabel,
    status: ts.status,
    period_start: periodStartOf(row.shift_date),
    scheduled_start_at: toIso(row.starts_at),
    scheduled_end_at: toIso(row.ends_at),
    punched_in_at: toIso(row.shift_start_at ?? ts.in_at),
    punched_out_at: toIso(row.shift_end_at),
    clock_in_distance_m: row.clock_in_distance_m,
    clock_out_distance_m: row.clock_out_distance_m,
    clock_in_offline: row.clock_in_received_at !== null,
    clock_out_offline: row.clock_out_received_at !== null,
    clock_in_photo_url: row.clock_in_photo_url,
    clock_out_photo_url: row.clock_out_photo_url,
    in_at: toIso(ts.in_at),
    out_at: toIso(ts.out_at),
    rounded_in_at: toIso(roundToNearest(ts.in_at, rounding)),
    rounded_out_at: ts.out_at === null ? null : toIso(roundToNearest(ts.out_at, rounding)),
    rounding_minutes: rounding,
    breaks: parseBreaks(ts.breaks).map((b) => ({ start_at: toIso(b.start_at), end_at: toIso(b.end_at), paid: b.paid })),
    unpaid_break_minutes: ts.unpaid_break_minutes,
    break_attestation: ts.break_attestation,
    worker_note: ts.worker_note,
    left_early: ts.left_early,
    worked_minutes: counted.minutes,
    hourly_rate: pay ? fromMinor(row.hourly_rate_minor, row.currency) : null,
    pay: pay && counted.payMinor !== null ? fromMinor(counted.payMinor, row.currency) : null,
    currency: row.currency,
    edit:
      ts.edited_at !== null && ts.edit_reason !== null
        ? { reason: ts.edit_reason as EditReason, note: ts.edit_note, edited_at: toIso(ts.edited_at) }
        : null,
    dispute: dispute
      ? {
          id: dispute.id,
          status: dispute.status,
          proposed_in_at: toIso(dispute.proposed_in_at),
          proposed_out_at: toIso(dispute.proposed_out_at),
          proposed_unpaid_break_minutes: dispute.proposed_unpaid_break_minutes,
          reason: dispute.reason,
          answer_due_at: toIso(dispute.answer_due_at),
          answer_note: dispute.answer_note,
          answered_at: toIso(dispute.answered_at),
          created_at: toIso(dispute.created_at),
        }
      : null,
    dispute_until: toIso(ts.dispute_until),
    submitted_at: toIso(ts.submitted_at),
    auto_approve_at: toIso(ts.auto_approve_at),
    approved_at: toIso(ts.approved_at),
    approved_how: ts.approved_how,
    allowed_actions: allowed,
    refusals,
    issues: timesheetIssues(l),
  };
}
