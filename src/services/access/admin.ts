import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson } from '../kernel';

/**
 * Admin standing toward a subject. An admin has it toward anything. The demo cast's admin (a demo
 * account: its password is published) has it only toward demo subjects, so no demo account holds
 * rights over real data; any code that reads `actor.isAdmin` alone treats it as a plain user.
 */
export function adminOver(actor: PersonActor, subjectIsDemo: boolean): boolean {
  return actor.isAdmin || (actor.demoAdmin === true && subjectIsDemo);
}

/** Whether a user is a demo account (false for an unknown id). */
export async function userIsDemo(ctx: ServiceContext, userId: string): Promise<boolean> {
  const [row] = await ctx.db.select({ isDemo: users.is_demo }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.isDemo ?? false;
}

/** Admin standing toward what a user owns; looks the owner up only for the demo cast's admin. */
export async function adminOverUser(ctx: ServiceContext, actor: PersonActor, ownerUserId: string): Promise<boolean> {
  if (actor.isAdmin) return true;
  return actor.demoAdmin === true && (await userIsDemo(ctx, ownerUserId));
}

/** The caller's own account, or any account the caller is admin over; anything else is 403. */
export async function assertSelfOrAdminOf(ctx: ServiceContext, userId: string): Promise<PersonActor> {
  const actor = requirePerson(ctx);
  if (actor.userId !== userId && !(await adminOverUser(ctx, actor, userId))) {
    throw new AppError('FORBIDDEN-ERR', 'You may only read your own account.');
  }
  return actor;
}
