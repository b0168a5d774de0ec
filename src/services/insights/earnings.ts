import { and, eq, gte, lt } from 'drizzle-orm';
import { businesses, shiftRequests, shifters } from '../../db/schema';
import { ceilRatio, fromMinor, fromMinorRatio, roundRatio, toMinorExact } from '../../lib/money';
import { monthBounds, startOfDay, todayIn } from '../../lib/shift-time';
import { Temporal } from '../../lib/time';
import { auditInsert, hours, scheduledMinutes, type ServiceContext, shiftPayMinor, workedShiftSql } from '../kernel';
import { runBatch } from '../../db/client';
import { privateRecords } from '../access';
import { earningsWeeks } from './earnings-weeks';
import type {
  Earnings,
  EarningsByBusiness,
  EarningsGoal,
  EarningsGoalInput,
  EarningsMonth,
  EarningsOtherCurrency,
  EarningsQuery,
} from './schemas';

export const PROJECTION_MIN_DAYS = 3;
export const TYPICAL_WINDOW_DAYS = 90;

/** The shifter profile, for its owner only (admins read other figures, not a person's earnings). */
async function ownShifter(ctx: ServiceContext, shifterId: string) {
  return (await privateRecords(ctx, shifterId, 'see their earnings', { adminAllowed: false })).shifter;
}

/**
 * GET /v1/shifter/{id}/earnings?year&month&week. Worked shifts, bucketed by the month of their start in
 * the shifter's own zone, in the shifter's currency (other currencies are listed apart), and by the
 * Monday-to-Sunday week of their start (earnings-weeks.ts). Formulas: DECISIONS.md "Computed values".
 */
export async function earnings(ctx: ServiceContext, shifterId: string, q: EarningsQuery): Promise<Earnings> {
  const s = await ownShifter(ctx, shifterId);
  const tz = s.timezone;
  const today = Temporal.PlainDate.from(todayIn(tz, ctx.now()));
  const year = q.year ?? today.year;
  const month = q.month ?? today.month;
  const m = monthBounds(year, month);
  const trendFirst = Temporal.PlainDate.from(m.first).subtract({ months: 11 });
  const yearStart = `${year}-01-01`;
  const rangeStart = trendFirst.toString() < yearStart ? trendFirst.toString() : yearStart;
  const rangeEnd = Temporal.PlainDate.from(m.next).toString() > `${year + 1}-01-01` ? m.next : `${year + 1}-01-01`;
  const now = ctx.now();
  const typicalFrom = now - TYPICAL_WINDOW_DAYS * 86_400_000;
  const queryFrom = Math.min(startOfDay(rangeStart, tz), typicalFrom);
  const queryTo = Math.max(startOfDay(rangeEnd, tz), now);

  const rows = await ctx.db
    .select({
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
        gte(shiftRequests.starts_at, queryFrom),
        lt(shiftRequests.starts_at, queryTo),
      ),
    );

  const cur = s.currency;
  const monthKey = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(tz).toPlainDate().toString().slice(0, 7);
  const asked = m.first.slice(0, 7);
  const trend = new Map<string, { minor: number; shifts: number }>();
  for (let i = 0; i < 12; i++) trend.set(trendFirst.add({ months: i }).toString().slice(0, 7), { minor: 0, shifts: 0 });
  const byBusiness = new Map<string, { name: string; minor: number; shifts: number; minutes: number }>();
  const others = new Map<string, number>();
  let grossMinor = 0;
  let monthShifts = 0;
  let typicalRateSum = 0;
  let typicalMinutes = 0;
  let typicalCount = 0;
  for (const r of rows) {
    const key = monthKey(r.starts_at);
    const pay = shiftPayMinor(r);
    if (r.currency !== cur) {
      if (key === asked) others.set(r.currency, (others.get(r.currency) ?? 0) + pay);
      continue;
    }
    if (key === asked) {
      grossMinor += pay;
      monthShifts += 1;
    }
    const t = trend.get(key);
    if (t) {
      t.minor += pay;
      t.shifts += 1;
    }
    if (key.startsWith(`${year}-`)) {
      const b = byBusiness.get(r.business_id) ?? { name: r.business_name, minor: 0, shifts: 0, minutes: 0 };
      b.minor += pay;
      b.shifts += 1;
      b.minutes += scheduledMinutes(r);
      byBusiness.set(r.business_id, b);
    }
    if (r.starts_at >= typicalFrom && r.starts_at <= now) {
      typicalRateSum += r.hourly_rate_minor;
      typicalMinutes += scheduledMinutes(r);
      typicalCount += 1;
    }
  }

  const isCurrent = year === today.year && month === today.month;
  const isPast = m.next <= today.toString();
  const elapsed = isCurrent ? today.day : isPast ? m.days : 0;
  // Exact ratios of integers, rounded once at the last shown digit (DECISIONS.md "Rounding").
  const projected = elapsed >= PROJECTION_MIN_DAYS ? fromMinorRatio(grossMinor * m.days, elapsed, cur) : null;
  const typicalRate = typicalCount ? fromMinorRatio(typicalRateSum, typicalCount, cur) : null;
  const typicalHours = typicalCount ? roundRatio(typicalMinutes, 60 * typicalCount, 2) : null;
  const goal = s.monthly_earnings_goal_minor;
  let shiftsToGoal: number | null = null;
  if (goal !== null && grossMinor >= goal) shiftsToGoal = 0;
  else if (goal !== null && typicalRateSum > 0 && typicalMinutes > 0) {
    // (goal − gross) ÷ (mean rate × mean hours) = (goal − gross) × 60 × count² ÷ (Σ rate × Σ minutes)
    const count = BigInt(typicalCount);
    shiftsToGoal = ceilRatio(BigInt(goal - grossMinor) * 60n * count * count, BigInt(typicalRateSum) * BigInt(typicalMinutes));
  }
  const money = (minor: number) => fromMinor(minor, cur);
  const byWeek = await earningsWeeks(ctx, s, q.week);
  return {
    shifter_id: s.id,
    currency: cur,
    timezone: tz,
    year,
    month,
    days_in_month: m.days,
    elapsed_days: elapsed,
    gross: money(grossMinor),
    shifts: monthShifts,
    projected_end_of_month: projected,
    typical_hourly_rate: typicalRate,
    typical_shift_hours: typicalHours,
    monthly_earnings_goal: goal === null ? null : money(goal),
    shifts_to_goal: shiftsToGoal,
    by_business: [...byBusiness]
      .map(
        ([id, b]): EarningsByBusiness => ({
          business_id: id,
          business_name: b.name,
          gross: money(b.minor),
          shifts: b.shifts,
          hours: hours(b.minutes),
        }),
      )
      .sort((a, b) => b.gross - a.gross),
    trend_12_months: [...trend].map(([k, t]): EarningsMonth => ({ month: k, gross: money(t.minor), shifts: t.shifts })),
    other_currencies: [...others].map(([currency, minor]): EarningsOtherCurrency => ({ currency, gross: fromMinor(minor, currency) })),
    ...byWeek,
  };
}

/** PUT /v1/shifter/{id}/earnings_goal: a number in the shifter's currency, or null to clear. */
export async function setEarningsGoal(ctx: ServiceContext, shifterId: string, input: EarningsGoalInput): Promise<EarningsGoal> {
  const goal = input.monthly_earnings_goal;
  const s = await ownShifter(ctx, shifterId);
  const minor = goal === null ? null : toMinorExact(goal, s.currency, 'monthly_earnings_goal');
  await runBatch(ctx.db, [
    ctx.db.update(shifters).set({ monthly_earnings_goal_minor: minor, updated_at: ctx.now() }).where(eq(shifters.id, s.id)),
    auditInsert(ctx, 'shifter.earnings_goal', { type: 'shifter', id: s.id }, { goal }),
  ]);
  return { shifter_id: s.id, monthly_earnings_goal: goal, currency: s.currency };
}
