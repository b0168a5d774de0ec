import { and, eq, gte, lte } from 'drizzle-orm';
import { requestAuthorizations, shiftRequests, shifters } from '../../db/schema';
import { fromMinor, percentOf, roundRatio } from '../../lib/money';
import { toIso } from '../../lib/time';
import { accessBusiness, seesPay } from '../access';
import { hours, isWorked, scheduledMinutes, type ServiceContext, shiftPayMinor } from '../kernel';
import type { CrewAnalytics, CrewMember } from './schemas';

export const CREW_WINDOW_DAYS = 90;

/**
 * Reliability, 0–100: worked ÷ (worked + no-shows + the shifter's own cancellations) for this
 * business's shifts that started in the window. Null ("unrated") when that denominator is 0.
 */
export function reliabilityScore(worked: number, noShows: number, cancels: number): number | null {
  const total = worked + noShows + cancels;
  return total === 0 ? null : percentOf(worked, total, 0);
}

/**
 * GET /v1/business/{business_id}/crew/analytics (owner, active teammate or admin). Counts and hours
 * cover every worked shift; `total_paid_90d` is the pay of those in the business's currency, and pay
 * in any other currency is listed apart per shifter (`other_currencies`), never added to it or dropped.
 * Pay is the owner's and admins' to see (access `seesPay`): an active teammate gets the same figures
 * with `total_paid_90d` null, `other_currencies` left out and `pay_included: false`.
 * Percentages are rounded half-up at their last shown digit on the exact ratio.
 */
export async function crewAnalytics(ctx: ServiceContext, businessId: string): Promise<CrewAnalytics> {
  const { business, role } = await accessBusiness(ctx, businessId);
  const pay = seesPay(role);
  const to = ctx.now();
  const from = to - CREW_WINDOW_DAYS * 86_400_000;
  const [crew, rows] = await Promise.all([
    ctx.db
      .select({
        id: shifters.id,
        name: shifters.display_name,
        slug: shifters.slug,
        accept: shifters.accept_shift_req,
        since: requestAuthorizations.responded_at,
      })
      .from(requestAuthorizations)
      .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
      .where(and(eq(requestAuthorizations.business_id, business.id), eq(requestAuthorizations.status, 'accepted'))),
    ctx.db
      .select()
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, business.id), gte(shiftRequests.starts_at, from), lte(shiftRequests.starts_at, to))),
  ]);
  type Other = { minor: number; minutes: number; shifts: number };
  const stats = new Map(
    crew.map((c) => [
      c.id,
      { worked: 0, minutes: 0, paidMinor: 0, others: new Map<string, Other>(), noShows: 0, cancels: 0, lastWorked: 0 },
    ]),
  );
  for (const r of rows) {
    const s = r.shifter_id ? stats.get(r.shifter_id) : undefined;
    if (!s) continue;
    if (isWorked(r)) {
      s.worked += 1;
      const minutes = scheduledMinutes(r);
      s.minutes += minutes;
      if (r.currency === business.currency) s.paidMinor += shiftPayMinor(r);
      else {
        const o = s.others.get(r.currency) ?? { minor: 0, minutes: 0, shifts: 0 };
        o.minor += shiftPayMinor(r);
        o.minutes += minutes;
        o.shifts += 1;
        s.others.set(r.currency, o);
      }
      s.lastWorked = Math.max(s.lastWorked, r.starts_at);
    } else if (r.is_noshow) s.noShows += 1;
    else if (r.cancelled_by === 'shifter') s.cancels += 1;
  }
  const perShifter = crew
    .map((c): CrewMember => {
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
        total_paid_90d: pay ? fromMinor(s.paidMinor, business.currency) : null,
        no_shows_90d: s.noShows,
        cancellations_90d: s.cancels,
        reliability_score: reliabilityScore(s.worked, s.noShows, s.cancels),
        last_worked_at: s.lastWorked ? toIso(s.lastWorked) : null,
        ...(pay && others.length ? { other_currencies: others } : {}),
      };
    })
    .sort((a, b) => b.completed_shifts_90d - a.completed_shifts_90d || a.shifter_name.localeCompare(b.shifter_name));
  const rated = perShifter.filter((p) => p.reliability_score !== null);
  const size = perShifter.length;
  return {
    business_id: business.id,
    currency: business.currency,
    window_days: CREW_WINDOW_DAYS,
    pay_included: pay,
    crew_size: size,
    total_completed_shifts_90d: perShifter.reduce((a, p) => a + p.completed_shifts_90d, 0),
    repeat_rate: size === 0 ? null : percentOf(perShifter.filter((p) => p.completed_shifts_90d > 1).length, size, 1),
    avg_reliability_score:
      rated.length === 0
        ? null
        : roundRatio(
            rated.reduce((a, p) => a + p.reliability_score!, 0),
            rated.length,
            1,
          ),
    rated_crew: rated.length,
    accept_rate: size === 0 ? null : percentOf(perShifter.filter((p) => p.accept_shift_req).length, size, 1),
    per_shifter: perShifter,
  };
}
