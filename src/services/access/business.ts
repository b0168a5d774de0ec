import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { businesses, teammates } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type PersonActor, type ServiceContext, requirePerson } from '../kernel';
import { adminOver, userIsDemo } from './admin';
import { partnerBusiness } from './partner';

/** Teammate status values (spec 2.3: a teammate is active when its status is 1). */
export const TEAMMATE_STATUS = { suspended: 0, active: 1 } as const;

/** A caller's standing toward a business: its owner, an active teammate, or an admin. */
export type BusinessRole = 'owner' | 'teammate' | 'admin';
export type BusinessRow = typeof businesses.$inferSelect;

/**
 * The one rule: owner first, then an active teammate, then an admin (the demo cast's admin only over
 * a demo owner's business); anyone else has no standing.
 */
export function businessRole(
  actor: PersonActor,
  ownerUserId: string,
  teammateStatus: number | null | undefined,
  ownerIsDemo = false,
): BusinessRole | null {
  if (ownerUserId === actor.userId) return 'owner';
  if (teammateStatus === TEAMMATE_STATUS.active) return 'teammate';
  if (adminOver(actor, ownerIsDemo)) return 'admin';
  return null;
}

/**
 * Who sees pay figures of named shifters (DECISIONS.md "Who sees pay": labor costs, crew analytics'
 * per-shifter amounts, invoices, the copilot's answers about them): the owner and admins; active
 * teammates see schedules, people and counts, not other people's pay. The standing is `businessRole`'s,
 * so an admin who is also an active teammate of the business stands as its teammate and sees no pay.
 * The one rule: the services pass `PAY_VIEWERS` to `accessBusiness`, and the pages ask `seesPay` of
 * the standing they show the business with.
 */
export const PAY_VIEWERS: readonly BusinessRole[] = ['owner', 'admin'];
export const seesPay = (role: BusinessRole | null | undefined): boolean => role != null && PAY_VIEWERS.includes(role);

/** Whether the business's owner is a demo account; asked only for the demo cast's admin. */
const ownerIsDemo = (ctx: ServiceContext, actor: PersonActor, ownerUserId: string) =>
  actor.demoAdmin ? userIsDemo(ctx, ownerUserId) : Promise.resolve(false);

/** The caller's standing toward a business already loaded (one teammate lookup unless they own it). */
export async function standingToward(ctx: ServiceContext, business: { id: string; user_id: string }): Promise<BusinessRole | null> {
  const actor = requirePerson(ctx);
  if (business.user_id === actor.userId) return 'owner';
  const [tm] = await ctx.db
    .select({ status: teammates.status })
    .from(teammates)
    .where(and(eq(teammates.business_id, business.id), eq(teammates.user_id, actor.userId)))
    .limit(1);
  return businessRole(actor, business.user_id, tm?.status, await ownerIsDemo(ctx, actor, business.user_id));
}

/**
 * Loads a business and the caller's standing in it. `allow` lists the standings that may go on.
 * A caller with no standing at all gets 404, so business ids cannot be probed; a caller with a
 * lesser standing gets 403.
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
  const role = row ? businessRole(actor, row.b.user_id, row.tmStatus, await ownerIsDemo(ctx, actor, row.b.user_id)) : null;
  if (!row || role === null) throw new AppError('BUSINESS-NOT-FND-ERR');
  if (!allow.includes(role)) {
    throw new AppError('FORBIDDEN-ERR', `Only the ${allow.join(' or ')} may do this for the business.`);
  }
  return { business: row.b, role, actor };
}

/**
 * The business the caller acts for: the given one (owner, active teammate or admin), else their
 * default. A partner client posts only for a business linked to it with `shifts:write` (partner.ts).
 */
export async function postingBusiness(ctx: ServiceContext, businessId: string | undefined | null): Promise<BusinessRow> {
  if (ctx.actor.kind === 'partner') {
    if (!businessId) throw new AppError('BUSINESS-NOT-FND-ERR');
    return (await partnerBusiness(ctx, businessId, 'shifts:write')).business;
  }
  const actor = requirePerson(ctx);
  if (businessId) return (await accessBusiness(ctx, businessId)).business;
  const [b] = await ctx.db
    .select()
    .from(businesses)
    .where(and(eq(businesses.user_id, actor.userId), eq(businesses.is_default, true)))
    .limit(1);
  if (!b) {
    throw new AppError('VALIDATION-ERR', 'business_id: required: the caller has no default business', [
      { field: 'business_id', message: 'required: the caller has no default business' },
    ]);
  }
  return b;
}

/** Ids of the businesses the user acts for: owned, or active teammate. */
export async function actingBusinessIds(ctx: ServiceContext, userId: string): Promise<string[]> {
  const [owned, teams] = await Promise.all([
    ctx.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.user_id, userId)),
    ctx.db
      .select({ id: teammates.business_id })
      .from(teammates)
      .where(and(eq(teammates.user_id, userId), eq(teammates.status, TEAMMATE_STATUS.active))),
  ]);
  return [...new Set([...owned, ...teams].map((r) => r.id))];
}

/**
 * SQL scope: `column` (a business id column) names a business the user acts for. A subquery rather
 * than a bound id list, so a user acting for many businesses never meets D1's parameter limit.
 */
export function actsForBusinessSql(userId: string, column: SQLiteColumn): SQL {
  return sql`${column} IN (SELECT ${businesses.id} FROM ${businesses} WHERE ${businesses.user_id} = ${userId} UNION SELECT ${teammates.business_id} FROM ${teammates} WHERE ${teammates.user_id} = ${userId} AND ${teammates.status} = ${TEAMMATE_STATUS.active})`;
}
