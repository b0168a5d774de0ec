// inside: services/shifts
import { env } from 'cloudflare:workers';
import { and, eq, gt, sql } from 'drizzle-orm';
import { businesses, counterRules, requestAuthorizations, shiftRequests, shifters } from '../../src/db/schema';
import { type AppBindings, getSettings } from '../../src/env';
import { toMinor } from '../../src/lib/money';
import { counterFloor, distanceKm } from '../../src/services/shifts';
import { type Candidate, HISTORY_MIN_WORKED, relevanceScore, type ShifterSignals } from '../../src/services/shifts/relevance';
import { SHIFT_STATUS, workedShiftSql } from '../../src/services/kernel';
import { db } from './factory';
import { goingRateFromRows } from './insights-reference';

const DAY = 86_400_000;

/**
 * The relevance ranking computed the plain way, as the definition in relevance.ts reads: every
 * candidate loaded, the shifter's signals loaded in grouped queries, the going rate of each city and
 * role over the rows themselves (insights-reference.ts), `relevanceScore` per candidate, sorted in
 * memory. The service ranks in SQL; tests hold the two to the same answer.
 */
export async function referenceRanking(shifterId: string, now = Date.now()) {
  const d = db();
  const [me] = await d.select().from(shifters).where(eq(shifters.id, shifterId)).limit(1);
  const crew = sql`${shiftRequests.business_id} IN (SELECT ${requestAuthorizations.business_id} FROM ${requestAuthorizations} WHERE ${requestAuthorizations.shifter_id} = ${shifterId} AND ${requestAuthorizations.status} = 'accepted')`;
  const [candidates, roles, history, rates, busy, rules] = await Promise.all([
    d
      .select({
        id: shiftRequests.id,
        business_id: shiftRequests.business_id,
        shiftrole_id: shiftRequests.shiftrole_id,
        hourly_rate_minor: shiftRequests.hourly_rate_minor,
        currency: shiftRequests.currency,
        starts_at: shiftRequests.starts_at,
        ends_at: shiftRequests.ends_at,
        created_at: shiftRequests.created_at,
        shift_date: shiftRequests.shift_date,
        shift_in: shiftRequests.shift_in,
        business_lat: businesses.latitude,
        business_lon: businesses.longitude,
        business_city_id: businesses.city_id,
      })
      .from(shiftRequests)
      .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
      .where(
        and(
          eq(shiftRequests.request_status, SHIFT_STATUS.pending),
          eq(shiftRequests.is_broadcast, true),
          gt(shiftRequests.starts_at, now),
          crew,
        ),
      ),
    d
      .select({ role: shiftRequests.shiftrole_id, n: sql<number>`count(*)` })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.shifter_id, shifterId), workedShiftSql(), gt(shiftRequests.starts_at, now - 365 * DAY)))
      .groupBy(shiftRequests.shiftrole_id),
    d
      .select({
        business: shiftRequests.business_id,
        worked: sql<number>`sum(case when ${workedShiftSql()} then 1 else 0 end)`,
        bad: sql<number>`sum(case when ${shiftRequests.is_noshow} = 1 or ${shiftRequests.cancelled_by} = 'shifter' then 1 else 0 end)`,
      })
      .from(shiftRequests)
      .where(eq(shiftRequests.shifter_id, shifterId))
      .groupBy(shiftRequests.business_id),
    d
      .select({
        role: shiftRequests.shiftrole_id,
        currency: shiftRequests.currency,
        mean: sql<number>`avg(${shiftRequests.hourly_rate_minor})`,
        n: sql<number>`count(*)`,
      })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.shifter_id, shifterId), workedShiftSql(), gt(shiftRequests.starts_at, now - 90 * DAY)))
      .groupBy(shiftRequests.shiftrole_id, shiftRequests.currency),
    d
      .select({ startsAt: shiftRequests.starts_at, endsAt: shiftRequests.ends_at })
      .from(shiftRequests)
      .where(
        and(
          eq(shiftRequests.shifter_id, shifterId),
          eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
          eq(shiftRequests.is_noshow, false),
          gt(shiftRequests.ends_at, now),
        ),
      ),
    d
      .select()
      .from(counterRules)
      .where(and(eq(counterRules.shifter_id, shifterId), eq(counterRules.is_active, true))),
  ]);

  const roleRate = new Map(rates.map((r) => [`${r.role}:${r.currency}`, r.mean]));
  const overall = new Map<string, number[]>();
  const workedIn = new Map<string, number>();
  for (const r of rates) {
    overall.set(r.currency, [...(overall.get(r.currency) ?? []), r.mean]);
    workedIn.set(r.currency, (workedIn.get(r.currency) ?? 0) + Number(r.n));
  }
  // A usual rate needs HISTORY_MIN_WORKED worked shifts in the currency over the 90 days.
  const usual = (currency: string) => (workedIn.get(currency) ?? 0) >= HISTORY_MIN_WORKED;
  // Without one, the going rate of the business's city for the role, in the currency (when sufficient).
  const settings = getSettings(env as AppBindings);
  const going = new Map<string, number | null>();
  const goingKey = (c: Candidate) => `${c.business_city_id}:${c.shiftrole_id}:${c.currency}`;
  for (const c of candidates) {
    if (usual(c.currency) || c.business_city_id === null || going.has(goingKey(c))) continue;
    going.set(goingKey(c), null);
    const g = await goingRateFromRows(
      { city_id: c.business_city_id, shiftrole_id: c.shiftrole_id, currency: c.currency },
      now,
      settings.GOING_RATE_WINDOW_DAYS,
      settings.GOING_RATE_MIN_SAMPLE,
    );
    if (g.sufficient_data && g.median !== null) going.set(goingKey(c), toMinor(g.median, c.currency));
  }
  const lat = me?.latitude ?? null;
  const lon = me?.longitude ?? null;
  const signals: ShifterSignals = {
    lat,
    lon,
    roleCounts: new Map(roles.map((r) => [r.role, Number(r.n)])),
    businessHistory: new Map(history.map((h) => [h.business, { worked: Number(h.worked), bad: Number(h.bad) }])),
    rateFloor: (c: Candidate) =>
      counterFloor(rules, c, { distanceKm: distanceKm(lat, lon, c.business_lat, c.business_lon) })?.rate_minor ?? null,
    busy,
    now,
    listedRoles: new Set(me?.roles ?? []),
    travelKm: me?.travel_km ?? null,
    minRate:
      me?.min_hourly_rate_minor == null ? null : { minor: me.min_hourly_rate_minor, currency: me.min_hourly_rate_currency ?? me.currency },
    referenceRate: (c) => {
      if (!usual(c.currency)) return going.get(goingKey(c)) ?? null;
      const own = roleRate.get(`${c.shiftrole_id}:${c.currency}`);
      if (own) return own;
      const all = overall.get(c.currency)!;
      return all.reduce((a, b) => a + b, 0) / all.length;
    },
  };
  return candidates
    .map((c) => ({ id: c.id, score: relevanceScore(c, signals), starts_at: c.starts_at, created_at: c.created_at }))
    .sort(
      (a, b) => b.score - a.score || a.starts_at - b.starts_at || b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map(({ id, score }) => ({ id, score }));
}
