import { and, eq } from 'drizzle-orm';
import { businesses, teammates } from '../../db/schema';
import { errorFields } from '../../lib/log';
import type { ServiceContext } from '../context';

/**
 * Who hears about a business's events: the owner and the active teammates, de-duplicated. If the
 * teammates cannot be read, the owner is still notified (spec 6.3).
 */
export async function businessRecipients(ctx: ServiceContext, businessId: string, opts: { ownerOnly?: boolean } = {}): Promise<string[]> {
  const [b] = await ctx.db.select({ owner: businesses.user_id }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (!b) return [];
  if (opts.ownerOnly) return [b.owner];
  try {
    const tms = await ctx.db
      .select({ userId: teammates.user_id })
      .from(teammates)
      .where(and(eq(teammates.business_id, businessId), eq(teammates.status, 1)));
    return [...new Set([b.owner, ...tms.map((t) => t.userId)])];
  } catch (err) {
    ctx.log.warn('could not read teammates; notifying the owner only', errorFields(err));
    return [b.owner];
  }
}
