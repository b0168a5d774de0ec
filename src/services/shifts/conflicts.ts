import { and, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import { businesses, requestAuthorizations, shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { shiftInstants } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { accessBusiness, actingBusinessIds, isCrew } from '../access';
import { type ServiceContext, requirePerson } from '../context';
import { loadShift, viewLoaded } from './load';
import { SHIFT_STATUS } from './status';

/**
 * The shifter's accepted shifts overlapping [startsAt, endsAt). Half-open windows overlap unless
 * a_out <= b_in or a_in >= b_out; comparing real instants catches an overnight shift from the day
 * before that runs into the window, and DST-shifted ends.
 */
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
    .where(
      and(
        eq(shiftRequests.shifter_id, shifterId),
        eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
        eq(shiftRequests.is_noshow, false),
        lt(shiftRequests.starts_at, endsAt),
        gt(shiftRequests.ends_at, startsAt),
        ...(excludeId ? [ne(shiftRequests.id, excludeId)] : []),
      ),
    )
    .orderBy(shiftRequests.starts_at);
}

export interface ConflictQuery {
  shifter_id: string;
  date: string;
  shift_in: string;
  shift_out: string;
  exclude_shift_request_id?: string | undefined;
  business_id?: string | undefined;
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
 */
export async function findConflicts(ctx: ServiceContext, q: ConflictQuery) {
  const actor = requirePerson(ctx);
  const [shifter] = await ctx.db.select().from(shifters).where(eq(shifters.id, q.shifter_id)).limit(1);
  if (!shifter) throw new AppError('SHIFTER-NOT-FND-ERR');
  let tz = shifter.timezone;
  if (q.business_id) {
    const business =
      shifter.user_id === actor.userId ? await counterpartBusiness(ctx, q.business_id, shifter.id) : (await accessBusiness(ctx, q.business_id)).business;
    tz = business.timezone;
    if (shifter.user_id !== actor.userId && !actor.isAdmin && !(await isCrew(ctx, business.id, shifter.id))) {
      throw new AppError('SHIFTER-NOT-FND-ERR');
    }
  } else if (shifter.user_id !== actor.userId && !actor.isAdmin) {
    const mine = await actingBusinessIds(ctx, actor.userId);
    const links = mine.length
      ? await ctx.db
          .select({ id: requestAuthorizations.id })
          .from(requestAuthorizations)
          .where(and(eq(requestAuthorizations.shifter_id, shifter.id), eq(requestAuthorizations.status, 'accepted'), inArray(requestAuthorizations.business_id, mine)))
          .limit(1)
      : [];
    if (!links.length) throw new AppError('SHIFTER-NOT-FND-ERR');
  }
  const { startsAt, endsAt } = shiftInstants(q.date, q.shift_in, q.shift_out, tz);
  const rows = await overlappingAcceptedShifts(ctx, shifter.id, startsAt, endsAt, q.exclude_shift_request_id);
  const loaded = await Promise.all(rows.map((r) => loadShift(ctx, r.id)));
  return { window: { starts_at: toIso(startsAt), ends_at: toIso(endsAt), timezone: tz }, data: loaded.map(viewLoaded) };
}
