import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { businesses, shiftRequests } from '../../db/schema';
import { fromMinor } from '../../lib/money';
import { addDays, dateInZone, mondayOf, startOfDay, todayIn } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { hours, scheduledMinutes, type ServiceContext, shiftPayMinor, workedShiftSql } from '../kernel';
import type { EarningsOtherCurrency, EarningsShiftLine, EarningsWeek, EarningsWeeks } from './schemas';

/** Weeks before the detailed one in `weeks` (so the default is this week and the last 8). */
export const WEEKS_BEFORE = 8;

interface WeekBucket {
  minor: number;
  minutes: number;
  shifts: number;
  others: Map<string, number>;
}

/**
 * The week view of a shifter's earnings: the detailed week (the one holding `week`, default today in
 * the shifter's zone) and the 8 before it, each Monday 00:00 to the next Monday 00:00 on the
 * shifter's own clock (so a DST week is 167 or 169 hours long), and the detailed week's shifts as
 * lines. A shift belongs to the week of its start: an overnight shift from Sunday into Monday counts
 * in the week it started. Each line's pay is `shiftPayMinor` (hours × rate rounded once, as invoiced);
 * a week's gross is the sum of its lines in minor units, in the shifter's currency, with other
 * currencies listed apart. Hours are the week's minutes rounded once to 0.01 h
 * (docs/decisions/figures-and-rounding.md, "Weeks").
 */
export async function earningsWeeks(
  ctx: ServiceContext,
  s: { id: string; timezone: string; currency: string },
  week: string | undefined,
): Promise<EarningsWeeks> {
  const tz = s.timezone;
  const cur = s.currency;
  const currentMonday = mondayOf(todayIn(tz, ctx.now()));
  const monday = week ? mondayOf(week) : currentMonday;
  // mondays[0..8] are the nine weeks, oldest first; mondays[9] is the exclusive end.
  const mondays = Array.from({ length: WEEKS_BEFORE + 2 }, (_, i) => addDays(monday, (i - WEEKS_BEFORE) * 7));
  const bounds = mondays.map((d) => startOfDay(d, tz));

  const rows = await ctx.db
    .select({
      id: shiftRequests.id,
      starts_at: shiftRequests.starts_at,
      ends_at: shiftRequests.ends_at,
      hourly_rate_minor: shiftRequests.hourly_rate_minor,
      currency: shiftRequests.currency,
      business_id: shiftRequests.business_id,
      business_name: businesses.name,
    })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .where(
      and(
        eq(shiftRequests.shifter_id, s.id),
        workedShiftSql(),
        gte(shiftRequests.starts_at, bounds[0]!),
        lt(shiftRequests.starts_at, bounds[WEEKS_BEFORE + 1]!),
      ),
    )
    .orderBy(asc(shiftRequests.starts_at), asc(shiftRequests.id));

  const buckets: WeekBucket[] = mondays.slice(0, -1).map(() => ({ minor: 0, minutes: 0, shifts: 0, others: new Map() }));
  const lines: EarningsShiftLine[] = [];
  for (const r of rows) {
    let w = WEEKS_BEFORE;
    while (w > 0 && r.starts_at < bounds[w]!) w--;
    const b = buckets[w]!;
    const pay = shiftPayMinor(r);
    const minutes = scheduledMinutes(r);
    b.minutes += minutes;
    b.shifts += 1;
    if (r.currency === cur) b.minor += pay;
    else b.others.set(r.currency, (b.others.get(r.currency) ?? 0) + pay);
    if (w === WEEKS_BEFORE) {
      lines.push({
        shift_request_id: r.id,
        date: dateInZone(r.starts_at, tz),
        starts_at: toIso(r.starts_at),
        ends_at: toIso(r.ends_at),
        business_id: r.business_id,
        business_name: r.business_name,
        hours: hours(minutes),
        pay: fromMinor(pay, r.currency),
        currency: r.currency,
      });
    }
  }

  const weeks = buckets.map(
    (b, i): EarningsWeek => ({
      week_start: mondays[i]!,
      week_end: addDays(mondays[i]!, 6),
      gross: fromMinor(b.minor, cur),
      hours: hours(b.minutes),
      shifts: b.shifts,
      other_currencies: [...b.others]
        .sort(([a], [z]) => a.localeCompare(z))
        .map(([currency, minor]): EarningsOtherCurrency => ({ currency, gross: fromMinor(minor, currency) })),
    }),
  );
  return {
    week_start: monday,
    week_end: addDays(monday, 6),
    current_week_start: currentMonday,
    previous_week_start: addDays(monday, -7),
    next_week_start: monday < currentMonday ? addDays(monday, 7) : null,
    weeks,
    week_shifts: lines,
  };
}
