import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from '../../db/client';
import { timesheetDisputes, timesheets } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { invoiceInsertWhere } from '../invoices';
import { businessRecipients } from '../notifications';
import { completeIfPrepaid } from '../payments';
import { committedSubject, type Notice, prepareWrite, type ServiceContext, shiftWhen } from '../kernel';
import { timesheetEvent } from './events';
import { type LoadedTimesheet, loadTimesheet, loadTimesheetRow, type TimesheetRow } from './load';
import { type CountedTimes, paidMinutes, timesheetPayMinor } from './policy';
import { refusal } from './rules';
import type { TimesheetView } from './schemas';
import { timesheetView } from './view';

/** True inside a batch once the timesheet carries this operation id (its guarded update ran). */
export const timesheetOpApplied = (id: string, op: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${timesheets} WHERE ${timesheets.id} = ${id} AND ${timesheets.last_op_id} = ${op})`;

/** No dispute of the timesheet is open (SQL). */
export const noOpenDispute = (id: string): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM ${timesheetDisputes} WHERE ${timesheetDisputes.timesheet_id} = ${id} AND ${timesheetDisputes.status} = 'open')`;

/** The timesheet's times are still the ones read (nobody changed them meanwhile). */
export const timesUnchanged = (ts: TimesheetRow): SQL[] => [
  eq(timesheets.in_at, ts.in_at),
  ts.out_at === null ? sql`${timesheets.out_at} IS NULL` : eq(timesheets.out_at, ts.out_at),
  eq(timesheets.unpaid_break_minutes, ts.unpaid_break_minutes),
];

export interface Approval {
  how: 'business' | 'auto' | 'dispute_overdue';
  byUserId: string | null;
  /** Times that replace the timesheet's in the same write (a dispute accepted or resolved for the worker). */
  times?: CountedTimes;
  /** Further conditions of the guard (the dispute being open and due…). */
  when?: SQL[];
  /** Further statements, each conditional on `applied` (the dispute's answer…). */
  follow?: (applied: SQL) => BatchItem[];
  audit: { action: string; data?: Record<string, unknown> };
  notify?: Notice[];
  events?: ReturnType<typeof timesheetEvent>[];
}

/**
 * Approves a submitted timesheet in one guarded batch: the paid minutes and their pay are fixed on it
 * (rounded per the business's policy, unpaid breaks out, rounded half up once), its invoice is written
 * for that pay, and a shift paid beforehand completes. The guard holds only while it is still
 * submitted with the times read and (unless `when` says otherwise) no dispute open.
 */
export async function commitApproval(ctx: ServiceContext, l: LoadedTimesheet, a: Approval): Promise<boolean> {
  const { ts, shift } = l;
  const times: CountedTimes = a.times ?? { in_at: ts.in_at, out_at: ts.out_at!, unpaid_break_minutes: ts.unpaid_break_minutes };
  const minutes = paidMinutes(times, shift.business.timesheet_rounding_minutes);
  const payMinor = timesheetPayMinor(minutes, shift.row.hourly_rate_minor);
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'timesheet', id: ts.id }, (op) => timesheetOpApplied(ts.id, op));
  const applied = w.applied!;
  // What the approval writes on the timesheet; the event shows the row as it stands after it.
  const approved = {
    ...times,
    status: 'approved' as const,
    approved_at: now,
    approved_how: a.how,
    approved_by_user_id: a.byUserId,
    paid_minutes: minutes,
    pay_minor: payMinor,
  };
  const after: TimesheetRow = { ...ts, ...approved };
  const r = await w.commit({
    guard: ctx.db
      .update(timesheets)
      .set({
        ...approved,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(
        and(eq(timesheets.id, ts.id), eq(timesheets.status, 'submitted'), ...timesUnchanged(ts), ...(a.when ?? [noOpenDispute(ts.id)])),
      ),
    follow: [
      invoiceInsertWhere(ctx.db, shift.row, now, applied, payMinor),
      completeIfPrepaid(ctx.db, shift.row.id, now, applied),
      ...(a.follow?.(applied) ?? []),
    ],
    audit: { action: a.audit.action, data: { ...a.audit.data, how: a.how, paid_minutes: minutes, pay_minor: payMinor } },
    notify: [
      ...(a.notify ?? []),
      shift.shifter
        ? {
            kind: 'timesheet_approved',
            userIds: [shift.shifter.user_id],
            title: `${shift.business.name} approved your time`,
            body: `${shiftWhen(shift.row)}: ${hoursWords(minutes)}, ${fromMinor(payMinor, shift.row.currency)} ${shift.row.currency}`,
          }
        : null,
    ],
    events: [...(a.events ?? []), timesheetEvent('timesheet.approved', after, { minutes, payMinor }, shift.row.currency, now)],
  });
  return r.applied;
}

export const hoursWords = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;

/**
 * The business approves a submitted timesheet (owner, active teammate or admin): its invoice is made
 * for the approved time. Repeating it on an approved timesheet answers it as it stands.
 */
export async function approveTimesheet(ctx: ServiceContext, id: string): Promise<TimesheetView> {
  const done = committedSubject(ctx, 'timesheet');
  const { l, side } = await loadTimesheet(ctx, done ?? id);
  const now = ctx.now();
  if (done || (side.side === 'business' && (l.ts.status === 'approved' || l.ts.status === 'locked'))) return timesheetView(l, side, now);
  const refused = refusal(l, 'approve', side, now);
  if (refused) throw refused;
  const actor = ctx.actor.kind === 'user' || ctx.actor.kind === 'agent' ? ctx.actor.userId : null;
  const ok = await commitApproval(ctx, l, { how: 'business', byUserId: actor, audit: { action: 'timesheet.approve' } });
  const fresh = (await loadTimesheetRow(ctx, id))!;
  if (!ok && fresh.ts.status !== 'approved') {
    throw refusal(fresh, 'approve', side, ctx.now()) ?? new AppError('TIMESHEET-STATE-ERR', 'The timesheet changed meanwhile; look again.');
  }
  return timesheetView(fresh, side, ctx.now());
}

/**
 * Why approving the timesheet would be refused now (the one rule, rules.ts), or null when it would
 * go through (or is approved already, which answers as it stands): for a preview that never asks a
 * person to confirm what the service refuses.
 */
export async function approvalRefusal(ctx: ServiceContext, id: string): Promise<AppError | null> {
  const { l, side } = await loadTimesheet(ctx, id);
  if (side.side === 'business' && (l.ts.status === 'approved' || l.ts.status === 'locked')) return null;
  return refusal(l, 'approve', side, ctx.now());
}

/** Who of the business hears of a timesheet's event (the audience of its kind). */
export const businessNotice = async (
  ctx: ServiceContext,
  l: LoadedTimesheet,
  kind: string,
  title: string,
  body: string,
): Promise<Notice> => ({
  kind,
  userIds: await businessRecipients(ctx, l.shift.business.id, kind),
  title,
  body,
});
