import { and, eq, type SQL, sql } from 'drizzle-orm';
import { businesses, requestAuthorizations, shifters } from '../../db/schema';
import { haversineMeters } from '../../lib/geo';
import { runLimit, type ServiceContext, SHIFT_STATUS, statusLiteral, workedShiftSql } from '../kernel';
import { HISTORY_MIN_WORKED, START_POINTS_MAX, travelPoints, UNKNOWN_DISTANCE_POINTS } from './relevance';

const DAY = 86_400_000;

/**
 * Ranks open broadcasts for one shifter by the relevance score of relevance.ts, inside D1: the
 * candidates never leave the database, only the page's rows do.
 *
 * The per-shifter signals are computed once per request, as CTEs over the shifter's own rows (role
 * history, history per business, own mean rates, accepted shifts, active counter rules) folded into
 * two small lookup tables (per crew business; per role and currency), and joined to the candidates.
 * Where the shifter has no usual rate in a currency, the going rate of the business's city and the
 * role is read (rel_going) the way GET /v1/going_rate reads it (services/insights/going-rate.ts: the
 * rate histogram of shift_rate_window plus the rows between its window and the asked span). The
 * shifts domain sits below insights, so it cannot call that service; test/shifts/relevance-reasons.test.ts
 * holds the two to the same median.
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

/** What the shifter's profile tells the ranking (relevance.ts: the roles they do, how far they travel, their lowest rate). */
export interface RankProfile {
  roles: number[];
  travelKm: number | null;
  /** The position distances count from is the profile's home area (not its city's). */
  fromHome: boolean;
  minRate: { minor: number; currency: string } | null;
}

export const NO_RANK_PROFILE: RankProfile = { roles: [], travelKm: null, fromHome: false, minRate: null };

/**
 * The shifter's profile fields the ranking reads, and the distance signal per business the shifter is
 * crew of (the only businesses whose broadcasts they see): two small queries, then the haversine in
 * the Worker, with the travel distance (relevance.ts travelPoints). Businesses missing from the list
 * score the unknown-distance points and never a counter-rule distance premium.
 */
export async function loadPlaces(ctx: ServiceContext, shifterId: string): Promise<{ places: Place[]; profile: RankProfile }> {
  const [[me], rows] = await Promise.all([
    ctx.db
      .select({
        lat: shifters.latitude,
        lon: shifters.longitude,
        roles: shifters.roles,
        home: shifters.home_area,
        travel: shifters.travel_km,
        min: shifters.min_hourly_rate_minor,
        minCurrency: shifters.min_hourly_rate_currency,
        currency: shifters.currency,
      })
      .from(shifters)
      .where(eq(shifters.id, shifterId))
      .limit(1),
    ctx.db
      .select({ id: businesses.id, lat: businesses.latitude, lon: businesses.longitude })
      .from(requestAuthorizations)
      .innerJoin(businesses, eq(businesses.id, requestAuthorizations.business_id))
      .where(and(eq(requestAuthorizations.shifter_id, shifterId), eq(requestAuthorizations.status, 'accepted'))),
  ]);
  if (!me) return { places: [], profile: NO_RANK_PROFILE };
  const profile: RankProfile = {
    roles: me.roles ?? [],
    travelKm: me.travel,
    fromHome: !!me.home && me.lat !== null && me.lon !== null,
    minRate: me.min === null ? null : { minor: me.min, currency: me.minCurrency ?? me.currency },
  };
  const places: Place[] = [];
  for (const r of rows) {
    if (r.lat === null || r.lon === null || me.lat === null || me.lon === null) continue;
    const km = haversineMeters(me.lat, me.lon, r.lat, r.lon) / 1000;
    places.push({ business_id: r.id, points: travelPoints(km, me.travel), km });
  }
  return { places, profile };
}

export interface RankWindow {
  offset: number;
  limit: number;
}

/**
 * How many candidates are scored in full for a page at least: those whose upper bound reaches the
 * threshold that lets this many in (see rankedBroadcasts). Generous against the page, so the check
 * after (`exactWithin`) nearly always holds; a deep page reaches every candidate anyway.
 */
export function exactWindow(page: RankWindow): number {
  return Math.max(200, 4 * (page.offset + page.limit + 1)); // always past the page's last row
}

/**
 * The ranking as a CTE (`ranked`: ranked_id, ranked_score, ranked_bound, ranked_cut, ranked_signals) holding one page of the
 * candidates (`candidates`: a condition on shift_requests, of the shifter's crew's broadcasts, that
 * states `request_status = 1 AND is_broadcast = 1` as literals) best first: score, then earlier
 * start, then newer post, then id. It holds up to `limit + 1` rows, so the caller knows whether
 * another page follows; the caller joins the rows it shows to it, in the same statement.
 *
 * Every candidate has an upper bound of its score: everything but the two penalties (a rate under a
 * counter-rule floor, an overlap with an accepted shift), which can only lower it. The bound is the
 * same for every candidate of a group (business, role, currency) but the pay, which grows with the
 * rate, and a newcomer's start points, which fall with the start; so within a group the bound follows
 * the rate and the start, the columns of an index (shift_requests_open_rate_idx), and the rate that
 * reaches a bound is found as if the start gave full points (the start is then checked from the index
 * too). With `window`, the candidates are never all read:
 *  1. the crew's groups are read from open_broadcast_groups (kept by triggers), each with its best
 *     rate, hence its best bound;
 *  2. a threshold T comes down from the best bound (four points at a time while under half the
 *     window, then two), counting per group the candidates at or above it (an index range from the
 *     rate that reaches T), until at least `window` candidates reach it;
 *  3. those are scored in full (the penalties cost a lookup each) and ranked.
 *  4. when the last step let in more than twice the window (the score's parts saturate, so at size
 *     a single point can hold a thousand candidates), that band is cut by the final order's next
 *     key: of it, only the earliest-starting ones that fill the window are scored (`ranked_cut`).
 * `ranked_bound` is then T − 1, the highest bound left out below the threshold (NULL when none was).
 * The page is exact when every candidate left out ranks below the page's last row: see `exactWithin`;
 * otherwise rank again with `window` null, which bounds and scores every candidate.
 *
 * The statement is written to prepare cheaply, as D1 prepares it on every request: each CTE names the
 * one before it rather than every earlier one (SQLite expands a CTE at each place that names it,
 * with all it names in turn; test/shifts/list-plans.test.ts counts the expansions), and it binds no
 * value SQLite reads while planning (kernel/planned-values.ts). docs/decisions/scale.md has the figures.
 */
export function rankedBroadcasts(
  ctx: ServiceContext,
  shifterId: string,
  candidates: SQL,
  places: Place[],
  profile: RankProfile,
  page: RankWindow,
  window: number | null,
) {
  const now = ctx.now();
  const placesJson = JSON.stringify(places.map((p) => [p.business_id, p.points, p.km]));
  const rolesJson = JSON.stringify(profile.roles);
  // The profile's minimum rate, a floor for shifts in its currency ('' matches none).
  const minRate = profile.minRate?.minor ?? 0;
  const minCurrency = profile.minRate?.currency ?? '';
  const worked = workedShiftSql();
  // The going rate's span, as GET /v1/going_rate asks it: [now − window, now].
  const goingFrom = now - ctx.settings.GOING_RATE_WINDOW_DAYS * DAY;
  const historyMin = sql.raw(String(HISTORY_MIN_WORKED));
  const rolePoints = (n: SQL) => sql`CASE WHEN ${n} IS NULL THEN 0 ELSE min(25.0, max(0.0, 12 + ((${n} - 1) * 13) / 4.0)) END`;
  const payPoints = (rate: SQL, ref: SQL) =>
    sql`CASE WHEN ${ref} IS NULL THEN 12.5 ELSE min(25.0, max(0.0, 12.5 + ((CAST(${rate} AS REAL) / ${ref} - 1) / 0.3) * 12.5)) END`;
  // A newcomer's start points (relevance.ts startPoints); `max` is the group's START_POINTS_MAX, 0 for a shifter with history.
  const startPoints = (max: SQL, startsAt: SQL) =>
    sql`CASE WHEN ${max} = 0 THEN 0.0 ELSE min(${max}, max(0.0, ${max} * (1 - ((${startsAt} - ${now}) / 3600000.0 - 24) / 144.0))) END`;
  // The bound, rounded as the score is; the same operations in the same order for a candidate and a group.
  const bound = (role: SQL, pay: SQL, dist: SQL, fam: SQL, start: SQL) =>
    sql`CAST(${role} + ${pay} + ${dist} + ${fam} + ${start} + 10 + 0.5 AS INTEGER)`;
  const signals = sql`
  rel_places(business_id, points, km) AS MATERIALIZED (
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(${placesJson})
  ),
  -- Worked shifts per role in the last year; a role on the profile counts as at least one.
  rel_roles(role, n) AS MATERIALIZED (
    SELECT role, max(sum(n), max(listed)) FROM (
      SELECT shiftrole_id AS role, count(*) AS n, 0 AS listed FROM shift_requests
      WHERE shifter_id = ${shifterId} AND ${worked} AND starts_at > ${now - 365 * DAY}
      GROUP BY shiftrole_id
      UNION ALL
      SELECT CAST(value AS INTEGER), 0, 1 FROM json_each(${rolesJson})
    ) GROUP BY role
  ),
  rel_history(business_id, worked, bad) AS MATERIALIZED (
    SELECT business_id,
      sum(CASE WHEN ${worked} THEN 1 ELSE 0 END),
      sum(CASE WHEN is_noshow = 1 OR cancelled_by = 'shifter' THEN 1 ELSE 0 END)
    FROM shift_requests WHERE shifter_id = ${shifterId}
    GROUP BY business_id
  ),
  rel_own(role, currency, mean, n) AS MATERIALIZED (
    SELECT shiftrole_id, currency, avg(hourly_rate_minor), count(*) FROM shift_requests
    WHERE shifter_id = ${shifterId} AND ${worked} AND starts_at > ${now - 90 * DAY}
    GROUP BY shiftrole_id, currency
  ),
  -- The currencies the shifter has a usual rate in: at least HISTORY_MIN_WORKED worked shifts there in 90 days.
  rel_overall(currency, mean) AS MATERIALIZED (
    SELECT currency, avg(mean) FROM rel_own GROUP BY currency HAVING sum(n) >= ${historyMin}
  ),
  rel_busy(starts_at, ends_at) AS MATERIALIZED (
    SELECT starts_at, ends_at FROM shift_requests
    WHERE shifter_id = ${shifterId} AND request_status = ${statusLiteral(SHIFT_STATUS.accepted)} AND is_noshow = 0 AND ends_at > ${now}
  ),
  rel_rules AS MATERIALIZED (
    SELECT shiftrole_id, weekdays, start_from, start_to, min_hourly_rate_minor, currency, distance_threshold_km, distance_premium_minor
    FROM counter_rules WHERE shifter_id = ${shifterId} AND is_active = 1
  ),
  -- Per business of the crew: its city (for the going rate), distance, familiarity, the shifts worked
  -- there, and the start signal's most points (START_POINTS_MAX for a newcomer: fewer than
  -- HISTORY_MIN_WORKED worked shifts ever; else 0). Joining it keeps the candidates to the crew's.
  rel_biz(business_id, city_id, km, distance_points, familiarity_points, worked, start_max) AS MATERIALIZED (
    SELECT ra.business_id, bz.city_id, p.km, coalesce(p.points, ${UNKNOWN_DISTANCE_POINTS}),
      CASE WHEN h.worked > 0 THEN min(20, max(0, 8 + 3 * h.worked - 5 * h.bad)) ELSE 0 END,
      coalesce(h.worked, 0),
      CASE WHEN (SELECT coalesce(sum(worked), 0) FROM rel_history) < ${historyMin} THEN ${sql.raw(START_POINTS_MAX.toFixed(1))} ELSE 0.0 END
    FROM request_authorizations ra
    JOIN businesses bz ON bz.id = ra.business_id
    LEFT JOIN rel_places p ON p.business_id = ra.business_id
    LEFT JOIN rel_history h ON h.business_id = ra.business_id
    WHERE ra.shifter_id = ${shifterId} AND ra.status = 'accepted'
  ),
  -- Per role, in each currency the shifter has a usual rate in: role points and the reference rate.
  rel_rc(role, currency, role_points, ref) AS MATERIALIZED (
    SELECT r.id, ov.currency, ${rolePoints(sql`ro.n`)}, nullif(coalesce(nullif(o.mean, 0), ov.mean), 0)
    FROM shift_roles r CROSS JOIN rel_overall ov
    LEFT JOIN rel_roles ro ON ro.role = r.id
    LEFT JOIN rel_own o ON o.role = r.id AND o.currency = ov.currency
  ),
  -- In other currencies the reference is the going rate of the business's city for the role (GET
  -- /v1/going_rate, services/insights/going-rate.ts): the median (type 7, rounded half up to the minor
  -- unit) of the worked shifts' rates over the going rate's window, when at least GOING_RATE_MIN_SAMPLE
  -- make it. Only read (and so only computed) when a candidate is in such a currency: the histogram
  -- rows of the crew's groups in those currencies (rel_gkey), plus the rows between the histogram's
  -- window (shift_rollup_windows) and the asked span, with their sign, as going-rate.ts reads them.
  -- The edge's rows (minutes of them while the 5-minute job runs) are taken whatever their city and
  -- role, so that rel_gkey is named once (each name is an expansion, see above); a median of a slice
  -- outside rel_gkey is never looked up (its groups have a usual rate).
  rel_gkey(city, role, currency) AS MATERIALIZED (
    SELECT DISTINCT bz.city_id, g.shiftrole_id, g.currency
    FROM request_authorizations ra
    JOIN businesses bz ON bz.id = ra.business_id
    JOIN open_broadcast_groups g ON g.business_id = ra.business_id
    WHERE ra.shifter_id = ${shifterId} AND ra.status = 'accepted' AND bz.city_id IS NOT NULL
      AND g.currency NOT IN (SELECT currency FROM rel_overall)
  ),
  rel_gedge(lo, hi, a, b) AS MATERIALIZED (
    SELECT min(a, ${goingFrom}), max(a, ${goingFrom}), a, b FROM (
      SELECT coalesce((SELECT covers_from FROM shift_rollup_windows WHERE name = 'going_rate'), 0) AS a,
        coalesce((SELECT covers_to FROM shift_rollup_windows WHERE name = 'going_rate'), 0) AS b)
    UNION ALL
    SELECT min(b, ${now + 1}), max(b, ${now + 1}), a, b FROM (
      SELECT coalesce((SELECT covers_from FROM shift_rollup_windows WHERE name = 'going_rate'), 0) AS a,
        coalesce((SELECT covers_to FROM shift_rollup_windows WHERE name = 'going_rate'), 0) AS b)
  ),
  rel_ghist(city, role, currency, rate, n) AS MATERIALIZED (
    SELECT k.city, k.role, k.currency, r.rate_minor, r.shifts
    FROM rel_gkey k JOIN shift_rate_window r ON r.city_id = k.city AND r.shiftrole_id = k.role AND r.currency = k.currency
    UNION ALL
    SELECT bz.city_id, s.shiftrole_id, s.currency, s.hourly_rate_minor,
      ((s.starts_at >= ${goingFrom} AND s.starts_at <= ${now}) - (s.starts_at >= e.a AND s.starts_at < e.b))
    FROM rel_gedge e CROSS JOIN shift_requests s INDEXED BY shift_requests_open_idx
      JOIN businesses bz ON bz.id = s.business_id
    WHERE s.request_status IN (2, 5) AND s.is_broadcast IN (0, 1) AND s.starts_at >= e.lo AND s.starts_at < e.hi
      AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0
  ),
  rel_going(city, role, currency, rate) AS MATERIALIZED (
    SELECT city, role, currency, (min(CASE WHEN cum > (tot - 1) / 2 THEN rate END) + min(CASE WHEN cum > tot / 2 THEN rate END) + 1) / 2
    FROM (
      SELECT city, role, currency, rate,
        sum(n) OVER (PARTITION BY city, role, currency ORDER BY rate) AS cum,
        sum(n) OVER (PARTITION BY city, role, currency) AS tot
      FROM (SELECT city, role, currency, rate, sum(n) AS n FROM rel_ghist GROUP BY city, role, currency, rate HAVING sum(n) > 0)
    ) WHERE tot >= ${ctx.settings.GOING_RATE_MIN_SAMPLE}
    GROUP BY city, role, currency
  )`;
  // A candidate's columns for scoring, with the signals of its group.
  const candidateColumns = sql`shift_requests.id, shift_requests.starts_at, shift_requests.ends_at, shift_requests.created_at,
      shift_requests.hourly_rate_minor AS rate, shift_requests.currency, shift_requests.shiftrole_id,
      shift_requests.shift_date, shift_requests.shift_in`;
  let ranking: SQL;
  if (window === null) {
    ranking = sql`
  rel_cand AS NOT MATERIALIZED (
    SELECT ${candidateColumns}, b.km, b.distance_points, b.familiarity_points, b.worked,
      ${startPoints(sql`b.start_max`, sql`shift_requests.starts_at`)} AS start_points,
      CASE WHEN rc.role IS NOT NULL THEN rc.role_points
           ELSE coalesce((SELECT ${rolePoints(sql`x.n`)} FROM rel_roles x WHERE x.role = shift_requests.shiftrole_id), 0) END AS role_points,
      CASE WHEN rc.role IS NOT NULL THEN rc.ref
           ELSE (SELECT nullif(m.rate, 0) FROM rel_going m
                  WHERE m.city = b.city_id AND m.role = shift_requests.shiftrole_id AND m.currency = shift_requests.currency) END AS ref,
      CASE WHEN rc.role IS NOT NULL THEN 1 ELSE 2 END AS ref_kind
    FROM shift_requests
    JOIN rel_biz b ON b.business_id = shift_requests.business_id
    LEFT JOIN rel_rc rc ON rc.role = shift_requests.shiftrole_id AND rc.currency = shift_requests.currency
    WHERE ${candidates}
  ),
  rel_paid AS NOT MATERIALIZED (SELECT *, ${payPoints(sql`rate`, sql`ref`)} AS pay FROM rel_cand),
  rel_top AS MATERIALIZED (
    SELECT *, ${bound(sql`role_points`, sql`pay`, sql`distance_points`, sql`familiarity_points`, sql`start_points`)} AS ub,
      NULL AS lim_t, NULL AS prev_t, NULL AS cut_start FROM rel_paid
  )`;
  } else {
    // The rate at or above which a candidate of group g bounds to at least t: the inverse of the pay
    // points, a unit lower to absorb floating-point error (the bound itself is then checked exactly).
    // A newcomer's start points are taken at their most (start_max): a later start needs a higher rate,
    // which the check of the bound sees.
    const need = (t: SQL) => sql`(CASE
        WHEN g.ref IS NULL THEN (CASE WHEN ${bound(sql`g.role_points`, sql`12.5`, sql`g.distance_points`, sql`g.familiarity_points`, sql`g.start_max`)} >= ${t} THEN -1 ELSE NULL END)
        WHEN ${t} - 10.5 - g.role_points - g.distance_points - g.familiarity_points - g.start_max <= 0 THEN -1
        WHEN ${t} - 10.5 - g.role_points - g.distance_points - g.familiarity_points - g.start_max > 25.000001 THEN NULL
        ELSE CAST(g.ref * (1 + 0.3 * ((${t} - 10.5 - g.role_points - g.distance_points - g.familiarity_points - g.start_max - 0.000001) - 12.5) / 12.5) AS INTEGER) - 1
      END)`;
    // Each group seeks its own range of the rate index: the group is the outer loop (CROSS JOIN keeps
    // that order) and INDEXED BY the index, so the open broadcasts are never read in bulk.
    const byRate = sql`CROSS JOIN shift_requests INDEXED BY shift_requests_open_rate_idx`;
    // A candidate's bound, from its group's signals and its rate and start (the index's columns).
    const candidateStart = startPoints(sql`g.start_max`, sql`shift_requests.starts_at`);
    const candidateBound = bound(
      sql`g.role_points`,
      payPoints(sql`shift_requests.hourly_rate_minor`, sql`g.ref`),
      sql`g.distance_points`,
      sql`g.familiarity_points`,
      candidateStart,
    );
    const next = sql`max(0, rel_t.t - (CASE WHEN rel_t.n = 0 THEN 1 WHEN rel_t.n * 2 < ${window} THEN 4 ELSE 2 END))`;
    const inGroup = (t: SQL) => sql`shift_requests.business_id = g.business_id AND shift_requests.shiftrole_id = g.role
        AND shift_requests.currency = g.currency AND shift_requests.hourly_rate_minor >= ${need(t)}
        AND ${candidates}
        AND ${candidateBound} >= ${t}`;
    ranking = sql`
  -- The groups of the crew's open broadcasts, each with its signals and best rate (open_broadcast_groups,
  -- kept by triggers): a few rows per business, never the broadcasts themselves.
  rel_grp(business_id, role, currency, km, distance_points, familiarity_points, worked, start_max, role_points, ref, ref_kind, best) AS MATERIALIZED (
    SELECT g.business_id, g.shiftrole_id, g.currency, b.km, b.distance_points, b.familiarity_points, b.worked, b.start_max,
      CASE WHEN rc.role IS NOT NULL THEN rc.role_points
           ELSE coalesce((SELECT ${rolePoints(sql`x.n`)} FROM rel_roles x WHERE x.role = g.shiftrole_id), 0) END,
      CASE WHEN rc.role IS NOT NULL THEN rc.ref
           ELSE (SELECT nullif(m.rate, 0) FROM rel_going m WHERE m.city = b.city_id AND m.role = g.shiftrole_id AND m.currency = g.currency) END,
      CASE WHEN rc.role IS NOT NULL THEN 1 ELSE 2 END,
      g.best_rate_minor
    FROM rel_biz b JOIN open_broadcast_groups g ON g.business_id = b.business_id
    LEFT JOIN rel_rc rc ON rc.role = g.shiftrole_id AND rc.currency = g.currency
  ),
  rel_g AS MATERIALIZED (
    SELECT *, ${bound(sql`role_points`, payPoints(sql`best`, sql`ref`), sql`distance_points`, sql`familiarity_points`, sql`start_max`)} AS best_ub FROM rel_grp
  ),
  -- The threshold: down from the best bound until the window's count of candidates reach it (or all do).
  -- The first step is to the best bound itself; then 4 points while under half the window, 2 after:
  -- a threshold a little low only scores a few more candidates in full (and a band far past the
  -- window is cut, below), while each step counts every group again.
  rel_t(t, n) AS (
    SELECT (SELECT max(best_ub) + 1 FROM rel_g), 0
    UNION ALL
    SELECT ${next}, (SELECT count(*) FROM rel_g g ${byRate} WHERE ${inGroup(next)} AND g.best_ub >= ${next})
    FROM rel_t WHERE n < ${window} AND t > 0
  ),
  -- The last step (t, n) and the one before it (prev_t, prev_n), in one read of the steps.
  rel_lim(t, n, prev_t, prev_n) AS MATERIALIZED (
    SELECT t, n, lead(t) OVER (ORDER BY t), lead(n) OVER (ORDER BY t) FROM rel_t ORDER BY t LIMIT 1
  ),
  -- The band the last step let in (bounds from t up to prev_t) can hold far more than the window
  -- asks, where the parts of the score saturate: past twice the window it is cut by the order's next
  -- key, the start (below that, scoring the few more costs less than the cut). Of the band, the
  -- earliest-starting ones that fill the window are kept (and any that start at the same time as the
  -- last of them); those of the step before are all kept. start is NULL when the band was not cut.
  rel_cut(t, prev_t, start) AS MATERIALIZED (
    SELECT l.t, l.prev_t, CASE WHEN l.n > 2 * ${window} THEN (
        SELECT s FROM (
          SELECT shift_requests.starts_at AS s, row_number() OVER (ORDER BY shift_requests.starts_at) AS k
          FROM rel_g g ${byRate}
          WHERE ${inGroup(sql`l.t`)} AND g.best_ub >= l.t AND ${candidateBound} < l.prev_t)
        WHERE k = ${window} - l.prev_n) END
    FROM rel_lim l
  ),
  rel_top AS MATERIALIZED (
    SELECT ${candidateColumns}, g.km, g.distance_points, g.familiarity_points, g.worked, ${candidateStart} AS start_points,
      g.role_points, g.ref, g.ref_kind,
      ${payPoints(sql`shift_requests.hourly_rate_minor`, sql`g.ref`)} AS pay,
      ${candidateBound} AS ub, cut.t AS lim_t, cut.prev_t, cut.start AS cut_start
    FROM rel_cut cut CROSS JOIN rel_g g ${byRate}
    WHERE ${inGroup(sql`cut.t`)} AND g.best_ub >= cut.t
      AND (cut.start IS NULL OR shift_requests.starts_at <= cut.start OR ${candidateBound} >= cut.prev_t)
  )`;
  }
  // The highest floor of the shifter's active counter rules matching candidate c (a rule's distance
  // premium when far); NULL when none does. The profile's minimum rate joins it in rel_scored.
  const ruleFloor = sql`(
      CASE WHEN EXISTS (SELECT 1 FROM rel_rules) THEN (
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
          ) END)`;
  const query = sql`WITH RECURSIVE ${signals},${ranking},
  -- The penalties' inputs. The overlap test and the counter-rule floor run only when the shifter has
  -- accepted shifts or active rules at all.
  rel_pen AS MATERIALIZED (
    SELECT c.id, c.starts_at, c.created_at, c.rate, c.currency, c.role_points, c.pay, c.distance_points, c.km, c.familiarity_points,
      c.ref, c.ref_kind, c.worked, c.start_points, c.lim_t, c.prev_t, c.cut_start,
      EXISTS (SELECT 1 FROM rel_busy) AND EXISTS (SELECT 1 FROM rel_busy b WHERE b.starts_at < c.ends_at AND b.ends_at > c.starts_at) AS overlaps,
      ${ruleFloor} AS rule_floor
    FROM rel_top c
  ),
  -- The full score; a rate under the floor (the counter rules', or the profile's minimum in its
  -- currency, the higher) earns no pay points.
  rel_scored AS (
    SELECT *, CASE WHEN rate < floor THEN 0.0 ELSE pay END AS pay_points FROM (
      SELECT c.*, CASE WHEN c.currency = ${minCurrency} THEN max(${minRate}, coalesce(c.rule_floor, 0)) ELSE c.rule_floor END AS floor
      FROM rel_pen c
    )
  )
SELECT id AS ranked_id,
  CAST(CASE WHEN overlaps THEN min(role_points + pay_points + distance_points + familiarity_points + start_points, 10)
            ELSE role_points + pay_points + distance_points + familiarity_points + start_points + 10 END + 0.5 AS INTEGER) AS ranked_score,
  CASE WHEN lim_t > 0 THEN lim_t - 1 END AS ranked_bound,
  CASE WHEN cut_start IS NOT NULL THEN json_array(prev_t - 1, cut_start) END AS ranked_cut,
  -- The signals behind the score, for the reasons a list shows beside it (list.ts reads them): ref_kind
  -- 1 is the shifter's usual rate, 2 the going rate; worked, the shifts worked at the business.
  json_array(role_points, pay_points, distance_points, km, familiarity_points, overlaps, ref, floor, ref_kind, worked, start_points) AS ranked_signals
FROM rel_scored
ORDER BY ranked_score DESC, starts_at ASC, created_at DESC, id ASC
LIMIT ${runLimit(page.limit + 1)} OFFSET ${page.offset}`;
  return ctx.db
    .$with('ranked', {
      rankedId: sql<string>`ranked_id`.mapWith(String).as('ranked_id'),
      score: sql<number>`ranked_score`.mapWith(Number).as('ranked_score'),
      bound: sql<number | null>`ranked_bound`.as('ranked_bound'),
      cut: sql<string | null>`ranked_cut`.as('ranked_cut'),
      signals: sql<string>`ranked_signals`.as('ranked_signals'),
    })
    .as(query);
}

export type RankedBroadcasts = ReturnType<typeof rankedBroadcasts>;

/**
 * Whether a page ranked within a window is exact: no candidate left out can reach it. Each candidate
 * left out below the threshold scores at most `ranked_bound`; one left out of the cut band (see
 * rankedBroadcasts; `ranked_cut` is [its bound, the latest start kept]) scores at most the band's bound
 * and starts later than every candidate kept from it. So it is enough that the last row read (the
 * page's, or the one that tells a next page exists) ranks above both: it scores more than
 * `ranked_bound`, and more than the band's bound or as much and starting no later than the cut. A page
 * that ends inside the window is exact only when nothing was left out.
 */
export function exactWithin(
  rows: ReadonlyArray<{ relevance_score: number; ranked_bound: number | null; ranked_cut: string | null; starts_at: number }>,
  limit: number,
): boolean {
  // The window always reaches past the page's offset, so an empty answer means no candidate is left there.
  if (rows.length === 0) return true;
  const bound = rows[0]!.ranked_bound;
  const cut = rows[0]!.ranked_cut === null ? null : (JSON.parse(rows[0]!.ranked_cut) as [number, number]);
  if (bound === null && cut === null) return true;
  if (rows.length <= limit) return false;
  const last = rows[limit]!;
  if (bound !== null && !(bound < last.relevance_score)) return false;
  if (cut !== null) {
    const [bandBound, latestStart] = cut;
    return last.relevance_score > bandBound || (last.relevance_score === bandBound && last.starts_at <= latestStart);
  }
  return true;
}
