import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { shiftDeliverables, shiftRequests } from '../../db/schema';
import { insertWhere } from '../../db/conditional';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { shiftParty, type ShiftParty } from '../access';
import { committedSubject, isWorked, prepareWrite, type ServiceContext, workedShiftSql } from '../kernel';
import { loadShift } from '../shifts';
import { filesOf } from './file-views';
import type { DeliverableFileView, DeliverableList, DeliverableView, RecordDeliverableInput } from './schemas';

/**
 * Shift deliverables (issue 14): what was delivered for a shift, as a note, links and files (files.ts).
 * - read: the parties of the shift (its shifter; the business's owner and active teammates) and admins;
 *   the crew of an open broadcast is no party yet, so it gets the same 404 as anyone else;
 * - write: the shift's shifter once the shift is worked; the business side (owner or active teammate)
 *   once the shift has its shifter (accepted or worked). Admins read but do not write.
 * The insert is guarded in SQL on the shift's state, so a shift cancelled (or re-targeted) between the
 * read and the write refuses the deliverable rather than storing it.
 */
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
  const r = await prepareWrite(
    ctx,
    { type: 'shift_deliverable', id: row.id },
    () => sql`EXISTS (SELECT 1 FROM ${shiftDeliverables} WHERE ${shiftDeliverables.id} = ${row.id})`,
  ).commit({
    guard: insertWhere(ctx.db, shiftDeliverables, row, sql`EXISTS (SELECT 1 FROM ${sr} WHERE ${sr.id} = ${s.row.id} AND ${state})`),
    audit: { action: 'shift_deliverable.record', data: { shift_request_id: s.row.id, side, links: input.links.length } },
  });
  if (!r.applied) throw new AppError('SHFT-STATE-ERR', 'The shift changed meanwhile; it no longer takes deliverables.');
  return deliverableView(row, []);
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
