import { eq } from 'drizzle-orm';
import { businesses, shiftRequests, shiftRoles, shifters } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import type { ServiceContext } from '../context';
import type { ShiftRow } from './row';

export interface LoadedShift {
  row: ShiftRow;
  business: typeof businesses.$inferSelect;
  shifter: typeof shifters.$inferSelect | null;
  roleLabel: string | null;
}

/** One shift with its business, shifter and role label; 404 when it does not exist (no access check: callers make it). */
export async function loadShift(ctx: ServiceContext, id: string): Promise<LoadedShift> {
  const [r] = await ctx.db
    .select({ row: shiftRequests, business: businesses, shifter: shifters, roleLabel: shiftRoles.label })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .leftJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .where(eq(shiftRequests.id, id))
    .limit(1);
  if (!r) throw new AppError('SHFT-NOT-FND-ERR');
  return r;
}
