import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { crewOf, pickSide, shiftParty } from '../access';
import {
  cancelRefusal,
  committedSubject,
  type Notice,
  purgeWidgetCache,
  type ServiceContext,
  SHIFT_STATUS,
  type Side,
  shiftWhen,
} from '../kernel';
import { partnerEvent, type PartnerEventPart, shiftEvent, webhookShiftRequest } from '../webhooks';
import { type LoadedShift, loadShift, viewLoaded } from './load';
import type { CancelInput, CancelledShift, ShiftRequestView } from './schemas';
import { shiftWrite } from './write';
import { refundIfShiftEndedUnworked } from '../payments';
import { businessRecipients } from '../notifications';

/**
 * Cancel by either party (→ 7). When the shifter cancels an accepted shift, the business has
 * auto_fill_on_cancel on and the start is at least AUTO_FILL_MIN_LEAD_MINUTES away, a broadcast
 * copy (parent_id = the cancelled row) goes out to the crew in the same batch.
 */
export async function cancelShift(ctx: ServiceContext, id: string, input: CancelInput): Promise<CancelledShift> {
  const done = committedSubject(ctx, 'shift_request');
  const s = await loadShift(ctx, done ?? id);
  if (done) return cancelled(s, await rebroadcastOf(ctx, done));
  const reason = input.reason ?? null;
  const party = await shiftParty(ctx, s);
  const side = pickSide(party, input.as, ['business', 'shifter']);
  const refusal = cancelRefusal(s.row);
  if (refusal) throw refusal;
  if (side === 'shifter' && s.row.request_status !== SHIFT_STATUS.accepted) {
    throw new AppError('SHFT-STATE-ERR', 'A pending request is declined, not cancelled, by the shifter.');
  }
  const autoFill = side === 'shifter' && willAutoFill(ctx, s);
  const r = await commitCancellation(ctx, s, {
    side,
    reason,
    rebroadcast: autoFill,
    action: 'shift_request.cancel',
    data: { side, reason, auto_fill: autoFill },
    title: side === 'business' ? `${s.business.name} cancelled a shift` : `${s.shifter?.display_name ?? 'A shifter'} cancelled a shift`,
  });
  if (!r.applied) {
    const fresh = await loadShift(ctx, id);
    throw cancelRefusal(fresh.row) ?? new AppError('CONFLICT-ERR', 'The shift changed while cancelling; try again.');
  }
  return cancelled(await loadShift(ctx, id), r.child);
}

/** What one cancellation writes beyond cancel's own guard: who, why, whether the shift goes out again, its audit and words. */
export interface CancellationPlan {
  side: Side;
  reason: string | null;
  /** The same shift goes out to the crew as an open broadcast (parent_id = the cancelled row), in the same batch. */
  rebroadcast: boolean;
  /** Guard conditions the operation adds to cancel's (the status it was loaded in, no clock-in, no no-show). */
  guard?: SQL[];
  action: string;
  data: Record<string, unknown>;
  /** The other side's notice. */
  title: string;
}

/**
 * The one guarded write of a cancellation, for cancel (with its auto-fill) and unassign: the row
 * becomes 7 (cancelled_by the side, with the reason) only while it is in the status it was loaded in,
 * not clocked in and not a no-show (and the plan's own conditions); the other side is told; with
 * `rebroadcast`, the copy for the crew is inserted, the crew (but the shift's shifter and members who
 * take no requests) told and `broadcast.created` sent, all in the same batch. Once it holds, the widget
 * cache is purged and a pre-paid shift's invoice refunded (in the background).
 */
export async function commitCancellation(
  ctx: ServiceContext,
  s: LoadedShift,
  plan: CancellationPlan,
): Promise<{ applied: boolean; child: { id: string } | null }> {
  const id = s.row.id;
  const { side, reason } = plan;
  const now = ctx.now();
  const w = shiftWrite(ctx, id);

  const otherSide =
    side === 'business'
      ? s.row.shifter_id
        ? (await ctx.db.select({ u: shifters.user_id }).from(shifters).where(eq(shifters.id, s.row.shifter_id))).map((r) => r.u)
        : []
      : await businessRecipients(ctx, s.business.id, 'cancellation');
  const notify: Notice[] = [
    {
      kind: 'cancellation',
      userIds: otherSide,
      title: plan.title,
      body: `${shiftWhen(s.row)}${plan.rebroadcast && side === 'shifter' ? ' — re-broadcast to your crew' : ''}`,
    },
  ];
  const follow = [];
  const events: PartnerEventPart[] = [];
  let child: { id: string } | null = null;
  if (plan.rebroadcast) {
    child = { id: newId('shiftRequest') };
    const { id: _omit, last_op_id: _op, ...copy } = s.row;
    follow.push(
      insertWhere(
        ctx.db,
        shiftRequests,
        {
          ...copy,
          id: child.id,
          shifter_id: null,
          is_broadcast: true,
          request_status: SHIFT_STATUS.pending,
          parent_id: id,
          accepted_at: null,
          cancelled_at: null,
          cancelled_by: null,
          cancel_reason: null,
          created_by_user_id: null,
          created_at: now,
          updated_at: now,
        },
        w.applied!,
      ),
    );
    const crew = (await crewOf(ctx, s.business.id)).filter((c) => c.shifterId !== s.row.shifter_id && c.acceptShiftReq);
    notify.push({
      kind: 'open_shift',
      userIds: crew.map((c) => c.userId),
      title: `Open shift at ${s.business.name}`,
      body: `${shiftWhen(s.row)} (re-broadcast)`,
      data: { shift_request_id: child.id, parent_id: id },
    });
    events.push(
      shiftEvent(
        'broadcast.created',
        {
          ...copy,
          id: child.id,
          shifter_id: null,
          is_broadcast: true,
          request_status: SHIFT_STATUS.pending,
          parent_id: id,
          accepted_at: null,
        },
        now,
      ),
    );
  }
  events.unshift(
    partnerEvent(
      'shift_request.cancelled',
      s.business.id,
      {
        shift_request: webhookShiftRequest({ ...s.row, request_status: SHIFT_STATUS.cancelled, cancelled_at: now, cancelled_by: side }),
        reason,
        rebroadcast_shift_request_id: child?.id ?? null,
      },
      now,
    ),
  );
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        request_status: SHIFT_STATUS.cancelled,
        cancelled_at: now,
        cancelled_by: side,
        cancel_reason: reason,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, s.row.request_status),
          isNull(shiftRequests.shift_start_at),
          eq(shiftRequests.is_noshow, false),
          ...(plan.guard ?? []),
        ),
      ),
    follow,
    audit: { action: plan.action, data: plan.data },
    notify,
    events,
  });
  if (!r.applied) return { applied: false, child: null };
  if (s.row.is_broadcast || child) await purgeWidgetCache(ctx, 'business', s.business.id);
  // A pre-paid shift cancelled: its invoice is refunded in full (in the background; the cron sweep retries).
  refundIfShiftEndedUnworked(ctx, id);
  return { applied: true, child };
}

/**
 * Whether the shifter cancelling this shift now re-broadcasts it to the crew: the business has
 * auto_fill_on_cancel on and the start is at least AUTO_FILL_MIN_LEAD_MINUTES away.
 */
function willAutoFill(ctx: ServiceContext, s: LoadedShift): boolean {
  const leadMinutes = (s.row.starts_at - ctx.now()) / 60_000;
  return s.business.auto_fill_on_cancel && leadMinutes >= ctx.settings.AUTO_FILL_MIN_LEAD_MINUTES;
}

/**
 * What cancelling an accepted shift as its shifter would do, before it is done (a confirmation page):
 * the shift, whether it may be cancelled now (the refusal's message otherwise), and whether the
 * business's auto-fill would re-broadcast it to the crew.
 */
export async function shifterCancelPreview(
  ctx: ServiceContext,
  id: string,
): Promise<{ shift_request: ShiftRequestView; refusal: string | null; auto_fill: boolean; auto_fill_min_lead_minutes: number }> {
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'shifter', ['shifter']);
  const refusal =
    cancelRefusal(s.row)?.message ??
    (s.row.request_status !== SHIFT_STATUS.accepted ? 'Only an accepted shift is cancelled; a request is declined.' : null);
  return {
    shift_request: viewLoaded(s),
    refusal,
    auto_fill: refusal === null && willAutoFill(ctx, s),
    auto_fill_min_lead_minutes: ctx.settings.AUTO_FILL_MIN_LEAD_MINUTES,
  };
}

function cancelled(s: LoadedShift, autoFill: { id: string } | null): CancelledShift {
  return { shift_request: viewLoaded(s), auto_fill_shift_request_id: autoFill?.id ?? null };
}

/** The open broadcast a cancellation sent out again (auto-fill, unassign), if any: the row whose parent is the cancelled one. */
export async function rebroadcastOf(ctx: ServiceContext, id: string): Promise<{ id: string } | null> {
  const [copy] = await ctx.db.select({ id: shiftRequests.id }).from(shiftRequests).where(eq(shiftRequests.parent_id, id)).limit(1);
  return copy ?? null;
}
