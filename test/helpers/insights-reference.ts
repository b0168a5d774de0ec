// inside: services/insights
import { and, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import { businesses, requestAuthorizations, shiftRequests, shiftRoles, shifters } from '../../src/db/schema';
import { fromMinor, fromMinorRatio, percentOf, roundRatio } from '../../src/lib/money';
import { addDays, mondayOf, startOfDay, todayIn } from '../../src/lib/shift-time';
import { toIso } from '../../src/lib/time';
import { hours, isWorked, scheduledMinutes, shiftPayMinor, workedShiftSql } from '../../src/services/kernel';
import { percentilePositions, PERCENTILES } from '../../src/services/insights/going-rate';
import { reliabilityScore } from '../../src/services/insights/crew-analytics';
import type { CrewAnalytics, GoingRate, LaborCosts } from '../../src/services/insights';
import type { GoingRateQuery } from '../../src/services/insights/schemas';
import { db } from './factory';

/*
 * The figures computed the plain way, over the rows themselves, as the services did before they read
 * the rollups (labor costs, crew analytics, going rate): every worked row of the span loaded and
 * bucketed in memory. The services must give the same answers; test/insights/rollups.test.ts holds
 * them to it on random histories. Access checks are the services' business, not the reference's.
 */

const DAY = 86_400_000;
type BusinessRow = typeof businesses.$inferSelect;

interface Bucket {
  minutes: number;
  shifts: number;
  minor: number;
}
class Split {
  main: Bucket = { minutes: 0, shifts: 0, minor: 0 };
  others = new Map<string, Bucket>();
  add(currency: string, home: string, minutes: number, minor: number) {
    const b = currency === home ? this.main : (this.others.get(currency) ?? { minutes: 0, shifts: 0, minor: 0 });
    b.minutes += minutes;
    b.shifts += 1;
    b.minor += minor;
    if (currency !== home) this.others.set(currency, b);
  }
  otherCurrencies() {
    return [...this.others]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, b]) => ({ currency, total: fromMinor(b.minor, currency), hours: hours(b.minutes), shifts: b.shifts }));
  }
}
const withOthers = <R extends object>(row: R, split: Split) => {
  const others = split.otherCurrencies();
  return others.length ? { ...row, other_currencies: others } : row;
};

export async function laborCostsFromRows(business: BusinessRow, week: string | undefined, now: number): Promise<LaborCosts> {
  const tz = business.timezone;
  const cur = business.currency;
  const thisMonday = mondayOf(week ?? todayIn(tz, now));
  const mondays = Array.from({ length: 9 }, (_, i) => addDays(thisMonday, (i - 7) * 7));
  const bounds = mondays.map((d) => startOfDay(d, tz));
  const rows = await db()
    .select({
      starts_at: shiftRequests.starts_at,
      ends_at: shiftRequests.ends_at,
      hourly_rate_minor: shiftRequests.hourly_rate_minor,
      currency: shiftRequests.currency,
      shifter_id: shiftRequests.shifter_id,
      shifter_name: shifters.display_name,
      shiftrole_id: shiftRequests.shiftrole_id,
      role: shiftRoles.label,
    })
    .from(shiftRequests)
    .leftJoin(shifters, eq(shifters.id, shiftRequests.shifter_id))
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .where(
      and(
        eq(shiftRequests.business_id, business.id),
        workedShiftSql(),
        gte(shiftRequests.starts_at, bounds[0]!),
        lt(shiftRequests.starts_at, bounds[8]!),
      ),
    );
  const weeks = mondays.slice(0, 8).map(() => new Split());
  const byShifter = new Map<string, { split: Split; name: string | null }>();
  const byRole = new Map<number, { split: Split; role: string | null }>();
  for (const r of rows) {
    let w = 7;
    while (w > 0 && r.starts_at < bounds[w]!) w--;
    const minutes = scheduledMinutes(r);
    const minor = shiftPayMinor(r);
    weeks[w]!.add(r.currency, cur, minutes, minor);
    if (w === 7) {
      const sk = r.shifter_id ?? 'unknown';
      if (!byShifter.has(sk)) byShifter.set(sk, { split: new Split(), name: r.shifter_name });
      byShifter.get(sk)!.split.add(r.currency, cur, minutes, minor);
      if (!byRole.has(r.shiftrole_id)) byRole.set(r.shiftrole_id, { split: new Split(), role: r.role });
      byRole.get(r.shiftrole_id)!.split.add(r.currency, cur, minutes, minor);
    }
  }
  const money = (minor: number) => fromMinor(minor, cur);
  const thisWeek = weeks[7]!;
  const lastWeek = weeks[6]!.main;
  const budget = business.weekly_labor_budget_minor;
  const breakdown = (s: Split) => ({ shifts: s.main.shifts, hours: hours(s.main.minutes), total: money(s.main.minor) });
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
    by_shifter: [...byShifter]
      .map(([id, b]) => withOthers({ shifter_id: id, shifter_name: b.name, ...breakdown(b.split) }, b.split))
      .sort((a, b) => b.total - a.total || a.shifter_id.localeCompare(b.shifter_id)),
    by_role: [...byRole]
      .map(([id, b]) => withOthers({ shiftrole_id: id, role: b.role, ...breakdown(b.split) }, b.split))
      .sort((a, b) => b.total - a.total || a.shiftrole_id - b.shiftrole_id),
    last_8_weeks: weeks.map((b, i) =>
      withOthers({ week_start: mondays[i]!, total: money(b.main.minor), hours: hours(b.main.minutes), shifts: b.main.shifts }, b),
    ),
  };
}

export async function crewAnalyticsFromRows(business: BusinessRow, now: number, pay: boolean): Promise<CrewAnalytics> {
  const from = now - 90 * DAY;
  const [crew, rows] = await Promise.all([
    db()
      .select({ id: shifters.id, name: shifters.display_name, slug: shifters.slug, accept: shifters.accept_shift_req })
      .from(requestAuthorizations)
      .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
      .where(and(eq(requestAuthorizations.business_id, business.id), eq(requestAuthorizations.status, 'accepted'))),
    db()
      .select()
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, business.id), gte(shiftRequests.starts_at, from), lte(shiftRequests.starts_at, now))),
  ]);
  type Other = { minor: number; minutes: number; shifts: number };
  const stats = new Map(
    crew.map((c) => [c.id, { worked: 0, minutes: 0, paid: 0, others: new Map<string, Other>(), noShows: 0, cancels: 0, last: 0 }]),
  );
  for (const r of rows) {
    const s = r.shifter_id ? stats.get(r.shifter_id) : undefined;
    if (!s) continue;
    if (isWorked(r)) {
      s.worked += 1;
      const minutes = scheduledMinutes(r);
      s.minutes += minutes;
      if (r.currency === business.currency) s.paid += shiftPayMinor(r);
      else {
        const o = s.others.get(r.currency) ?? { minor: 0, minutes: 0, shifts: 0 };
        o.minor += shiftPayMinor(r);
        o.minutes += minutes;
        o.shifts += 1;
        s.others.set(r.currency, o);
      }
      s.last = Math.max(s.last, r.starts_at);
    } else if (r.is_noshow) s.noShows += 1;
    else if (r.cancelled_by === 'shifter') s.cancels += 1;
  }
  const per = crew
    .map((c) => {
      const s = stats.get(c.id)!;
      const others = [...s.others]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, o]) => ({ currency, total: fromMinor(o.minor, currency), hours: hours(o.minutes), shifts: o.shifts }));
      return {
        shifter_id: c.id,
        shifter_name: c.name,
        shifter_slug: c.slug,
        accept_shift_req: c.accept,
        completed_shifts_90d: s.worked,
        hours_90d: hours(s.minutes),
        total_paid_90d: pay ? fromMinor(s.paid, business.currency) : null,
        no_shows_90d: s.noShows,
        cancellations_90d: s.cancels,
        reliability_score: reliabilityScore(s.worked, s.noShows, s.cancels),
        last_worked_at: s.last ? toIso(s.last) : null,
        ...(pay && others.length ? { other_currencies: others } : {}),
      };
    })
    .sort((a, b) => b.completed_shifts_90d - a.completed_shifts_90d || a.shifter_name.localeCompare(b.shifter_name));
  const rated = per.filter((p) => p.reliability_score !== null);
  const size = per.length;
  return {
    business_id: business.id,
    currency: business.currency,
    window_days: 90,
    pay_included: pay,
    crew_size: size,
    total_completed_shifts_90d: per.reduce((a, p) => a + p.completed_shifts_90d, 0),
    repeat_rate: size === 0 ? null : percentOf(per.filter((p) => p.completed_shifts_90d > 1).length, size, 1),
    avg_reliability_score:
      rated.length === 0
        ? null
        : roundRatio(
            rated.reduce((a, p) => a + p.reliability_score!, 0),
            rated.length,
            1,
          ),
    rated_crew: rated.length,
    accept_rate: size === 0 ? null : percentOf(per.filter((p) => p.accept_shift_req).length, size, 1),
    per_shifter: per,
  };
}

/** The going rate over the rows: every rate of the slice loaded and sorted (type-7 percentiles). */
export async function goingRateFromRows(q: GoingRateQuery, now: number, windowDays: number, minSample: number): Promise<GoingRate> {
  const from = now - windowDays * DAY;
  const conds: SQL[] = [workedShiftSql(), gte(shiftRequests.starts_at, from), lte(shiftRequests.starts_at, now)];
  if (q.city_id !== undefined) conds.push(eq(businesses.city_id, q.city_id));
  if (q.state_id !== undefined) conds.push(eq(businesses.state_id, q.state_id));
  if (q.country_id !== undefined) conds.push(eq(businesses.country_id, q.country_id));
  if (q.shiftrole_id !== undefined) conds.push(eq(shiftRequests.shiftrole_id, q.shiftrole_id));
  const rows = await db()
    .select({ currency: shiftRequests.currency, rate: shiftRequests.hourly_rate_minor })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .where(and(...conds));
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.currency, (counts.get(r.currency) ?? 0) + 1);
  const top = [...counts].sort(([a, n], [b, m]) => m - n || a.localeCompare(b))[0]?.[0] ?? null;
  const currency = q.currency ?? top;
  const base = {
    currency,
    window_days: windowDays,
    window: { from: toIso(from), to: toIso(now) },
    min_sample: minSample,
    filters: {
      city_id: q.city_id ?? null,
      state_id: q.state_id ?? null,
      country_id: q.country_id ?? null,
      shiftrole_id: q.shiftrole_id ?? null,
    },
  };
  const rates = rows
    .filter((r) => r.currency === currency)
    .map((r) => r.rate)
    .sort((a, b) => a - b);
  const n = rates.length;
  if (!currency || n === 0)
    return { min: null, p25: null, median: null, p75: null, max: null, mean: null, sample_size: 0, sufficient_data: false, ...base };
  const value = (k: number) => {
    const p = percentilePositions(n, k);
    return fromMinorRatio(rates[p.lo]! * 4 + (rates[p.hi]! - rates[p.lo]!) * p.fracQuarters, 4, currency);
  };
  return {
    ...base,
    min: fromMinor(rates[0]!, currency),
    p25: value(PERCENTILES.p25),
    median: value(PERCENTILES.median),
    p75: value(PERCENTILES.p75),
    max: fromMinor(rates[n - 1]!, currency),
    mean: fromMinorRatio(
      rates.reduce((a, b) => a + b, 0),
      n,
      currency,
    ),
    sample_size: n,
    sufficient_data: n >= minSample,
  };
}

/** The rollup tables as the triggers and jobs left them, each row's key and measures, sorted. */
export async function rollupTables() {
  const d = db();
  const rows = async (table: string) =>
    (await d.all<Record<string, unknown>>(sql.raw(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4, 5`))).filter((r) =>
      Object.entries(r).some(([k, v]) => typeof v === 'number' && v !== 0 && !/(_id|week_start|rate_minor)$/.test(k)),
    );
  return {
    labor: await rows('shift_labor_weeks'),
    laborShifters: await rows('shift_labor_week_shifters'),
    crew: await rows('shift_crew_window'),
    rate: await rows('shift_rate_window'),
    openGroups: await rows('open_broadcast_groups'),
  };
}
