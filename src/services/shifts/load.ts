import { and, eq } from 'drizzle-orm';
import { businesses, shiftRequests, shiftRoles, shifters, teammates } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson } from '../context';
import type { BusinessRole } from '../businesses/access';
import { shiftRequestView, type ShiftRow } from './view';

export interface LoadedShift {
  row: ShiftRow;
  business: typeof businesses.$inferSelect;
  shifter: typeof shifters.$inferSelect | null;
  roleLabel: string | null;
}

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

export interface ShiftParty {
  actor: PersonActor;
  /** The caller's standing on the business side, if any. */
  businessRole: BusinessRole | null;
  /** True when the caller is the shift's shifter. */
  isShifter: boolean;
  /** The caller's own shifter id, if they have a shifter profile. */
  callerShifterId: string | null;
}

/** The caller's relation to a shift. A caller who is neither party (nor admin) gets 404. */
export async function shiftParty(ctx: ServiceContext, s: LoadedShift, opts: { allowCrewForBroadcast?: boolean } = {}): Promise<ShiftParty> {
  const actor = requirePerson(ctx);
  const [own] = await ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, actor.userId)).limit(1);
  const callerShifterId = own?.id ?? null;
  let businessRole: BusinessRole | null = null;
  if (s.business.user_id === actor.userId) businessRole = 'owner';
  else {
    const [tm] = await ctx.db
      .select({ status: teammates.status })
      .from(teammates)
      .where(and(eq(teammates.business_id, s.business.id), eq(teammates.user_id, actor.userId)))
      .limit(1);
    if (tm?.status === 1) businessRole = 'teammate';
    else if (actor.isAdmin) businessRole = 'admin';
  }
  const isShifter = callerShifterId !== null && s.row.shifter_id === callerShifterId;
  if (!businessRole && !isShifter && !opts.allowCrewForBroadcast) throw new AppError('SHFT-NOT-FND-ERR');
  return { actor, businessRole, isShifter, callerShifterId };
}

export function viewLoaded(s: LoadedShift) {
  return shiftRequestView(s.row, {
    business_name: s.business.name,
    business_slug: s.business.slug,
    business_timezone: s.business.timezone,
    role_label: s.roleLabel,
    shifter_name: s.shifter?.display_name ?? null,
    shifter_slug: s.shifter?.slug ?? null,
  });
}
