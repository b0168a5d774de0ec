import { and, eq } from 'drizzle-orm';
import { businesses, teammates } from '../../db/schema';
import { TEAMMATE_STATUS } from '../access';
import { errorFields } from '../../lib/log';
import type { ServiceContext } from '../kernel';
import { ownerOnly } from './catalog';

/**
 * Who hears about a business's events (spec 6.3): the owner and the active teammates, de-duplicated;
 * for the kinds the notifications catalog marks owner-only (cards, payouts), the owner alone. If the
 * teammates cannot be read, the owner is still notified. Producers pass the notification's kind, so
 * the catalog (services/notifications/catalog.ts) is the one place that says who hears of what.
 */
export async function businessRecipients(ctx: ServiceContext, businessId: string, kind?: string): Promise<string[]> {
  const [b] = await ctx.db.select({ owner: businesses.user_id }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (!b) return [];
  if (kind !== undefined && ownerOnly(kind)) return [b.owner];
  try {
    const tms = await ctx.db
      .select({ userId: teammates.user_id })
      .from(teammates)
      .where(and(eq(teammates.business_id, businessId), eq(teammates.status, TEAMMATE_STATUS.active)));
    return [...new Set([b.owner, ...tms.map((t) => t.userId)])];
  } catch (err) {
    ctx.log.warn('could not read teammates; notifying the owner only', errorFields(err));
    return [b.owner];
  }
}
