import { desc, eq, isNotNull, max, sql } from 'drizzle-orm';
import { businesses, shiftRequests, shifters } from '../../db/schema';
import { shifterIdOf } from '../access';
import { type ServiceContext, workedShiftSql } from '../kernel';

export interface Counterparty {
  kind: 'business' | 'shifter';
  id: string;
  name: string;
  slug: string;
  shifts: number;
  worked_shifts: number;
  /** The latest shift date with them (YYYY-MM-DD). */
  last_shift_date: string;
}

const shiftCount = sql<number>`count(*)`.mapWith(Number);
const workedCount = sql<number>`sum(case when ${workedShiftSql()} then 1 else 0 end)`.mapWith(Number);
const lastDate = max(shiftRequests.shift_date);

type Row = { id: string; name: string; slug: string; shifts: number; worked: number | null; last: string | null };
const toCounterparty = (kind: Counterparty['kind'], r: Row): Counterparty => ({
  kind,
  id: r.id,
  name: r.name,
  slug: r.slug,
  shifts: r.shifts,
  worked_shifts: r.worked ?? 0,
  last_shift_date: r.last ?? '',
});

/**
 * The distinct counterparties of a person's shift request history (any status): the businesses of the
 * shifts their shifter profile was sent or took, and the shifters of the shifts of the businesses they
 * own (a teammate's businesses are not theirs here). Most recent shift first; `limit` per side.
 */
export async function listCounterparties(
  ctx: ServiceContext,
  userId: string,
  side: 'shifter' | 'business' | undefined,
  limit: number,
): Promise<Counterparty[]> {
  const out: Counterparty[] = [];
  const shifterId = side === 'business' ? null : await shifterIdOf(ctx, userId);
  if (shifterId) {
    const rows = await ctx.db
      .select({ id: businesses.id, name: businesses.name, slug: businesses.slug, shifts: shiftCount, worked: workedCount, last: lastDate })
      .from(shiftRequests)
      .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
      .where(eq(shiftRequests.shifter_id, shifterId))
      .groupBy(businesses.id)
      .orderBy(desc(lastDate))
      .limit(limit);
    out.push(...rows.map((r) => toCounterparty('business', r)));
  }
  if (side !== 'shifter') {
    const rows = await ctx.db
      .select({
        id: shifters.id,
        name: shifters.display_name,
        slug: shifters.slug,
        shifts: shiftCount,
        worked: workedCount,
        last: lastDate,
      })
      .from(shiftRequests)
      .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
      .innerJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
      .where(sql`${eq(businesses.user_id, userId)} AND ${isNotNull(shiftRequests.shifter_id)}`)
      .groupBy(shifters.id)
      .orderBy(desc(lastDate))
      .limit(limit);
    out.push(...rows.map((r) => toCounterparty('shifter', r)));
  }
  return out.sort((a, b) => (a.last_shift_date < b.last_shift_date ? 1 : a.last_shift_date > b.last_shift_date ? -1 : 0));
}
