import { and, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { businesses, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor, fromMinorRatio } from '../../lib/money';
import { toIso } from '../../lib/time';
import { requirePerson, type ServiceContext, workedShiftSql } from '../kernel';
import type { GoingRate, GoingRateQuery } from './schemas';

/** The going-rate percentiles as exact fractions: p = num ÷ 4. */
export const PERCENTILES = { p25: 1, median: 2, p75: 3 } as const;
const QUARTERS = 4;

/**
 * Type-7 percentile position (0-based) for n sorted values at p = quarter ÷ 4, exactly: h = (n − 1) × p
 * splits into the rank below (lo), the rank above (hi) and the fraction between them as quarters.
 */
export function percentilePositions(n: number, quarter: number): { lo: number; hi: number; fracQuarters: number } {
  const h4 = (n - 1) * quarter;
  const lo = Math.floor(h4 / QUARTERS);
  const fracQuarters = h4 % QUARTERS;
  return { lo, hi: fracQuarters === 0 ? lo : lo + 1, fracQuarters };
}

/**
 * GET /v1/going_rate: hourly rates of worked shifts in the window whose business lies in the asked
 * city/state/country (optionally one role), in one currency (the slice's most common unless asked).
 * Computed in SQL: one aggregate query (count, min, max, mean, currency) and one ranked query that
 * returns only the rows at the percentile positions — the slice itself never leaves the database.
 */
export async function goingRate(ctx: ServiceContext, q: GoingRateQuery): Promise<GoingRate> {
  // A person through the API; the system for the public rate widget (services/widgets).
  if (ctx.actor.kind !== 'system') requirePerson(ctx);
  if (q.city_id === undefined && q.state_id === undefined && q.country_id === undefined) {
    throw new AppError('VALIDATION-ERR', 'Send city_id, state_id or country_id.', [
      { field: 'query.city_id', message: 'a location is required' },
    ]);
  }
  const windowDays = ctx.settings.GOING_RATE_WINDOW_DAYS;
  const minSample = ctx.settings.GOING_RATE_MIN_SAMPLE;
  const to = ctx.now();
  const from = to - windowDays * 86_400_000;
  const conds: SQL[] = [workedShiftSql(), gte(shiftRequests.starts_at, from), lte(shiftRequests.starts_at, to)];
  if (q.city_id !== undefined) conds.push(eq(businesses.city_id, q.city_id));
  if (q.state_id !== undefined) conds.push(eq(businesses.state_id, q.state_id));
  if (q.country_id !== undefined) conds.push(eq(businesses.country_id, q.country_id));
  if (q.shiftrole_id !== undefined) conds.push(eq(shiftRequests.shiftrole_id, q.shiftrole_id));

  let currency = q.currency ?? null;
  if (!currency) {
    const [top] = await ctx.db
      .select({ currency: shiftRequests.currency, n: sql<number>`count(*)` })
      .from(shiftRequests)
      .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
      .where(and(...conds))
      .groupBy(shiftRequests.currency)
      .orderBy(sql`count(*) desc`, shiftRequests.currency)
      .limit(1);
    currency = top?.currency ?? null;
  }
  const base = {
    currency,
    window_days: windowDays,
    window: { from: toIso(from), to: toIso(to) },
    min_sample: minSample,
    filters: {
      city_id: q.city_id ?? null,
      state_id: q.state_id ?? null,
      country_id: q.country_id ?? null,
      shiftrole_id: q.shiftrole_id ?? null,
    },
  };
  const empty: GoingRate = {
    min: null,
    p25: null,
    median: null,
    p75: null,
    max: null,
    mean: null,
    sample_size: 0,
    sufficient_data: false,
    ...base,
  };
  if (!currency) return empty;
  conds.push(eq(shiftRequests.currency, currency));
  const where = and(...conds);

  const [agg] = await ctx.db
    .select({
      n: sql<number>`count(*)`,
      min: sql<number | null>`min(${shiftRequests.hourly_rate_minor})`,
      max: sql<number | null>`max(${shiftRequests.hourly_rate_minor})`,
      sum: sql<number | null>`sum(${shiftRequests.hourly_rate_minor})`,
    })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .where(where);
  const n = Number(agg?.n ?? 0);
  if (n === 0) return { ...empty, currency };

  const ps = Object.values(PERCENTILES).map((q) => percentilePositions(n, q));
  const wanted = [...new Set(ps.flatMap((p) => [p.lo, p.hi]))];
  const ranked = ctx.db.$with('ranked').as(
    ctx.db
      .select({
        r: sql<number>`${shiftRequests.hourly_rate_minor}`.as('r'),
        i: sql<number>`row_number() over (order by ${shiftRequests.hourly_rate_minor}) - 1`.as('i'),
      })
      .from(shiftRequests)
      .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
      .where(where),
  );
  const picked = await ctx.db
    .with(ranked)
    .select({ i: ranked.i, r: ranked.r })
    .from(ranked)
    .where(
      sql`${ranked.i} in (${sql.join(
        wanted.map((w) => sql`${w}`),
        sql`, `,
      )})`,
    );
  const at = new Map(picked.map((p) => [Number(p.i), Number(p.r)]));
  // lo + (hi − lo) × frac, kept as quarters of a minor unit and rounded once at the minor unit.
  const value = (p: { lo: number; hi: number; fracQuarters: number }) => {
    const lo = at.get(p.lo)!;
    return fromMinorRatio(lo * QUARTERS + (at.get(p.hi)! - lo) * p.fracQuarters, QUARTERS, currency!);
  };
  return {
    ...base,
    min: fromMinor(Number(agg!.min), currency),
    p25: value(ps[0]!),
    median: value(ps[1]!),
    p75: value(ps[2]!),
    max: fromMinor(Number(agg!.max), currency),
    mean: fromMinorRatio(Number(agg!.sum), n, currency),
    sample_size: n,
    sufficient_data: n >= minSample,
  };
}
