import { and, eq, type SQL, sql } from 'drizzle-orm';
import { businesses, requestAuthorizations, shifters } from '../../db/schema';
import { haversineMeters } from '../../lib/geo';
import { type ServiceContext, SHIFT_STATUS, workedShiftSql } from '../kernel';
import { distancePoints, UNKNOWN_DISTANCE_POINTS } from './relevance';

const DAY = 86_400_000;

/**
 * Ranks open broadcasts for one shifter by the relevance score of relevance.ts, inside D1: the
 * candidates never leave the database, only the page's rows do.
 *
 * The per-shifter signals are computed once per request, as CTEs over the shifter's own rows (role
 * history, history per business, own mean rates, accepted shifts, active counter rules) folded into
 * two small lookup tables (per crew business; per role and currency), and joined to the candidates.
 * Only the distance signal is computed in the Worker, with the same haversine as relevance.ts, per
 * business of the shifter's crew (a few dozen rows), and passed as one JSON parameter whatever its
 * length (D1 binds at most 100 parameters).
 *
 * The expressions follow relevanceScore operation for operation (the same floating-point operations
 * in the same order, so the same rounding); test/shifts/relevance-sql.test.ts holds them to it.
 */

export interface Place {
  business_id: string;
  /** Distance points (0–20) and kilometres, for businesses whose position and the shifter's are known. */
  points: number;
  km: number;
}

/**
 * The distance signal per business the shifter is crew of (the only businesses whose broadcasts they
 * see): one query, then the haversine in the Worker. Businesses missing from the list score the
 * unknown-distance points and never a counter-rule distance premium.
 */
export async function loadPlaces(ctx: ServiceContext, shifterId: string): Promise<Place[]> {
  const rows = await ctx.db
    .select({ id: businesses.id, lat: businesses.latitude, lon: businesses.longitude, myLat: shifters.latitude, myLon: shifters.longitude })
    .from(requestAuthorizations)
    .innerJoin(businesses, eq(businesses.id, requestAuthorizations.business_id))
    .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
    .where(and(eq(requestAuthorizations.shifter_id, shifterId), eq(requestAuthorizations.status, 'accepted')));
  const places: Place[] = [];
  for (const r of rows) {
    if (r.lat === null || r.lon === null || r.myLat === null || r.myLon === null) continue;
    const km = haversineMeters(r.myLat, r.myLon, r.lat, r.lon) / 1000;
    places.push({ business_id: r.id, points: distancePoints(km), km });
  }
  return places;
}

export interface RankWindow {
  offset: number;
  limit: number;
}

/**
 * How many candidates are scored in full for a page: those with the highest upper bound (see
 * rankedBroadcasts). Generous against the page, so the check after (`exactWithin`) nearly always
 * holds; a deep page reaches every candidate anyway.
 */
export function exactWindow(page: RankWindow): number {
  return Math.max(200, 4 * (page.offset + page.limit + 1)); // always past the page's last row
}

/**
 * The ranking as a CTE (`ranked`: ranked_id, ranked_score, ranked_bound) holding one page of the
 * candidates (`candidates`: a condition on shift_requests, of the shifter's crew's broadcasts) best
 * first: score, then earlier start, then newer post, then id. It holds up to `limit + 1` rows, so the
 * caller knows whether another page follows; the caller joins the rows it shows to it, in the same
 * statement.
 *
 * Every candidate first gets an upper bound of its score: everything but the two penalties (a rate
 * under a counter-rule floor, an overlap with an accepted shift), which can only lower it. Only the
 * `window` candidates with the highest bounds are scored in full (the penalties cost a lookup each);
 * `ranked_bound` is then the highest bound left out (NULL when none was). The page is exact when every
 * candidate left out scores lower than the page's last row: see `exactWithin`; otherwise rank again
 * with `window` null, which scores every candidate.
 */
export function rankedBroadcasts(
  ctx: ServiceContext,
  shifterId: string,
  candidates: SQL,
  places: Place[],
  page: RankWindow,
  window: number | null,
) {
  const now = ctx.now();
  const placesJson = JSON.stringify(places.map((p) => [p.business_id, p.points, p.km]));
  const worked = workedShiftSql();
  const rolePoints = (n: SQL) => sql`CASE WHEN ${n} IS NULL THEN 0 ELSE min(25.0, max(0.0, 12 + ((${n} - 1) * 13) / 4.0)) END`;
  const top = window === null ? sql`` : sql`ORDER BY ub DESC LIMIT ${window + 1}`;
  const leftOut = window === null ? sql`NULL` : sql`(SELECT CASE WHEN count(*) > ${window} THEN min(ub) END FROM rel_top)`;
  const query = sql`WITH
  rel_places(business_id, points, km) AS MATERIALIZED (
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(${placesJson})
  ),
  rel_roles(role, n) AS MATERIALIZED (
    SELECT shiftrole_id, count(*) FROM shift_requests
    WHERE shifter_id = ${shifterId} AND ${worked} AND starts_at > ${now - 365 * DAY}
    GROUP BY shiftrole_id
  ),
  rel_history(business_id, worked, bad) AS MATERIALIZED (
    SELECT business_id,
      sum(CASE WHEN ${worked} THEN 1 ELSE 0 END),
      sum(CASE WHEN is_noshow = 1 OR cancelled_by = 'shifter' THEN 1 ELSE 0 END)
    FROM shift_requests WHERE shifter_id = ${shifterId}
    GROUP BY business_id
  ),
  rel_own(role, currency, mean) AS MATERIALIZED (
    SELECT shiftrole_id, currency, avg(hourly_rate_minor) FROM shift_requests
    WHERE shifter_id = ${shifterId} AND ${worked} AND starts_at > ${now - 90 * DAY}
    GROUP BY shiftrole_id, currency
  ),
  rel_overall(currency, mean) AS MATERIALIZED (
    SELECT currency, avg(mean) FROM rel_own GROUP BY currency
  ),
  rel_busy(starts_at, ends_at) AS MATERIALIZED (
    SELECT starts_at, ends_at FROM shift_requests
    WHERE shifter_id = ${shifterId} AND request_status = ${SHIFT_STATUS.accepted} AND is_noshow = 0 AND ends_at > ${now}
  ),
  rel_rules AS MATERIALIZED (
    SELECT shiftrole_id, weekdays, start_from, start_to, min_hourly_rate_minor, currency, distance_threshold_km, distance_premium_minor
    FROM counter_rules WHERE shifter_id = ${shifterId} AND is_active = 1
  ),
  -- Per business of the crew: distance and familiarity. Joining it keeps the candidates to the crew's.
  rel_biz(business_id, km, distance_points, familiarity_points) AS MATERIALIZED (
    SELECT ra.business_id, p.km, coalesce(p.points, ${UNKNOWN_DISTANCE_POINTS}),
      CASE WHEN h.worked > 0 THEN min(20, max(0, 8 + 3 * h.worked - 5 * h.bad)) ELSE 0 END
    FROM request_authorizations ra
    LEFT JOIN rel_places p ON p.business_id = ra.business_id
    LEFT JOIN rel_history h ON h.business_id = ra.business_id
    WHERE ra.shifter_id = ${shifterId} AND ra.status = 'accepted'
  ),
  -- Per role, in each currency the shifter has worked in: role points and the reference rate.
  rel_rc(role, currency, role_points, ref) AS MATERIALIZED (
    SELECT r.id, ov.currency, ${rolePoints(sql`ro.n`)}, nullif(coalesce(nullif(o.mean, 0), ov.mean), 0)
    FROM shift_roles r CROSS JOIN rel_overall ov
    LEFT JOIN rel_roles ro ON ro.role = r.id
    LEFT JOIN rel_own o ON o.role = r.id AND o.currency = ov.currency
  ),
  -- In other currencies the reference is the market: the median rate (type 7) of the candidates of
  -- the role. Only read (and so only computed) when a candidate is in such a currency.
  rel_market(role, currency, median) AS MATERIALIZED (
    SELECT role, currency, min(rate) + (max(rate) - min(rate)) * 0.5 FROM (
      SELECT shiftrole_id AS role, currency, hourly_rate_minor AS rate,
        row_number() OVER (PARTITION BY shiftrole_id, currency ORDER BY hourly_rate_minor) - 1 AS i,
        count(*) OVER (PARTITION BY shiftrole_id, currency) AS n
      FROM shift_requests JOIN rel_biz b ON b.business_id = shift_requests.business_id
      WHERE ${candidates} AND currency NOT IN (SELECT currency FROM rel_overall)
    ) WHERE i IN ((n - 1) / 2, n / 2)
    GROUP BY role, currency
  ),
  rel_cand AS NOT MATERIALIZED (
    SELECT shift_requests.id, shift_requests.starts_at, shift_requests.ends_at, shift_requests.created_at,
      shift_requests.hourly_rate_minor AS rate, shift_requests.currency, shift_requests.shiftrole_id,
      shift_requests.shift_date, shift_requests.shift_in, b.km, b.distance_points, b.familiarity_points,
      CASE WHEN rc.role IS NOT NULL THEN rc.role_points
           ELSE coalesce((SELECT ${rolePoints(sql`x.n`)} FROM rel_roles x WHERE x.role = shift_requests.shiftrole_id), 0) END AS role_points,
      CASE WHEN rc.role IS NOT NULL THEN rc.ref
           ELSE (SELECT nullif(m.median, 0) FROM rel_market m WHERE m.role = shift_requests.shiftrole_id AND m.currency = shift_requests.currency) END AS ref
    FROM shift_requests
    JOIN rel_biz b ON b.business_id = shift_requests.business_id
    LEFT JOIN rel_rc rc ON rc.role = shift_requests.shiftrole_id AND rc.currency = shift_requests.currency
    WHERE ${candidates}
  ),
  rel_paid AS NOT MATERIALIZED (
    SELECT *, CASE WHEN ref IS NULL THEN 12.5 ELSE min(25.0, max(0.0, 12.5 + ((CAST(rate AS REAL) / ref - 1) / 0.3) * 12.5)) END AS pay
    FROM rel_cand
  ),
  -- The upper bound: the score without its penalties, rounded as the score is.
  rel_top AS MATERIALIZED (
    SELECT *, CAST(role_points + pay + distance_points + familiarity_points + 10 + 0.5 AS INTEGER) AS ub
    FROM rel_paid ${top}
  ),
  -- The full score. The overlap test and the counter-rule floor run only when the shifter has
  -- accepted shifts or active rules at all.
  rel_scored AS (
    SELECT c.id, c.starts_at, c.created_at,
      EXISTS (SELECT 1 FROM rel_busy) AND EXISTS (SELECT 1 FROM rel_busy b WHERE b.starts_at < c.ends_at AND b.ends_at > c.starts_at) AS overlaps,
      c.role_points
      + CASE
          WHEN EXISTS (SELECT 1 FROM rel_rules) AND c.rate < (
            SELECT max(r.min_hourly_rate_minor + CASE
                     WHEN c.km IS NOT NULL AND r.distance_threshold_km IS NOT NULL AND r.distance_premium_minor IS NOT NULL
                          AND c.km > r.distance_threshold_km THEN r.distance_premium_minor
                     ELSE 0 END)
              FROM rel_rules r
             WHERE r.currency = c.currency
               AND (r.shiftrole_id IS NULL OR r.shiftrole_id = c.shiftrole_id)
               AND (r.weekdays IS NULL OR r.weekdays = ''
                    OR instr(',' || r.weekdays || ',', ',' || replace(strftime('%w', c.shift_date), '0', '7') || ',') > 0)
               AND (r.start_from IS NULL OR r.start_to IS NULL
                    OR CASE WHEN r.start_from <= r.start_to THEN c.shift_in >= r.start_from AND c.shift_in < r.start_to
                            ELSE c.shift_in >= r.start_from OR c.shift_in < r.start_to END)
          ) THEN 0.0
          ELSE c.pay
        END
      + c.distance_points
      + c.familiarity_points AS base
    FROM rel_top c
  )
SELECT id AS ranked_id,
  CAST(CASE WHEN overlaps THEN min(base, 10) ELSE base + 10 END + 0.5 AS INTEGER) AS ranked_score,
  ${leftOut} AS ranked_bound
FROM rel_scored
ORDER BY ranked_score DESC, starts_at ASC, created_at DESC, id ASC
LIMIT ${page.limit + 1} OFFSET ${page.offset}`;
  return ctx.db
    .$with('ranked', {
      rankedId: sql<string>`ranked_id`.mapWith(String).as('ranked_id'),
      score: sql<number>`ranked_score`.mapWith(Number).as('ranked_score'),
      bound: sql<number | null>`ranked_bound`.as('ranked_bound'),
    })
    .as(query);
}

export type RankedBroadcasts = ReturnType<typeof rankedBroadcasts>;

/**
 * Whether a page ranked within a window is exact: no candidate left out can reach it. Each left-out
 * candidate scores at most `bound`, so it is enough that the last row read (the page's, or the one
 * that tells a next page exists) scores more. A page that ends inside the window is exact only when
 * nothing was left out.
 */
export function exactWithin(rows: ReadonlyArray<{ relevance_score: number; ranked_bound: number | null }>, limit: number): boolean {
  const bound = rows[0]?.ranked_bound ?? null;
  // The window always reaches past the page's offset, so an empty answer means no candidate is left there.
  if (rows.length === 0) return true;
  if (bound === null) return true;
  if (rows.length <= limit) return false;
  return bound < rows[limit]!.relevance_score;
}
