import { and, eq } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { shiftRequests, shifters } from '../../db/schema';
import { fromMinor } from '../../lib/money';
import { pickSide, shiftParty } from '../access';
import { committedSubject, type ServiceContext, SHIFT_STATUS, shiftWhen, stateError } from '../kernel';
import { shiftEvent } from '../webhooks';
import { AppError } from '../../lib/errors';
import { buildShiftRow } from './create';
import { loadShift, loadView } from './load';
import type { ChangedShift, ChangeRequestInput } from './schemas';
import { withPostingWarnings } from './warnings';
import { shiftWrite } from './write';

/** Business side changes a pending request: the original becomes 4 and a pending child replaces it, atomically. */
export async function changeRequest(ctx: ServiceContext, input: ChangeRequestInput): Promise<ChangedShift> {
  const done = committedSubject(ctx, 'shift_request');
  const s = await loadShift(ctx, done ?? input.shift_request_id);
  if (done) return withChild(ctx, done);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'business', ['business']);
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  const r = s.row;
  const child = await buildShiftRow(
    ctx,
    s.business,
    {
      shift_date: input.shift_date ?? r.shift_date,
      shift_in: input.shift_in ?? r.shift_in,
      shift_out: input.shift_out ?? r.shift_out,
      shiftrole_id: input.shiftrole_id ?? r.shiftrole_id,
      hourly_rate: input.hourly_rate ?? fromMinor(r.hourly_rate_minor, r.currency),
      currency: r.currency,
      shifter_id: r.shifter_id,
      is_broadcast: r.is_broadcast,
      is_flexible: input.is_flexible ?? r.is_flexible,
      note: input.note === undefined ? r.note : input.note,
    },
    { parent_id: r.id, template_id: r.template_id },
  );
  const now = ctx.now();
  const recipients = r.shifter_id
    ? (await ctx.db.select({ u: shifters.user_id }).from(shifters).where(eq(shifters.id, r.shifter_id))).map((x) => x.u)
    : [];
  const w = shiftWrite(ctx, r.id);
  const result = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({ request_status: SHIFT_STATUS.superseded, last_op_id: w.op, updated_at: now })
      .where(and(eq(shiftRequests.id, r.id), eq(shiftRequests.request_status, SHIFT_STATUS.pending))),
    follow: [insertWhere(ctx.db, shiftRequests, child, w.applied!)],
    audit: { action: 'shift_request.change', data: { child_id: child.id } },
    notify: [
      {
        kind: 'shift_changed',
        userIds: recipients,
        title: `${s.business.name} changed a shift request`,
        body: shiftWhen(child),
        data: { new_shift_request_id: child.id },
      },
    ],
    events: [shiftEvent(child.is_broadcast ? 'broadcast.created' : 'shift_request.created', child, now)],
  });
  if (!result.applied) throw stateError((await loadShift(ctx, r.id)).row, 'pending');
  return withChild(ctx, r.id);
}

/** The superseded request and the child that replaced it, with the child's warnings. */
async function withChild(ctx: ServiceContext, id: string): Promise<ChangedShift> {
  const [made] = await ctx.db.select({ id: shiftRequests.id }).from(shiftRequests).where(eq(shiftRequests.parent_id, id)).limit(1);
  if (!made) throw new AppError('SHFT-NOT-FND-ERR');
  // The child is a shift just made: it answers with its warnings (the shifter booked at the new times).
  return { superseded: await loadView(ctx, id), shift_request: await withPostingWarnings(ctx, await loadView(ctx, made.id)) };
}
