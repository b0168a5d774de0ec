import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { shiftLaborWeeks, shiftLaborWeekShifters, shiftRoles, shifters } from '../../db/schema';
import { fromMinor, percentOf } from '../../lib/money';
import { addDays, mondayOf, startOfDay, todayIn } from '../../lib/shift-time';
import { accessBusiness, PAY_VIEWERS } from '../access';
import { hours, type ServiceContext } from '../kernel';
import { minutesSql, paySql, workedSql } from './rollups';
import type { LaborByRole, LaborByShifter, LaborCosts, LaborCostsQuery, LaborWeek, OtherCurrencyTotal } from './schemas';

const WEEKS_OF_HISTORY = 8;

/** The edge ranges as rows (edge, lo, hi, detail) of a SELECT: one JSON parameter, however many. */
const edgeRangesSql = (ranges: Array<{ lo: number; hi: number; detail: boolean }>) =>
  sql`SELECT key AS edge, json_extract(value, '$[0]') AS lo, json_extract(value, '$[1]') AS hi, json_extract(value, '$[2]') AS detail
    FROM json_each(${JSON.stringify(ranges.map((e) => [e.lo, e.hi, e.detail ? 1 : 0]))})`;

interface Bucket {
  minutes: number;
  shifts: number;
  minor: number;
}
const emptyBucket = (): Bucket => ({ minutes: 0, shifts: 0, minor: 0 });
const add = (b: Bucket, minutes: number, minor: number, shifts: number) => {
  b.minutes += minutes;
  b.shifts += shifts;
  b.minor += minor;
};

/**
 * A bucket in the business's currency plus one bucket per other currency: amounts in different
 * currencies are never added together, and a shift in another currency is never dropped.
 */
class Split {
  readonly main = emptyBucket();
  readonly others = new Map<string, Bucket>();
  /** Adds `shifts` shifts (negative to take them out) with their minutes and pay. */
  add(currency: string, home: string, minutes: number, minor: number, shifts: number) {
    if (currency === home) return add(this.main, minutes, minor, shifts);
    const b = this.others.get(currency) ?? emptyBucket();
    add(b, minutes, minor, shifts);
    this.others.set(currency, b);
  }
  /** Shifts in every currency. */
  shifts(): number {
    let n = this.main.shifts;
    for (const b of this.others.values()) n += b.shifts;
    return n;
  }
  /** [{ currency, total, hours, shifts }] by currency code; empty when every shift was in the business's currency. */
  otherCurrencies(): OtherCurrencyTotal[] {
    return [...this.others]
      .filter(([, b]) => b.shifts !== 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, b]) => ({ currency, total: fromMinor(b.minor, currency), hours: hours(b.minutes), shifts: b.shifts }));
  }
}

/**
 * A row's `other_currencies`, present only when the row has shifts in another currency (v1 rows stay
 * as they were). Called with the row's view type, so the literal is checked against its schema.
 */
const withOthers = <Row extends { other_currencies?: OtherCurrencyTotal[] | undefined }>(row: Row, split: Split): Row => {
  const others = split.otherCurrencies();
  return others.length ? { ...row, other_currencies: others } : row;
};

/**
 * GET /v1/business/{id}/labor_costs (owner or admin). Worked shifts of the business, bucketed by the
 * Monday-based week of their start in the business's zone; each shift is paid hours × rate rounded
 * once. Totals, hours, shifts, the change and the budget figures are in the business's currency;
 * shifts in another currency are reported apart, per currency (`other_currencies` at the top for the
 * week, and on each breakdown row and history week that has any).
 *
 * Read from the labor rollups (rollups.ts), which count by UTC week: each local week is its UTC
 * week's rollup, corrected by the rows that start between the local Monday midnight and the UTC one
 * (a few hours at each of the nine boundaries, added up in SQL from the covering index of starts).
 * One batch, whatever the number of shifts.
 */
export async function laborCosts(ctx: ServiceContext, businessId: string, query: LaborCostsQuery = {}): Promise<LaborCosts> {
  const { week } = query;
  const { business } = await accessBusiness(ctx, businessId, [...PAY_VIEWERS]);
  const tz = business.timezone;
  const cur = business.currency;
  const thisMonday = mondayOf(week ?? todayIn(tz, ctx.now()));
  const mondays = Array.from({ length: WEEKS_OF_HISTORY + 1 }, (_, i) => addDays(thisMonday, (i - (WEEKS_OF_HISTORY - 1)) * 7));
  // mondays[0..7] are the 8 weeks ending with this one; mondays[8] is the next Monday (exclusive end).
  const bounds = mondays.map((d) => startOfDay(d, tz));
  // The UTC week the rollup files each local week under: the one starting on the same calendar Monday.
  const utc = mondays.map((d) => Date.parse(`${d}T00:00:00Z`));
  // A row between a local Monday and the UTC one is counted by the rollup in one week and belongs to
  // another (the same two for every row of the range): out of the one, into the other.
  const weekOf = (ms: number, starts: number[]) => {
    if (ms < starts[0]! || ms >= starts[WEEKS_OF_HISTORY]!) return -1;
    let w = WEEKS_OF_HISTORY - 1;
    while (ms < starts[w]!) w--;
    return w;
  };
  const last = WEEKS_OF_HISTORY - 1;
  const edgeRanges = bounds
    .map((b, i) => {
      const lo = Math.min(b, utc[i]!);
      return { lo, hi: Math.max(b, utc[i]!), counted: weekOf(lo, utc), own: weekOf(lo, bounds) };
    })
    .filter((e) => e.lo < e.hi && e.counted !== e.own)
    .map((e) => ({ ...e, detail: e.counted === last || e.own === last }));

  const [weekRows, shifterRows, edgeRows] = await ctx.db.batch([
    ctx.db
      .select({
        week_start: shiftLaborWeeks.week_start,
        shiftrole_id: shiftLaborWeeks.shiftrole_id,
        role: shiftRoles.label,
        currency: shiftLaborWeeks.currency,
        shifts: shiftLaborWeeks.shifts,
        minutes: shiftLaborWeeks.minutes,
        minor: shiftLaborWeeks.pay_minor,
      })
      .from(shiftLaborWeeks)
      .leftJoin(shiftRoles, eq(shiftRoles.id, shiftLaborWeeks.shiftrole_id))
      .where(
        and(
          eq(shiftLaborWeeks.business_id, business.id),
          gte(shiftLaborWeeks.week_start, utc[0]!),
          lt(shiftLaborWeeks.week_start, utc[WEEKS_OF_HISTORY]!),
        ),
      ),
    ctx.db
      .select({
        shifter_id: shiftLaborWeekShifters.shifter_id,
        shifter_name: shifters.display_name,
        currency: shiftLaborWeekShifters.currency,
        shifts: shiftLaborWeekShifters.shifts,
        minutes: shiftLaborWeekShifters.minutes,
        minor: shiftLaborWeekShifters.pay_minor,
      })
      .from(shiftLaborWeekShifters)
      .leftJoin(shifters, eq(shifters.id, shiftLaborWeekShifters.shifter_id))
      .where(and(eq(shiftLaborWeekShifters.business_id, business.id), eq(shiftLaborWeekShifters.week_start, utc[WEEKS_OF_HISTORY - 1]!))),
    // The rows between each local Monday and the UTC one, added up per range and currency (and per
    // shifter and role in the ranges at this week's two ends), from the covering index alone.
    ctx.db
      .select({
        edge: sql<number>`e.edge`.mapWith(Number),
        currency: sql<string>`e.currency`,
        shifter_id: sql<string | null>`e.shifter_id`,
        shifter_name: shifters.display_name,
        shiftrole_id: sql<number | null>`e.shiftrole_id`,
        role: shiftRoles.label,
        shifts: sql<number>`e.shifts`.mapWith(Number),
        minutes: sql<number>`e.minutes`.mapWith(Number),
        minor: sql<number>`e.minor`.mapWith(Number),
      })
      .from(
        sql`(SELECT r.edge, x.currency,
            CASE WHEN r.detail = 1 THEN x.shifter_id END AS shifter_id,
            CASE WHEN r.detail = 1 THEN x.shiftrole_id END AS shiftrole_id,
            count(*) AS shifts, sum(${minutesSql('x')}) AS minutes, sum(${paySql('x')}) AS minor
          FROM (${edgeRangesSql(edgeRanges)}) AS r CROSS JOIN shift_requests AS x INDEXED BY shift_requests_worked_cover_idx
          WHERE x.business_id = ${business.id} AND x.starts_at >= r.lo AND x.starts_at < r.hi AND ${workedSql('x')}
          GROUP BY r.edge, x.currency, 3, 4) AS e`,
      )
      .leftJoin(shifters, sql`${shifters.id} = e.shifter_id`)
      .leftJoin(shiftRoles, sql`${shiftRoles.id} = e.shiftrole_id`),
  ]);

  const weeks = mondays.slice(0, WEEKS_OF_HISTORY).map(() => new Split());
  const byShifter = new Map<string, { split: Split; name: string | null }>();
  const byRole = new Map<number, { split: Split; role: string | null }>();
  const toShifter = (id: string | null, name: string | null) => {
    const key = id || 'unknown';
    if (!byShifter.has(key)) byShifter.set(key, { split: new Split(), name });
    return byShifter.get(key)!.split;
  };
  const toRole = (id: number, role: string | null) => {
    if (!byRole.has(id)) byRole.set(id, { split: new Split(), role });
    return byRole.get(id)!.split;
  };
  for (const r of weekRows) {
    const w = utc.indexOf(r.week_start);
    weeks[w]!.add(r.currency, cur, r.minutes, r.minor, r.shifts);
    if (w === last) toRole(r.shiftrole_id, r.role).add(r.currency, cur, r.minutes, r.minor, r.shifts);
  }
  for (const r of shifterRows) toShifter(r.shifter_id, r.shifter_name).add(r.currency, cur, r.minutes, r.minor, r.shifts);
  for (const r of edgeRows) {
    const e = edgeRanges[r.edge]!;
    for (const [w, n] of [
      [e.counted, -1],
      [e.own, 1],
    ] as const) {
      if (w < 0) continue;
      weeks[w]!.add(r.currency, cur, n * r.minutes, n * r.minor, n * r.shifts);
      if (w === last) {
        toShifter(r.shifter_id, r.shifter_name).add(r.currency, cur, n * r.minutes, n * r.minor, n * r.shifts);
        toRole(r.shiftrole_id!, r.role).add(r.currency, cur, n * r.minutes, n * r.minor, n * r.shifts);
      }
    }
  }

  const money = (minor: number) => fromMinor(minor, cur);
  const thisWeek = weeks[last]!;
  const lastWeek = weeks[last - 1]!.main;
  const budget = business.weekly_labor_budget_minor;
  const breakdown = (split: Split) => ({ shifts: split.main.shifts, hours: hours(split.main.minutes), total: money(split.main.minor) });
  return {
    business_id: business.id,
    currency: cur,
    timezone: tz,
    week_start: thisMonday,
    week_end: addDays(thisMonday, 6),
    this_week_total: money(thisWeek.main.minor),
    this_week_hours: hours(thisWeek.main.minutes),
    this_week_shifts: thisWeek.main.shifts,
    last_week_total: money(lastWeek.minor),
    pct_change_vs_last_week: lastWeek.minor === 0 ? null : percentOf(thisWeek.main.minor - lastWeek.minor, lastWeek.minor, 2),
    weekly_budget: budget === null ? null : money(budget),
    over_under_budget: budget === null ? null : money(thisWeek.main.minor - budget),
    other_currencies: thisWeek.otherCurrencies(),
    // A breakdown row is a shifter or role with a shift this week; equal totals in id order.
    by_shifter: [...byShifter]
      .filter(([, b]) => b.split.shifts() > 0)
      .map(([id, b]) => withOthers<LaborByShifter>({ shifter_id: id, shifter_name: b.name, ...breakdown(b.split) }, b.split))
      .sort((a, b) => b.total - a.total || a.shifter_id.localeCompare(b.shifter_id)),
    by_role: [...byRole]
      .filter(([, b]) => b.split.shifts() > 0)
      .map(([id, b]) => withOthers<LaborByRole>({ shiftrole_id: id, role: b.role, ...breakdown(b.split) }, b.split))
      .sort((a, b) => b.total - a.total || a.shiftrole_id - b.shiftrole_id),
    last_8_weeks: weeks.map((b, i) =>
      withOthers<LaborWeek>(
        { week_start: mondays[i]!, total: money(b.main.minor), hours: hours(b.main.minutes), shifts: b.main.shifts },
        b,
      ),
    ),
  };
}
