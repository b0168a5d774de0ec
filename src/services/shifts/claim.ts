import { and, eq, gt, isNull } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { businessRecipients, callerShifter } from '../access';
import { isCrew } from '../access';
import type { Actor, ServiceContext } from '../context';
import { draftEvent } from '../events/outbox';
import { overlappingAcceptedShifts } from './conflicts';
import { loadShift } from './load';
import { SHIFT_STATUS } from './status';
import { auditIfOp, notifyIfOp, runGuarded, stateError } from './transitions';
import { opApplied } from '../../db/conditional';
import { shifters } from '../../db/schema';

export interface ClaimInput {
  shiftRequestId: string;
  shifterId: string;
  actor: Actor;
  requestId: string;
}

export type ClaimOutcome = 'won' | 'lost' | 'closed';

/**
 * The guarded write of a claim, run by the broadcast's ClaimLock object: the row moves 1 → 2 with
 * the shifter set only if it is still an open, unclaimed, future broadcast.
 */
export async function commitClaim(ctx: ServiceContext, input: ClaimInput): Promise<boolean> {
  const s = await loadShift(ctx, input.shiftRequestId);
  const op = newId('shiftRequest');
  const now = ctx.now();
  const [shifter] = await ctx.db.select({ name: shifters.display_name }).from(shifters).where(eq(shifters.id, input.shifterId));
  const note = notifyIfOp(ctx, s.row.id, op, {
    kind: 'broadcast_claimed',
    userIds: await businessRecipients(ctx, s.business.id),
    title: `${shifter?.name ?? 'A shifter'} claimed an open shift`,
    body: `${s.row.shift_date} ${s.row.shift_in}–${s.row.shift_out}`,
  });
  const hook = draftEvent(
    ctx,
    'webhooks',
    { type: 'broadcast.claimed', business_id: s.business.id, shift_request_id: s.row.id, shifter_id: input.shifterId, occurred_at: new Date(now).toISOString() },
    opApplied(s.row.id, op),
  );
  return runGuarded(
    ctx,
    [
      ctx.db
        .update(shiftRequests)
        .set({ shifter_id: input.shifterId, request_status: SHIFT_STATUS.accepted, accepted_at: now, last_op_id: op, updated_at: now })
        .where(
          and(
            eq(shiftRequests.id, s.row.id),
            eq(shiftRequests.request_status, SHIFT_STATUS.pending),
            eq(shiftRequests.is_broadcast, true),
            isNull(shiftRequests.shifter_id),
            gt(shiftRequests.starts_at, now),
          ),
        ),
      auditIfOp(ctx, s.row.id, op, 'broadcast.claim', { shifter_id: input.shifterId }),
      ...(note ? [note.statement] : []),
      hook.statement,
    ],
    [note, hook],
  );
}

/**
 * A shifter claims an open broadcast. Eligibility (connected to the business, no overlapping
 * accepted shift) is checked here; the race itself is settled by one ClaimLock Durable Object per
 * broadcast, so the first claim wins and every later one gets 409 CLAIM-LOST-ERR. Claiming again
 * after winning returns the won shift (safe to retry).
 */
export async function claimBroadcast(ctx: ServiceContext, id: string) {
  const s = await loadShift(ctx, id);
  const own = await callerShifter(ctx);
  if (!own) throw new AppError('FORBIDDEN-ERR', 'Only a shifter can claim a broadcast.');
  if (!s.row.is_broadcast) {
    // Do not reveal targeted requests to other shifters.
    if (s.row.shifter_id !== own.id) throw new AppError('SHFT-NOT-FND-ERR');
    throw new AppError('SHFT-STATE-ERR', 'A targeted request is accepted, not claimed.');
  }
  // Only the business's crew may see or claim its broadcasts.
  if (!(await isCrew(ctx, s.business.id, own.id))) throw new AppError('SHFT-NOT-FND-ERR');
  if (s.row.shifter_id === own.id && s.row.request_status === SHIFT_STATUS.accepted) return s;
  if (s.row.request_status !== SHIFT_STATUS.pending) {
    if (s.row.request_status === SHIFT_STATUS.accepted) throw new AppError('CLAIM-LOST-ERR');
    throw stateError(s.row, 'an open broadcast');
  }
  if (s.row.starts_at <= ctx.now()) throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
  const clashes = await overlappingAcceptedShifts(ctx, own.id, s.row.starts_at, s.row.ends_at, s.row.id);
  if (clashes.length) throw new AppError('SHFT-CONFLICT-ERR', undefined, { conflicting_shift_request_ids: clashes.map((c) => c.id) });

  const stub = ctx.env.CLAIM_LOCK.get(ctx.env.CLAIM_LOCK.idFromName(id));
  const outcome = await stub.claim({ shiftRequestId: id, shifterId: own.id, actor: ctx.actor, requestId: ctx.requestId });
  if (outcome === 'lost') throw new AppError('CLAIM-LOST-ERR');
  const fresh = await loadShift(ctx, id);
  if (outcome === 'closed') {
    if (fresh.row.request_status === SHIFT_STATUS.accepted && fresh.row.shifter_id !== own.id) throw new AppError('CLAIM-LOST-ERR');
    throw stateError(fresh.row, 'an open broadcast');
  }
  return fresh;
}
