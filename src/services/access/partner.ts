import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { businesses, type PartnerScope, partnerBusinessLinks, partnerClients } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { Actor, PartnerActor, ServiceContext } from '../kernel';

/**
 * A partner's standing: a partner client reaches a business only through a link the business made
 * (its consent), and only within the scopes both its credential and that link carry. Every partner
 * route goes through here; unlinking deletes the link, so the next request is refused.
 */

export type PartnerLinkRow = typeof partnerBusinessLinks.$inferSelect;

/** The actor as a partner client; anyone else is 401 (the operation takes partner credentials). */
export function asPartner(actor: Actor): PartnerActor {
  if (actor.kind === 'partner') return actor;
  throw new AppError('AUTH-REQ-ERR', 'This operation takes partner credentials: x-api-key, or Authorization: Bearer <partner token>.');
}

/** The calling partner client; anyone else is 401. */
export const partnerActor = (ctx: ServiceContext): PartnerActor => asPartner(ctx.actor);

/** The 403 naming the scope that is missing. */
export function scopeError(scope: PartnerScope, where: 'credential' | 'link'): AppError {
  const message =
    where === 'credential'
      ? `This credential lacks the scope ${scope}.`
      : `The business has not granted this partner client the scope ${scope}.`;
  return new AppError('SCOPE-ERR', message, { required_scope: scope });
}

/** The credential carries `scope`, else 403 SCOPE-ERR. */
export function assertPartnerScope(actor: PartnerActor, scope: PartnerScope): void {
  if (!actor.scopes.includes(scope)) throw scopeError(scope, 'credential');
}

/**
 * The partner acts for a linked business: loads the business when the calling client is linked to
 * it. `scope`, when given, must be carried by the credential and granted by the link (403 SCOPE-ERR
 * naming it). No link, or no such business: 404 BUSINESS-NOT-FND-ERR, the same answer, so business
 * ids cannot be probed. A stable entry point for every partner route (shifts, crew, webhooks).
 */
export async function partnerBusiness(
  ctx: ServiceContext,
  businessId: string,
  scope?: PartnerScope,
): Promise<{ business: typeof businesses.$inferSelect; link: PartnerLinkRow; actor: PartnerActor }> {
  const actor = partnerActor(ctx);
  if (scope) assertPartnerScope(actor, scope);
  const [row] = await ctx.db
    .select({ business: businesses, link: partnerBusinessLinks })
    .from(partnerBusinessLinks)
    .innerJoin(businesses, eq(businesses.id, partnerBusinessLinks.business_id))
    .where(and(eq(partnerBusinessLinks.business_id, businessId), eq(partnerBusinessLinks.client_id, actor.partnerId)))
    .limit(1);
  if (!row) throw new AppError('BUSINESS-NOT-FND-ERR');
  if (scope && !row.link.scopes.includes(scope)) throw scopeError(scope, 'link');
  return { business: row.business, link: row.link, actor };
}

/**
 * SQL scope: `column` (a business id column) names a business linked to the partner client, with
 * `scope` granted by the link when given. A subquery, like the other list scopes.
 */
export function partnerLinkedBusinessSql(clientId: string, column: SQLiteColumn, scope?: PartnerScope): SQL {
  const granted = scope
    ? sql` AND EXISTS (SELECT 1 FROM json_each(${partnerBusinessLinks.scopes}) WHERE json_each.value = ${scope})`
    : sql``;
  return sql`${column} IN (SELECT ${partnerBusinessLinks.business_id} FROM ${partnerBusinessLinks} WHERE ${partnerBusinessLinks.client_id} = ${clientId}${granted})`;
}

/**
 * The active partner clients linked to a business, with the scopes each link grants (for fanning a
 * business's events out to its partners).
 */
export async function partnersOfBusiness(
  ctx: ServiceContext,
  businessId: string,
): Promise<Array<{ clientId: string; scopes: PartnerScope[] }>> {
  const rows = await ctx.db
    .select({ clientId: partnerBusinessLinks.client_id, scopes: partnerBusinessLinks.scopes })
    .from(partnerBusinessLinks)
    .innerJoin(partnerClients, eq(partnerClients.id, partnerBusinessLinks.client_id))
    .where(and(eq(partnerBusinessLinks.business_id, businessId), eq(partnerClients.status, 'active')));
  return rows;
}
