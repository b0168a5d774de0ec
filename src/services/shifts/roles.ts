import { asc, eq } from 'drizzle-orm';
import { shiftRoles } from '../../db/schema';
import type { ServiceContext } from '../kernel';

export interface ShiftRoleView {
  id: number;
  slug: string;
  label: string;
}

/** The roles a shift can be posted for (reference data: the active ones, by label). */
export async function listShiftRoles(ctx: ServiceContext): Promise<ShiftRoleView[]> {
  return ctx.db
    .select({ id: shiftRoles.id, slug: shiftRoles.slug, label: shiftRoles.label })
    .from(shiftRoles)
    .where(eq(shiftRoles.is_active, true))
    .orderBy(asc(shiftRoles.label));
}
