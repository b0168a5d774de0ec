import { and, asc, eq, gt } from 'drizzle-orm';
import { businesses, shiftRequests, shiftRoles } from '../../db/schema';
import { shifterIdOf } from '../access';
import { type ServiceContext, SHIFT_STATUS } from '../kernel';

/** The most shifts the embed's schedule page lists. */
const UPCOMING_MAX = 20;

/**
 * The next accepted shifts of the person's shifter profile (soonest first, at most 20), each with its
 * role and business name: the schedule page the embed's schedule frame opens. No shifter profile, no
 * shifts.
 */
export async function upcomingShiftsOfUser(ctx: ServiceContext, userId: string) {
  const me = await shifterIdOf(ctx, userId);
  if (!me) return [];
  return ctx.db
    .select({ row: shiftRequests, role: shiftRoles.label, business: businesses.name })
    .from(shiftRequests)
    .innerJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .where(
      and(
        eq(shiftRequests.shifter_id, me),
        eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
        gt(shiftRequests.starts_at, ctx.now()),
      ),
    )
    .orderBy(asc(shiftRequests.starts_at))
    .limit(UPCOMING_MAX);
}
