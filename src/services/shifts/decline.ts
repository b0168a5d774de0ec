import { and, eq } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { pickSide, shiftParty } from '../access';
import { committedSubject, type ServiceContext, SHIFT_STATUS, shiftWhen, stateError } from '../kernel';
import { loadShift, loadView } from './load';
import type { DeclineInput, ShiftRequestView } from './schemas';
import { shiftWrite } from './write';
import { businessRecipients } from '../notifications';

/** The targeted shifter declines a request (pending → declined). A broadcast is simply not claimed. */
export async function declineRequest(ctx: ServiceContext, id: string, input: DeclineInput = {}): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const reason = input.reason ?? null;
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  if (s.row.is_broadcast) throw new AppError('SHFT-STATE-ERR', 'A broadcast cannot be declined; just do not claim it.');
  pickSide(party, 'shifter', ['shifter']);
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  const now = ctx.now();
  const w = shiftWrite(ctx, id);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({ request_status: SHIFT_STATUS.declined, cancel_reason: reason, last_op_id: w.op, updated_at: now })
      .where(and(eq(shiftRequests.id, id), eq(shiftRequests.request_status, SHIFT_STATUS.pending))),
    audit: { action: 'shift_request.decline', ...(reason ? { data: { reason } } : {}) },
    notify: [
      {
        kind: 'shift_declined',
        userIds: await businessRecipients(ctx, s.business.id, 'shift_declined'),
        title: `${s.shifter?.display_name ?? 'A shifter'} declined a shift`,
        body: shiftWhen(s.row),
      },
    ],
  });
  if (!r.applied) throw stateError((await loadShift(ctx, id)).row, 'pending');
  return loadView(ctx, r.subject.id);
}
