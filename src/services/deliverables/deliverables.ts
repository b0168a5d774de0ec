import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { shiftDeliverables, shiftRequests } from '../../db/schema';
import { insertWhere } from '../../db/conditional';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { toIso } from '../../lib/time';
import { shiftParty, type ShiftParty } from '../access';
import { committedSubject, existsIn, isWorked, markedWrite, prepareWrite, type ServiceContext, workedShiftSql } from '../kernel';
import { loadShift } from '../shifts';
import { filesOf } from './file-views';
import type { DeliverableDeleted, DeliverableFileView, DeliverableList, DeliverableView, RecordDeliverableInput } from './schemas';

/**
 * Shift deliverables (issue 14): what was delivered for a shift, as a note, links and files (files.ts).
 * - read: the parties of the shift (its shifter; the business's owner and active teammates) and admins;
 *   the crew of an open broadcast is no party yet, so it gets the same 404 as anyone else;
 * - write: the shift's shifter once the shift is worked; the business side (owner or active teammate)
 *   once the shift has its shifter (accepted or worked). Admins read but do not write.
 * The insert is guarded in SQL on the shift's state, so a shift cancelled (or re-targeted) between the
 * read and the write refuses the deliverable rather than storing it, and on the count: at most
 * MAX_DELIVERABLES_PER_SIDE per shift and side (one side's flood never takes the other's room). Its
 * author deletes one (deleteDeliverable), files and objects with it, which frees its place.
 */
export const MAX_DELIVERABLES_PER_SIDE = 10;
type DeliverableRow = typeof shiftDeliverables.$inferSelect;

function deliverableView(r: DeliverableRow, files: DeliverableFileView[]): DeliverableView {
  const links = JSON.parse(r.links) as Array<{ url: string; label: string | null }>;
  return {
    id: r.id,
    shift_request_id: r.shift_request_id,
    author_user_id: r.author_user_id,
    author_side: r.author_side,
    note: r.note,
    links,
    files,
    created_at: toIso(r.created_at),
  };
}

/** The caller as a party of the shift; 404 for anyone else (crew of an open broadcast included). */
export async function partyOf(ctx: ServiceContext, shiftId: string) {
  const s = await loadShift(ctx, shiftId);
  const party = await shiftParty(ctx, s);
  if (!party.isShifter && !party.businessRole) throw new AppError('SHFT-NOT-FND-ERR');
  return { s, party };
}

/** Which side the caller writes as; the shifter side first for a dual-profile caller who is the shifter. */
function writerSide(party: ShiftParty): 'shifter' | 'business' {
  if (party.isShifter) return 'shifter';
  if (party.businessRole === 'owner' || party.businessRole === 'teammate') return 'business';
  throw new AppError('FORBIDDEN-ERR', 'Only the parties of the shift record its deliverables.');
}

export async function oneDeliverable(ctx: ServiceContext, shiftId: string, id: string): Promise<DeliverableRow> {
  const [row] = await ctx.db
    .select()
    .from(shiftDeliverables)
    .where(and(eq(shiftDeliverables.id, id), eq(shiftDeliverables.shift_request_id, shiftId)))
    .limit(1);
  if (!row) throw new AppError('SHFT-NOT-FND-ERR');
  return row;
}

/**
 * Who may write on the shift now, and the SQL that must still hold on the shift row at the write:
 * the shifter once the shift is worked; the business side once it has its shifter (accepted or worked).
 * Recording a deliverable and attaching a file to one follow the same rule.
 */
export function writeRule(s: { row: typeof shiftRequests.$inferSelect }, party: ShiftParty): { side: 'shifter' | 'business'; state: SQL } {
  const side = writerSide(party);
  const sr = shiftRequests;
  if (side === 'shifter') {
    if (!isWorked(s.row)) throw new AppError('SHFT-STATE-ERR', 'The shifter records deliverables once the shift is worked (clocked out).');
    return { side, state: and(workedShiftSql(), eq(sr.shifter_id, s.row.shifter_id!))! };
  }
  if (!s.row.shifter_id || ![2, 5].includes(s.row.request_status)) {
    throw new AppError('SHFT-STATE-ERR', 'Deliverables belong to a shift that has its shifter (accepted or worked).');
  }
  return { side, state: and(sql`${sr.request_status} IN (2, 5)`, eq(sr.shifter_id, s.row.shifter_id))! };
}

/** POST /v1/shift_request/{id}/deliverables */
export async function recordDeliverable(ctx: ServiceContext, shiftId: string, input: RecordDeliverableInput): Promise<DeliverableView> {
  const { s, party } = await partyOf(ctx, shiftId);
  const done = committedSubject(ctx, 'shift_deliverable');
  if (done) return deliverableView(await oneDeliverable(ctx, s.row.id, done), (await filesOf(ctx, s.row.id)).get(done) ?? []);
  const sr = shiftRequests;
  const { side, state } = writeRule(s, party);
  const row: DeliverableRow = {
    id: newId('deliverable'),
    shift_request_id: s.row.id,
    author_user_id: party.actor.userId,
    author_side: side,
    note: input.note || null,
    links: JSON.stringify(input.links.map((l) => ({ url: l.url, label: l.label || null }))),
    created_at: ctx.now(),
  };
  if ((await deliverablesOf(ctx, s.row.id, side)) >= MAX_DELIVERABLES_PER_SIDE) throw tooMany(side);
  const sd = shiftDeliverables;
  const count = sql`(SELECT COUNT(*) FROM ${sd} WHERE ${sd.shift_request_id} = ${s.row.id} AND ${sd.author_side} = ${side})`;
  const r = await prepareWrite(
    ctx,
    { type: 'shift_deliverable', id: row.id },
    () => sql`EXISTS (SELECT 1 FROM ${sd} WHERE ${sd.id} = ${row.id})`,
  ).commit({
    guard: insertWhere(
      ctx.db,
      sd,
      row,
      sql`EXISTS (SELECT 1 FROM ${sr} WHERE ${sr.id} = ${s.row.id} AND ${state}) AND ${count} < ${MAX_DELIVERABLES_PER_SIDE}`,
    ),
    audit: { action: 'shift_deliverable.record', data: { shift_request_id: s.row.id, side, links: input.links.length } },
  });
  if (!r.applied) {
    if ((await deliverablesOf(ctx, s.row.id, side)) >= MAX_DELIVERABLES_PER_SIDE) throw tooMany(side);
    throw new AppError('SHFT-STATE-ERR', 'The shift changed meanwhile; it no longer takes deliverables.');
  }
  return deliverableView(row, []);
}

const deliverablesOf = (ctx: ServiceContext, shiftId: string, side: 'shifter' | 'business') =>
  ctx.db.$count(shiftDeliverables, and(eq(shiftDeliverables.shift_request_id, shiftId), eq(shiftDeliverables.author_side, side)));

const tooMany = (side: 'shifter' | 'business') =>
  new AppError(
    'DELIVERABLE-LIMIT-ERR',
    `A shift keeps at most ${MAX_DELIVERABLES_PER_SIDE} deliverables from each side; delete one to record another.`,
    { limit: MAX_DELIVERABLES_PER_SIDE, side },
  );

/**
 * DELETE /v1/shift_request/{id}/deliverables/{deliverable_id}: by its author only, while still a party
 * of the shift (anyone else who may read it, the other party and admins included: 403; anyone else:
 * 404). One marked write removes the row, its file rows with it (ON DELETE CASCADE) and writes the
 * audit row; then every object under the deliverable's R2 prefix is deleted, so a file stored by an
 * upload racing the deletion goes too (that upload's row insert finds no deliverable and removes its
 * own object). A failed object delete is logged and leaves only an unreferenced object.
 */
export async function deleteDeliverable(ctx: ServiceContext, shiftId: string, id: string): Promise<DeliverableDeleted> {
  const { s, party } = await partyOf(ctx, shiftId);
  const dlv = await oneDeliverable(ctx, s.row.id, id);
  if (dlv.author_user_id !== party.actor.userId) throw new AppError('FORBIDDEN-ERR', 'Only its author deletes a deliverable.');
  const sd = shiftDeliverables;
  const applied = await markedWrite(
    ctx,
    { type: 'shift_deliverable', id: dlv.id },
    {
      precondition: existsIn(sd, and(eq(sd.id, dlv.id), eq(sd.author_user_id, party.actor.userId))!),
      change: (marked) => ctx.db.delete(sd).where(and(eq(sd.id, dlv.id), marked)),
      audit: { action: 'shift_deliverable.delete', data: { shift_request_id: s.row.id, side: dlv.author_side } },
    },
  );
  if (!applied) throw new AppError('SHFT-NOT-FND-ERR');
  await removeObjectsUnder(ctx, `deliverables/${s.row.id}/${dlv.id}/`);
  return { id: dlv.id, deleted: true as const };
}

async function removeObjectsUnder(ctx: ServiceContext, prefix: string) {
  try {
    let cursor: string | undefined;
    do {
      const page = await ctx.env.UPLOADS.list({ prefix, cursor });
      if (page.objects.length) await ctx.env.UPLOADS.delete(page.objects.map((o) => o.key));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  } catch (err) {
    ctx.log.error('deliverable objects delete failed', { prefix, ...errorFields(err) });
  }
}

/** GET /v1/shift_request/{id}/deliverables: oldest first. */
export async function listDeliverables(ctx: ServiceContext, shiftId: string): Promise<DeliverableList> {
  const { s } = await partyOf(ctx, shiftId);
  const rows = await ctx.db
    .select()
    .from(shiftDeliverables)
    .where(eq(shiftDeliverables.shift_request_id, s.row.id))
    .orderBy(asc(shiftDeliverables.created_at), asc(shiftDeliverables.id))
    .limit(500);
  const files = await filesOf(ctx, s.row.id);
  return { shift_request_id: s.row.id, data: rows.map((r) => deliverableView(r, files.get(r.id) ?? [])) };
}
