import { and, eq, gte, lt } from 'drizzle-orm';
import { shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { fromMinor } from '../../lib/money';
import { addDays, mondayOf, startOfDay, todayIn } from '../../lib/shift-time';
import { accessBusiness } from '../access';
import type { ServiceContext } from '../context';
import { hours, scheduledMinutes, shiftPayMinor } from '../shifts/pay';
import { workedShiftSql } from '../shifts/status';

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
 * GET /v1/business/{id}/labor_costs (owner or admin). Worked shifts of the business in its own
 * currency, bucketed by the Monday-based week of their start in the business's zone; each shift
 * is paid hours × rate rounded once. One query over the eight weeks, one pass in memory.
 */
export async function laborCosts(ctx: ServiceContext, businessId: string, week?: string) {
  const { business } = await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const tz = business.timezone;
  const thisMonday = mondayOf(week ?? todayIn(tz, ctx.now()));
  const mondays = Array.from({ length: WEEKS_OF_HISTORY + 1 }, (_, i) => addDays(thisMonday, (i - (WEEKS_OF_HISTORY - 1)) * 7));
  // mondays[0..7] are the 8 weeks ending with this one; mondays[8] is the next Monday (exclusive end).
  const bounds = mondays.map((d) => startOfDay(d, tz));

  const rows = await ctx.db
    .select({
      starts_at: shiftRequests.starts_at,
      ends_at: shiftRequests.ends_at,
      hourly_rate_minor: shiftRequests.hourly_rate_minor,
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
        eq(shiftRequests.currency, business.currency),
        workedShiftSql(),
        gte(shiftRequests.starts_at, bounds[0]!),
        lt(shiftRequests.starts_at, bounds[WEEKS_OF_HISTORY]!),
      ),
    );

  const weeks = mondays.slice(0, WEEKS_OF_HISTORY).map(emptyBucket);
  const byShifter = new Map<string, Bucket & { name: string | null }>();
  const byRole = new Map<number, Bucket & { role: string | null }>();
  for (const r of rows) {
    let w = WEEKS_OF_HISTORY - 1;
    while (w > 0 && r.starts_at < bounds[w]!) w--;
    const minutes = scheduledMinutes(r);
    const minor = shiftPayMinor(r);
    add(weeks[w]!, minutes, minor);
    if (w === WEEKS_OF_HISTORY - 1) {
      const sk = r.shifter_id ?? 'unknown';
      if (!byShifter.has(sk)) byShifter.set(sk, { ...emptyBucket(), name: r.shifter_name });
      add(byShifter.get(sk)!, minutes, minor);
      if (!byRole.has(r.shiftrole_id)) byRole.set(r.shiftrole_id, { ...emptyBucket(), role: r.role });
      add(byRole.get(r.shiftrole_id)!, minutes, minor);
    }
  }
  const cur = business.currency;
  const money = (minor: number) => fromMinor(minor, cur);
  const thisWeek = weeks[WEEKS_OF_HISTORY - 1]!;
  const lastWeek = weeks[WEEKS_OF_HISTORY - 2]!;
  const budget = business.weekly_labor_budget_minor;
  return {
    business_id: business.id,
    currency: cur,
    timezone: tz,
    week_start: thisMonday,
    week_end: addDays(thisMonday, 6),
    this_week_total: money(thisWeek.minor),
    this_week_hours: hours(thisWeek.minutes),
    this_week_shifts: thisWeek.shifts,
    last_week_total: money(lastWeek.minor),
    pct_change_vs_last_week: lastWeek.minor === 0 ? null : Math.round(((thisWeek.minor - lastWeek.minor) / lastWeek.minor) * 10_000) / 100,
    weekly_budget: budget === null ? null : money(budget),
    over_under_budget: budget === null ? null : money(thisWeek.minor - budget),
    by_shifter: [...byShifter]
      .map(([id, b]) => ({ shifter_id: id, shifter_name: b.name, shifts: b.shifts, hours: hours(b.minutes), total: money(b.minor) }))
      .sort((a, b) => b.total - a.total),
    by_role: [...byRole]
      .map(([id, b]) => ({ shiftrole_id: id, role: b.role, shifts: b.shifts, hours: hours(b.minutes), total: money(b.minor) }))
      .sort((a, b) => b.total - a.total),
    last_8_weeks: weeks.map((b, i) => ({ week_start: mondays[i]!, total: money(b.minor), hours: hours(b.minutes), shifts: b.shifts })),
  };
}
