import { and, eq, isNull, lte } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { pickSide, shiftParty } from '../access';
import { committedSubject, type ServiceContext, SHIFT_STATUS, stateError } from '../kernel';
import { loadShift, loadView, viewLoaded } from './load';
import type { ShiftRequestView } from './schemas';
import { shiftWrite } from './write';

/**
 * The business marks an accepted shift whose start has passed, with no clock-in, as a no-show. The
 * guard requires no clock-in, and clock-in's guard requires no no-show, so the two cannot both win.
 */
export async function markNoShow(ctx: ServiceContext, id: string): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'business', ['business']);
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  if (s.row.shift_start_at !== null) throw new AppError('SHFT-STATE-ERR', 'The shifter clocked in; this is not a no-show.');
  const now = ctx.now();
  if (s.row.starts_at > now) throw new AppError('SHFT-STATE-ERR', 'A no-show can only be marked after the start.');
  if (s.row.is_noshow) return viewLoaded(s);
  const w = shiftWrite(ctx, id);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({ is_noshow: true, last_op_id: w.op, updated_at: now })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
          isNull(shiftRequests.shift_start_at),
          eq(shiftRequests.is_noshow, false),
          lte(shiftRequests.starts_at, now),
        ),
      ),
    audit: { action: 'shift_request.no_show' },
    notify: [
      s.shifter
        ? {
            kind: 'no_show',
            userIds: [s.shifter.user_id],
            title: `${s.business.name} marked you as a no-show`,
            body: `${s.row.shift_date} ${s.row.shift_in}`,
          }
        : null,
    ],
  });
  const fresh = await loadShift(ctx, r.subject.id);
  if (!r.applied && !fresh.row.is_noshow) {
    if (fresh.row.shift_start_at !== null) throw new AppError('SHFT-STATE-ERR', 'The shifter clocked in; this is not a no-show.');
    throw stateError(fresh.row, 'accepted');
  }
  return viewLoaded(fresh);
}
