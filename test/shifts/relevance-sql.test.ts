import { describe, expect, it } from 'vitest';
import { counterRules } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { type ApiResult, call } from '../helpers/api';
import { connect, db, type MakeUserOptions, makeUser, type TestUser } from '../helpers/factory';
import { callRecording } from '../helpers/plans';
import { referenceRanking } from '../helpers/relevance-reference';
import { dateAhead, DAY, HOUR, type InsertSpec, insertShift, insertShifts, NYC } from '../helpers/shifts';

/*
 * The broadcast list ranks by relevance inside D1 (services/shifts/relevance-signals.ts). These tests
 * hold that ranking to the plain definition (relevanceScore over every candidate, as
 * test/helpers/relevance-reference.ts computes it) on generated data that exercises every signal.
 */

const BROADCASTS = '/v1/shift_request/list_of_broadcast_requests';

/** mulberry32: the same data on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}

const hhmm = (min: number) => `${String(Math.floor(min / 60) % 24).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

async function rankedByApi(key: string, shifterId: string, limit: number) {
  const rows: Array<{ id: string; score: number }> = [];
  let cursor: string | null = null;
  do {
    const res: ApiResult = await call('POST', BROADCASTS, {
      key,
      body: { shifter_id: shifterId, sort_by_relevance: true, limit, ...(cursor ? { cursor } : {}) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const r of res.body.data) rows.push({ id: r.id, score: r.relevance_score });
    cursor = res.body.next_cursor;
  } while (cursor);
  return rows;
}

async function rule(shifterId: string, r: Partial<typeof counterRules.$inferInsert> & { min_hourly_rate_minor: number }) {
  const now = Date.now();
  await db()
    .insert(counterRules)
    .values({ id: newId('counterRule'), shifter_id: shifterId, label: 'rule', currency: 'USD', created_at: now, updated_at: now, ...r });
}

/** A shifter in New York and a business beside them, the shifter on its crew. */
async function nycCrew(shifter: Extract<MakeUserOptions['shifter'], object> = {}) {
  const me = await makeUser({ shifter: { latitude: NYC.lat, longitude: NYC.lon, ...shifter } });
  const biz = await makeUser({ business: { latitude: NYC.lat, longitude: NYC.lon } });
  await connect(biz.businessId!, me.shifterId!);
  return { me, biz };
}

/** 450 open broadcasts of one business at one rate, spread over `days` in turn, each a few minutes after the last. */
function band450(businessId: string, days: string[], first: { in: number; out: number; step: number }, rateMinor: number) {
  return insertShifts(
    Array.from({ length: 450 }, (_, i) => ({
      businessId,
      broadcast: true,
      status: 1,
      date: days[i % days.length]!,
      in: hhmm(first.in + first.step * Math.floor(i / days.length)),
      out: hhmm(first.out + first.step * Math.floor(i / days.length)),
      rateMinor,
    })),
  );
}

/** The first page ranked by relevance ({ id, score } each) and how many rankings the list ran for it. */
async function firstRankedPage(me: TestUser, limit: number) {
  const { res, statements } = await callRecording('POST', BROADCASTS, {
    key: me.key,
    body: { shifter_id: me.shifterId, sort_by_relevance: true, limit },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    page: res.body.data.map((d: { id: string; relevance_score: number }) => ({ id: d.id, score: d.relevance_score })),
    rankings: statements.filter((st) => st.sql.includes('rel_top')).length,
  };
}

describe('relevance ranked in SQL equals the definition', () => {
  it('scores and orders 600 generated broadcasts exactly as relevanceScore does, on every page', async () => {
    const r = rng(20261122);
    // The profile's fields too: roles 4 and 5 listed (4 last worked over a year ago, 5 never), 30 km
    // of travel (Edge and Far beyond it), a $22/h minimum beside the counter rules.
    const me = await makeUser({
      shifter: {
        latitude: NYC.lat,
        longitude: NYC.lon,
        timezone: 'America/New_York',
        roles: [4, 5],
        home_area: 'Lower Manhattan',
        travel_km: 30,
        min_hourly_rate_minor: 2200,
        min_hourly_rate_currency: 'USD',
      },
    });
    const shifterId = me.shifterId!;
    const place = (name: string, business: MakeUserOptions['business']) => makeUser({ name, business });
    const near = await place('Near', { latitude: 40.72, longitude: -74.0 }); // ~1 km
    const mid = await place('Mid', { latitude: 40.9, longitude: -74.1 }); // ~22 km
    const edge = await place('Edge', { latitude: 41.1, longitude: -74.2 }); // ~46 km
    const far = await place('Far', { latitude: 34.05, longitude: -118.24, timezone: 'America/Los_Angeles' });
    const nowhere = await place('Nowhere', { latitude: null, longitude: null });
    const london = await place('London', {
      latitude: 51.5,
      longitude: -0.12,
      timezone: 'Europe/London',
      currency: 'GBP',
      city_id: null,
      state_id: null,
      country_id: null,
    });
    const all: Array<{ biz: TestUser; tz: string; currency: string }> = [
      { biz: near, tz: 'America/New_York', currency: 'USD' },
      { biz: mid, tz: 'America/New_York', currency: 'USD' },
      { biz: edge, tz: 'America/New_York', currency: 'USD' },
      { biz: far, tz: 'America/Los_Angeles', currency: 'USD' },
      { biz: nowhere, tz: 'America/New_York', currency: 'USD' },
      { biz: london, tz: 'Europe/London', currency: 'GBP' },
    ];
    for (const { biz } of all) await connect(biz.businessId!, shifterId);

    // History: worked shifts in roles 1–3 (some older than 90 days, one older than a year), no-shows
    // and own cancellations at one business; nothing in GBP, so London is ranked against its market.
    const past = async (biz: TestUser, daysAgo: number, role: number, rateMinor: number, set: Record<string, unknown> = {}) => {
      const startsAt = Date.now() - daysAgo * DAY;
      await insertShift({
        businessId: biz.businessId!,
        shifterId,
        startsAt,
        role,
        rateMinor,
        set: { shift_start_at: startsAt, shift_end_at: startsAt + 4 * HOUR, ...set },
      });
    };
    for (let k = 0; k < 6; k++) await past(near, 3 + k * 9, 1, 2000 + k * 37);
    for (let k = 0; k < 3; k++) await past(mid, 5 + k * 11, 2, 2400 + k * 51);
    await past(mid, 120, 3, 1900); // outside the 90-day rate window, inside the year
    await past(edge, 400, 4, 3000); // outside the year
    await past(edge, 20, 1, 2150);
    await past(edge, 30, 1, 2150, { is_noshow: true, shift_end_at: null, shift_start_at: null });
    await insertShift({
      businessId: edge.businessId!,
      shifterId,
      startsAt: Date.now() - 40 * DAY,
      status: 7,
      set: { cancelled_by: 'shifter', cancelled_at: Date.now() - 41 * DAY },
    });

    // Accepted future shifts: broadcasts overlapping them are capped at 10.
    const busyDays = [2, 5, 9];
    for (const d of busyDays) await insertShift({ businessId: near.businessId!, shifterId, date: dateAhead(d), in: '10:00', out: '18:00' });

    // Counter rules of every shape: any role, by role, by weekday, by start band (one wrapping
    // midnight), distance premiums, another currency; an inactive one that must not count.
    await rule(shifterId, { min_hourly_rate_minor: 1800 });
    await rule(shifterId, {
      min_hourly_rate_minor: 2600,
      shiftrole_id: 1,
      weekdays: '1,2,3,4,5',
      start_from: '06:00',
      start_to: '12:00',
      distance_threshold_km: 10,
      distance_premium_minor: 300,
    });
    await rule(shifterId, { min_hourly_rate_minor: 2500, shiftrole_id: 2, weekdays: '6,7' });
    await rule(shifterId, {
      min_hourly_rate_minor: 2800,
      shiftrole_id: 3,
      start_from: '22:00',
      start_to: '06:00',
      distance_threshold_km: 5,
      distance_premium_minor: 500,
    });
    await rule(shifterId, {
      min_hourly_rate_minor: 2300,
      weekdays: '5,6',
      start_from: '17:00',
      start_to: '23:00',
      distance_threshold_km: 15,
      distance_premium_minor: 200,
    });
    await rule(shifterId, { min_hourly_rate_minor: 1700, currency: 'GBP', distance_threshold_km: 5, distance_premium_minor: 200 });
    await rule(shifterId, { min_hourly_rate_minor: 9900, is_active: false });

    // 600 open broadcasts (more than the window scored in full first); a few share rate, date and
    // time, so the tie-breaks decide.
    const starts = [300, 360, 480, 600, 690, 720, 900, 1020, 1080, 1260, 1320, 1380];
    let created = Date.now() - 10 * DAY;
    const broadcasts: InsertSpec[] = [];
    for (let i = 0; i < 600; i++) {
      const { biz, tz, currency } = r.pick(all);
      const twin = i % 25 === 0 && i > 0;
      const startMin = twin ? 600 : r.pick(starts);
      const role = twin ? 1 : r.int(1, 5);
      const rate = twin ? 2100 : currency === 'GBP' ? r.int(1100, 2400) : r.int(1500, 3400);
      const date = twin ? dateAhead(12, tz) : dateAhead(r.int(1, 14), tz);
      created += twin ? 0 : r.int(1, 5000);
      broadcasts.push({
        businessId: biz.businessId!,
        broadcast: true,
        status: 1,
        tz,
        date,
        in: hhmm(startMin),
        out: hhmm(startMin + 60 * r.int(3, 9)),
        role,
        rateMinor: rate,
        currency,
        set: { created_at: created },
      });
    }
    await insertShifts(broadcasts);

    const expected = await referenceRanking(shifterId);
    expect(expected).toHaveLength(600);
    // The data reaches every part of the score: zeros and full marks, overlaps, floors, ties.
    const scores = expected.map((e) => e.score);
    expect(Math.max(...scores)).toBeGreaterThanOrEqual(80);
    expect(scores.filter((s) => s <= 10).length).toBeGreaterThan(5);
    expect(new Set(scores).size).toBeGreaterThan(30);

    expect(await rankedByApi(me.key, shifterId, 200)).toEqual(expected);
    // Offset pages add up to the same order, the first ones ranked within the window.
    expect(await rankedByApi(me.key, shifterId, 23)).toEqual(expected);
  });

  it('a page the best-bounded window cannot settle is ranked over every candidate', async () => {
    // 250 broadcasts that would score highest but overlap an accepted shift (capped at 10), and a
    // few that do not: the window of the 200 best bounds holds only capped ones.
    const me = await makeUser({ shifter: { latitude: NYC.lat, longitude: NYC.lon } });
    const biz = await makeUser({ business: { latitude: NYC.lat, longitude: NYC.lon } });
    await connect(biz.businessId!, me.shifterId!);
    for (let k = 0; k < 5; k++) {
      const startsAt = Date.now() - (k + 2) * DAY;
      await insertShift({
        businessId: biz.businessId!,
        shifterId: me.shifterId,
        startsAt,
        set: { shift_start_at: startsAt, shift_end_at: startsAt + 4 * HOUR },
      });
    }
    const busy = dateAhead(6);
    await insertShift({ businessId: biz.businessId!, shifterId: me.shifterId, date: busy, in: '08:00', out: '20:00' });
    const now = Date.now();
    await insertShifts(
      Array.from({ length: 250 }, (_, i) => ({
        businessId: biz.businessId!,
        broadcast: true,
        status: 1,
        date: busy,
        in: '10:00',
        out: '14:00',
        rateMinor: 3000 + i,
        set: { created_at: now - i },
      })),
    );
    const free = (
      await insertShifts(
        Array.from({ length: 6 }, (_, i) => ({
          businessId: biz.businessId!,
          broadcast: true,
          status: 1,
          date: dateAhead(8 + i),
          in: '10:00',
          out: '14:00',
          rateMinor: 1500,
        })),
      )
    ).map((row) => row.id);
    const expected = await referenceRanking(me.shifterId!);
    expect(
      expected
        .slice(0, 6)
        .map((e) => e.id)
        .sort(),
    ).toEqual([...free].sort());
    expect(expected[6]!.score).toBeLessThanOrEqual(10);
    const first = await call('POST', BROADCASTS, { key: me.key, body: { shifter_id: me.shifterId, sort_by_relevance: true, limit: 5 } });
    expect(first.body.data.map((d: { id: string; relevance_score: number }) => ({ id: d.id, score: d.relevance_score }))).toEqual(
      expected.slice(0, 5),
    );
    expect(await rankedByApi(me.key, me.shifterId!, 40)).toEqual(expected);
  });

  it('a candidate left out of the window by a tie at its edge still makes the page when it scores higher', async () => {
    // 450 broadcasts on one weekday, each bound to 78 but under a counter-rule floor (75), then one on
    // another weekday with the same bound and no floor (78), starting after them all: one band of
    // bound 78, more than twice the window, so the band is cut by start and the window keeps the
    // earliest 204; only the check against the cut finds the one that belongs on top, and the list
    // ranks every candidate.
    const { me, biz } = await nycCrew({ timezone: 'America/New_York' });
    for (let k = 0; k < 5; k++) {
      const startsAt = Date.now() - (k + 2) * DAY;
      await insertShift({
        businessId: biz.businessId!,
        shifterId: me.shifterId,
        startsAt,
        rateMinor: 2000,
        set: { shift_start_at: startsAt, shift_end_at: startsAt + 4 * HOUR },
      });
    }
    const days = Array.from({ length: 28 }, (_, i) => dateAhead(i + 1));
    const weekday = (d: string) => new Date(`${d}T12:00:00Z`).getUTCDay() || 7;
    const floorDays = days.filter((d) => weekday(d) === weekday(days[0]!)).slice(0, 3);
    const lastFloorDay = floorDays.at(-1)!;
    const otherDay = days.find((d) => d > lastFloorDay && weekday(d) !== weekday(days[0]!))!;
    await rule(me.shifterId!, { min_hourly_rate_minor: 1800, weekdays: String(weekday(days[0]!)) });
    await band450(biz.businessId!, floorDays, { in: 360, out: 600, step: 1 }, 1560);
    const star = await insertShift({
      businessId: biz.businessId!,
      broadcast: true,
      status: 1,
      date: otherDay,
      in: '09:00',
      out: '13:00',
      rateMinor: 1560,
    });
    const expected = await referenceRanking(me.shifterId!);
    expect(expected[0]).toEqual({ id: star.id, score: 78 });
    expect(expected[1]!.score).toBe(75);
    const first = await firstRankedPage(me, 5);
    expect(first.page).toEqual(expected.slice(0, 5));
    // Ranked twice: within the cut window, then over every candidate.
    expect(first.rankings).toBe(2);
  });

  it('a band of equal bounds far past the window is cut by start, and the page it gives is exact', async () => {
    // 450 broadcasts of one business and role at one rate, all bounding (and scoring) the same: the
    // page is the earliest-starting ones, ranked once, within the cut. The shifter is a newcomer, whose
    // score counts how soon a shift starts (up to 7 days ahead): the broadcasts start after that, so
    // they still bound the same (they started 2 days out when a newcomer's scores did not move with the start).
    const { me, biz } = await nycCrew();
    const days = Array.from({ length: 5 }, (_, i) => dateAhead(i + 9));
    await band450(biz.businessId!, days, { in: 300, out: 540, step: 2 }, 2000);
    const expected = await referenceRanking(me.shifterId!);
    expect(new Set(expected.map((e) => e.score)).size).toBe(1);
    const first = await firstRankedPage(me, 20);
    expect(first.page).toEqual(expected.slice(0, 20));
    // One ranking: the cut settled the page.
    expect(first.rankings).toBe(1);
    expect(await rankedByApi(me.key, me.shifterId!, 50)).toEqual(expected);
  });

  it('ranks a crew of 120 businesses (more than D1 binds parameters) by distance', async () => {
    // A newcomer: the broadcasts start past the week a newcomer's start points cover, so the score
    // does not move with the clock between the reference and the request (they started 3 days out).
    const me = await makeUser({ shifter: { latitude: NYC.lat, longitude: NYC.lon } });
    // Each business a little farther north; every broadcast otherwise the same.
    const crew = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const biz = await makeUser({ business: { latitude: NYC.lat + 0.02 * (i + 1), longitude: NYC.lon } });
        await connect(biz.businessId!, me.shifterId!);
        return biz;
      }),
    );
    const now = Date.now();
    const expectedOrder = (
      await insertShifts(
        crew.map((biz, i) => ({
          businessId: biz.businessId!,
          broadcast: true,
          status: 1,
          date: dateAhead(10),
          in: '10:00',
          out: '14:00',
          set: { created_at: now - i * 1000 },
        })),
      )
    ).map((row) => row.id);
    const ranked = await rankedByApi(me.key, me.shifterId!, 200);
    expect(ranked.map((x) => x.id)).toEqual(expectedOrder);
    expect(ranked).toEqual(await referenceRanking(me.shifterId!));
    // Beyond 50 km the distance signal is 0: the last ones score the same (ties by newer post).
    expect(ranked.at(-1)!.score).toBe(ranked.at(-2)!.score);
  });
});
