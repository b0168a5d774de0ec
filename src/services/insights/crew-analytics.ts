import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { requestAuthorizations, shiftCrewWindow, shiftRequests, shifters } from '../../db/schema';
import { fromMinor, percentOf, roundRatio } from '../../lib/money';
import { toIso } from '../../lib/time';
import { accessBusiness, seesPay } from '../access';
import { hours, isWorked, scheduledMinutes, type ServiceContext, shiftPayMinor } from '../kernel';
import { businessRowsIn, CREW_WINDOW_DAYS, edgeSql, workedSql } from './rollups';
import type { CrewAnalytics, CrewMember } from './schemas';

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
  // The window's rollup (rollups.ts) plus the rows between its edges and [from, to], in one batch
  // (one transaction, so the rollup and its edges are read at the same moment). A member's latest
  // worked shift is one index seek each.
  const edge = edgeSql('s', { from, to }, 'crew');
  const s = alias(shiftRequests, 's');
  const latest = sql<number | null>`(SELECT s.starts_at FROM ${shiftRequests} s INDEXED BY shift_requests_business_shifter_idx
    WHERE s.business_id = ${business.id} AND s.shifter_id = ${shifters.id} AND s.starts_at >= ${from} AND s.starts_at <= ${to}
      AND ${workedSql()} ORDER BY s.starts_at DESC LIMIT 1)`;
  const [crew, rolled, edgeRows] = await ctx.db.batch([
    ctx.db
      .select({
        id: shifters.id,
        name: shifters.display_name,
        slug: shifters.slug,
        accept: shifters.accept_shift_req,
        since: requestAuthorizations.responded_at,
        lastWorked: latest,
      })
      .from(requestAuthorizations)
      .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
      .where(and(eq(requestAuthorizations.business_id, business.id), eq(requestAuthorizations.status, 'accepted'))),
    ctx.db.select().from(shiftCrewWindow).where(eq(shiftCrewWindow.business_id, business.id)),
    ctx.db
      .select({
        shifter_id: sql<string>`${s.shifter_id}`,
        currency: s.currency,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        hourly_rate_minor: s.hourly_rate_minor,
        request_status: s.request_status,
        shift_end_at: s.shift_end_at,
        is_noshow: s.is_noshow,
        cancelled_by: s.cancelled_by,
        sign: sql<number>`${edge.sign}`,
      })
      .from(s)
      .where(and(inArray(s.id, businessRowsIn(business.id, edge.ranges)), isNotNull(s.shifter_id))),
  ]);
  type Other = { minor: number; minutes: number; shifts: number };
  const stats = new Map(
    crew.map((c) => [
      c.id,
      { worked: 0, minutes: 0, paidMinor: 0, others: new Map<string, Other>(), noShows: 0, cancels: 0, lastWorked: c.lastWorked ?? 0 },
    ]),
  );
  const count = (
    shifterId: string,
    currency: string,
    n: { worked: number; minutes: number; minor: number; noShows: number; cancels: number },
  ) => {
    const s = stats.get(shifterId);
    if (!s) return;
    s.worked += n.worked;
    s.minutes += n.minutes;
    s.noShows += n.noShows;
    s.cancels += n.cancels;
    if (currency === business.currency) s.paidMinor += n.minor;
    else {
      const o = s.others.get(currency) ?? { minor: 0, minutes: 0, shifts: 0 };
      o.minor += n.minor;
      o.minutes += n.minutes;
      o.shifts += n.worked;
      s.others.set(currency, o);
    }
  };
  for (const r of rolled) {
    count(r.shifter_id, r.currency, { worked: r.worked, minutes: r.minutes, minor: r.pay_minor, noShows: r.no_shows, cancels: r.cancels });
  }
  for (const r of edgeRows) {
    const n = Number(r.sign);
    if (!n) continue;
    if (isWorked(r))
      count(r.shifter_id, r.currency, { worked: n, minutes: n * scheduledMinutes(r), minor: n * shiftPayMinor(r), noShows: 0, cancels: 0 });
    else if (r.is_noshow) count(r.shifter_id, r.currency, { worked: 0, minutes: 0, minor: 0, noShows: n, cancels: 0 });
    else if (r.cancelled_by === 'shifter') count(r.shifter_id, r.currency, { worked: 0, minutes: 0, minor: 0, noShows: 0, cancels: n });
  }
  for (const s of stats.values()) for (const [c, o] of s.others) if (o.shifts === 0) s.others.delete(c);
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
