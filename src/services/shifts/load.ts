import { eq } from 'drizzle-orm';
import { businesses, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import type { ShiftRequestView } from './schemas';
import { shiftRequestView, type ShiftRow } from './view';

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

/** The API view of a loaded shift. */
export function viewLoaded(s: LoadedShift): ShiftRequestView {
  return shiftRequestView(s.row, {
    business_name: s.business.name,
    business_slug: s.business.slug,
    business_timezone: s.business.timezone,
    role_label: s.roleLabel,
    shifter_name: s.shifter?.display_name ?? null,
    shifter_slug: s.shifter?.slug ?? null,
  });
}

/** One shift's API view, read fresh: what each transition answers with. */
export async function loadView(ctx: ServiceContext, id: string): Promise<ShiftRequestView> {
  return viewLoaded(await loadShift(ctx, id));
}
