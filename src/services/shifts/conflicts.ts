import { type AnyColumn, and, eq, gt, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { businesses, requestAuthorizations, shiftRequests, shifters } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { AppError } from '../../lib/errors';
import { shiftInstants } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { accessBusiness, actingBusinessIds, callerShifter, isAdmin, isCrew, partnerBusiness } from '../access';
import { requirePerson, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { loadView } from './load';
import type { ConflictsQuery, ShiftConflicts, ShiftRequestView } from './schemas';

const OTHER = 'other_shift';
const other = alias(shiftRequests, OTHER);
const ASKED = 'asked_shift';
const asked = alias(shiftRequests, ASKED);

/**
 * The overlap rule, once: another accepted, not-no-show shift of the shifter whose real interval
 * [starts_at, ends_at) meets [startsAt, endsAt). Half-open windows overlap unless a_out <= b_in or
 * a_in >= b_out; real instants catch an overnight shift from the day before and DST-shifted ends.
 */
function overlapConditions(
  t: typeof shiftRequests | typeof other,
  shifterId: string,
  startsAt: number | AnyColumn,
  endsAt: number | AnyColumn,
  excludeId?: string | AnyColumn | null,
) {
  return and(
    eq(t.shifter_id, shifterId),
    eq(t.request_status, SHIFT_STATUS.accepted),
    eq(t.is_noshow, false),
    lt(t.starts_at, endsAt),
    gt(t.ends_at, startsAt),
    ...(excludeId ? [ne(t.id, excludeId)] : []),
  )!;
}

/** The shifter's accepted shifts overlapping [startsAt, endsAt). */
export async function overlappingAcceptedShifts(
  ctx: ServiceContext,
  shifterId: string,
  startsAt: number,
  endsAt: number,
  excludeId?: string | null,
) {
  return ctx.db
    .select()
    .from(shiftRequests)
    .where(overlapConditions(shiftRequests, shifterId, startsAt, endsAt, excludeId))
    .orderBy(shiftRequests.starts_at);
}

/**
 * Every accepted, not-no-show shift of these shifters whose real interval meets [startsAt, endsAt):
 * one read for many planned shifts at once (copy week), each then checked against the rows with
 * `overlapsWindow`, the same half-open rule as overlapConditions. Any business's: a caller shows
 * another business's rows as busy windows only.
 */
export async function acceptedShiftsOfShifters(ctx: ServiceContext, shifterIds: readonly string[], startsAt: number, endsAt: number) {
  if (!shifterIds.length) return [];
  return ctx.db
    .select({
      id: shiftRequests.id,
      business_id: shiftRequests.business_id,
      shifter_id: shiftRequests.shifter_id,
      starts_at: shiftRequests.starts_at,
      ends_at: shiftRequests.ends_at,
    })
    .from(shiftRequests)
    .where(
      and(
        sql`${shiftRequests.shifter_id} IN (SELECT value FROM json_each(${JSON.stringify(shifterIds)}))`,
        eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
        eq(shiftRequests.is_noshow, false),
        lt(shiftRequests.starts_at, endsAt),
        gt(shiftRequests.ends_at, startsAt),
      ),
    )
    .orderBy(shiftRequests.starts_at);
}

/** [a.starts_at, a.ends_at) meets [b.starts_at, b.ends_at): unless a_out <= b_in or a_in >= b_out. */
export const overlapsWindow = (a: { starts_at: number; ends_at: number }, b: { starts_at: number; ends_at: number }) =>
  a.starts_at < b.ends_at && a.ends_at > b.starts_at;

/**
 * For a guarded update: true while the shifter has no accepted shift overlapping the window. Put in
 * the same UPDATE that accepts or claims, the check and the write are one step, so two overlapping
 * shifts accepted at the same moment cannot both succeed (D1 runs batches one at a time).
 */
export function noOverlapSql(shifterId: string, startsAt: number, endsAt: number, excludeId: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${shiftRequests} AS ${sql.identifier(OTHER)} WHERE ${overlapConditions(other, shifterId, startsAt, endsAt, excludeId)})`;
}

/** Shifts asked about at once by the overlap lister (the find page's requests, bounded under D1's parameter limit). */
const MAX_ASKED = 90;

/**
 * The caller's own accepted shifts (in progress included) that each of `ids` overlaps, by the one
 * overlap rule the accept and claim guards carry: what the worker's pages mark on a request or an
 * open shift before Accept or Claim, which the service would refuse while the other one stands.
 * Only the caller's own shifts are read; ids with no overlap are left out of the answer.
 */
export async function overlapsWithMyShifts(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, ShiftRequestView[]>> {
  const out = new Map<string, ShiftRequestView[]>();
  const wanted = [...new Set(ids)].slice(0, MAX_ASKED);
  if (!wanted.length) return out;
  const me = await callerShifter(ctx);
  if (!me) return out;
  const pairs = await ctx.db
    .select({ asked: asked.id, other: other.id })
    .from(asked)
    .innerJoin(other, overlapConditions(other, me.id, asked.starts_at, asked.ends_at, asked.id))
    .where(inArray(asked.id, wanted))
    .orderBy(other.starts_at);
  const views = new Map<string, ShiftRequestView>();
  await Promise.all([...new Set(pairs.map((p) => p.other))].map(async (id) => views.set(id, await loadView(ctx, id))));
  for (const p of pairs) out.set(p.asked, [...(out.get(p.asked) ?? []), views.get(p.other)!]);
  return out;
}

/** A business whose zone the shifter may read the window in: one they are connected to, or one they act for. */
async function counterpartBusiness(ctx: ServiceContext, businessId: string, shifterId: string) {
  const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (b && (await isCrew(ctx, b.id, shifterId))) return b;
  return (await accessBusiness(ctx, businessId)).business;
}

/**
 * GET /v1/shift_request/conflicts. The window is wall-clock in the business's zone when business_id
 * is given, else in the shifter's own zone. Readable by the shifter, by a business the shifter is
 * connected to (owner or active teammate), and by admins.
 *
 * What each reader sees: the shifter and admins get every overlapping shift in full (`data`). Anyone
 * else gets in full only the shifts at businesses they act for (owner or active teammate); the
 * shifter's shifts elsewhere are only busy windows (`busy`: starts_at, ends_at), so a business never
 * learns another business's rate, note, role, name or clock record.
 */
export async function findConflicts(ctx: ServiceContext, q: ConflictsQuery): Promise<ShiftConflicts> {
  return conflictsSeenBy(ctx, await personReader(ctx, q), q);
}

/** Who reads a shifter's conflicts, and how: the zone of the window, and whose shifts they see in full. */
interface ConflictReader {
  shifterId: string;
  tz: string;
  /** The businesses whose shifts the reader sees in full (every other one is a busy window); 'all' for the shifter and admins. */
  mine: readonly string[] | 'all';
}

/** findConflicts' reader: a person allowed to ask (else 404 SHIFTER-NOT-FND-ERR, or the business's own refusal). */
async function personReader(ctx: ServiceContext, q: Pick<ConflictsQuery, 'shifter_id' | 'business_id'>): Promise<ConflictReader> {
  const actor = requirePerson(ctx);
  const [shifter] = await ctx.db.select().from(shifters).where(eq(shifters.id, q.shifter_id)).limit(1);
  if (!shifter) throw new AppError('SHIFTER-NOT-FND-ERR');
  const isShifter = shifter.user_id === actor.userId;
  let tz = shifter.timezone;
  let mine: string[] | null = null;
  if (q.business_id) {
    const business = isShifter
      ? await counterpartBusiness(ctx, q.business_id, shifter.id)
      : (await accessBusiness(ctx, q.business_id)).business;
    tz = business.timezone;
    if (!isShifter && !isAdmin(actor) && !(await isCrew(ctx, business.id, shifter.id))) {
      throw new AppError('SHIFTER-NOT-FND-ERR');
    }
  } else if (!isShifter && !isAdmin(actor)) {
    mine = await actingBusinessIds(ctx, actor.userId);
    const links = mine.length
      ? await ctx.db
          .select({ id: requestAuthorizations.id })
          .from(requestAuthorizations)
          .where(
            and(
              eq(requestAuthorizations.shifter_id, shifter.id),
              eq(requestAuthorizations.status, 'accepted'),
              inArray(requestAuthorizations.business_id, mine),
            ),
          )
          .limit(1)
      : [];
    if (!links.length) throw new AppError('SHIFTER-NOT-FND-ERR');
  }
  if (isShifter || isAdmin(actor)) return { shifterId: shifter.id, tz, mine: 'all' };
  return { shifterId: shifter.id, tz, mine: mine ?? (await actingBusinessIds(ctx, actor.userId)) };
}

/**
 * A partner client reading the conflicts of a shift it posted for a linked business: that business's
 * shifts in full only when its credential and the link carry shifts:read (what the partner's list of
 * the business's shifts would show it), every other shift as a busy window.
 */
async function partnerReader(ctx: ServiceContext, businessId: string, shifterId: string): Promise<ConflictReader> {
  const { business, link, actor } = await partnerBusiness(ctx, businessId);
  const reads = actor.scopes.includes('shifts:read') && link.scopes.includes('shifts:read');
  return { shifterId, tz: business.timezone, mine: reads ? [business.id] : [] };
}

/** The shifter's accepted shifts overlapping the window, as `reader` sees them. */
async function conflictsSeenBy(
  ctx: ServiceContext,
  reader: ConflictReader,
  q: Pick<ConflictsQuery, 'date' | 'shift_in' | 'shift_out' | 'exclude_shift_request_id'>,
): Promise<ShiftConflicts> {
  const { mine, tz } = reader;
  const { startsAt, endsAt } = shiftInstants(q.date, q.shift_in, q.shift_out, tz);
  const rows = await overlappingAcceptedShifts(ctx, reader.shifterId, startsAt, endsAt, q.exclude_shift_request_id);
  const window = { starts_at: toIso(startsAt), ends_at: toIso(endsAt), timezone: tz };
  const inFull = mine === 'all' ? rows : rows.filter((r) => mine.includes(r.business_id));
  const busy =
    mine === 'all'
      ? []
      : rows.filter((r) => !mine.includes(r.business_id)).map((r) => ({ starts_at: toIso(r.starts_at), ends_at: toIso(r.ends_at) }));
  return { window, data: await Promise.all(inFull.map((r) => loadView(ctx, r.id))), busy };
}

/** A shift window on the business's wall clock, as a shift request gives it. */
export type ShiftWindow = Pick<ConflictsQuery, 'date' | 'shift_in' | 'shift_out'>;

/**
 * The conflicts of targeted shifts just posted for one business and shifter, as their poster may read
 * them (the posting warnings' `shifter_busy`), one answer per window; who may read what is settled
 * once for all of them. A person reads exactly what GET /v1/shift_request/conflicts answers them for
 * that shifter, date, times and business; a partner client as partnerReader says.
 */
export async function posterConflicts(
  ctx: ServiceContext,
  businessId: string,
  shifterId: string,
  windows: readonly ShiftWindow[],
): Promise<ShiftConflicts[]> {
  const reader =
    ctx.actor.kind === 'partner'
      ? await partnerReader(ctx, businessId, shifterId)
      : await personReader(ctx, { shifter_id: shifterId, business_id: businessId });
  const out: ShiftConflicts[] = [];
  // A few at a time: a template's run may post dozens of shifts.
  for (const part of chunk([...windows], 6)) out.push(...(await Promise.all(part.map((w) => conflictsSeenBy(ctx, reader, w)))));
  return out;
}
