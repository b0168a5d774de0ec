import { and, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { timesheetDisputes, timesheets } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { committedSubject, prepareWrite, requirePerson, type ServiceContext, shiftWhen } from '../kernel';
import { businessNotice, commitApproval, noOpenDispute, timesheetOpApplied, timesUnchanged } from './approve';
import { timesheetEvent } from './events';
import { type DisputeRow, type LoadedTimesheet, loadTimesheet, loadTimesheetRow, type TimesheetSide } from './load';
import { answerDueAt, CONSENT_EDIT_MINUTES, disputeUntil, parseBreaks, policyOf, unpaidMinutesOf } from './policy';
import { checkBreaks } from './punches';
import { refusal } from './rules';
import type { DisputeTimesheetInput, EditTimesheetInput, ResolveDisputeInput, TimesheetView } from './schemas';
import { countedNow, timesheetView } from './view';

const MINUTE = 60_000;

/** After a guard that did not hold: the rule's refusal now, else "changed meanwhile". */
async function refusedAfter(ctx: ServiceContext, id: string, action: 'edit' | 'dispute' | 'resolve', side: TimesheetSide) {
  const fresh = (await loadTimesheetRow(ctx, id))!;
  return refusal(fresh, action, side, ctx.now()) ?? new AppError('TIMESHEET-STATE-ERR', 'The timesheet changed meanwhile; look again.');
}

async function answerFromSubject(ctx: ServiceContext, id: string): Promise<TimesheetView> {
  const { l, side } = await loadTimesheet(ctx, id);
  return timesheetView(l, side, ctx.now());
}

/**
 * The business corrects a submitted timesheet with a reason code (and a note for `other`). A move of
 * either end by more than CONSENT_EDIT_MINUTES needs the worker's consent (TIMESHEET-CONSENT-ERR: the
 * worker disputes with those times instead). The worker is told, and may dispute it for the
 * business's dispute window from now; approval waits for that window.
 */
export async function editTimesheet(ctx: ServiceContext, id: string, input: EditTimesheetInput): Promise<TimesheetView> {
  const done = committedSubject(ctx, 'timesheet');
  if (done) return answerFromSubject(ctx, done);
  const { l, side } = await loadTimesheet(ctx, id);
  const now = ctx.now();
  const refused = refusal(l, 'edit', side, now);
  if (refused) throw refused;
  const { ts, shift } = l;
  const inAt = input.in_at !== undefined ? Date.parse(input.in_at) : ts.in_at;
  const outAt = input.out_at !== undefined ? Date.parse(input.out_at) : ts.out_at!;
  if (outAt <= inAt) {
    throw new AppError('VALIDATION-ERR', 'out_at: the end comes after the start', [
      { field: 'out_at', message: 'the end comes after the start' },
    ]);
  }
  if (outAt > now + MINUTE)
    throw new AppError('VALIDATION-ERR', 'out_at: not in the future', [{ field: 'out_at', message: 'not in the future' }]);
  const moved = Math.max(Math.abs(inAt - ts.in_at), Math.abs(outAt - ts.out_at!)) / MINUTE;
  if (moved > CONSENT_EDIT_MINUTES) throw new AppError('TIMESHEET-CONSENT-ERR', undefined, { moved_minutes: Math.round(moved) });
  const breaks = input.breaks !== undefined ? checkBreaks(input.breaks, inAt, outAt) : checkBreaks(breakInputs(ts.breaks), inAt, outAt);
  const policy = policyOf(shift.business);
  const w = prepareWrite(ctx, { type: 'timesheet', id }, (op) => timesheetOpApplied(id, op));
  const actor = requirePerson(ctx);
  const r = await w.commit({
    guard: ctx.db
      .update(timesheets)
      .set({
        in_at: inAt,
        out_at: outAt,
        breaks: JSON.stringify(breaks),
        unpaid_break_minutes: unpaidMinutesOf(breaks),
        left_early: outAt < shift.row.ends_at,
        edit_reason: input.reason,
        edit_note: input.note || null,
        edited_at: now,
        edited_by_user_id: actor.userId,
        dispute_until: disputeUntil(policy, now),
        last_op_id: w.op,
        updated_at: now,
      })
      .where(and(eq(timesheets.id, id), eq(timesheets.status, 'submitted'), ...timesUnchanged(ts), noOpenDispute(id))),
    audit: {
      action: 'timesheet.edit',
      data: {
        reason: input.reason,
        before: { in_at: toIso(ts.in_at), out_at: toIso(ts.out_at), unpaid_break_minutes: ts.unpaid_break_minutes },
        after: { in_at: toIso(inAt), out_at: toIso(outAt), unpaid_break_minutes: unpaidMinutesOf(breaks) },
      },
    },
    notify: [
      shift.shifter
        ? {
            kind: 'timesheet_edited',
            userIds: [shift.shifter.user_id],
            title: `${shift.business.name} changed your timesheet`,
            body: `${shiftWhen(shift.row)}. You may dispute it until ${toIso(disputeUntil(policy, now))}.`,
          }
        : null,
    ],
  });
  if (!r.applied) throw await refusedAfter(ctx, id, 'edit', side);
  return answerFromSubject(ctx, id);
}

const breakInputs = (stored: string) => parseBreaks(stored).map((b) => ({ start: toIso(b.start_at), end: toIso(b.end_at), paid: b.paid }));

/**
 * The worker disputes a submitted timesheet within its window, proposing the times they say are right
 * and why. The business has its answer window; unanswered by then, the dispute resolves for the worker
 * (the sweep, `settleOverdueDisputes`).
 */
export async function disputeTimesheet(ctx: ServiceContext, id: string, input: DisputeTimesheetInput): Promise<TimesheetView> {
  const done = committedSubject(ctx, 'timesheet');
  if (done) return answerFromSubject(ctx, done);
  const { l, side } = await loadTimesheet(ctx, id);
  const now = ctx.now();
  const refused = refusal(l, 'dispute', side, now);
  if (refused) throw refused;
  const { ts, shift } = l;
  const proposedIn = Date.parse(input.in_at);
  const proposedOut = Date.parse(input.out_at);
  if (proposedOut > now + MINUTE) {
    throw new AppError('VALIDATION-ERR', 'out_at: not in the future', [{ field: 'out_at', message: 'not in the future' }]);
  }
  const unpaid = input.unpaid_break_minutes ?? ts.unpaid_break_minutes;
  if (unpaid * MINUTE >= proposedOut - proposedIn) {
    throw new AppError('VALIDATION-ERR', 'unpaid_break_minutes: breaks cannot fill the whole shift', [
      { field: 'unpaid_break_minutes', message: 'breaks cannot fill the whole shift' },
    ]);
  }
  const policy = policyOf(shift.business);
  const actor = requirePerson(ctx);
  const dispute: DisputeRow = {
    id: newId('timesheetDispute'),
    timesheet_id: id,
    status: 'open',
    proposed_in_at: proposedIn,
    proposed_out_at: proposedOut,
    proposed_unpaid_break_minutes: unpaid,
    reason: input.reason,
    answer_due_at: answerDueAt(policy, now),
    answer_note: null,
    answered_at: null,
    answered_by_user_id: null,
    created_by_user_id: actor.userId,
    created_at: now,
    updated_at: now,
  };
  const w = prepareWrite(ctx, { type: 'timesheet', id }, (op) => timesheetOpApplied(id, op));
  const r = await w.commit({
    guard: ctx.db
      .update(timesheets)
      .set({ last_op_id: w.op, updated_at: now })
      .where(
        and(
          eq(timesheets.id, id),
          eq(timesheets.status, 'submitted'),
          gte(timesheets.dispute_until, now),
          ...timesUnchanged(ts),
          noOpenDispute(id),
        ),
      ),
    follow: [insertWhere(ctx.db, timesheetDisputes, dispute, w.applied!)],
    audit: {
      action: 'timesheet.dispute',
      data: { dispute_id: dispute.id, proposed_in_at: input.in_at, proposed_out_at: input.out_at, unpaid },
    },
    notify: [
      await businessNotice(
        ctx,
        l,
        'timesheet_disputed',
        `${shift.shifter?.display_name ?? 'A worker'} disputed their timesheet`,
        `${shiftWhen(shift.row)}. Answer by ${toIso(dispute.answer_due_at)}, or their times stand.`,
      ),
    ],
    events: [timesheetEvent('timesheet.disputed', ts, countedNow(l), shift.row.currency, now, dispute)],
  });
  if (!r.applied) throw await refusedAfter(ctx, id, 'dispute', side);
  return answerFromSubject(ctx, id);
}

/** The dispute's answer, as a statement conditional on the approval or edit having applied. */
const answerDispute = (
  ctx: ServiceContext,
  d: DisputeRow,
  status: DisputeRow['status'],
  note: string | null,
  byUserId: string | null,
  now: number,
  applied: SQL,
) =>
  ctx.db
    .update(timesheetDisputes)
    .set({ status, answer_note: note, answered_at: now, answered_by_user_id: byUserId, updated_at: now })
    .where(and(eq(timesheetDisputes.id, d.id), eq(timesheetDisputes.status, 'open'), applied));

const disputeOpen = (d: DisputeRow) =>
  sql`EXISTS (SELECT 1 FROM ${timesheetDisputes} WHERE ${timesheetDisputes.id} = ${d.id} AND ${timesheetDisputes.status} = 'open')`;

/**
 * The business answers an open dispute: `accept` puts the worker's times on the timesheet and
 * approves it in the same write (its invoice is made); `reject` keeps the times, with the reason the
 * worker reads, and the business may then approve.
 */
export async function resolveDispute(ctx: ServiceContext, id: string, input: ResolveDisputeInput): Promise<TimesheetView> {
  const done = committedSubject(ctx, 'timesheet');
  if (done) return answerFromSubject(ctx, done);
  const { l, side } = await loadTimesheet(ctx, id);
  const now = ctx.now();
  const refused = refusal(l, 'resolve', side, now);
  if (refused) throw refused;
  const d = l.dispute!;
  const actor = requirePerson(ctx);
  const shift = l.shift;
  const told = shift.shifter
    ? {
        kind: 'timesheet_dispute_answered',
        userIds: [shift.shifter.user_id],
        title: input.decision === 'accept' ? `${shift.business.name} accepted your times` : `${shift.business.name} kept their times`,
        body: input.decision === 'accept' ? shiftWhen(shift.row) : `${shiftWhen(shift.row)}: ${input.note ?? ''}`,
      }
    : null;
  const resolved = { id: d.id, status: input.decision === 'accept' ? ('accepted' as const) : ('rejected' as const) };
  let applied: boolean;
  if (input.decision === 'accept') {
    applied = await commitApproval(ctx, l, {
      how: 'business',
      byUserId: actor.userId,
      times: { in_at: d.proposed_in_at, out_at: d.proposed_out_at, unpaid_break_minutes: d.proposed_unpaid_break_minutes },
      when: [disputeOpen(d)],
      follow: (applied) => [answerDispute(ctx, d, 'accepted', input.note || null, actor.userId, now, applied)],
      audit: { action: 'timesheet.dispute_accept', data: { dispute_id: d.id } },
      notify: told ? [told] : [],
      events: [timesheetEvent('timesheet.resolved', l.ts, countedNow(l), shift.row.currency, now, resolved)],
    });
  } else {
    const w = prepareWrite(ctx, { type: 'timesheet', id }, (op) => timesheetOpApplied(id, op));
    const r = await w.commit({
      guard: ctx.db
        .update(timesheets)
        .set({ last_op_id: w.op, updated_at: now })
        .where(and(eq(timesheets.id, id), eq(timesheets.status, 'submitted'), disputeOpen(d))),
      follow: [answerDispute(ctx, d, 'rejected', input.note ?? null, actor.userId, now, w.applied!)],
      audit: { action: 'timesheet.dispute_reject', data: { dispute_id: d.id } },
      notify: [told],
      events: [timesheetEvent('timesheet.resolved', l.ts, countedNow(l), shift.row.currency, now, resolved)],
    });
    applied = r.applied;
  }
  if (!applied) throw await refusedAfter(ctx, id, 'resolve', side);
  return answerFromSubject(ctx, id);
}

/**
 * A dispute unanswered by its deadline resolves for the worker (the sweep): their times go on the
 * timesheet and it is approved, in one write.
 */
export async function settleOverdueDispute(ctx: ServiceContext, l: LoadedTimesheet): Promise<boolean> {
  const d = l.dispute;
  const now = ctx.now();
  if (d?.status !== 'open' || d.answer_due_at > now) return false;
  const resolved = { id: d.id, status: 'resolved_for_worker' as const };
  return commitApproval(ctx, l, {
    how: 'dispute_overdue',
    byUserId: null,
    times: { in_at: d.proposed_in_at, out_at: d.proposed_out_at, unpaid_break_minutes: d.proposed_unpaid_break_minutes },
    when: [
      sql`EXISTS (SELECT 1 FROM ${timesheetDisputes} WHERE ${and(eq(timesheetDisputes.id, d.id), eq(timesheetDisputes.status, 'open'), lte(timesheetDisputes.answer_due_at, now))})`,
    ],
    follow: (applied) => [answerDispute(ctx, d, 'resolved_for_worker', null, null, now, applied)],
    audit: { action: 'timesheet.dispute_overdue', data: { dispute_id: d.id } },
    notify: [
      await businessNotice(
        ctx,
        l,
        'timesheet_disputed',
        `A dispute was settled for ${l.shift.shifter?.display_name ?? 'the worker'}`,
        `${shiftWhen(l.shift.row)}: unanswered by its deadline, the worker's times were approved.`,
      ),
    ],
    events: [timesheetEvent('timesheet.resolved', l.ts, countedNow(l), l.shift.row.currency, now, resolved)],
  });
}
