import { and, eq, isNull, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { insertWhere, opApplied } from '../../db/conditional';
import { shiftRequests, shifters } from '../../db/schema';
import { AppError, type ErrorCode } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { fromMinor } from '../../lib/money';
import { auditInsert } from '../audit';
import { requirePerson, type ServiceContext } from '../context';
import { businessRecipients, crewOf, isCrew, type ShiftParty, shiftParty, shifterIdOf } from '../access';
import { draftEvent, publishOutbox } from '../events/outbox';
import { buildShiftRow } from './create';
import { overlappingAcceptedShifts } from './conflicts';
import { type LoadedShift, loadShift } from './load';
import { SHIFT_STATUS, isWorked } from './status';
import type { ShiftRow } from './view';

type Side = 'business' | 'shifter';

/** A conditional audit row: written only if the operation's guarded update took effect. */
export function auditIfOp(ctx: ServiceContext, shiftId: string, opId: string, action: string, data?: Record<string, unknown>) {
  return auditInsert(ctx, action, { type: 'shift_request', id: shiftId }, data, opApplied(shiftId, opId));
}

/** Notification to users, written only if the operation took effect. */
export function notifyIfOp(
  ctx: ServiceContext,
  shiftId: string,
  opId: string,
  n: { kind: string; userIds: string[]; title: string; body: string; data?: Record<string, unknown> },
) {
  if (n.userIds.length === 0) return null;
  return draftEvent(
    ctx,
    'notifications',
    { type: 'notify', dedupe_key: `${n.kind}:${shiftId}:${opId}`, user_ids: n.userIds, kind: n.kind, title: n.title, body: n.body, data: { shift_request_id: shiftId, ...n.data } },
    opApplied(shiftId, opId),
  );
}

/** Runs a guarded transition batch; returns whether the guarded update (first statement) changed a row. */
export async function runGuarded(ctx: ServiceContext, statements: Parameters<typeof runBatch>[1], events: Array<{ id: string } | null>) {
  const results = (await runBatch(ctx.db, statements)) as Array<{ meta?: { changes?: number } }>;
  const applied = (results[0]?.meta?.changes ?? 0) > 0;
  if (applied) await publishOutbox(ctx, events.filter((e): e is { id: string } => e !== null).map((e) => e.id));
  return applied;
}

/** The error for a shift that is not in the state an operation needs. */
export function stateError(row: ShiftRow, wanted: string): AppError {
  const byStatus: Record<number, ErrorCode> = {
    [SHIFT_STATUS.completed]: 'SHFT-COMPLETED-ERR',
    [SHIFT_STATUS.expired]: 'SHFT-EXPIRED-ERR',
    [SHIFT_STATUS.declined]: 'SHFT-DECLINED-ERR',
    [SHIFT_STATUS.superseded]: 'SHFT-SUPERSEDED-ERR',
    [SHIFT_STATUS.cancelled]: 'SHFT-CANCELLED-ERR',
  };
  const code = byStatus[row.request_status];
  if (code) return new AppError(code, undefined, { request_status: row.request_status });
  return new AppError('SHFT-STATE-ERR', `The shift request must be ${wanted}.`, { request_status: row.request_status });
}

/** Which side the caller acts on; dual-profile callers who are both parties must say. */
export function pickSide(p: ShiftParty, asked: Side | undefined, allowed: Side[]): Side {
  const sides: Side[] = [];
  if (p.businessRole && allowed.includes('business')) sides.push('business');
  if (p.isShifter && allowed.includes('shifter')) sides.push('shifter');
  if (asked) {
    if (!sides.includes(asked)) throw new AppError('FORBIDDEN-ERR', `You are not the ${asked} on this shift.`);
    return asked;
  }
  if (sides.length === 0) throw new AppError('FORBIDDEN-ERR', `Only the ${allowed.join(' or ')} may do this.`);
  if (sides.length > 1) throw new AppError('VALIDATION-ERR', 'You are both parties of this shift: send as = business or shifter.');
  return sides[0]!;
}

/**
 * An open broadcast is taken with claim. Its crew (who can see it) is told so (409); anyone else
 * still gets 404 from shiftParty.
 */
async function refuseOpenBroadcast(ctx: ServiceContext, s: LoadedShift, message: string) {
  if (!s.row.is_broadcast || s.row.shifter_id !== null) return;
  const own = await shifterIdOf(ctx, requirePerson(ctx).userId);
  if (own && (await isCrew(ctx, s.business.id, own))) throw new AppError('SHFT-STATE-ERR', message);
}

async function reload(ctx: ServiceContext, id: string) {
  return loadShift(ctx, id);
}

/** Targeted request: the shifter accepts (pending → accepted), refused if it overlaps an accepted shift. */
export async function acceptRequest(ctx: ServiceContext, id: string) {
  const s = await loadShift(ctx, id);
  await refuseOpenBroadcast(ctx, s, 'A broadcast is taken with claim, not accept.');
  const party = await shiftParty(ctx, s);
  pickSide(party, 'shifter', ['shifter']);
  if (s.row.is_broadcast) throw new AppError('SHFT-STATE-ERR', 'A broadcast is taken with claim, not accept.');
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  if (s.row.starts_at <= ctx.now()) throw new AppError('SHFT-STATE-ERR', 'The shift has already started.');
  const clashes = await overlappingAcceptedShifts(ctx, s.row.shifter_id!, s.row.starts_at, s.row.ends_at, s.row.id);
  if (clashes.length) throw new AppError('SHFT-CONFLICT-ERR', undefined, { conflicting_shift_request_ids: clashes.map((c) => c.id) });
  const op = newId('shiftRequest');
  const now = ctx.now();
  const note = notifyIfOp(ctx, id, op, {
    kind: 'shift_accepted',
    userIds: await businessRecipients(ctx, s.business.id),
    title: `${s.shifter?.display_name ?? 'A shifter'} accepted a shift`,
    body: `${s.row.shift_date} ${s.row.shift_in}–${s.row.shift_out}`,
  });
  const applied = await runGuarded(
    ctx,
    [
      ctx.db
        .update(shiftRequests)
        .set({ request_status: SHIFT_STATUS.accepted, accepted_at: now, last_op_id: op, updated_at: now })
        .where(and(eq(shiftRequests.id, id), eq(shiftRequests.request_status, SHIFT_STATUS.pending))),
      auditIfOp(ctx, id, op, 'shift_request.accept'),
      ...(note ? [note.statement] : []),
    ],
    [note],
  );
  if (!applied) throw stateError((await reload(ctx, id)).row, 'pending');
  return reload(ctx, id);
}

/** Targeted request: the shifter declines (pending → declined). */
export async function declineRequest(ctx: ServiceContext, id: string, reason?: string | null) {
  const s = await loadShift(ctx, id);
  await refuseOpenBroadcast(ctx, s, 'A broadcast cannot be declined; just do not claim it.');
  const party = await shiftParty(ctx, s);
  pickSide(party, 'shifter', ['shifter']);
  if (s.row.is_broadcast) throw new AppError('SHFT-STATE-ERR', 'A broadcast cannot be declined; just do not claim it.');
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  const op = newId('shiftRequest');
  const now = ctx.now();
  const note = notifyIfOp(ctx, id, op, {
    kind: 'shift_declined',
    userIds: await businessRecipients(ctx, s.business.id),
    title: `${s.shifter?.display_name ?? 'A shifter'} declined a shift`,
    body: `${s.row.shift_date} ${s.row.shift_in}–${s.row.shift_out}`,
  });
  const applied = await runGuarded(
    ctx,
    [
      ctx.db
        .update(shiftRequests)
        .set({ request_status: SHIFT_STATUS.declined, cancel_reason: reason ?? null, last_op_id: op, updated_at: now })
        .where(and(eq(shiftRequests.id, id), eq(shiftRequests.request_status, SHIFT_STATUS.pending))),
      auditIfOp(ctx, id, op, 'shift_request.decline', reason ? { reason } : undefined),
      ...(note ? [note.statement] : []),
    ],
    [note],
  );
  if (!applied) throw stateError((await reload(ctx, id)).row, 'pending');
  return reload(ctx, id);
}

/** The reason a shift cannot be cancelled, or null. */
export function cancelRefusal(row: ShiftRow): AppError | null {
  if (row.request_status === SHIFT_STATUS.pending) return null;
  if (row.request_status !== SHIFT_STATUS.accepted) return stateError(row, 'pending or accepted');
  if (isWorked(row)) return new AppError('SHFT-WORKED-ERR');
  if (row.shift_start_at !== null) return new AppError('SHFT-STARTED-ERR');
  if (row.is_noshow) return new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  return null;
}

export interface CancelResult {
  shift: LoadedShift;
  autoFill: { id: string } | null;
}

/**
 * Cancel by either party (→ 7). When the shifter cancels an accepted shift, the business has
 * auto_fill_on_cancel on and the start is at least AUTO_FILL_MIN_LEAD_MINUTES away, a broadcast
 * copy (parent_id = the cancelled row) goes out to the crew in the same batch.
 */
export async function cancelShift(ctx: ServiceContext, id: string, opts: { as?: Side; reason?: string | null } = {}): Promise<CancelResult> {
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  const side = pickSide(party, opts.as, ['business', 'shifter']);
  const refusal = cancelRefusal(s.row);
  if (refusal) throw refusal;
  if (side === 'shifter' && s.row.request_status !== SHIFT_STATUS.accepted) {
    throw new AppError('SHFT-STATE-ERR', 'A pending request is declined, not cancelled, by the shifter.');
  }
  const now = ctx.now();
  const op = newId('shiftRequest');
  const leadMinutes = (s.row.starts_at - now) / 60_000;
  const autoFill =
    side === 'shifter' && s.business.auto_fill_on_cancel && leadMinutes >= ctx.settings.AUTO_FILL_MIN_LEAD_MINUTES;

  const statements: Parameters<typeof runBatch>[1] = [
    ctx.db
      .update(shiftRequests)
      .set({ request_status: SHIFT_STATUS.cancelled, cancelled_at: now, cancelled_by: side, cancel_reason: opts.reason ?? null, last_op_id: op, updated_at: now })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, s.row.request_status),
          isNull(shiftRequests.shift_start_at),
          eq(shiftRequests.is_noshow, false),
        ),
      ),
    auditIfOp(ctx, id, op, 'shift_request.cancel', { side, reason: opts.reason ?? null, auto_fill: autoFill }),
  ];
  const events: Array<{ id: string } | null> = [];
  const otherSide =
    side === 'business'
      ? s.row.shifter_id
        ? (await ctx.db.select({ u: shifters.user_id }).from(shifters).where(eq(shifters.id, s.row.shifter_id))).map((r) => r.u)
        : []
      : await businessRecipients(ctx, s.business.id);
  const cancelNote = notifyIfOp(ctx, id, op, {
    kind: 'cancellation',
    userIds: otherSide,
    title: side === 'business' ? `${s.business.name} cancelled a shift` : `${s.shifter?.display_name ?? 'A shifter'} cancelled a shift`,
    body: `${s.row.shift_date} ${s.row.shift_in}–${s.row.shift_out}${autoFill ? ' — re-broadcast to your crew' : ''}`,
  });
  events.push(cancelNote);
  if (cancelNote) statements.push(cancelNote.statement);

  let child: { id: string } | null = null;
  if (autoFill) {
    const childId = newId('shiftRequest');
    child = { id: childId };
    const { id: _omit, last_op_id: _op, ...copy } = s.row;
    statements.push(
      insertWhere(
        ctx.db,
        shiftRequests,
        {
          ...copy,
          id: childId,
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
        opApplied(id, op),
      ),
    );
    const crew = (await crewOf(ctx, s.business.id)).filter((c) => c.shifterId !== s.row.shifter_id && c.acceptShiftReq);
    const crewNote = notifyIfOp(ctx, id, op, {
      kind: 'open_shift',
      userIds: [...new Set(crew.map((c) => c.userId))],
      title: `Open shift at ${s.business.name}`,
      body: `${s.row.shift_date} ${s.row.shift_in}–${s.row.shift_out} (re-broadcast)`,
      data: { shift_request_id: childId, parent_id: id },
    });
    events.push(crewNote);
    if (crewNote) statements.push(crewNote.statement);
    const hook = draftEvent(
      ctx,
      'webhooks',
      { type: 'broadcast.created', business_id: s.business.id, shift_request_id: childId, parent_id: id, occurred_at: new Date(now).toISOString() },
      opApplied(id, op),
    );
    events.push(hook);
    statements.push(hook.statement);
  }
  const applied = await runGuarded(ctx, statements, events);
  if (!applied) {
    const fresh = await reload(ctx, id);
    throw cancelRefusal(fresh.row) ?? new AppError('CONFLICT-ERR', 'The shift changed while cancelling; try again.');
  }
  return { shift: await reload(ctx, id), autoFill: child };
}

export interface ChangeInput {
  shift_request_id: string;
  shift_date?: string | undefined;
  shift_in?: string | undefined;
  shift_out?: string | undefined;
  shiftrole_id?: number | undefined;
  hourly_rate?: number | undefined;
  is_flexible?: boolean | undefined;
  note?: string | null | undefined;
}

/** Business side changes a pending request: the original becomes 4 and a pending child replaces it, atomically. */
export async function changeRequest(ctx: ServiceContext, input: ChangeInput) {
  const s = await loadShift(ctx, input.shift_request_id);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'business', ['business']);
  if (s.row.request_status !== SHIFT_STATUS.pending) throw stateError(s.row, 'pending');
  const r = s.row;
  const op = newId('shiftRequest');
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
  const note = notifyIfOp(ctx, r.id, op, {
    kind: 'shift_changed',
    userIds: recipients,
    title: `${s.business.name} changed a shift request`,
    body: `${child.shift_date} ${child.shift_in}–${child.shift_out}`,
    data: { new_shift_request_id: child.id },
  });
  const applied = await runGuarded(
    ctx,
    [
      ctx.db
        .update(shiftRequests)
        .set({ request_status: SHIFT_STATUS.superseded, last_op_id: op, updated_at: now })
        .where(and(eq(shiftRequests.id, r.id), eq(shiftRequests.request_status, SHIFT_STATUS.pending))),
      insertWhere(ctx.db, shiftRequests, child, opApplied(r.id, op)),
      auditIfOp(ctx, r.id, op, 'shift_request.change', { child_id: child.id }),
      ...(note ? [note.statement] : []),
    ],
    [note],
  );
  if (!applied) throw stateError((await reload(ctx, r.id)).row, 'pending');
  return { original: await reload(ctx, r.id), child: await reload(ctx, child.id) };
}

/** The business marks an accepted shift whose start has passed, with no clock-in, as a no-show. */
export async function markNoShow(ctx: ServiceContext, id: string) {
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  pickSide(party, 'business', ['business']);
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  if (s.row.shift_start_at !== null) throw new AppError('SHFT-STATE-ERR', 'The shifter clocked in; this is not a no-show.');
  if (s.row.starts_at > ctx.now()) throw new AppError('SHFT-STATE-ERR', 'A no-show can only be marked after the start.');
  if (s.row.is_noshow) return s;
  const op = newId('shiftRequest');
  const now = ctx.now();
  const recipients = s.shifter ? [s.shifter.user_id] : [];
  const note = notifyIfOp(ctx, id, op, { kind: 'no_show', userIds: recipients, title: `${s.business.name} marked you as a no-show`, body: `${s.row.shift_date} ${s.row.shift_in}` });
  await runGuarded(
    ctx,
    [
      ctx.db
        .update(shiftRequests)
        .set({ is_noshow: true, last_op_id: op, updated_at: now })
        .where(and(eq(shiftRequests.id, id), eq(shiftRequests.request_status, SHIFT_STATUS.accepted), isNull(shiftRequests.shift_start_at))),
      auditIfOp(ctx, id, op, 'shift_request.no_show'),
      ...(note ? [note.statement] : []),
    ],
    [note],
  );
  return reload(ctx, id);
}

/** Cron: pending requests whose start has passed become expired (6). */
export async function expirePendingShifts(ctx: ServiceContext): Promise<number> {
  const now = ctx.now();
  const res = await ctx.db
    .update(shiftRequests)
    .set({ request_status: SHIFT_STATUS.expired, updated_at: now })
    .where(and(eq(shiftRequests.request_status, SHIFT_STATUS.pending), sql`${shiftRequests.starts_at} <= ${now}`))
    .run();
  return res.meta.changes ?? 0;
}
