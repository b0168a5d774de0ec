import { desc, eq } from 'drizzle-orm';
import { timesheetDisputes, timesheets } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type BusinessRole, shifterIdOf, standingToward } from '../access';
import { type LoadedShift, loadShift, requirePerson, type ServiceContext } from '../kernel';

export type TimesheetRow = typeof timesheets.$inferSelect;
export type DisputeRow = typeof timesheetDisputes.$inferSelect;

export interface LoadedTimesheet {
  ts: TimesheetRow;
  shift: LoadedShift;
  /** The latest dispute, if any. */
  dispute: DisputeRow | null;
}

/** The caller's side of a timesheet: the business (with its standing) or its worker. */
export type TimesheetSide = { side: 'business'; role: BusinessRole } | { side: 'shifter' };

/** One timesheet with its shift and latest dispute; no access check (callers make it). */
export async function loadTimesheetRow(ctx: ServiceContext, id: string): Promise<LoadedTimesheet | null> {
  const [ts] = await ctx.db.select().from(timesheets).where(eq(timesheets.id, id)).limit(1);
  if (!ts) return null;
  const [shift, [dispute]] = await Promise.all([
    loadShift(ctx, ts.shift_request_id),
    ctx.db
      .select()
      .from(timesheetDisputes)
      .where(eq(timesheetDisputes.timesheet_id, id))
      .orderBy(desc(timesheetDisputes.created_at))
      .limit(1),
  ]);
  return { ts, shift, dispute: dispute ?? null };
}

/**
 * A timesheet and the caller's side of it: the business's owner, active teammate or an admin, or the
 * shift's worker. Anyone else learns nothing of it (TIMESHEET-NOT-FND-ERR, 404).
 */
export async function loadTimesheet(ctx: ServiceContext, id: string): Promise<{ l: LoadedTimesheet; side: TimesheetSide }> {
  const actor = requirePerson(ctx);
  const l = await loadTimesheetRow(ctx, id);
  if (!l) throw new AppError('TIMESHEET-NOT-FND-ERR');
  const [role, shifterId] = await Promise.all([standingToward(ctx, l.shift.business), shifterIdOf(ctx, actor.userId)]);
  if (shifterId !== null && shifterId === l.ts.shifter_id && role !== 'owner' && role !== 'teammate')
    return { l, side: { side: 'shifter' } };
  if (role) return { l, side: { side: 'business', role } };
  if (shifterId !== null && shifterId === l.ts.shifter_id) return { l, side: { side: 'shifter' } };
  throw new AppError('TIMESHEET-NOT-FND-ERR');
}

/** The timesheet of a shift, by its shift request id. */
export async function timesheetOfShift(ctx: ServiceContext, shiftRequestId: string): Promise<TimesheetRow | null> {
  const [ts] = await ctx.db.select().from(timesheets).where(eq(timesheets.shift_request_id, shiftRequestId)).limit(1);
  return ts ?? null;
}
