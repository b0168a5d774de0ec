import { eq } from 'drizzle-orm';
import { shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson } from '../kernel';
import { adminOverUser } from './admin';

export type ShifterRow = typeof shifters.$inferSelect;

/** The shifter profile id of a user, or null. */
export async function shifterIdOf(ctx: ServiceContext, userId: string): Promise<string | null> {
  const [row] = await ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, userId)).limit(1);
  return row?.id ?? null;
}

/** The caller's own shifter profile, or null. */
export async function callerShifter(ctx: ServiceContext): Promise<ShifterRow | null> {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db.select().from(shifters).where(eq(shifters.user_id, actor.userId)).limit(1);
  return row ?? null;
}

export interface ShifterAccess {
  shifter: ShifterRow;
  actor: PersonActor;
  isOwner: boolean;
  /** An admin acting on someone else's records (false when the admin is the owner). */
  asAdmin: boolean;
}

/** Loads the shifter profile a records route names, and the caller's standing toward it. */
export async function shifterAccess(ctx: ServiceContext, shifterId: string): Promise<ShifterAccess> {
  const actor = requirePerson(ctx);
  const [shifter] = await ctx.db.select().from(shifters).where(eq(shifters.id, shifterId)).limit(1);
  if (!shifter) throw new AppError('SHIFTER-NOT-FND-ERR');
  const isOwner = shifter.user_id === actor.userId;
  return { shifter, actor, isOwner, asAdmin: !isOwner && (await adminOverUser(ctx, actor, shifter.user_id)) };
}

/**
 * Private records (mileage, counter rules, earnings): the owning shifter or an admin. Anyone else has
 * no standing at all and gets 404, so record ids cannot be probed. With `adminAllowed: false` an
 * admin gets 403 (they may know the records exist, but this action is the owner's).
 */
export async function privateRecords(
  ctx: ServiceContext,
  shifterId: string,
  what: string,
  opts: { adminAllowed: boolean } = { adminAllowed: true },
) {
  const a = await shifterAccess(ctx, shifterId);
  if (a.isOwner) return a;
  if (a.asAdmin) {
    if (opts.adminAllowed) return a;
    throw new AppError('FORBIDDEN-ERR', `Only the shifter may ${what}.`);
  }
  throw new AppError('SHIFTER-NOT-FND-ERR');
}
