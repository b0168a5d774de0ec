import { and, eq, gt } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { pickSide, shiftParty } from '../access';
import { committedSubject, type ServiceContext, SHIFT_STATUS, shiftWhen, stateError } from '../kernel';
import { shiftEvent } from '../webhooks';
import { claimBroadcast } from './claim';
import { noOverlapSql, overlappingAcceptedShifts } from './conflicts';
import { loadShift, loadView } from './load';
import type { ShiftRequestView } from './schemas';
import { shiftWrite } from './write';
import { businessRecipients } from '../notifications';

/**
 * The shifter accepts a targeted request (pending → accepted). The overlap check is part of the
 * guarded update, so two overlapping shifts accepted at the same moment cannot both succeed.
 * Accepting an open broadcast is claiming it (DECISIONS.md): the same Durable Object, first claim wins.
 */
export async function acceptRequest(ctx: ServiceContext, id: string): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const s = await loadShift(ctx, id);
  if (s.row.is_broadcast) return claimBroadcast(ctx, id);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'shifter', ['shifter']);
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  const now = ctx.now();
  if (s.row.starts_at <= now) throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
  const shifterId = s.row.shifter_id!;
  const w = shiftWrite(ctx, id);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({ request_status: SHIFT_STATUS.accepted, accepted_at: now, last_op_id: w.op, updated_at: now })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, SHIFT_STATUS.pending),
          gt(shiftRequests.starts_at, now),
          noOverlapSql(shifterId, s.row.starts_at, s.row.ends_at, id),
        ),
      ),
    audit: { action: 'shift_request.accept' },
    notify: [
      {
        kind: 'shift_accepted',
        userIds: await businessRecipients(ctx, s.business.id, 'shift_accepted'),
        title: `${s.shifter?.display_name ?? 'A shifter'} accepted a shift`,
        body: shiftWhen(s.row),
      },
    ],
    events: [shiftEvent('shift_request.accepted', { ...s.row, request_status: SHIFT_STATUS.accepted, accepted_at: now }, now)],
  });
  if (!r.applied) {
    const fresh = await loadShift(ctx, id);
    if (fresh.row.request_status !== SHIFT_STATUS.pending) throw stateError(fresh.row, 'pending');
    const clashes = await overlappingAcceptedShifts(ctx, shifterId, fresh.row.starts_at, fresh.row.ends_at, id);
    if (clashes.length) throw new AppError('SHFT-CONFLICT-ERR', undefined, { conflicting_shift_request_ids: clashes.map((c) => c.id) });
    throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
  }
  return loadView(ctx, r.subject.id);
}
