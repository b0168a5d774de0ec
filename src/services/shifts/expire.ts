import { and, eq, lte } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { type ServiceContext, SHIFT_STATUS } from '../kernel';

/** Cron: pending requests whose start has passed become expired (6). */
export async function expirePendingShifts(ctx: ServiceContext): Promise<number> {
  const now = ctx.now();
  const res = await ctx.db
    .update(shiftRequests)
    .set({ request_status: SHIFT_STATUS.expired, updated_at: now })
    .where(and(eq(shiftRequests.request_status, SHIFT_STATUS.pending), lte(shiftRequests.starts_at, now)))
    .run();
  return res.meta.changes ?? 0;
}
