import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shifters } from '../../src/db/schema';
import { advanceInsightRollups, goingRate } from '../../src/services/insights';
import { listBroadcasts, listBroadcastsWithReasons, type ShiftRequestView } from '../../src/services/shifts';
import { contextAt } from '../helpers/clock';
import { connect, db, makeUser, type TestUser } from '../helpers/factory';
import { referenceRanking } from '../helpers/relevance-reference';
import { DAY, HOUR, insertShift, insertShifts, NYC } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

/*
 * The reasons beside a ranked broadcast say only what is true (services/shifts/relevance-reasons.ts):
 * a newcomer hears about the shift (the going rate, the start, the distance when known, that the
 * business is new to them), never about a "usual" they do not have; 3 worked shifts make a usual rate.
 * Every list here is read at one instant (contextAt), so nothing depends on the day the tests run.
 */

/** The type-7 median of some rates (minor units), rounded half up to the minor unit: computed here, apart from the services. */
function medianMinor(rates: number[]): number {
  const v = [...rates].sort((a, b) => a - b);
  const lo = v[Math.floor((v.length - 1) / 2)]!;
  const hi = v[Math.floor(v.length / 2)]!;
  return Math.floor((lo + hi + 1) / 2);
}

/** Worked shifts (by a shifter of the pool) at `businessId`, one a day back from `now`, at these rates. */
async function worked(businessId: string, shifterId: string, now: number, rates: number[], role = 1) {
  await insertShifts(
    rates.map((rateMinor, k) => {
      const startsAt = now - (k + 2) * DAY;
      return { businessId, shifterId, startsAt, role, rateMinor, set: { shift_start_at: startsAt, shift_end_at: startsAt + 4 * HOUR } };
    }),
  );
}

const ranked = (ctx: ReturnType<typeof contextAt>, me: TestUser) =>
  listBroadcastsWithReasons(ctx, { shifter_id: me.shifterId!, sort_by_relevance: true, limit: 50 });

describe('relevance reasons and scores for a newcomer and after a few worked shifts', () => {
  it('a newcomer hears the truth: no "usual", "New to you", the going rate; scores spread by rate, start and distance; 3 worked shifts make the usual', async () => {
    const now = Date.now();
    const pool = await makeUser({ shifter: true });
    // The going rate of city 1 for role 1: 11 worked shifts of others there in the last 90 days.
    const market = await makeUser({ business: { city_id: 1 } });
    const marketRates = [1800, 1900, 2000, 2100, 2200, 2250, 2300, 2400, 2500, 2600, 2700];
    await worked(market.businessId!, pool.shifterId!, now, marketRates);
    const going = medianMinor(marketRates);
    expect(going).toBe(2250);

    // The newcomer: no worked shift, no position yet, in the crews of two businesses of the city.
    const me = await makeUser({ shifter: true });
    const a = await makeUser({ name: 'Alder', business: { city_id: 1, latitude: NYC.lat, longitude: NYC.lon } });
    const b = await makeUser({ name: 'Birch', business: { city_id: 1, latitude: NYC.lat + 0.1, longitude: NYC.lon } });
    for (const biz of [a, b]) await connect(biz.businessId!, me.shifterId!);
    const later = now + 10 * DAY; // past the week a newcomer's start counts in
    const [high, low, soon, birch] = await insertShifts([
      { businessId: a.businessId!, broadcast: true, status: 1, startsAt: later, rateMinor: 2900 },
      { businessId: a.businessId!, broadcast: true, status: 1, startsAt: later, rateMinor: 1700 },
      { businessId: a.businessId!, broadcast: true, status: 1, startsAt: now + 6 * HOUR, rateMinor: 2250 },
      { businessId: b.businessId!, broadcast: true, status: 1, startsAt: later + HOUR, rateMinor: 2250 },
    ]);
    const ctx = contextAt(now, me);

    const first = await ranked(ctx, me);
    const byId = new Map(first.data.map((s) => [s.id, s]));
    const reasons = (row: { id: string }) => first.reasons[row.id] ?? [];
    expect(first.data).toHaveLength(4);
    for (const s of first.data) {
      // Nothing about a usual rate, roles or businesses they have no history with.
      expect(reasons(s).join(' · ')).not.toMatch(/usual|You have worked|You often work/);
      // The reference is the going rate of the city and role, the median of those 11 shifts.
      expect(s.relevance_signals!.reference_rate).toBe(going / 100);
    }
    // As GET /v1/going_rate says it.
    const service = await goingRate(ctx, { city_id: 1, shiftrole_id: 1, currency: 'USD' });
    expect(service).toMatchObject({ median: going / 100, sufficient_data: true, sample_size: 11 });

    expect(reasons(high!)).toContain('Pays 29% above the going rate here ($22.50/h)');
    expect(reasons(high!)).toContain('New to you');
    expect(reasons(low!)).toContain('Pays 24% below the going rate here ($22.50/h)');
    expect(reasons(soon!)).toEqual(expect.arrayContaining(['Starts soon', 'Pays about the going rate here ($22.50/h)', 'New to you']));
    // No position: distance is not a reason, and it scores the same everywhere.
    expect(Object.values(first.reasons).flat().join(' · ')).not.toMatch(/Close to you|km away/);

    // The scores spread by what is known: well above the going rate against well below; a start within
    // hours against one in 10 days at the same rate.
    const score = (row: { id: string }) => byId.get(row.id)!.relevance_score!;
    // pay 25 against 12.5 − (0.244/0.3)·12.5 ≈ 2.3; role, familiarity 0; distance 10; start 0; 10.
    expect(score(high!)).toBe(45);
    expect(score(low!)).toBe(22);
    // At the going rate: pay 12.5, start 15 (within 24 hours) against 0.
    expect(score(soon!)).toBe(48);
    expect(score(birch!)).toBe(33);
    expect(first.data.map((s) => s.id)).toEqual([soon!.id, high!.id, birch!.id, low!.id]);
    // The ranked SQL is the definition (relevanceScore over every candidate) at the same instant.
    expect(first.data.map((s) => ({ id: s.id, score: s.relevance_score }))).toEqual(await referenceRanking(me.shifterId!, now));

    // With a position the distance is known: "Close to you" for Alder (0 km), Birch 11 km away.
    const place = (lat: number | null, lon: number | null) =>
      db().update(shifters).set({ latitude: lat, longitude: lon }).where(eq(shifters.id, me.shifterId!));
    await place(NYC.lat, NYC.lon);
    const placed = await ranked(ctx, me);
    expect(placed.reasons[birch!.id]).toContain('11.1 km away');
    expect(placed.reasons[soon!.id]).toContain('Close to you (0 km)');
    const placedScore = (id: string) => placed.data.find((s) => s.id === id)!.relevance_score;
    // distance 20 at 0 km, 20·(1 − (11.1 − 2)/48) ≈ 16.2 at 11.1 km, against 10 unknown.
    expect(placedScore(soon!.id)).toBe(58);
    expect(placedScore(birch!.id)).toBe(39);
    expect(placed.data.map((s) => ({ id: s.id, score: s.relevance_score }))).toEqual(await referenceRanking(me.shifterId!, now));
    await place(null, null);

    // Two worked shifts at Alder are not yet a usual rate: still the going rate (which counts them
    // too), still a newcomer's start; the history they have is said as it is.
    const usualRates = [2000, 2300, 2750];
    await worked(a.businessId!, me.shifterId!, now, usualRates.slice(0, 2));
    const two = await ranked(ctx, me);
    expect(Object.values(two.reasons).flat().join(' · ')).not.toMatch(/usual/);
    const goingNow = medianMinor([...marketRates, ...usualRates.slice(0, 2)]);
    for (const s of two.data) expect(s.relevance_signals!.reference_rate).toBe(goingNow / 100);
    expect(two.reasons[high!.id]).toContain('You have worked at Alder Co');
    expect(two.reasons[birch!.id]).toContain('New to you');

    // The third makes it: their mean rate over those 3 shifts, computed here, is "your usual".
    await worked(a.businessId!, me.shifterId!, now - 3 * DAY, usualRates.slice(2));
    const usual = usualRates.reduce((x, y) => x + y, 0) / usualRates.length;
    expect(usual).toBe(2350);
    const three = await ranked(ctx, me);
    for (const s of three.data) expect(s.relevance_signals!.reference_rate).toBe(usual / 100);
    expect(three.reasons[soon!.id]).toContain('Pays 4% below your usual $23.50/h');
    expect(three.reasons[high!.id]).toContain('Pays 23% above your usual $23.50/h');
    expect(three.reasons[high!.id]).toContain('You have worked at Alder Co');
    expect(three.reasons[birch!.id]).toContain('Pays 4% below your usual $23.50/h');
    expect(Object.values(three.reasons).flat().join(' · ')).not.toMatch(/going rate/);
    // No longer a newcomer: the start is a tie-break, not points. role 12 + 2·13/4 = 18.5, pay
    // 12.5 + ((22.50/23.50 − 1)/0.3)·12.5 ≈ 10.73, distance 10, familiarity 8 + 3·3 = 17, 10 → 66.
    expect((three.data.find((s) => s.id === soon!.id) as ShiftRequestView).relevance_score).toBe(66);
    expect(three.data.map((s) => ({ id: s.id, score: s.relevance_score }))).toEqual(await referenceRanking(me.shifterId!, now));
  });

  it('the going rate the ranking reads is GET /v1/going_rate’s, from the rollup and its edges alike', async () => {
    const now = Date.now();
    const pool = await makeUser({ shifter: true });
    // City 2, role 3: an even count of rates, the median half a cent between two (rounded up), and a
    // shift outside the window that must not count.
    const market = await makeUser({ business: { city_id: 2, state_id: 1, country_id: 1 } });
    const rates = [1525, 1990, 2010, 2016, 2199, 2200, 2400, 2401, 2600, 3100, 1200, 1333];
    await worked(market.businessId!, pool.shifterId!, now, rates, 3);
    await insertShift({
      businessId: market.businessId!,
      shifterId: pool.shifterId,
      startsAt: now - 200 * DAY,
      role: 3,
      rateMinor: 9900,
      set: { shift_start_at: now - 200 * DAY, shift_end_at: now - 200 * DAY + HOUR },
    });
    const me = await makeUser({ shifter: true });
    const biz = await makeUser({ business: { city_id: 2, state_id: 1, country_id: 1 } });
    await connect(biz.businessId!, me.shifterId!);
    await insertShift({ businessId: biz.businessId!, broadcast: true, status: 1, startsAt: now + 3 * DAY, role: 3, rateMinor: 2100 });
    const ctx = contextAt(now, me);
    const expected = medianMinor(rates) / 100;
    expect(expected).toBe(21.08); // (2016 + 2199) / 2 = 2107.5 → 2108

    const read = async () => (await listBroadcasts(ctx, { shifter_id: me.shifterId!, sort_by_relevance: true, limit: 50 })).data[0]!;
    expect((await read()).relevance_signals!.reference_rate).toBe(expected);
    expect((await goingRate(ctx, { city_id: 2, shiftrole_id: 3, currency: 'USD' })).median).toBe(expected);
    // Once the histogram holds the window (the 5-minute job), the same figure from it and its edges.
    await advanceInsightRollups(contextAt(now - 10 * 60_000, me));
    expect((await read()).relevance_signals!.reference_rate).toBe(expected);
    expect((await goingRate(ctx, { city_id: 2, shiftrole_id: 3, currency: 'USD' })).median).toBe(expected);
    // Too few shifts for a going rate in another role: no reference, pay scores 12.5, no pay reason.
    await insertShift({ businessId: biz.businessId!, broadcast: true, status: 1, startsAt: now + 3 * DAY, role: 4, rateMinor: 2100 });
    const list = await listBroadcastsWithReasons(ctx, { shifter_id: me.shifterId!, sort_by_relevance: true, limit: 50 });
    const other = list.data.find((s) => s.shiftrole_id === 4)!;
    expect(other.relevance_signals).toMatchObject({ reference_rate: null, pay_points: 12.5 });
    expect(list.reasons[other.id]!.join(' · ')).not.toMatch(/Pays/);
  });

  it('many generated broadcasts for a newcomer rank in SQL exactly as the definition does, and spread', async () => {
    const now = Date.now();
    const pool = await makeUser({ shifter: true });
    // mulberry32: the same data on every run.
    let a = 20260301;
    const rnd = (lo: number, hi: number) => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return lo + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (hi - lo + 1));
    };
    // Going rates for roles 1–3 in city 3 (role 4 has none); a business with no city at all.
    const market = await makeUser({ business: { city_id: 3 } });
    for (const role of [1, 2, 3])
      await worked(
        market.businessId!,
        pool.shifterId!,
        now,
        Array.from({ length: 12 }, () => rnd(1500, 3000)),
        role,
      );
    const me = await makeUser({ shifter: { latitude: NYC.lat, longitude: NYC.lon } });
    const crew = [
      await makeUser({ business: { city_id: 3, latitude: NYC.lat + 0.01, longitude: NYC.lon } }),
      await makeUser({ business: { city_id: 3, latitude: NYC.lat + 0.3, longitude: NYC.lon } }),
      await makeUser({ business: { city_id: 3, latitude: null, longitude: null } }),
      await makeUser({ business: { city_id: null, state_id: null, country_id: null } }),
    ];
    for (const biz of crew) await connect(biz.businessId!, me.shifterId!);
    // One worked shift of their own (still a newcomer) and an accepted shift some broadcasts overlap.
    await worked(crew[0]!.businessId!, me.shifterId!, now, [2100], 2);
    await insertShift({ businessId: crew[1]!.businessId!, shifterId: me.shifterId, startsAt: now + 2 * DAY, minutes: 8 * 60 });
    await insertShifts(
      Array.from({ length: 320 }, (_, i) => ({
        businessId: crew[i % crew.length]!.businessId!,
        broadcast: true,
        status: 1,
        startsAt: now + rnd(1, 12 * 24) * HOUR + rnd(0, 59) * 60_000,
        minutes: 60 * rnd(3, 9),
        role: rnd(1, 4),
        rateMinor: rnd(1400, 3300),
        set: { created_at: now - rnd(1, 100_000) },
      })),
    );
    const ctx = contextAt(now, me);
    const expected = await referenceRanking(me.shifterId!, now);
    expect(expected).toHaveLength(320);
    expect(new Set(expected.map((e) => e.score)).size).toBeGreaterThan(30);
    const got: Array<{ id: string; score: number | undefined }> = [];
    for (const limit of [200, 37]) {
      got.length = 0;
      let cursor: string | undefined;
      do {
        const page = await listBroadcasts(ctx, {
          shifter_id: me.shifterId!,
          sort_by_relevance: true,
          limit,
          ...(cursor ? { cursor } : {}),
        });
        for (const s of page.data) got.push({ id: s.id, score: s.relevance_score });
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(got).toEqual(expected);
    }
  });

  it('the find-shifts page shows a newcomer the shift’s own reasons', async () => {
    const me = await makeUser({ shifter: true });
    const biz = await makeUser({ business: true });
    await connect(biz.businessId!, me.shifterId!);
    await insertShift({ businessId: biz.businessId!, broadcast: true, status: 1, startsAt: Date.now() + 5 * HOUR, rateMinor: 2450 });
    const page = await (await signedIn(me)).get('/dashboard/shifter/find');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/out of 100/);
    expect(page.html).toContain('Starts soon');
    expect(page.html).toContain('New to you');
    expect(page.html).not.toContain('usual');
  });
});

describe('the shifter profile ranks a newcomer: the roles they do, their home area and travel, their minimum rate', () => {
  it('a listed role ranks up ("You do barista shifts"), a venue beyond the travel distance down, a rate under the minimum down; SQL equals the definition', async () => {
    const now = Date.now();
    // A newcomer (no worked shift) who does barista shifts, lives in Midtown, travels 10 km and takes $20/h or more.
    const me = await makeUser({
      shifter: {
        roles: [6],
        home_area: 'Midtown',
        latitude: NYC.lat,
        longitude: NYC.lon,
        travel_km: 10,
        min_hourly_rate_minor: 2000,
        min_hourly_rate_currency: 'USD',
      },
    });
    // No city, so no going rate: pay scores against nothing (12.5) and the profile decides.
    const near = await makeUser({ name: 'Near', business: { city_id: null, latitude: NYC.lat + 0.027, longitude: NYC.lon } }); // ~3 km
    const far = await makeUser({ name: 'Far', business: { city_id: null, latitude: 40.9, longitude: -74.1 } }); // ~22 km
    for (const biz of [near, far]) await connect(biz.businessId!, me.shifterId!);
    const later = now + 10 * DAY;
    const [barista, server, cheap, farAway] = await insertShifts([
      { businessId: near.businessId!, broadcast: true, status: 1, startsAt: later, role: 6, rateMinor: 2400 },
      { businessId: near.businessId!, broadcast: true, status: 1, startsAt: later, role: 1, rateMinor: 2400 },
      { businessId: near.businessId!, broadcast: true, status: 1, startsAt: later, role: 1, rateMinor: 1800 },
      { businessId: far.businessId!, broadcast: true, status: 1, startsAt: later, role: 1, rateMinor: 2400 },
    ]);
    const list = await ranked(contextAt(now, me), me);
    const row = (s: { id: string }) => list.data.find((x) => x.id === s.id)!;
    const reasons = (s: { id: string }) => list.reasons[s.id] ?? [];

    expect(reasons(barista!)).toEqual(expect.arrayContaining(['You do barista shifts', '3 km from home']));
    expect(row(barista!).relevance_signals!.role_points).toBe(12);
    expect(reasons(server!)).not.toContain('You do barista shifts');
    expect(row(server!).relevance_signals!.role_points).toBe(0);
    // Under the minimum: no pay points, and said so.
    expect(reasons(cheap!)).toContain('Below your minimum $20.00/h');
    expect(row(cheap!).relevance_signals).toMatchObject({ pay_points: 0, rate_floor: 20 });
    // Beyond the 10 km they travel: no distance points (an unknown distance would score 10).
    expect(reasons(farAway!)).toContain('Farther than you travel');
    expect(row(farAway!).relevance_signals!.distance_points).toBe(0);
    for (const s of list.data) expect(reasons(s).join(' · ')).not.toMatch(/usual|You have worked|You often work/);

    // The barista shift first (role 12 + pay 12.5 + distance 19.6 + 10), then the near server shift (no
    // role points), the cheap one (no pay points), and the far one (no distance points) last.
    expect(list.data.map((s) => s.id)).toEqual([barista!.id, server!.id, cheap!.id, farAway!.id]);
    expect(list.data.map((s) => ({ id: s.id, score: s.relevance_score }))).toEqual(await referenceRanking(me.shifterId!, now));

    // Without the profile's fields the same shifts rank as any newcomer's: no role, no travel limit, no minimum.
    await db()
      .update(shifters)
      .set({ roles: null, travel_km: null, min_hourly_rate_minor: null, home_area: null })
      .where(eq(shifters.id, me.shifterId!));
    const plain = await ranked(contextAt(now, me), me);
    const plainRow = (s: { id: string }) => plain.data.find((x) => x.id === s.id)!;
    expect(plainRow(barista!).relevance_score).toBeLessThan(row(barista!).relevance_score!);
    expect(plainRow(farAway!).relevance_score).toBeGreaterThan(row(farAway!).relevance_score!);
    expect(plainRow(cheap!).relevance_score).toBeGreaterThan(row(cheap!).relevance_score!);
    expect(plain.reasons[barista!.id]).toContain('Close to you (3 km)');
    expect(plain.data.map((s) => ({ id: s.id, score: s.relevance_score }))).toEqual(await referenceRanking(me.shifterId!, now));
  });
});
