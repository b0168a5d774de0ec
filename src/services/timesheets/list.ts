import { and, asc, between, desc, eq, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { businesses, shiftRequests, shiftRoles, shifters, timesheetDisputes, timesheets } from '../../db/schema';
import { errorFields } from '../../lib/log';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { addDays } from '../../lib/shift-time';
import { accessBusiness, privateRecords } from '../access';
import type { ServiceContext } from '../kernel';
import { commitApproval } from './approve';
import { settleOverdueDispute } from './changes';
import { type DisputeRow, type LoadedTimesheet, loadTimesheet, type TimesheetSide } from './load';
import { periodStartOf } from './policy';
import type { ListTimesheetsQuery, TimesheetList, TimesheetView } from './schemas';
import { timesheetView } from './view';

/** Timesheets with their shift, business, worker, role and latest dispute, for the given conditions. */
async function loadMany(ctx: ServiceContext, where: SQL, order: 'recent' | 'due', limit: number): Promise<LoadedTimesheet[]> {
  // Two full rows a line: D1 returns at most 100 columns, so the business, worker and role come after.
  const rows = await ctx.db
    .select({ ts: timesheets, row: shiftRequests })
    .from(timesheets)
    .innerJoin(shiftRequests, eq(shiftRequests.id, timesheets.shift_request_id))
    .where(where)
    .orderBy(...(order === 'recent' ? [desc(timesheets.in_at), desc(timesheets.id)] : [asc(timesheets.auto_approve_at)]))
    .limit(limit);
  const ids = (pick: (r: (typeof rows)[number]) => string | number | null) => [
    ...new Set(rows.map(pick).filter((v): v is string & number => v !== null)),
  ];
  const [bs, ss, roles] = rows.length
    ? await Promise.all([
        ctx.db
          .select()
          .from(businesses)
          .where(
            inArray(
              businesses.id,
              ids((r) => r.ts.business_id),
            ),
          ),
        ctx.db
          .select()
          .from(shifters)
          .where(
            inArray(
              shifters.id,
              ids((r) => r.ts.shifter_id),
            ),
          ),
        ctx.db
          .select({ id: shiftRoles.id, label: shiftRoles.label })
          .from(shiftRoles)
          .where(
            inArray(
              shiftRoles.id,
              ids((r) => r.row.shiftrole_id),
            ),
          ),
      ])
    : [[], [], []];
  const businessOf = new Map(bs.map((b) => [b.id, b]));
  const shifterOf = new Map(ss.map((x) => [x.id, x]));
  const roleOf = new Map(roles.map((r) => [r.id, r.label]));
  const disputes = new Map<string, DisputeRow>();
  if (rows.length) {
    const found = await ctx.db
      .select()
      .from(timesheetDisputes)
      .where(
        inArray(
          timesheetDisputes.timesheet_id,
          rows.map((r) => r.ts.id),
        ),
      )
      .orderBy(asc(timesheetDisputes.created_at));
    for (const d of found) disputes.set(d.timesheet_id, d);
  }
  return rows.map((r) => ({
    ts: r.ts,
    shift: {
      row: r.row,
      business: businessOf.get(r.ts.business_id)!,
      shifter: shifterOf.get(r.ts.shifter_id) ?? null,
      roleLabel: r.row.shiftrole_id === null ? null : (roleOf.get(r.row.shiftrole_id) ?? null),
    },
    dispute: disputes.get(r.ts.id) ?? null,
  }));
}

function pageOf(ctx: ServiceContext, loaded: LoadedTimesheet[], limit: number, who: (l: LoadedTimesheet) => TimesheetSide): TimesheetList {
  const page = loaded.slice(0, limit);
  const last = page.at(-1);
  const now = ctx.now();
  return {
    data: page.map((l) => timesheetView(l, who(l), now)),
    next_cursor: loaded.length > limit && last ? encodeCursor([last.ts.in_at, last.ts.id]) : null,
  };
}

function filters(q: ListTimesheetsQuery): SQL[] {
  const conds: SQL[] = [];
  if (q.status) conds.push(eq(timesheets.status, q.status));
  if (q.period) {
    const monday = periodStartOf(q.period);
    conds.push(between(shiftRequests.shift_date, monday, addDays(monday, 6)));
  }
  if (q.cursor) {
    const [inAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(or(lt(timesheets.in_at, inAt), and(eq(timesheets.in_at, inAt), lt(timesheets.id, id)))!);
  }
  return conds;
}

/** A business's timesheets, newest first, by period and status (owner, active teammate or admin; pay for those who see it). */
export async function listBusinessTimesheets(ctx: ServiceContext, businessId: string, q: ListTimesheetsQuery): Promise<TimesheetList> {
  const { business, role } = await accessBusiness(ctx, businessId);
  const loaded = await loadMany(ctx, and(eq(timesheets.business_id, business.id), ...filters(q))!, 'recent', q.limit + 1);
  return pageOf(ctx, loaded, q.limit, () => ({ side: 'business', role }));
}

/** A worker's own timesheets, newest first (the worker, or an admin). */
export async function listShifterTimesheets(ctx: ServiceContext, shifterId: string, q: ListTimesheetsQuery): Promise<TimesheetList> {
  const { shifter } = await privateRecords(ctx, shifterId, 'see their timesheets');
  const loaded = await loadMany(ctx, and(eq(timesheets.shifter_id, shifter.id), ...filters(q))!, 'recent', q.limit + 1);
  return pageOf(ctx, loaded, q.limit, () => ({ side: 'shifter' }));
}

export async function getTimesheet(ctx: ServiceContext, id: string): Promise<TimesheetView> {
  const { l, side } = await loadTimesheet(ctx, id);
  return timesheetView(l, side, ctx.now());
}

/** Timesheets each sweep run settles of each kind, at most (the rest wait for the next run, five minutes later); under D1's 100 bound parameters for the id lists. */
const SWEEP_BATCH = 50;

/**
 * The timesheet sweep (cron job `settle_timesheets`): disputes unanswered by their deadline resolve for
 * the worker and approve; submitted timesheets past their auto-approval time, with no dispute open and
 * the worker's window closed, approve themselves. Each write is guarded, so a run racing the business
 * (or another run) changes a timesheet once. Returns how many it approved.
 */
export async function sweepTimesheets(ctx: ServiceContext): Promise<{ approved: number; disputes: number }> {
  const now = ctx.now();
  const overdue = await loadMany(
    ctx,
    and(
      eq(timesheets.status, 'submitted'),
      sql`EXISTS (SELECT 1 FROM ${timesheetDisputes} WHERE ${timesheetDisputes.timesheet_id} = ${timesheets.id} AND ${timesheetDisputes.status} = 'open' AND ${timesheetDisputes.answer_due_at} <= ${now})`,
    )!,
    'due',
    SWEEP_BATCH,
  );
  let disputes = 0;
  for (const l of overdue) {
    try {
      if (await settleOverdueDispute(ctx, l)) disputes++;
    } catch (err) {
      ctx.log.error('timesheet sweep: an overdue dispute could not be settled', { timesheet_id: l.ts.id, ...errorFields(err) });
    }
  }
  const due = await loadMany(
    ctx,
    and(
      eq(timesheets.status, 'submitted'),
      lte(timesheets.auto_approve_at, now),
      or(sql`${timesheets.edited_at} IS NULL`, lte(timesheets.dispute_until, now)),
      sql`NOT EXISTS (SELECT 1 FROM ${timesheetDisputes} WHERE ${timesheetDisputes.timesheet_id} = ${timesheets.id} AND ${timesheetDisputes.status} = 'open')`,
    )!,
    'due',
    SWEEP_BATCH,
  );
  let approved = 0;
  for (const l of due) {
    try {
      if (await commitApproval(ctx, l, { how: 'auto', byUserId: null, audit: { action: 'timesheet.auto_approve' } })) approved++;
    } catch (err) {
      ctx.log.error('timesheet sweep: a timesheet could not be approved', { timesheet_id: l.ts.id, ...errorFields(err) });
    }
  }
  return { approved, disputes };
}
