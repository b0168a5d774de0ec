import { and, eq, gt, isNull } from 'drizzle-orm';
import { shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { callerShifter, isCrew, standingToward } from '../access';
import {
  type Actor,
  committedSubject,
  type IdempotencyScope,
  purgeWidgetCache,
  requirePerson,
  type ServiceContext,
  SHIFT_STATUS,
  shiftWhen,
  stateError,
} from '../kernel';
import { shiftEvent } from '../webhooks';
import { noOverlapSql, overlappingAcceptedShifts } from './conflicts';
import { loadShift, loadView, viewLoaded } from './load';
import type { ShiftRequestView } from './schemas';
import { shiftWrite } from './write';
import { businessRecipients } from '../notifications';

export interface ClaimInput {
  shiftRequestId: string;
  shifterId: string;
  actor: Actor;
  requestId: string;
  idempotency?: IdempotencyScope | undefined;
}

/** `closed`: D1 refused the claim (no longer open, or an overlap); `failed`: the write itself failed. */
export type ClaimOutcome = 'won' | 'lost' | 'closed' | 'failed';

/**
 * The guarded write of a claim, run inside the broadcast's ClaimLock object: the row moves 1 → 2
 * with the shifter set only if it is still an open, unclaimed, future broadcast and the shifter has
 * no overlapping accepted shift. Safe to repeat: it then changes nothing. Returns the shifter D1
 * holds as the claimer afterwards (null while nobody has claimed it).
 */
export async function commitClaim(ctx: ServiceContext, input: ClaimInput): Promise<{ winner: string | null }> {
  const s = await loadShift(ctx, input.shiftRequestId);
  if (s.row.request_status === SHIFT_STATUS.pending && s.row.shifter_id === null) {
    const now = ctx.now();
    const [shifter] = await ctx.db.select({ name: shifters.display_name }).from(shifters).where(eq(shifters.id, input.shifterId));
    const w = shiftWrite(ctx, s.row.id);
    await w.commit({
      guard: ctx.db
        .update(shiftRequests)
        .set({ shifter_id: input.shifterId, request_status: SHIFT_STATUS.accepted, accepted_at: now, last_op_id: w.op, updated_at: now })
        .where(
          and(
            eq(shiftRequests.id, s.row.id),
            eq(shiftRequests.request_status, SHIFT_STATUS.pending),
            eq(shiftRequests.is_broadcast, true),
            isNull(shiftRequests.shifter_id),
            gt(shiftRequests.starts_at, now),
            noOverlapSql(input.shifterId, s.row.starts_at, s.row.ends_at, s.row.id),
          ),
        ),
      audit: { action: 'broadcast.claim', data: { shifter_id: input.shifterId } },
      notify: [
        {
          kind: 'broadcast_claimed',
          userIds: await businessRecipients(ctx, s.business.id, 'broadcast_claimed'),
          title: `${shifter?.name ?? 'A shifter'} claimed an open shift`,
          body: shiftWhen(s.row),
        },
      ],
      events: [
        shiftEvent(
          'shift_request.claimed',
          { ...s.row, shifter_id: input.shifterId, request_status: SHIFT_STATUS.accepted, accepted_at: now },
          now,
        ),
      ],
    });
  }
  // D1 is the truth: whoever it holds now is the winner, whether this call or an earlier one wrote it.
  const fresh = await loadShift(ctx, input.shiftRequestId);
  const claimed = fresh.row.is_broadcast && fresh.row.shifter_id !== null && fresh.row.request_status !== SHIFT_STATUS.pending;
  return { winner: claimed ? fresh.row.shifter_id : null };
}

/**
 * A shifter claims an open broadcast. Eligibility (crew of the business, a future start, no
 * overlapping accepted shift) is checked here; the race is settled by one ClaimLock Durable Object
 * per broadcast, so the first claim wins and every later one gets 409 CLAIM-LOST-ERR. Claiming again
 * after winning returns the won shift (safe to retry). The business's owner, and a teammate who is not
 * also its crew, get 403 SHFT-OWN-BUSINESS-ERR: they see its broadcasts as the business, never as a
 * shifter (list_of_broadcast_requests read as a shifter leaves them out the same way).
 */
export async function claimBroadcast(ctx: ServiceContext, id: string): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const actor = requirePerson(ctx);
  const s = await loadShift(ctx, id);
  const own = await callerShifter(ctx);
  if (!own) throw new AppError('FORBIDDEN-ERR', 'Only a shifter can claim a broadcast.');
  if (s.row.is_broadcast && s.business.user_id === actor.userId)
    throw new AppError('SHFT-OWN-BUSINESS-ERR', 'You own this business: its broadcasts are for its crew to claim.');
  // Only the business's crew may see or claim its broadcasts; to anyone else they do not exist.
  if (!(await isCrew(ctx, s.business.id, own.id))) {
    if (!s.row.is_broadcast && s.row.shifter_id === own.id)
      throw new AppError('SHFT-STATE-ERR', 'A targeted request is accepted, not claimed.');
    if (s.row.is_broadcast) {
      const standing = await standingToward(ctx, s.business);
      if (standing === 'owner' || standing === 'teammate') throw new AppError('SHFT-OWN-BUSINESS-ERR');
      if (standing === 'admin') throw new AppError('FORBIDDEN-ERR', "Only the business's crew may claim its broadcasts.");
    }
    throw new AppError('SHFT-NOT-FND-ERR');
  }
  if (!s.row.is_broadcast) {
    if (s.row.shifter_id !== own.id) throw new AppError('SHFT-NOT-FND-ERR');
    throw new AppError('SHFT-STATE-ERR', 'A targeted request is accepted, not claimed.');
  }
  if (s.row.shifter_id === own.id && s.row.request_status === SHIFT_STATUS.accepted) return viewLoaded(s);
  if (s.row.request_status !== SHIFT_STATUS.pending) {
    if (s.row.request_status === SHIFT_STATUS.accepted) throw new AppError('CLAIM-LOST-ERR');
    throw stateError(s.row, 'an open broadcast');
  }
  if (s.row.starts_at <= ctx.now()) throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
  const clashes = await overlappingAcceptedShifts(ctx, own.id, s.row.starts_at, s.row.ends_at, s.row.id);
  if (clashes.length) throw new AppError('SHFT-CONFLICT-ERR', undefined, { conflicting_shift_request_ids: clashes.map((c) => c.id) });

  const stub = ctx.env.CLAIM_LOCK.get(ctx.env.CLAIM_LOCK.idFromName(id));
  const outcome = await stub.claim({
    shiftRequestId: id,
    shifterId: own.id,
    actor: ctx.actor,
    requestId: ctx.requestId,
    idempotency: ctx.idempotency,
  });
  if (outcome === 'lost') throw new AppError('CLAIM-LOST-ERR');
  // Logged by the object; the caller gets the generic 500 and may retry: nothing was written.
  if (outcome === 'failed') throw new Error(`claim of ${id} failed before it committed`);
  const fresh = await loadShift(ctx, id);
  if (outcome === 'closed') {
    if (fresh.row.request_status === SHIFT_STATUS.pending) {
      const now = await overlappingAcceptedShifts(ctx, own.id, fresh.row.starts_at, fresh.row.ends_at, id);
      if (now.length) throw new AppError('SHFT-CONFLICT-ERR', undefined, { conflicting_shift_request_ids: now.map((c) => c.id) });
      throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
    }
    throw stateError(fresh.row, 'an open broadcast');
  }
  await purgeWidgetCache(ctx, 'business', fresh.business.id);
  return viewLoaded(fresh);
}
