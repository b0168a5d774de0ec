// inside: services/shifts
import { describe, expect, it } from 'vitest';
import { haversineMeters } from '../../src/lib/geo';
import { relevanceScore, type Candidate, type ShifterSignals } from '../../src/services/shifts/relevance';
import { type ApiResult, call, expectError } from '../helpers/api';
import { addTeammate, connect, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';
import { dateAhead, DAY, expectDeniedWith, HOUR, insertShift, makeCrewMember, makePair, NY, NYC, postShift } from '../helpers/shifts';

const BROADCASTS = '/v1/shift_request/list_of_broadcast_requests';
const CONFLICTS = '/v1/shift_request/conflicts';

const ids = (res: ApiResult) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Array<{ id: string }>).map((r) => r.id);
};

describe('POST /v1/shift_request/list_of_broadcast_requests', () => {
  itRejectsBadCredentials({ method: 'POST', path: BROADCASTS, body: {} });

  const list = (key: string, body: Record<string, unknown> = {}) => call('POST', BROADCASTS, { key, body });

  it('shows only open, future broadcasts of connected businesses, newest first', async () => {
    const { biz: a, sh } = await makePair();
    const other = await makeCrewMember(a.businessId!);
    const c = await makeUser({ business: true });
    const start = Date.now() + 3 * DAY;
    const base = Date.now() - HOUR;
    const open = (i: number) =>
      insertShift({
        businessId: a.businessId!,
        broadcast: true,
        status: 1,
        startsAt: start + i * HOUR,
        set: { created_at: base + i * 1000 },
      });
    const b1 = await open(1);
    const b2 = await open(2);
    const b3 = await open(3);
    // Not visible: an unconnected business's broadcast, a targeted request, a started one, a claimed one.
    const c1 = await insertShift({ businessId: c.businessId!, broadcast: true, status: 1, startsAt: start });
    await insertShift({ businessId: a.businessId!, shifterId: sh.shifterId, status: 1, startsAt: start });
    await insertShift({ businessId: a.businessId!, broadcast: true, status: 1, startsAt: Date.now() - 30 * 60_000 });
    await insertShift({ businessId: a.businessId!, broadcast: true, status: 2, shifterId: other.shifterId, startsAt: start });

    const res = await list(sh.key);
    expect(ids(res)).toEqual([b3.id, b2.id, b1.id]);
    expect(res.body.data[0]).toMatchObject({ business_id: a.businessId, is_broadcast: 1, request_status: 1, shifter_id: null });
    expect(res.body.data[0]).not.toHaveProperty('relevance_score');
    // sort_by_relevance without shifter_id keeps the default order.
    expect(ids(await list(sh.key, { sort_by_relevance: true }))).toEqual([b3.id, b2.id, b1.id]);
    // A business sees its own open broadcasts.
    expect(ids(await list(c.key))).toEqual([c1.id]);
    // Someone with no connections sees nothing.
    expect(ids(await list((await makeUser({ shifter: true })).key))).toEqual([]);

    // Claimed and cancelled broadcasts disappear.
    expect((await call('POST', `/v1/shift_request/${b2.id}/claim`, { key: sh.key })).status).toBe(200);
    expect((await call('POST', `/v1/shift_request/${b3.id}/cancel`, { key: a.key, body: {} })).status).toBe(200);
    expect(ids(await list(sh.key))).toEqual([b1.id]);
  });

  it('filters by date, role, business and minimum rate; paginates', async () => {
    const { biz: a, sh } = await makePair();
    const d1 = dateAhead(4);
    const d2 = dateAhead(5);
    const x = await postShift(a.key, { is_broadcast: 1, shift_date: d1, shiftrole_id: 1, hourly_rate: 18 });
    const y = await postShift(a.key, { is_broadcast: 1, shift_date: d2, shiftrole_id: 2, hourly_rate: 25 });
    expect(ids(await list(sh.key, { shift_date: d1 }))).toEqual([x.id]);
    expect(ids(await list(sh.key, { date_from: d2 }))).toEqual([y.id]);
    expect(ids(await list(sh.key, { date_to: d1 }))).toEqual([x.id]);
    expect(ids(await list(sh.key, { shiftrole_id: 2 }))).toEqual([y.id]);
    expect(ids(await list(sh.key, { min_rate: 20 }))).toEqual([y.id]);
    expect(ids(await list(sh.key, { business_id: a.businessId }))).toHaveLength(2);
    const first = await list(sh.key, { limit: 1 });
    expect(ids(first)).toHaveLength(1);
    const second = await list(sh.key, { limit: 1, cursor: first.body.next_cursor });
    expect([...ids(first), ...ids(second)].sort()).toEqual([x.id, y.id].sort());
    expect(second.body.next_cursor).toBeNull();
  });

  it('reads min_rate in each row’s own currency (JPY has no minor unit)', async () => {
    const { biz: usd, sh } = await makePair();
    const jpy = await makeUser({ business: { timezone: 'Asia/Tokyo', currency: 'JPY', city_id: null, state_id: null, country_id: null } });
    await connect(jpy.businessId!, sh.shifterId!);
    const cheap = await postShift(usd.key, { is_broadcast: 1, hourly_rate: 15 });
    const yen = await postShift(jpy.key, { is_broadcast: 1, shift_date: dateAhead(3, 'Asia/Tokyo'), hourly_rate: 1500 });
    expect(yen.hourly_rate).toBe(1500);
    expect(ids(await list(sh.key, { min_rate: 16 }))).toEqual([yen.id]);
    expect(ids(await list(sh.key, { min_rate: 1501 }))).toEqual([]);
    expect(ids(await list(sh.key, { min_rate: 14 })).sort()).toEqual([cheap.id, yen.id].sort());
  });

  it("refuses someone else's shifter_id (403)", async () => {
    const { sh } = await makePair();
    const other = await makeUser({ shifter: true });
    await expectDeniedWith(await list(sh.key, { shifter_id: other.shifterId, sort_by_relevance: true }), 403, 'FORBIDDEN-ERR');
    await expectDeniedWith(await list(sh.key, { shifter_id: other.shifterId }), 403, 'FORBIDDEN-ERR');
  });

  it('ranks by relevance: role history, pay, distance and familiarity first; an overlap last', async () => {
    // The shifter lives next to business A and has worked role 1 there five times at $20/h.
    const a = await makeUser({ business: true });
    const far = await makeUser({ business: { latitude: 34.0522, longitude: -118.2437, timezone: 'America/Los_Angeles' } });
    const sh = await makeUser({ shifter: { latitude: NYC.lat, longitude: NYC.lon } });
    await connect(a.businessId!, sh.shifterId!);
    await connect(far.businessId!, sh.shifterId!);
    for (let k = 5; k < 10; k++) {
      const startsAt = Date.now() - k * DAY;
      await insertShift({
        businessId: a.businessId!,
        shifterId: sh.shifterId,
        startsAt,
        set: { shift_start_at: startsAt, shift_end_at: startsAt + 4 * HOUR },
      });
    }
    const busyDate = dateAhead(5);
    await insertShift({ businessId: a.businessId!, shifterId: sh.shifterId, date: busyDate, in: '12:00', out: '18:00' });

    // (1) same role, same business, 30 % above their usual rate.
    const best = await postShift(a.key, {
      is_broadcast: 1,
      shift_date: dateAhead(6),
      shift_in: '10:00',
      shift_out: '14:00',
      shiftrole_id: 1,
      hourly_rate: 26,
    });
    // (3) as good, but it overlaps their accepted shift.
    const clash = await postShift(a.key, {
      is_broadcast: 1,
      shift_date: busyDate,
      shift_in: '16:00',
      shift_out: '20:00',
      shiftrole_id: 1,
      hourly_rate: 26,
    });
    // (2) a role they never worked, 3,900 km away, 15 % below their usual rate.
    const poor = await postShift(far.key, {
      is_broadcast: 1,
      shift_date: dateAhead(7),
      shift_in: '10:00',
      shift_out: '14:00',
      shiftrole_id: 2,
      hourly_rate: 17,
    });

    const res = await list(sh.key, { shifter_id: sh.shifterId, sort_by_relevance: true });
    expect(ids(res)).toEqual([best.id, poor.id, clash.id]);
    for (const row of res.body.data) {
      expect(Number.isInteger(row.relevance_score)).toBe(true);
      expect(row.relevance_score).toBeGreaterThanOrEqual(0);
      expect(row.relevance_score).toBeLessThanOrEqual(100);
    }
    // role 25 + pay 25 + distance 20 + familiarity 20 + no conflict 10
    expect(res.body.data[0].relevance_score).toBe(100);
    // role 0 + pay 12.5 − 6.25 + distance 0 + familiarity 0 + no conflict 10 = 16.25
    expect(res.body.data[1].relevance_score).toBe(16);
    // an overlap caps the score at 10
    expect(res.body.data[2].relevance_score).toBeLessThanOrEqual(10);

    // The ranked list pages by offset in the same order.
    const p1 = await list(sh.key, { shifter_id: sh.shifterId, sort_by_relevance: true, limit: 2 });
    const p2 = await list(sh.key, { shifter_id: sh.shifterId, sort_by_relevance: true, limit: 2, cursor: p1.body.next_cursor });
    expect([...ids(p1), ...ids(p2)]).toEqual([best.id, poor.id, clash.id]);
    expect(p2.body.next_cursor).toBeNull();
  });
});

describe('relevanceScore', () => {
  const signals = (over: Partial<ShifterSignals> = {}): ShifterSignals => ({
    lat: null,
    lon: null,
    roleCounts: new Map(),
    businessHistory: new Map(),
    referenceRate: () => null,
    rateFloor: () => null,
    busy: [],
    // Far before the candidates' start (1,000 h), so a newcomer's start points are 0 unless a test says.
    now: 0,
    ...over,
  });
  const candidate = (over: Partial<Candidate> = {}): Candidate => ({
    business_id: 'biz_a',
    shiftrole_id: 1,
    hourly_rate_minor: 2000,
    currency: 'USD',
    starts_at: 1_000 * HOUR,
    ends_at: 1_004 * HOUR,
    business_lat: null,
    business_lon: null,
    ...over,
  });

  it('a newcomer with no history or position: neutral pay and distance, no conflict, and how soon it starts', () => {
    // 0 + 12.5 + 10 + 0 + start 0 (41 days ahead) + 10
    expect(relevanceScore(candidate(), signals())).toBe(33);
    // The start counts for a newcomer (fewer than 3 worked shifts): within 24 h 15 points, 4 days
    // ahead 15·(1 − (96 − 24)/144) = 7.5 (32.5 + 7.5 = 40), and nothing from 7 days.
    const c = candidate();
    expect(relevanceScore(c, signals({ now: c.starts_at - 12 * HOUR }))).toBe(48);
    expect(relevanceScore(c, signals({ now: c.starts_at - 96 * HOUR }))).toBe(40);
    expect(relevanceScore(c, signals({ now: c.starts_at - 168 * HOUR }))).toBe(33);
    // Not for a shifter with history: 3 worked shifts (at another business) and the start is only a tie-break.
    const worked = signals({ now: c.starts_at - 12 * HOUR, businessHistory: new Map([['biz_b', { worked: 3, bad: 0 }]]) });
    expect(relevanceScore(c, worked)).toBe(33);
  });

  it('combines role count, rate ratio, familiarity and distance as documented', () => {
    const s = signals({
      roleCounts: new Map([[1, 3]]),
      referenceRate: () => 2000,
      businessHistory: new Map([['biz_a', { worked: 2, bad: 1 }]]),
    });
    // role 12 + 2·13/4 = 18.5; pay 12.5 + (0.1/0.3)·12.5 = 16.667; distance unknown 10;
    // familiarity 8 + 3·2 − 5·1 = 9; no conflict 10 → 64.17
    expect(relevanceScore(candidate({ hourly_rate_minor: 2200 }), s)).toBe(64);

    // A quarter degree of latitude away (27.8 km): distance 20·(1 − (27.8 − 2)/48).
    const km = haversineMeters(40, -74, 40.25, -74) / 1000;
    expect(km).toBeCloseTo(27.799, 2);
    const placed = signals({ ...s, lat: 40, lon: -74 });
    const expected = 18.5 + 12.5 + 20 * (1 - (km - 2) / 48) + 9 + 10;
    expect(relevanceScore(candidate({ business_lat: 40.25, business_lon: -74 }), placed)).toBe(Math.round(expected));
    expect(Math.round(expected)).toBe(59);
  });

  it('a rate below the counter-rule floor scores no pay; far and badly paid bottoms out', () => {
    const s = signals({ rateFloor: () => 2500, referenceRate: () => 1000 });
    // 0 + 0 + 10 + 0 + 10
    expect(relevanceScore(candidate(), s)).toBe(20);
    const low = signals({ referenceRate: () => 4000, lat: NYC.lat, lon: NYC.lon });
    expect(relevanceScore(candidate({ business_lat: 34.0522, business_lon: -118.2437 }), low)).toBe(10);
  });

  it('the profile: a listed role counts as one worked shift, the travel distance cuts distance, the minimum rate is a floor', () => {
    const c = candidate();
    // A listed role: 12 points (as one worked shift), never fewer than the history gives.
    expect(relevanceScore(c, signals({ listedRoles: new Set([1]) }))).toBe(45);
    expect(relevanceScore(c, signals({ listedRoles: new Set([2]) }))).toBe(33);
    expect(relevanceScore(c, signals({ listedRoles: new Set([1]), roleCounts: new Map([[1, 5]]) }))).toBe(58);
    // 27.8 km away: 9.25 distance points; within 30 km of travel at least 10; beyond 20 km none.
    const far = candidate({ business_lat: 40.25, business_lon: -74 });
    const placed = { lat: 40, lon: -74 };
    expect(relevanceScore(far, signals(placed))).toBe(32);
    expect(relevanceScore(far, signals({ ...placed, travelKm: 30 }))).toBe(33);
    expect(relevanceScore(far, signals({ ...placed, travelKm: 20 }))).toBe(23);
    // Near: travel changes nothing (20 points either way).
    expect(relevanceScore(candidate({ business_lat: 40, business_lon: -74 }), signals({ ...placed, travelKm: 5 }))).toBe(43);
    // The minimum rate in the shift's currency: under it no pay points; at it, or in another currency, as before.
    expect(relevanceScore(c, signals({ minRate: { minor: 2100, currency: 'USD' } }))).toBe(20);
    expect(relevanceScore(c, signals({ minRate: { minor: 2000, currency: 'USD' } }))).toBe(33);
    expect(relevanceScore(c, signals({ minRate: { minor: 2100, currency: 'EUR' } }))).toBe(33);
    // With a counter rule the higher floor counts.
    expect(relevanceScore(c, signals({ rateFloor: () => 1500, minRate: { minor: 2100, currency: 'USD' } }))).toBe(20);
    expect(relevanceScore(c, signals({ rateFloor: () => 2100, minRate: { minor: 1500, currency: 'USD' } }))).toBe(20);
  });

  it('caps the score at 10 when the shift overlaps an accepted one (half-open)', () => {
    const s = signals({
      roleCounts: new Map([[1, 9]]),
      referenceRate: () => 1000,
      businessHistory: new Map([['biz_a', { worked: 10, bad: 0 }]]),
      lat: 40,
      lon: -74,
    });
    const c = candidate({ business_lat: 40, business_lon: -74 });
    expect(relevanceScore(c, s)).toBe(100);
    expect(relevanceScore(c, { ...s, busy: [{ startsAt: c.ends_at - HOUR, endsAt: c.ends_at + HOUR }] })).toBe(10);
    expect(relevanceScore(c, { ...s, busy: [{ startsAt: c.ends_at, endsAt: c.ends_at + HOUR }] })).toBe(100);
    expect(relevanceScore(c, { ...s, busy: [{ startsAt: c.starts_at - HOUR, endsAt: c.starts_at }] })).toBe(100);
  });
});

describe('GET /v1/shift_request/conflicts', () => {
  itRejectsBadCredentials({
    method: 'GET',
    path: CONFLICTS,
    query: { shifter_id: 'shf_x', date: '2027-01-20', shift_in: '09:00', shift_out: '17:00' },
  });

  const conflicts = (key: string, query: Record<string, string | undefined>) => call('GET', CONFLICTS, { key, query });

  it('applies the half-open rule on real instants', async () => {
    const { biz, sh } = await makePair();
    const q = { shifter_id: sh.shifterId!, business_id: biz.businessId!, date: '2027-01-20' };
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '10:00', out: '14:00' });
    // Ends exactly when the window starts; a later one starts exactly when it ends: no conflict.
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '18:00', out: '20:00' });
    expect(ids(await conflicts(sh.key, { ...q, shift_in: '14:00', shift_out: '18:00' }))).toEqual([]);
    expect(ids(await conflicts(sh.key, { ...q, shift_in: '13:59', shift_out: '18:00' }))).toEqual([held.id]);

    const late = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '11:00', out: '14:01' });
    const res = await conflicts(sh.key, { ...q, shift_in: '14:00', shift_out: '18:00' });
    expect(ids(res)).toEqual([late.id]);
    expect(res.body.window).toEqual({ starts_at: '2027-01-20T19:00:00.000Z', ends_at: '2027-01-20T23:00:00.000Z', timezone: NY });
    expect(res.body.data[0]).toMatchObject({ request_status: 2, shifter_id: sh.shifterId, shift_out: '14:01' });

    // Only accepted shifts count: pending, cancelled and no-show rows in the window do not.
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '15:00', out: '16:00', status: 1 });
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '15:00', out: '16:00', status: 7 });
    await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date: '2027-01-20',
      in: '15:00',
      out: '16:00',
      set: { is_noshow: true },
    });
    expect(ids(await conflicts(sh.key, { ...q, shift_in: '14:00', shift_out: '18:00' }))).toEqual([late.id]);
  });

  it('an overnight shift from the day before conflicts with a morning window; exclude_shift_request_id drops one', async () => {
    const { biz, sh } = await makePair();
    const q = { shifter_id: sh.shifterId!, business_id: biz.businessId!, date: '2027-01-25' };
    const night = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date: '2027-01-24',
      in: '22:00',
      out: '06:00',
    });
    const morning = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date: '2027-01-25',
      in: '08:00',
      out: '12:00',
    });
    expect(ids(await conflicts(sh.key, { ...q, shift_in: '05:00', shift_out: '09:00' }))).toEqual([night.id, morning.id]);
    expect(ids(await conflicts(sh.key, { ...q, shift_in: '06:00', shift_out: '08:00' }))).toEqual([]);
    expect(ids(await conflicts(sh.key, { ...q, shift_in: '05:00', shift_out: '09:00', exclude_shift_request_id: night.id }))).toEqual([
      morning.id,
    ]);
    // A window that itself runs overnight reaches into the next morning.
    expect(ids(await conflicts(sh.key, { ...q, date: '2027-01-24', shift_in: '23:00', shift_out: '09:00' }))).toEqual([
      night.id,
      morning.id,
    ]);
  });

  it("reads the window in the business's zone when business_id is given, else in the shifter's", async () => {
    const { biz, sh } = await makePair();
    // 10:00–14:00 in New York in January is 15:00–19:00 UTC; the shifter's zone is UTC.
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '10:00', out: '14:00' });
    const q = { shifter_id: sh.shifterId!, date: '2027-01-20', shift_in: '15:00', shift_out: '16:00' };
    const utc = await conflicts(sh.key, q);
    expect(ids(utc)).toEqual([held.id]);
    expect(utc.body.window).toEqual({ starts_at: '2027-01-20T15:00:00.000Z', ends_at: '2027-01-20T16:00:00.000Z', timezone: 'UTC' });
    const ny = await conflicts(sh.key, { ...q, business_id: biz.businessId! });
    expect(ids(ny)).toEqual([]);
    expect(ny.body.window.timezone).toBe(NY);
    // Only the zone of a business they are connected to.
    const stranger = await makeUser({ business: true });
    await expectDeniedWith(await conflicts(sh.key, { ...q, business_id: stranger.businessId! }), 404, 'BUSINESS-NOT-FND-ERR');
  });

  it('is readable by the shifter and connected businesses only', async () => {
    const { biz, sh } = await makePair();
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: '2027-01-20', in: '10:00', out: '14:00' });
    const q = { shifter_id: sh.shifterId!, date: '2027-01-20', shift_in: '09:00', shift_out: '17:00' };
    expect(ids(await conflicts(biz.key, q))).toEqual([held.id]);
    expect(ids(await conflicts(biz.key, { ...q, business_id: biz.businessId! }))).toEqual([held.id]);
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId, 1);
    expect(ids(await conflicts(mate.key, { ...q, business_id: biz.businessId! }))).toEqual([held.id]);

    const unconnected = await makeUser({ business: true });
    await expectDeniedWith(await conflicts(unconnected.key, q), 404, 'SHIFTER-NOT-FND-ERR');
    await expectDeniedWith(await conflicts(unconnected.key, { ...q, business_id: unconnected.businessId! }), 404, 'SHIFTER-NOT-FND-ERR');
    await expectDeniedWith(await conflicts(unconnected.key, { ...q, business_id: biz.businessId! }), 404, 'BUSINESS-NOT-FND-ERR');
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    await expectDeniedWith(await conflicts(suspended.key, q), 404, 'SHIFTER-NOT-FND-ERR');
    const otherShifter = await makeUser({ shifter: true });
    await expectDeniedWith(await conflicts(otherShifter.key, q), 404, 'SHIFTER-NOT-FND-ERR');
    await expectDeniedWith(await conflicts(sh.key, { ...q, shifter_id: 'shf_doesnotexist' }), 404, 'SHIFTER-NOT-FND-ERR');
    expectError(await conflicts(sh.key, { ...q, date: '2027-02-30' }), 400, 'VALIDATION-ERR');
    expectError(await conflicts(sh.key, { ...q, shift_in: '24:00' }), 400, 'VALIDATION-ERR');
  });
});
