import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  businesses,
  openBroadcastGroups,
  shiftCrewWindow,
  shiftLaborWeeks,
  shiftLaborWeekShifters,
  shiftRateWindow,
  shiftRollupWindows,
} from '../../db/schema';
import type { ServiceContext } from '../kernel';

/**
 * The figures' rollups (schema: src/db/schema/shifts.ts), kept by triggers on shift_requests and
 * businesses in the statement that changes a row (the shift-rollups migration), so every write path
 * keeps them: the guarded services, the jobs, imports and a business deleted with its shifts.
 *
 * - Labor (`shift_labor_weeks`, `shift_labor_week_shifters`) covers every week, in UTC weeks: a
 *   business's own weeks start at its local Monday midnight, and labor-costs.ts reads the hours
 *   between the two Mondays from the rows, so the figures stay exact through DST and a change of zone.
 * - Crew (`shift_crew_window`) and going rate (`shift_rate_window`) cover the shifts that start in
 *   their window, [covers_from, covers_to) of `shift_rollup_windows`. `advanceInsightRollups` (the
 *   5-minute cron) moves each window to the span the figures ask for now, adding the rows that enter
 *   and removing those that leave in one batch; a read adds and removes the rows between the window
 *   and the asked span (minutes of rows), so a late or missed job makes a read slower, never wrong.
 * - `rebuildInsightRollups` (nightly) recomputes them from the rows, business by business and city
 *   by city, each in one batch: the repair for a rollup changed outside the triggers. The business
 *   step also rebuilds the relevance ranking's groups of open broadcasts (`open_broadcast_groups`,
 *   migration 0023), kept the same way.
 *
 * The SQL below states "worked", minutes and pay as the triggers do (and as kernel/shift does in
 * code: scheduledMinutes, shiftPayMinor); test/insights/rollups.test.ts holds all three to the same
 * figures on random histories.
 */

const DAY = 86_400_000;
/** Crew analytics' window: the shifts that started in the last 90 days. */
export const CREW_WINDOW_DAYS = 90;
const WEEK = 7 * DAY;
/** Monday 1970-01-05 00:00 UTC: UTC weeks are counted from a Monday. */
const FIRST_MONDAY = 4 * DAY;

export type RollupWindowName = 'crew' | 'going_rate';
export interface Span {
  from: number;
  to: number;
}

/** The UTC Monday 00:00 of the week holding `ms`. */
export function utcWeekStart(ms: number): number {
  return ms - ((((ms - FIRST_MONDAY) % WEEK) + WEEK) % WEEK);
}

// The expressions as text, so they compose into larger statements and the triggers' copies read alike.
const WORKED = (a: string) => `(${a}.request_status IN (2, 5) AND ${a}.shift_end_at IS NOT NULL AND ${a}.is_noshow = 0)`;
const MINUTES = (a: string) => {
  const d = `(${a}.ends_at - ${a}.starts_at + 30000)`;
  return `((${d} - (((${d} % 60000) + 60000) % 60000)) / 60000)`;
};
const PAY = (a: string) => {
  const p = `(${MINUTES(a)} * ${a}.hourly_rate_minor)`;
  return `(CASE WHEN ${p} >= 0 THEN (${p} + 30) / 60 ELSE -((30 - ${p}) / 60) END)`;
};
const UTC_WEEK = (a: string) => `(${a}.starts_at - ((((${a}.starts_at - ${FIRST_MONDAY}) % ${WEEK}) + ${WEEK}) % ${WEEK}))`;
/** Rows crew analytics counts: worked, a no-show, or the shifter's own cancellation (with a shifter). */
const CREW_COUNTS = (a: string) =>
  `(${a}.shifter_id IS NOT NULL AND (${WORKED(a)} OR ${a}.is_noshow = 1 OR ${a}.cancelled_by = 'shifter'))`;
const NO_SHOW = (a: string) => `(NOT ${WORKED(a)} AND ${a}.is_noshow = 1)`;
const OWN_CANCEL = (a: string) => `(NOT ${WORKED(a)} AND ${a}.is_noshow = 0 AND ${a}.cancelled_by IS 'shifter')`;

/** `worked` for rows of shift_requests under `alias`, as literals (kernel workedShiftSql binds them). */
export const workedSql = (alias = 's'): SQL => sql.raw(WORKED(alias));
/** Scheduled minutes, rounded as Math.round rounds them (kernel scheduledMinutes). */
export const minutesSql = (alias = 's'): SQL => sql.raw(MINUTES(alias));
/** Pay in minor units: minutes × rate ÷ 60, half away from zero (kernel shiftPayMinor). */
export const paySql = (alias = 's'): SQL => sql.raw(PAY(alias));

/**
 * Every shift_requests row whose start lies in [from, to), through the status index (one seek per
 * status and broadcast flag), for the jobs that move and rebuild a window.
 */
function startsWithin(alias: string, from: number, to: number): SQL {
  return sql.raw(
    `${alias}.request_status IN (1, 2, 3, 4, 5, 6, 7) AND ${alias}.is_broadcast IN (0, 1) AND ${alias}.starts_at >= ${from} AND ${alias}.starts_at < ${to}`,
  );
}

/** A window as stored, [covers_from, covers_to). */
export async function readWindow(ctx: ServiceContext, name: RollupWindowName): Promise<{ from: number; to: number }> {
  const [w] = await ctx.db
    .select({ from: shiftRollupWindows.covers_from, to: shiftRollupWindows.covers_to })
    .from(shiftRollupWindows)
    .where(eq(shiftRollupWindows.name, name));
  return w ?? { from: 0, to: 0 };
}

/** The stored window's edge as SQL (a scalar subquery, read once per statement); 0 when the row is missing. */
const edgeOf = (name: RollupWindowName, edge: 'covers_from' | 'covers_to') =>
  `coalesce((SELECT ${edge} FROM shift_rollup_windows WHERE name = '${name}'), 0)`;

/** SQL yielding the stored window as one row (a, b), to join as `w`. */
export function windowSql(name: RollupWindowName): SQL {
  return sql.raw(`(SELECT ${edgeOf(name, 'covers_from')} AS a, ${edgeOf(name, 'covers_to')} AS b)`);
}

/**
 * The rows a windowed read adds or removes: the ranges of starts between the stored window [a, b)
 * (as it is when the statement runs, so a read sees the rollup and its edges at the same moment) and
 * the asked span [from, to] (both ends in, as the figures read), as a SELECT of (lo, hi) rows to join,
 * and the sign of a row of `alias` (+1 asked and not rolled up, −1 rolled up and not asked). Two
 * ranges cover the difference; when the two do not overlap (a window never moved yet) they cover
 * more, and the sign of those rows is 0.
 */
export function edgeSql(alias: string, span: Span, name: RollupWindowName): { ranges: SQL; sign: SQL } {
  const a = edgeOf(name, 'covers_from');
  const b = edgeOf(name, 'covers_to');
  const s = `${alias}.starts_at`;
  const end = span.to + 1;
  return {
    ranges: sql.raw(
      `SELECT min(${a}, ${span.from}) AS lo, max(${a}, ${span.from}) AS hi UNION ALL SELECT min(${b}, ${end}), max(${b}, ${end})`,
    ),
    sign: sql.raw(`((${s} >= ${span.from} AND ${s} <= ${span.to}) - (${s} >= ${a} AND ${s} < ${b}))`),
  };
}

/**
 * The ids of a business's rows whose start lies in one of `ranges` (a SELECT of lo, hi), each range
 * one seek of the (business, start) index: the few hours or minutes of rows a figure reads besides
 * its rollup. (An OR of ranges would not be read range by range.) `only`: a condition on `x`, checked
 * there, so the outer query only looks the ids up.
 */
export function businessRowsIn(businessId: string, ranges: SQL, only?: SQL): SQL {
  return sql`(SELECT x.id FROM (${ranges}) AS r CROSS JOIN shift_requests AS x INDEXED BY shift_requests_worked_cover_idx
    WHERE x.business_id = ${businessId} AND x.starts_at >= r.lo AND x.starts_at < r.hi${only ? sql` AND ${only}` : sql``})`;
}

// ── Moving the windows ─────────────────────────────────────────────────────────────────────────────

/** At most this much of starts enters or leaves a window per batch, so one batch stays small. */
export const WINDOW_STEP_MS = 7 * DAY;
/** Batches per window per job run; a window further behind catches up over the next runs. */
const MAX_STEPS = 40;

/** The next window on the way from `cur` to `target`, moving each edge at most WINDOW_STEP_MS. */
export function nextWindow(cur: { from: number; to: number }, target: { from: number; to: number }): { from: number; to: number } {
  const disjoint = cur.from >= cur.to || cur.to <= target.from || target.to <= cur.from;
  if (disjoint) return { from: target.from, to: Math.min(target.to, target.from + WINDOW_STEP_MS) };
  const move = (x: number, goal: number) => (x < goal ? Math.min(goal, x + WINDOW_STEP_MS) : Math.max(goal, x - WINDOW_STEP_MS));
  return { from: move(cur.from, target.from), to: move(cur.to, target.to) };
}

/** The (at most two) ranges of starts whose rows enter or leave when `cur` becomes `next`. */
function changedRanges(cur: { from: number; to: number }, next: { from: number; to: number }): Array<[number, number]> {
  const disjoint = cur.from >= cur.to || cur.to <= next.from || next.to <= cur.from;
  const ranges: Array<[number, number]> = disjoint
    ? [
        [cur.from, cur.to],
        [next.from, next.to],
      ]
    : [
        [Math.min(cur.from, next.from), Math.max(cur.from, next.from)],
        [Math.min(cur.to, next.to), Math.max(cur.to, next.to)],
      ];
  return ranges.filter(([lo, hi]) => lo < hi);
}

/** Holds while the stored window is still `cur`: every statement of a move is conditional on it. */
const windowIs = (name: RollupWindowName, cur: { from: number; to: number }) =>
  sql`EXISTS (SELECT 1 FROM ${shiftRollupWindows} WHERE name = ${name} AND covers_from = ${cur.from} AND covers_to = ${cur.to})`;

/** `+=` for each measure on conflict: a delta adds to what the key holds. */
const addUp = <T extends Record<string, SQLiteColumn>>(cols: T) =>
  Object.fromEntries(Object.entries(cols).map(([k, c]) => [k, sql`${c} + excluded.${sql.raw(k)}`]));

const crewConflict = {
  target: [shiftCrewWindow.business_id, shiftCrewWindow.shifter_id, shiftCrewWindow.currency],
  set: addUp({
    worked: shiftCrewWindow.worked,
    minutes: shiftCrewWindow.minutes,
    pay_minor: shiftCrewWindow.pay_minor,
    no_shows: shiftCrewWindow.no_shows,
    cancels: shiftCrewWindow.cancels,
  }),
};
const rateConflict = {
  target: [
    shiftRateWindow.city_id,
    shiftRateWindow.shiftrole_id,
    shiftRateWindow.currency,
    shiftRateWindow.rate_minor,
    shiftRateWindow.state_id,
    shiftRateWindow.country_id,
  ],
  set: addUp({ shifts: shiftRateWindow.shifts }),
};

/** +1 for a start inside `next`, −1 inside `cur`: what moving the window from `cur` to `next` does to a row. */
const moveSign = (cur: Span, next: Span) =>
  sql.raw(`((s.starts_at >= ${next.from} AND s.starts_at < ${next.to}) - (s.starts_at >= ${cur.from} AND s.starts_at < ${cur.to}))`);

// Inserts select their columns in the table's declared order (drizzle's insert-select names them all).
function crewDelta(ctx: ServiceContext, cur: Span, next: Span, range: [number, number]): BatchItem {
  return ctx.db
    .insert(shiftCrewWindow)
    .select(
      sql`SELECT business_id, shifter_id, currency, sum(sg * w), sum(sg * w * m), sum(sg * w * pay), sum(sg * ns), sum(sg * cx) FROM (
        SELECT s.business_id, s.shifter_id, s.currency, ${moveSign(cur, next)} AS sg, ${workedSql()} AS w, ${minutesSql()} AS m,
          ${paySql()} AS pay, ${sql.raw(NO_SHOW('s'))} AS ns, ${sql.raw(OWN_CANCEL('s'))} AS cx
        FROM shift_requests s
        WHERE ${startsWithin('s', range[0], range[1])} AND ${sql.raw(CREW_COUNTS('s'))}
      ) WHERE sg <> 0 AND ${windowIs('crew', cur)}
      GROUP BY business_id, shifter_id, currency`,
    )
    .onConflictDoUpdate(crewConflict);
}

function rateDelta(ctx: ServiceContext, cur: Span, next: Span, range: [number, number]): BatchItem {
  return ctx.db
    .insert(shiftRateWindow)
    .select(
      sql`SELECT city, st, co, role, currency, rate, sum(sg) FROM (
        SELECT coalesce(b.city_id, 0) AS city, coalesce(b.state_id, 0) AS st, coalesce(b.country_id, 0) AS co,
          (CASE WHEN r.per_role THEN s.shiftrole_id ELSE 0 END) AS role, s.currency, s.hourly_rate_minor AS rate, ${moveSign(cur, next)} AS sg
        FROM shift_requests s JOIN ${businesses} b ON b.id = s.business_id, (SELECT 1 AS per_role UNION ALL SELECT 0) r
        WHERE ${startsWithin('s', range[0], range[1])} AND ${workedSql()}
      ) WHERE sg <> 0 AND ${windowIs('going_rate', cur)}
      GROUP BY city, st, co, role, currency, rate`,
    )
    .onConflictDoUpdate(rateConflict);
}

/** The spans the windows should cover at `now`: what crew analytics and the going rate ask for. */
export function targetWindows(ctx: ServiceContext, now = ctx.now()): Record<RollupWindowName, Span> {
  return {
    crew: { from: now - CREW_WINDOW_DAYS * DAY, to: now },
    going_rate: { from: now - ctx.settings.GOING_RATE_WINDOW_DAYS * DAY, to: now },
  };
}

/**
 * Moves both windows to the spans asked for now (cron, every 5 minutes): per step one batch adds the
 * rows whose start enters the window, removes those that leave, moves the window and drops rows
 * left at zero, each conditional on the window being as it was read (a concurrent run makes the
 * later one a no-op). Returns the steps taken per window.
 */
export async function advanceInsightRollups(ctx: ServiceContext): Promise<Record<RollupWindowName, number>> {
  const targets = targetWindows(ctx);
  const steps: Record<RollupWindowName, number> = { crew: 0, going_rate: 0 };
  for (const name of ['crew', 'going_rate'] as const) {
    for (let i = 0; i < MAX_STEPS; i++) {
      const cur = await readWindow(ctx, name);
      const next = nextWindow(cur, targets[name]);
      if (next.from === cur.from && next.to === cur.to) break;
      const deltas = changedRanges(cur, next).map((r) => (name === 'crew' ? crewDelta(ctx, cur, next, r) : rateDelta(ctx, cur, next, r)));
      await runBatch(ctx.db, [
        ...deltas,
        ctx.db
          .update(shiftRollupWindows)
          .set({ covers_from: next.from, covers_to: next.to, advanced_at: ctx.now() })
          .where(
            and(eq(shiftRollupWindows.name, name), eq(shiftRollupWindows.covers_from, cur.from), eq(shiftRollupWindows.covers_to, cur.to)),
          ),
        name === 'crew'
          ? ctx.db.delete(shiftCrewWindow).where(sql`worked = 0 AND minutes = 0 AND pay_minor = 0 AND no_shows = 0 AND cancels = 0`)
          : ctx.db.delete(shiftRateWindow).where(eq(shiftRateWindow.shifts, 0)),
      ]);
      steps[name]++;
    }
  }
  await runBatch(ctx.db, [
    ctx.db.delete(shiftLaborWeeks).where(eq(shiftLaborWeeks.shifts, 0)),
    ctx.db.delete(shiftLaborWeekShifters).where(eq(shiftLaborWeekShifters.shifts, 0)),
  ]);
  return steps;
}

// ── Rebuilding from the rows ─────────────────────────────────────────────────────────────────────

const REBUILD_PAGE = 50;

/** One business's labor, open broadcast groups and crew rollups recomputed from its rows: delete and insert, one batch. */
function rebuildBusiness(ctx: ServiceContext, businessId: string): BatchItem[] {
  const own = sql`s.business_id = ${businessId}`;
  const labor = (key: string) =>
    sql`SELECT s.business_id, ${sql.raw(UTC_WEEK('s'))}, ${sql.raw(key)}, s.currency, count(*), sum(${minutesSql()}), sum(${paySql()})
      FROM shift_requests s WHERE ${own} AND ${workedSql()}
      GROUP BY 1, 2, 3, 4`;
  return [
    ctx.db.delete(shiftLaborWeeks).where(eq(shiftLaborWeeks.business_id, businessId)),
    ctx.db.insert(shiftLaborWeeks).select(labor('s.shiftrole_id')),
    ctx.db.delete(shiftLaborWeekShifters).where(eq(shiftLaborWeekShifters.business_id, businessId)),
    ctx.db.insert(shiftLaborWeekShifters).select(labor("coalesce(s.shifter_id, '')")),
    ctx.db.delete(openBroadcastGroups).where(eq(openBroadcastGroups.business_id, businessId)),
    ctx.db.insert(openBroadcastGroups).select(
      sql`SELECT s.business_id, s.shiftrole_id, s.currency, count(*), max(s.hourly_rate_minor)
      FROM shift_requests s WHERE ${own} AND s.request_status = 1 AND s.is_broadcast = 1
      GROUP BY 1, 2, 3`,
    ),
    ctx.db.delete(shiftCrewWindow).where(eq(shiftCrewWindow.business_id, businessId)),
    ctx.db.insert(shiftCrewWindow).select(
      sql`SELECT s.business_id, s.shifter_id, s.currency, sum(${workedSql()}), sum(${workedSql()} * ${minutesSql()}),
        sum(${workedSql()} * ${paySql()}), sum(${sql.raw(NO_SHOW('s'))}), sum(${sql.raw(OWN_CANCEL('s'))})
      FROM ${windowSql('crew')} w, shift_requests s
      WHERE ${own} AND s.starts_at >= w.a AND s.starts_at < w.b AND ${sql.raw(CREW_COUNTS('s'))}
      GROUP BY 1, 2, 3`,
    ),
  ];
}

/** One city's going-rate histogram (businesses with that city_id, 0 = none) recomputed from the rows. */
function rebuildCity(ctx: ServiceContext, cityId: number): BatchItem[] {
  return [
    ctx.db.delete(shiftRateWindow).where(eq(shiftRateWindow.city_id, cityId)),
    ctx.db.insert(shiftRateWindow).select(
      sql`SELECT coalesce(b.city_id, 0), coalesce(b.state_id, 0), coalesce(b.country_id, 0),
        (CASE WHEN r.per_role THEN s.shiftrole_id ELSE 0 END), s.currency, s.hourly_rate_minor, count(*)
      FROM ${windowSql('going_rate')} w, ${businesses} b JOIN shift_requests s ON s.business_id = b.id,
        (SELECT 1 AS per_role UNION ALL SELECT 0) r
      WHERE ${cityId === 0 ? sql`b.city_id IS NULL` : sql`b.city_id = ${cityId}`} AND s.starts_at >= w.a AND s.starts_at < w.b AND ${workedSql()}
      GROUP BY 1, 2, 3, 4, 5, 6`,
    ),
  ];
}

/**
 * Recomputes every rollup from shift_requests (nightly cron): business by business (labor, crew),
 * then city by city (going rate), each in one batch, so a concurrent write lands before or after it
 * and is kept either way. Pass `businessIds` to rebuild only those businesses' labor and crew rows.
 */
export async function rebuildInsightRollups(ctx: ServiceContext, opts: { businessIds?: string[] } = {}) {
  let rebuiltBusinesses = 0;
  const rebuildList = async (ids: string[]) => {
    for (const id of ids) {
      await runBatch(ctx.db, rebuildBusiness(ctx, id));
      rebuiltBusinesses++;
    }
  };
  if (opts.businessIds) await rebuildList(opts.businessIds);
  else {
    let after = '';
    for (;;) {
      const page = await ctx.db
        .select({ id: businesses.id })
        .from(businesses)
        .where(gt(businesses.id, after))
        .orderBy(businesses.id)
        .limit(REBUILD_PAGE);
      await rebuildList(page.map((p) => p.id));
      if (page.length < REBUILD_PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  let rebuiltCities = 0;
  if (!opts.businessIds) {
    const cities = await ctx.db
      .selectDistinct({ city: sql<number>`coalesce(${businesses.city_id}, 0)` })
      .from(businesses)
      .union(ctx.db.selectDistinct({ city: shiftRateWindow.city_id }).from(shiftRateWindow));
    for (const c of cities) {
      await runBatch(ctx.db, rebuildCity(ctx, Number(c.city)));
      rebuiltCities++;
    }
  }
  return { businesses: rebuiltBusinesses, cities: rebuiltCities };
}
