import { and, eq } from 'drizzle-orm';
import { businesses, teammates } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson } from '../context';

export type BusinessRole = 'owner' | 'teammate' | 'admin';
export type BusinessRow = typeof businesses.$inferSelect;

/**
 * Loads a business and the caller's standing in it. `allow` lists the standings that may go on:
 * the owner, an active teammate (status 1) or an admin. A caller with no standing at all gets 404,
 * so business ids cannot be probed; a caller with a lesser standing gets 403.
 */
export async function accessBusiness(
  ctx: ServiceContext,
  businessId: string,
  allow: BusinessRole[] = ['owner', 'teammate', 'admin'],
): Promise<{ business: BusinessRow; role: BusinessRole; actor: PersonActor }> {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db
    .select({ b: businesses, tmStatus: teammates.status })
    .from(businesses)
    .leftJoin(teammates, and(eq(teammates.business_id, businesses.id), eq(teammates.user_id, actor.userId)))
    .where(eq(businesses.id, businessId))
    .limit(1);
  if (!row) throw new AppError('BUSINESS-NOT-FND-ERR');
  const role: BusinessRole | null =
    row.b.user_id === actor.userId ? 'owner' : row.tmStatus === 1 ? 'teammate' : actor.isAdmin ? 'admin' : null;
  if (role === null) throw new AppError('BUSINESS-NOT-FND-ERR');
  if (!allow.includes(role)) {
    throw new AppError('FORBIDDEN-ERR', `Only the ${allow.join(' or ')} may do this for the business.`);
  }
  return { business: row.b, role, actor };
}
