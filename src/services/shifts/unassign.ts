import { eq, gt } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { pickSide, shiftParty } from '../access';
import { committedSubject, isWorked, type ServiceContext, SHIFT_STATUS, type ShiftRow, stateError } from '../kernel';
import { commitCancellation, rebroadcastOf } from './cancel';
import { loadShift, loadView, viewLoaded } from './load';
import type { UnassignedShift, UnassignInput } from './schemas';

/**
 * Why the business may not unassign this shift now, or null (docs/decisions/shift-requests.md,
 * "Unassign"): only an accepted targeted shift, not clocked in, not a no-show, whose start is still
 * ahead (the open broadcast it becomes must be claimable). The service and the shift page both ask it.
 */
export function unassignRefusal(row: ShiftRow, nowMs: number): AppError | null {
  if (row.request_status === SHIFT_STATUS.pending) {
    return new AppError('SHFT-STATE-ERR', 'Only an accepted shift is unassigned; a request still waiting is changed or cancelled.');
  }
  if (row.request_status !== SHIFT_STATUS.accepted) return stateError(row, 'accepted');
  if (isWorked(row)) return new AppError('SHFT-WORKED-ERR');
  if (row.shift_start_at !== null) return new AppError('SHFT-STARTED-ERR');
  if (row.is_noshow) return new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  if (row.is_broadcast) {
    return new AppError(
      'SHFT-STATE-ERR',
      'A shift claimed from the crew is cancelled, not unassigned: only a shift you offered to one shifter is.',
    );
  }
  if (row.starts_at <= nowMs) return new AppError('SHFT-STATE-ERR', 'The shift has started: it can no longer go out to the crew.');
  return null;
}

/**
 * The business takes the shifter off an accepted targeted shift: the assignment is cancelled
 * (cancelled_by business, the shifter told) and the same shift goes out to the crew as an open
 * broadcast (parent_id = the cancelled row), in one guarded write: cancel's own, with the copy its
 * auto-fill makes (cancel.ts `commitCancellation`). A retry with the same Idempotency-Key answers the
 * committed pair without writing again.
 */
export async function unassignShift(ctx: ServiceContext, id: string, input: UnassignInput = {}): Promise<UnassignedShift> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return unassigned(ctx, done);
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'business', ['business']);
  const now = ctx.now();
  const refusal = unassignRefusal(s.row, now);
  if (refusal) throw refusal;
  const reason = input.reason ?? null;
  const r = await commitCancellation(ctx, s, {
    side: 'business',
    reason,
    rebroadcast: true,
    guard: [eq(shiftRequests.is_broadcast, false), gt(shiftRequests.starts_at, now)],
    action: 'shift_request.unassign',
    data: { side: 'business', reason, shifter_id: s.row.shifter_id },
    title: `${s.business.name} took you off a shift`,
  });
  if (!r.applied) {
    const fresh = await loadShift(ctx, id);
    throw unassignRefusal(fresh.row, ctx.now()) ?? new AppError('CONFLICT-ERR', 'The shift changed while unassigning; try again.');
  }
  return { shift_request: viewLoaded(await loadShift(ctx, id)), broadcast: await loadView(ctx, r.child!.id) };
}

/** The cancelled assignment and the broadcast it became, read fresh (a retry's answer). */
async function unassigned(ctx: ServiceContext, id: string): Promise<UnassignedShift> {
  const child = await rebroadcastOf(ctx, id);
  if (!child) throw new AppError('SHFT-NOT-FND-ERR');
  return { shift_request: await loadView(ctx, id), broadcast: await loadView(ctx, child.id) };
}
