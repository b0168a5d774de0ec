import { and, eq, gt, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { businesses, requestAuthorizations, shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { shiftInstants } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { accessBusiness, actingBusinessIds, isAdmin, isCrew } from '../access';
import { requirePerson, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { loadView } from './load';
import type { ConflictsQuery, ShiftConflicts } from './schemas';

const OTHER = 'other_shift';
const other = alias(shiftRequests, OTHER);

/**
 * The overlap rule, once: another accepted, not-no-show shift of the shifter whose real interval
 * [starts_at, ends_at) meets [startsAt, endsAt). Half-open windows overlap unless a_out <= b_in or
 * a_in >= b_out; real instants catch an overnight shift from the day before and DST-shifted ends.
 */
function overlapConditions(
  t: typeof shiftRequests | typeof other,
  shifterId: string,
  startsAt: number,
  endsAt: number,
  excludeId?: string | null,
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
 * For a guarded update: true while the shifter has no accepted shift overlapping the window. Put in
 * the same UPDATE that accepts or claims, the check and the write are one step, so two overlapping
 * shifts accepted at the same moment cannot both succeed (D1 runs batches one at a time).
 */
export function noOverlapSql(shifterId: string, startsAt: number, endsAt: number, excludeId: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${shiftRequests} AS ${sql.identifier(OTHER)} WHERE ${overlapConditions(other, shifterId, startsAt, endsAt, excludeId)})`;
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
  const { startsAt, endsAt } = shiftInstants(q.date, q.shift_in, q.shift_out, tz);
  const rows = await overlappingAcceptedShifts(ctx, shifter.id, startsAt, endsAt, q.exclude_shift_request_id);
  const window = { starts_at: toIso(startsAt), ends_at: toIso(endsAt), timezone: tz };
  const seesAll = isShifter || isAdmin(actor);
  if (!seesAll) mine ??= await actingBusinessIds(ctx, actor.userId);
  const inFull = seesAll ? rows : rows.filter((r) => mine!.includes(r.business_id));
  const busy = seesAll
    ? []
    : rows.filter((r) => !mine!.includes(r.business_id)).map((r) => ({ starts_at: toIso(r.starts_at), ends_at: toIso(r.ends_at) }));
  return { window, data: await Promise.all(inFull.map((r) => loadView(ctx, r.id))), busy };
}
