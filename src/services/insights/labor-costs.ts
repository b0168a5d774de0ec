import { and, eq, gte, lt } from 'drizzle-orm';
import { shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { fromMinor, percentOf } from '../../lib/money';
import { addDays, mondayOf, startOfDay, todayIn } from '../../lib/shift-time';
import { accessBusiness, PAY_VIEWERS } from '../access';
import { hours, scheduledMinutes, type ServiceContext, shiftPayMinor, workedShiftSql } from '../kernel';
import type { LaborByRole, LaborByShifter, LaborCosts, LaborCostsQuery, LaborWeek, OtherCurrencyTotal } from './schemas';

const WEEKS_OF_HISTORY = 8;

interface Bucket {
  minutes: number;
  shifts: number;
  minor: number;
}
const emptyBucket = (): Bucket => ({ minutes: 0, shifts: 0, minor: 0 });
const add = (b: Bucket, minutes: number, minor: number) => {
  b.minutes += minutes;
  b.shifts += 1;
  b.minor += minor;
};

/**
 * A bucket in the business's currency plus one bucket per other currency: amounts in different
 * currencies are never added together, and a shift in another currency is never dropped.
 */
class Split {
  readonly main = emptyBucket();
  readonly others = new Map<string, Bucket>();
  add(currency: string, home: string, minutes: number, minor: number) {
    if (currency === home) return add(this.main, minutes, minor);
    const b = this.others.get(currency) ?? emptyBucket();
    add(b, minutes, minor);
    this.others.set(currency, b);
  }
  /** [{ currency, total, hours, shifts }] by currency code; empty when every shift was in the business's currency. */
  otherCurrencies(): OtherCurrencyTotal[] {
    return [...this.others]
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
 * week, and on each breakdown row and history week that has any). One query, one pass in memory.
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

  const rows = await ctx.db
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
        lt(shiftRequests.starts_at, bounds[WEEKS_OF_HISTORY]!),
      ),
    );

  const weeks = mondays.slice(0, WEEKS_OF_HISTORY).map(() => new Split());
  const byShifter = new Map<string, { split: Split; name: string | null }>();
  const byRole = new Map<number, { split: Split; role: string | null }>();
  for (const r of rows) {
    let w = WEEKS_OF_HISTORY - 1;
    while (w > 0 && r.starts_at < bounds[w]!) w--;
    const minutes = scheduledMinutes(r);
    const minor = shiftPayMinor(r);
    weeks[w]!.add(r.currency, cur, minutes, minor);
    if (w === WEEKS_OF_HISTORY - 1) {
      const sk = r.shifter_id ?? 'unknown';
      if (!byShifter.has(sk)) byShifter.set(sk, { split: new Split(), name: r.shifter_name });
      byShifter.get(sk)!.split.add(r.currency, cur, minutes, minor);
      if (!byRole.has(r.shiftrole_id)) byRole.set(r.shiftrole_id, { split: new Split(), role: r.role });
      byRole.get(r.shiftrole_id)!.split.add(r.currency, cur, minutes, minor);
    }
  }
  const money = (minor: number) => fromMinor(minor, cur);
  const thisWeek = weeks[WEEKS_OF_HISTORY - 1]!;
  const lastWeek = weeks[WEEKS_OF_HISTORY - 2]!.main;
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
    by_shifter: [...byShifter]
      .map(([id, b]) => withOthers<LaborByShifter>({ shifter_id: id, shifter_name: b.name, ...breakdown(b.split) }, b.split))
      .sort((a, b) => b.total - a.total),
    by_role: [...byRole]
      .map(([id, b]) => withOthers<LaborByRole>({ shiftrole_id: id, role: b.role, ...breakdown(b.split) }, b.split))
      .sort((a, b) => b.total - a.total),
    last_8_weeks: weeks.map((b, i) =>
      withOthers<LaborWeek>(
        { week_start: mondays[i]!, total: money(b.main.minor), hours: hours(b.main.minutes), shifts: b.main.shifts },
        b,
      ),
    ),
  };
}
