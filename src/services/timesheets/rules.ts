import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import type { LoadedTimesheet, TimesheetSide } from './load';
import type { TimesheetAction, TimesheetIssue } from './schemas';

/**
 * The timesheet's one rule of who may do what, when: every service checks an action with `refusal`
 * before it writes (its guarded update carries the same conditions), and the view's allowed_actions
 * and refusals come from it too, so no page, tool or route offers what the service refuses.
 *
 * - approve (business): a submitted timesheet with no open dispute; after an edit, once the worker's
 *   window to dispute it has closed.
 * - edit (business): a submitted timesheet with no open dispute. Approved or locked: never rewritten.
 * - dispute (worker): a submitted timesheet, within dispute_until, with no dispute open.
 * - resolve (business): an open dispute.
 */
export function refusal(l: LoadedTimesheet, action: TimesheetAction, who: TimesheetSide, now: number): AppError | null {
  const { ts } = l;
  const openDispute = l.dispute?.status === 'open';
  const wanted = action === 'dispute' ? 'shifter' : 'business';
  if (who.side !== wanted) {
    return new AppError(
      'FORBIDDEN-ERR',
      action === 'dispute' ? 'Only the worker disputes their timesheet.' : 'Only the business may do this.',
    );
  }
  if (action === 'resolve') {
    return openDispute ? null : new AppError('TIMESHEET-STATE-ERR', 'There is no open dispute to answer.');
  }
  if (ts.status === 'approved' || ts.status === 'locked') {
    return new AppError(
      'TIMESHEET-LOCKED-ERR',
      ts.status === 'locked' ? 'Its pay period is locked; a correction goes in the next period.' : 'It is approved and invoiced.',
    );
  }
  if (ts.status === 'open') return new AppError('TIMESHEET-STATE-ERR', 'The shift is still clocked in.');
  if (openDispute) {
    return new AppError('TIMESHEET-STATE-ERR', action === 'dispute' ? 'A dispute is already open.' : 'Answer the worker’s dispute first.');
  }
  if (action === 'dispute' && ts.dispute_until !== null && now > ts.dispute_until) {
    return new AppError('TIMESHEET-WINDOW-ERR', 'The time to dispute this timesheet has passed.', { closed_at: toIso(ts.dispute_until) });
  }
  if (action === 'approve' && ts.edited_at !== null && ts.dispute_until !== null && now <= ts.dispute_until && !l.dispute) {
    return new AppError('TIMESHEET-WINDOW-ERR', 'The worker may dispute your edit until then; it can be approved after.', {
      opens_at: toIso(ts.dispute_until + 1),
    });
  }
  return null;
}

/** What the caller may do now, and in words why each other action is refused. */
export function allowedActions(l: LoadedTimesheet, who: TimesheetSide, now: number) {
  const allowed: TimesheetAction[] = [];
  const refusals: Record<string, string> = {};
  for (const action of ['approve', 'edit', 'dispute', 'resolve'] as const) {
    const r = refusal(l, action, who, now);
    if (!r) allowed.push(action);
    else if (r.code !== 'FORBIDDEN-ERR') refusals[action] = r.message;
  }
  return { allowed, refusals };
}

/** A punch farther than this from the venue is worth a look (a soft geofence records it, never refuses it). */
const FAR_PUNCH_M = 500;

/** What a reviewer should look at before approving; a timesheet with none is safe to approve in bulk. */
export function timesheetIssues(l: LoadedTimesheet): TimesheetIssue[] {
  const { ts, shift } = l;
  const out: TimesheetIssue[] = [];
  if (l.dispute?.status === 'open') out.push('open_dispute');
  if (ts.left_early) out.push('left_early');
  const radius = shift.business.geofence_radius_m ?? FAR_PUNCH_M;
  const far = (d: number | null) => d !== null && d > Math.max(radius, FAR_PUNCH_M);
  if (far(shift.row.clock_in_distance_m) || far(shift.row.clock_out_distance_m)) out.push('far_punch');
  if (shift.row.clock_in_received_at !== null || shift.row.clock_out_received_at !== null) out.push('offline_punch');
  if (ts.edited_at !== null) out.push('edited');
  if (ts.break_attestation === 'short') out.push('breaks_short');
  return out;
}
