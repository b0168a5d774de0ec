import { and, eq, gt, sql } from 'drizzle-orm';
import { counterRules, shiftRequests, shifters } from '../../db/schema';
import type { ServiceContext } from '../context';
import { counterFloor, distanceKm } from './counter-suggest';
import { type Candidate, median, type ShifterSignals } from './relevance';
import { SHIFT_STATUS, workedShiftSql } from './status';

const DAY = 86_400_000;

/**
 * Everything the relevance score needs about one shifter, in five grouped queries (not one per
 * broadcast), so ranking 10,000 broadcasts is a single pass in memory.
 */
export async function loadShifterSignals(ctx: ServiceContext, shifterId: string) {
  const now = ctx.now();
  const [me] = await ctx.db.select().from(shifters).where(eq(shifters.id, shifterId)).limit(1);
  const [roles, history, rates, busy, rules] = await Promise.all([
    ctx.db
      .select({ role: shiftRequests.shiftrole_id, n: sql<number>`count(*)` })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.shifter_id, shifterId), workedShiftSql(), gt(shiftRequests.starts_at, now - 365 * DAY)))
      .groupBy(shiftRequests.shiftrole_id),
    ctx.db
      .select({
        business: shiftRequests.business_id,
        worked: sql<number>`sum(case when ${workedShiftSql()} then 1 else 0 end)`,
        bad: sql<number>`sum(case when ${shiftRequests.is_noshow} = 1 or ${shiftRequests.cancelled_by} = 'shifter' then 1 else 0 end)`,
      })
      .from(shiftRequests)
      .where(eq(shiftRequests.shifter_id, shifterId))
      .groupBy(shiftRequests.business_id),
    ctx.db
      .select({ role: shiftRequests.shiftrole_id, currency: shiftRequests.currency, mean: sql<number>`avg(${shiftRequests.hourly_rate_minor})` })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.shifter_id, shifterId), workedShiftSql(), gt(shiftRequests.starts_at, now - 90 * DAY)))
      .groupBy(shiftRequests.shiftrole_id, shiftRequests.currency),
    ctx.db
      .select({ startsAt: shiftRequests.starts_at, endsAt: shiftRequests.ends_at })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.shifter_id, shifterId), eq(shiftRequests.request_status, SHIFT_STATUS.accepted), eq(shiftRequests.is_noshow, false), gt(shiftRequests.ends_at, now))),
    ctx.db.select().from(counterRules).where(and(eq(counterRules.shifter_id, shifterId), eq(counterRules.is_active, true))),
  ]);
  const roleRate = new Map(rates.map((r) => [`${r.role}:${r.currency}`, r.mean]));
  const overall = new Map<string, number[]>();
  for (const r of rates) overall.set(r.currency, [...(overall.get(r.currency) ?? []), r.mean]);

  const base = {
    lat: me?.latitude ?? null,
    lon: me?.longitude ?? null,
    roleCounts: new Map(roles.map((r) => [r.role, Number(r.n)])),
    businessHistory: new Map(history.map((h) => [h.business, { worked: Number(h.worked), bad: Number(h.bad) }])),
    // The least the shifter's counter rules accept for this shift (null without a matching rule).
    rateFloor: (c: Candidate) =>
      counterFloor(rules, c, { distanceKm: distanceKm(me?.latitude ?? null, me?.longitude ?? null, c.business_lat, c.business_lon) })?.rate_minor ?? null,
    busy,
  };

  /** Completes the signals with market medians of the candidate set, for roles the shifter has no history in. */
  function withMarket(candidates: Array<{ shiftrole_id: number; currency: string; hourly_rate_minor: number }>): ShifterSignals {
    const market = new Map<string, number[]>();
    for (const c of candidates) {
      const k = `${c.shiftrole_id}:${c.currency}`;
      const list = market.get(k);
      if (list) list.push(c.hourly_rate_minor);
      else market.set(k, [c.hourly_rate_minor]);
    }
    const marketMedian = new Map([...market].map(([k, v]) => [k, median(v)]));
    return {
      ...base,
      referenceRate: (role, currency) => {
        const own = roleRate.get(`${role}:${currency}`);
        if (own) return own;
        const all = overall.get(currency);
        if (all?.length) return all.reduce((a, b) => a + b, 0) / all.length;
        return marketMedian.get(`${role}:${currency}`) ?? null;
      },
    };
  }
  return { withMarket };
}
