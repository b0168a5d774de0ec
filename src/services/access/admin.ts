import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson } from '../kernel';

/**
 * Admin checks are made here and nowhere else. An admin has standing toward anything. The demo cast's
 * admin (a demo account: its password is published) has it only toward demo subjects, so no demo
 * account holds rights over real data; `isAdmin` is false for it.
 */

/** An admin over everything (never a demo account). */
export function isAdmin(actor: PersonActor): boolean {
  return actor.isAdmin;
}

/**
 * The reach of an admin queue or admin action (disputes, support, notification deliveries): `all` for
 * an admin, `demo` for the demo cast's admin (demo subjects only); anyone else is refused with `message`.
 */
export function adminReach(actor: PersonActor, message: string): 'all' | 'demo' {
  if (actor.isAdmin) return 'all';
  if (actor.demoAdmin === true) return 'demo';
  throw new AppError('FORBIDDEN-ERR', message);
}

/** Admin standing toward a subject that is (or is not) a demo subject. */
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
