import { and, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import { mileageEntries } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
import { todayIn } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { committedSubject, markedWrite, prepareWrite, type ServiceContext } from '../kernel';
import { privateRecords } from '../access';
import type { CreateMileageInput, ListMileageQuery, MileageDeleted, MileageEntryView, MileageList, UpdateMileageInput } from './schemas';
import { nextVersion, rowAsRead, UPDATE_ATTEMPTS } from './versioned';

/**
 * Mileage log (spec 2.7). Who may do what:
 * - read (list, one): the owning shifter or an admin;
 * - create, update: the owning shifter only; an entry is the shifter's own claim, and its rate is
 *   captured from the operator setting at the moment the shifter writes it;
 * - delete: the owning shifter, or an admin removing a wrong or abusive line on the shifter's behalf.
 *
 * The operator rate is in US cents per mile, so every amount here is in USD whatever the shifter's
 * own currency.
 *
 * Every change is one guarded write (services/kernel/guarded-write.ts) with its audit row; a retried create
 * whose first attempt committed (Idempotency-Key) answers with the entry it wrote.
 */
export const MILEAGE_CURRENCY = 'USD';

type MileageRow = typeof mileageEntries.$inferSelect;

/** miles (two decimals) × cents per mile, rounded half-up to the cent; the SQL rollup computes the same per row. */
export function mileageAmountCents(miles: number, rateCents: number): number {
  return Math.floor((Math.round(miles * 100) * rateCents + 50) / 100);
}

export function mileageView(r: MileageRow): MileageEntryView {
  const cents = mileageAmountCents(r.miles, r.rate_per_mile_cents);
  return {
    id: r.id,
    shifter_id: r.shifter_id,
    log_date: r.log_date,
    miles: r.miles,
    rate_per_mile_cents: r.rate_per_mile_cents,
    amount_cents: cents,
    amount: cents / 100,
    currency: MILEAGE_CURRENCY,
    purpose: r.purpose,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

type MileageCursor = [string, number, string];
const isMileageCursor = (v: unknown): v is MileageCursor =>
  Array.isArray(v) && v.length === 3 && typeof v[0] === 'string' && typeof v[1] === 'number' && typeof v[2] === 'string';

/** Rows before the cursor in the list's order (log_date, created_at, id, all descending). */
function after(cursor: string | null | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [date, createdAt, id] = decodeCursor(cursor, isMileageCursor);
  const m = mileageEntries;
  return or(
    lt(m.log_date, date),
    and(eq(m.log_date, date), lt(m.created_at, createdAt)),
    and(eq(m.log_date, date), eq(m.created_at, createdAt), lt(m.id, id)),
  );
}

/**
 * GET /v1/shifter/{id}/mileage?year: the year's entries (default: the current year in the
 * shifter's zone), newest first, with the year's totals computed in SQL.
 */
export async function listMileage(ctx: ServiceContext, shifterId: string, q: ListMileageQuery): Promise<MileageList> {
  const { shifter } = await privateRecords(ctx, shifterId, 'read mileage');
  const year = q.year ?? Number(todayIn(shifter.timezone, ctx.now()).slice(0, 4));
  const m = mileageEntries;
  const inYear = and(eq(m.shifter_id, shifter.id), gte(m.log_date, `${year}-01-01`), lt(m.log_date, `${year + 1}-01-01`));
  const hundredths = sql`cast(round(${m.miles} * 100) as integer)`;
  const page = after(q.cursor);
  const [rows, totals] = await Promise.all([
    ctx.db
      .select()
      .from(m)
      .where(page ? and(inYear, page) : inYear)
      .orderBy(desc(m.log_date), desc(m.created_at), desc(m.id))
      .limit(q.limit + 1),
    ctx.db
      .select({
        entries: sql<number>`count(*)`,
        hundredths: sql<number>`coalesce(sum(${hundredths}), 0)`,
        // Per row: half-up to the cent (integer division of non-negative integers), then summed.
        cents: sql<number>`coalesce(sum((${hundredths} * ${m.rate_per_mile_cents} + 50) / 100), 0)`,
      })
      .from(m)
      .where(inYear),
  ]);
  const t = totals[0] ?? { entries: 0, hundredths: 0, cents: 0 };
  const data = rows.slice(0, q.limit);
  const last = data.at(-1);
  return {
    shifter_id: shifter.id,
    data: data.map(mileageView),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.log_date, last.created_at, last.id]) : null,
    rollup: {
      year,
      entries: Number(t.entries),
      total_miles: Number(t.hundredths) / 100,
      total_amount_cents: Number(t.cents),
      total_amount: Number(t.cents) / 100,
      currency: MILEAGE_CURRENCY,
    },
  };
}

async function entryOf(ctx: ServiceContext, shifterId: string, entryId: string): Promise<MileageRow> {
  const [row] = await ctx.db
    .select()
    .from(mileageEntries)
    .where(and(eq(mileageEntries.id, entryId), eq(mileageEntries.shifter_id, shifterId)))
    .limit(1);
  if (!row) throw new AppError('MILEAGE-NOT-FND-ERR');
  return row;
}

/** GET /v1/shifter/{id}/mileage/{entry_id} */
export async function getMileage(ctx: ServiceContext, shifterId: string, entryId: string): Promise<MileageEntryView> {
  const { shifter } = await privateRecords(ctx, shifterId, 'read mileage');
  return mileageView(await entryOf(ctx, shifter.id, entryId));
}

/** POST /v1/shifter/{id}/mileage: the rate is the operator setting now (fallback 67), kept for good. */
export async function createMileage(ctx: ServiceContext, shifterId: string, input: CreateMileageInput): Promise<MileageEntryView> {
  const { shifter } = await privateRecords(ctx, shifterId, 'log mileage', { adminAllowed: false });
  const done = committedSubject(ctx, 'mileage_entry');
  if (done) return mileageView(await entryOf(ctx, shifter.id, done));
  const now = ctx.now();
  const row: MileageRow = {
    id: newId('mileage'),
    shifter_id: shifter.id,
    log_date: input.log_date,
    miles: input.miles,
    rate_per_mile_cents: ctx.settings.MILEAGE_RATE_CENTS,
    purpose: input.purpose || null,
    created_at: now,
    updated_at: now,
  };
  // A plain insert: the batch commits whole or not at all.
  await prepareWrite(ctx, { type: 'mileage_entry', id: row.id }).commit({
    guard: ctx.db.insert(mileageEntries).values(row),
    audit: { action: 'mileage.create', data: { shifter_id: shifter.id, miles: row.miles, rate: row.rate_per_mile_cents } },
  });
  return mileageView(row);
}

/**
 * PATCH/PUT /v1/shifter/{id}/mileage/{entry_id}: only the fields sent change; the captured rate never
 * does. Guarded on the version read; a concurrent change makes it read again and re-apply.
 */
export async function updateMileage(
  ctx: ServiceContext,
  shifterId: string,
  entryId: string,
  input: UpdateMileageInput,
): Promise<MileageEntryView> {
  const { shifter } = await privateRecords(ctx, shifterId, 'change mileage', { adminAllowed: false });
  if (committedSubject(ctx, 'mileage_entry') === entryId) return mileageView(await entryOf(ctx, shifter.id, entryId));
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const old = await entryOf(ctx, shifter.id, entryId);
    const next: MileageRow = {
      ...old,
      log_date: input.log_date ?? old.log_date,
      miles: input.miles ?? old.miles,
      purpose: input.purpose === undefined ? old.purpose : input.purpose || null,
      updated_at: nextVersion(ctx, old.updated_at),
    };
    const applied = await markedWrite(
      ctx,
      { type: 'mileage_entry', id: old.id },
      {
        precondition: rowAsRead(mileageEntries, old.id, shifter.id, old.updated_at),
        change: (marked) =>
          ctx.db
            .update(mileageEntries)
            .set({ log_date: next.log_date, miles: next.miles, purpose: next.purpose, updated_at: next.updated_at })
            .where(and(eq(mileageEntries.id, old.id), marked)),
        audit: { action: 'mileage.update', data: { changed: Object.keys(input) } },
      },
    );
    if (applied) return mileageView(next);
  }
  throw new AppError('CONFLICT-ERR', 'The mileage entry kept changing meanwhile; try again.');
}

/** DELETE /v1/shifter/{id}/mileage/{entry_id} (owner, or an admin). */
export async function deleteMileage(ctx: ServiceContext, shifterId: string, entryId: string): Promise<MileageDeleted> {
  const { shifter } = await privateRecords(ctx, shifterId, 'delete mileage');
  if (committedSubject(ctx, 'mileage_entry') === entryId) return { id: entryId, deleted: true as const };
  const old = await entryOf(ctx, shifter.id, entryId);
  const applied = await markedWrite(
    ctx,
    { type: 'mileage_entry', id: old.id },
    {
      precondition: rowAsRead(mileageEntries, old.id, shifter.id),
      change: (marked) => ctx.db.delete(mileageEntries).where(and(eq(mileageEntries.id, old.id), marked)),
      audit: { action: 'mileage.delete', data: { shifter_id: shifter.id, log_date: old.log_date, miles: old.miles } },
    },
  );
  if (!applied) throw new AppError('MILEAGE-NOT-FND-ERR');
  return { id: old.id, deleted: true as const };
}
