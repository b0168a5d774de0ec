import { type SQL, sql } from 'drizzle-orm';
import { businesses, shiftRateWindow, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor, fromMinorRatio } from '../../lib/money';
import { toIso } from '../../lib/time';
import { requirePerson, type ServiceContext } from '../kernel';
import { edgeSql } from './rollups';
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
 * Read from the rate histogram (rollups.ts: shifts per place, role, currency and rate over the
 * window it covers) plus the rows between its edges and the asked window, in one statement that
 * returns the count, min, max, sum and the rates at the percentile positions. Its cost follows the
 * number of distinct rates, not the number of shifts.
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
  const base = {
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
  const empty = (currency: string | null): GoingRate => ({
    min: null,
    p25: null,
    median: null,
    p75: null,
    max: null,
    mean: null,
    sample_size: 0,
    sufficient_data: false,
    currency,
    ...base,
  });

  const place = (t: { city: SQL; state: SQL; country: SQL }) =>
    sql.join(
      [
        ...(q.city_id !== undefined ? [sql`${t.city} = ${q.city_id}`] : []),
        ...(q.state_id !== undefined ? [sql`${t.state} = ${q.state_id}`] : []),
        ...(q.country_id !== undefined ? [sql`${t.country} = ${q.country_id}`] : []),
      ],
      sql` AND `,
    );
  const currencyIs = (col: SQL) => (q.currency ? sql` AND ${col} = ${q.currency}` : sql``);
  const edge = edgeSql('s', { from, to }, 'going_rate');
  // Percentile positions follow the count, so they are computed in the statement: for p = k ÷ 4,
  // h = (n − 1) × k; the rates at ranks ⌊h ÷ 4⌋ and ⌊h ÷ 4⌋ + 1 (0-based) are returned.
  const rankRate = (k: number, next: number) => sql.raw(`(SELECT min(rate) FROM ranked WHERE cum > ((tot.n - 1) * ${k}) / 4 + ${next})`);
  const [row] = await ctx.db.all<{
    currency: string | null;
    n: number | null;
    lo: number | null;
    hi: number | null;
    total: number | null;
    p25a: number | null;
    p25b: number | null;
    p50a: number | null;
    p50b: number | null;
    p75a: number | null;
    p75b: number | null;
  }>(sql`WITH
    hist(currency, rate, n) AS MATERIALIZED (
      SELECT currency, rate_minor, shifts FROM ${shiftRateWindow} r
      WHERE shiftrole_id = ${q.shiftrole_id ?? 0} AND ${place({ city: sql`r.city_id`, state: sql`r.state_id`, country: sql`r.country_id` })}${currencyIs(sql`r.currency`)}
      UNION ALL
      SELECT s.currency, s.hourly_rate_minor, ${edge.sign}
      FROM (${edge.ranges}) AS r CROSS JOIN ${shiftRequests} s INDEXED BY shift_requests_open_idx JOIN ${businesses} b ON b.id = s.business_id
      WHERE s.request_status IN (2, 5) AND s.is_broadcast IN (0, 1) AND s.starts_at >= r.lo AND s.starts_at < r.hi
        AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0
        AND ${place({ city: sql`b.city_id`, state: sql`b.state_id`, country: sql`b.country_id` })}
        ${q.shiftrole_id !== undefined ? sql`AND s.shiftrole_id = ${q.shiftrole_id}` : sql``}${currencyIs(sql`s.currency`)}
    ),
    top(currency) AS (
      SELECT currency FROM hist GROUP BY currency HAVING sum(n) > 0 ORDER BY sum(n) DESC, currency LIMIT 1
    ),
    h(rate, n) AS MATERIALIZED (
      SELECT rate, sum(n) FROM hist WHERE currency = (SELECT currency FROM top) GROUP BY rate HAVING sum(n) > 0
    ),
    ranked(rate, cum) AS MATERIALIZED (SELECT rate, sum(n) OVER (ORDER BY rate) FROM h),
    tot(n, lo, hi, total) AS (SELECT sum(n), min(rate), max(rate), sum(rate * n) FROM h)
  SELECT (SELECT currency FROM top) AS currency, tot.n, tot.lo, tot.hi, tot.total,
    ${rankRate(1, 0)} AS p25a, ${rankRate(1, 1)} AS p25b, ${rankRate(2, 0)} AS p50a, ${rankRate(2, 1)} AS p50b,
    ${rankRate(3, 0)} AS p75a, ${rankRate(3, 1)} AS p75b
  FROM tot`);

  const currency = q.currency ?? row?.currency ?? null;
  const n = Number(row?.n ?? 0);
  if (!currency || n === 0 || !row) return empty(currency);
  const at = [
    [row.p25a, row.p25b],
    [row.p50a, row.p50b],
    [row.p75a, row.p75b],
  ];
  // lo + (hi − lo) × frac, kept as quarters of a minor unit and rounded once at the minor unit.
  const value = (k: number, i: number) => {
    const p = percentilePositions(n, k);
    const lo = Number(at[i]![0]);
    const hi = p.hi === p.lo ? lo : Number(at[i]![1]);
    return fromMinorRatio(lo * QUARTERS + (hi - lo) * p.fracQuarters, QUARTERS, currency);
  };
  return {
    ...base,
    currency,
    min: fromMinor(Number(row.lo), currency),
    p25: value(PERCENTILES.p25, 0),
    median: value(PERCENTILES.median, 1),
    p75: value(PERCENTILES.p75, 2),
    max: fromMinor(Number(row.hi), currency),
    mean: fromMinorRatio(Number(row.total), n, currency),
    sample_size: n,
    sufficient_data: n >= minSample,
  };
}
