// inside: services/shifter-records, services/shifts
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, counterRules } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { MAX_RULES_PER_SHIFTER } from '../../src/services/shifter-records/counter-rules';
import { counterFloor, suggestCounter } from '../../src/services/shifts';
import { inStartBand, type RuleLike } from '../../src/services/shifts/counter-suggest';
import { call, expectError } from '../helpers/api';
import { connect, db, makeUser } from '../helpers/factory';
import { loseNextBatchAnswer } from '../helpers/failures';
import { daysFromToday, insertShift } from '../helpers/rows';
import { expectDenied, itRejectsBadCredentials } from '../helpers/security';

const NY = 'America/New_York';
const MONDAY = '2026-11-02';
const SATURDAY = '2026-11-07';

const rule = (over: Partial<RuleLike> & { id: string; min_hourly_rate_minor: number }): RuleLike => ({
  shiftrole_id: null,
  weekdays: null,
  start_from: null,
  start_to: null,
  currency: 'USD',
  distance_threshold_km: null,
  distance_premium_minor: null,
  is_active: true,
  ...over,
});

describe('suggestCounter (hand-computed)', () => {
  const rules: RuleLike[] = [
    rule({ id: 'cr_a_night', shiftrole_id: 1, start_from: '22:00', start_to: '06:00', min_hourly_rate_minor: 2500 }),
    rule({
      id: 'cr_b_weekday',
      weekdays: '1,2,3,4,5',
      distance_threshold_km: 10,
      distance_premium_minor: 300,
      min_hourly_rate_minor: 2000,
    }),
    rule({ id: 'cr_c_euro', shiftrole_id: 1, currency: 'EUR', min_hourly_rate_minor: 5000 }),
    rule({ id: 'cr_d_off', is_active: false, min_hourly_rate_minor: 9999 }),
  ];
  const shift = (over: Partial<Parameters<typeof suggestCounter>[1]> = {}) => ({
    shiftrole_id: 1,
    currency: 'USD',
    hourly_rate_minor: 2000,
    shift_date: SATURDAY,
    shift_in: '23:30',
    ...over,
  });
  const near = { distanceKm: 3 };

  it('a start band that wraps midnight holds 22:00 up to, not including, 06:00', () => {
    expect(inStartBand('22:00', '22:00', '06:00')).toBe(true);
    expect(inStartBand('05:59', '22:00', '06:00')).toBe(true);
    expect(inStartBand('06:00', '22:00', '06:00')).toBe(false);
    expect(inStartBand('21:59', '22:00', '06:00')).toBe(false);
    expect(inStartBand('12:00', '09:00', '17:00')).toBe(true);
    expect(inStartBand('17:00', '09:00', '17:00')).toBe(false);
    // Saturday night shift, role 1: only the night rule matches (the weekday rule is Mon–Fri, the inactive one is off).
    expect(suggestCounter(rules, shift(), near)).toEqual({ rate_minor: 2500, rule_id: 'cr_a_night' });
    expect(suggestCounter(rules, shift({ shift_in: '05:59' }), near)).toEqual({ rate_minor: 2500, rule_id: 'cr_a_night' });
    expect(suggestCounter(rules, shift({ shift_in: '06:00' }), near)).toBeNull();
    expect(suggestCounter(rules, shift({ shift_in: '21:59' }), near)).toBeNull();
    // The night rule is for role 1 only.
    expect(suggestCounter(rules, shift({ shiftrole_id: 2 }), near)).toBeNull();
  });

  it('a weekday mismatch leaves the rule out', () => {
    expect(suggestCounter(rules, shift({ shift_date: SATURDAY, shift_in: '09:00', hourly_rate_minor: 1800 }), near)).toBeNull();
    expect(suggestCounter(rules, shift({ shift_date: MONDAY, shift_in: '09:00', hourly_rate_minor: 1800 }), near)).toEqual({
      rate_minor: 2000,
      rule_id: 'cr_b_weekday',
    });
    // Without the shift's date a weekday rule cannot match.
    expect(suggestCounter(rules, shift({ shift_date: undefined, shift_in: '09:00', hourly_rate_minor: 1800 }), near)).toBeNull();
  });

  it("only rules in the shift's currency count", () => {
    // A EUR shift at 40.00: the USD rules do not apply, the EUR rule asks 50.00.
    expect(suggestCounter(rules, shift({ currency: 'EUR', shift_date: MONDAY, hourly_rate_minor: 4000 }), near)).toEqual({
      rate_minor: 5000,
      rule_id: 'cr_c_euro',
    });
    expect(suggestCounter(rules, shift({ currency: 'CAD', shift_date: MONDAY, hourly_rate_minor: 100 }), near)).toBeNull();
  });

  it('adds the premium beyond the threshold, and suggests only above the offered rate', () => {
    const monday = shift({ shiftrole_id: 2, shift_date: MONDAY, shift_in: '09:00', hourly_rate_minor: 2100 });
    // 20.00 + 3.00 premium at 12 km = 23.00 > 21.00
    expect(suggestCounter(rules, monday, { distanceKm: 12 })).toEqual({ rate_minor: 2300, rule_id: 'cr_b_weekday' });
    // Within the threshold (or exactly at it, or unknown distance) there is no premium: 20.00 < 21.00.
    for (const distanceKm of [8, 10, null]) expect(suggestCounter(rules, monday, { distanceKm })).toBeNull();
    expect(counterFloor(rules, monday, { distanceKm: 8 })).toEqual({ rate_minor: 2000, rule_id: 'cr_b_weekday' });
    // An offer equal to the floor needs no counter.
    expect(suggestCounter(rules, { ...monday, hourly_rate_minor: 2300 }, { distanceKm: 12 })).toBeNull();
  });

  it('takes the highest floor among matching rules, premiums included', () => {
    // Monday 23:00, role 1, 12 km: night 25.00 vs weekday 20.00 + 3.00 → night.
    const late = shift({ shift_date: MONDAY, shift_in: '23:00', hourly_rate_minor: 1000 });
    expect(suggestCounter(rules, late, { distanceKm: 12 })).toEqual({ rate_minor: 2500, rule_id: 'cr_a_night' });
    // With a 6.00 premium the weekday rule binds: 26.00.
    const bigPremium = rules.map((r) => (r.id === 'cr_b_weekday' ? { ...r, distance_premium_minor: 600 } : r));
    expect(suggestCounter(bigPremium, late, { distanceKm: 12 })).toEqual({ rate_minor: 2600, rule_id: 'cr_b_weekday' });
    expect(suggestCounter(bigPremium, late, { distanceKm: 5 })).toEqual({ rate_minor: 2500, rule_id: 'cr_a_night' });
    expect(suggestCounter([], late, { distanceKm: 5 })).toBeNull();
  });
});

const base = (shifterId: string) => `/v1/shifter/${shifterId}/counter_rules`;

describe('counter rules CRUD', () => {
  it('creates, reads, changes and deletes a rule; a missing rule is RULE-NOT-FND-ERR', async () => {
    const s = await makeUser({ shifter: { currency: 'USD' } });
    const path = base(s.shifterId!);
    const created = await call('POST', path, {
      key: s.key,
      body: {
        label: 'Late nights',
        shiftrole_id: 1,
        weekdays: '5,1,3,3',
        start_from: '22:00',
        start_to: '06:00',
        min_hourly_rate: 24.5,
        distance_threshold_km: 15,
        distance_premium: 2.25,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      label: 'Late nights',
      shiftrole_id: 1,
      weekdays: [1, 3, 5],
      start_from: '22:00',
      start_to: '06:00',
      min_hourly_rate: 24.5,
      currency: 'USD',
      distance_threshold_km: 15,
      distance_premium: 2.25,
      is_active: true,
      is_auto_apply: false,
    });
    const id = created.body.id as string;
    expect(id).toMatch(/^cr_/);
    const second = await call('POST', path, {
      key: s.key,
      body: { label: 'Any weekend', weekdays: [6, 7], min_hourly_rate: 20, is_active: false, is_auto_apply: true },
    });
    expect(second.body).toMatchObject({
      shiftrole_id: null,
      weekdays: [6, 7],
      start_from: null,
      distance_premium: null,
      is_active: false,
      is_auto_apply: true,
    });

    const list = await call('GET', path, { key: s.key });
    expect(list.body.data.map((r: any) => r.id)).toEqual([id, second.body.id]); // active first
    expect((await call('GET', `${path}/${id}`, { key: s.key })).body).toEqual(created.body);

    // Partial update: only what is sent changes; null clears; a new currency re-expresses kept amounts.
    const upd = await call('PATCH', `${path}/${id}`, {
      key: s.key,
      body: { weekdays: null, start_from: null, start_to: null, currency: 'CAD', label: 'Nights, any day' },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body).toMatchObject({
      label: 'Nights, any day',
      weekdays: null,
      start_from: null,
      start_to: null,
      currency: 'CAD',
      min_hourly_rate: 24.5,
      distance_premium: 2.25,
      shiftrole_id: 1,
    });
    // JPY has no minor unit: a fractional yen is refused, never truncated; whole yen are kept exactly.
    const fractional = await call('PATCH', `${path}/${id}`, {
      key: s.key,
      body: { currency: 'JPY', min_hourly_rate: 3000, distance_premium: 250.4 },
    });
    expectError(fractional, 400, 'VALIDATION-ERR');
    const jpy = await call('PATCH', `${path}/${id}`, {
      key: s.key,
      body: { currency: 'JPY', min_hourly_rate: 3000, distance_premium: 250 },
    });
    expect(jpy.body).toMatchObject({ currency: 'JPY', min_hourly_rate: 3000, distance_premium: 250 });

    expect((await call('DELETE', `${path}/${id}`, { key: s.key })).body).toEqual({ id, deleted: true });
    for (const [method, body] of [['GET'], ['PATCH', { label: 'x' }], ['DELETE']] as const) {
      expectError(await call(method, `${path}/${id}`, { key: s.key, body }), 404, 'RULE-NOT-FND-ERR');
    }
    expectError(await call('GET', `${path}/cr_nothing`, { key: s.key }), 404, 'RULE-NOT-FND-ERR');
  });

  it('refuses invalid rules (400)', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    for (const body of [
      { label: 'x', min_hourly_rate: 20, start_from: '22:00' },
      { label: 'x', min_hourly_rate: 20, start_to: '06:00' },
      { label: 'x', min_hourly_rate: 20, start_from: '09:00', start_to: '09:00' },
      { label: 'x', min_hourly_rate: 20, start_from: '25:00', start_to: '06:00' },
      { label: 'x', min_hourly_rate: 20, distance_premium: 2 },
      { label: 'x', min_hourly_rate: 20, distance_threshold_km: 10 },
      { label: 'x', min_hourly_rate: 20, distance_threshold_km: -1, distance_premium: 2 },
      { label: 'x', min_hourly_rate: -20 },
      { label: 'x', min_hourly_rate: 0 },
      { label: '', min_hourly_rate: 20 },
      { min_hourly_rate: 20 },
      { label: 'x', min_hourly_rate: 20, shiftrole_id: 999 },
      { label: 'x', min_hourly_rate: 20, currency: 'XYZ' },
      { label: 'x', min_hourly_rate: 20, weekdays: '8' },
      { label: 'x', min_hourly_rate: 20, weekdays: [] },
      { label: 'x', min_hourly_rate: 20, surprise: true },
    ]) {
      expectError(await call('POST', path, { key: s.key, body }), 400, 'VALIDATION-ERR');
    }
    const ok = await call('POST', path, { key: s.key, body: { label: 'ok', min_hourly_rate: 20, start_from: '09:00', start_to: '17:00' } });
    expect(ok.status).toBe(201);
    for (const body of [{}, { start_to: null }, { distance_premium: 3 }, { min_hourly_rate: -1 }]) {
      expectError(await call('PATCH', `${path}/${ok.body.id}`, { key: s.key, body }), 400, 'VALIDATION-ERR');
    }
    expect((await call('GET', `${path}/${ok.body.id}`, { key: s.key })).body).toMatchObject({
      start_from: '09:00',
      start_to: '17:00',
      distance_premium: null,
    });
  });

  it('is for the owner and admins: another shifter or a business gets 404', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const r = (await call('POST', path, { key: s.key, body: { label: 'floor', min_hourly_rate: 20 } })).body;
    const other = await makeUser({ shifter: true });
    const biz = await makeUser({ business: true });
    for (const key of [other.key, biz.key]) {
      await expectDenied(await call('GET', path, { key }), [404]);
      await expectDenied(await call('POST', path, { key, body: { label: 'x', min_hourly_rate: 20 } }), [404]);
      await expectDenied(await call('GET', `${path}/${r.id}`, { key }), [404]);
      await expectDenied(await call('PATCH', `${path}/${r.id}`, { key, body: { label: 'y' } }), [404]);
      await expectDenied(await call('DELETE', `${path}/${r.id}`, { key }), [404]);
    }
    expectError(await call('GET', `${base(other.shifterId!)}/${r.id}`, { key: other.key }), 404, 'RULE-NOT-FND-ERR');
    const admin = await makeUser({ admin: true });
    expect((await call('GET', path, { key: admin.key })).body.data).toHaveLength(1);
    const made = await call('POST', path, { key: admin.key, body: { label: 'by admin', min_hourly_rate: 21 } });
    expect(made.status).toBe(201);
    expect((await call('PATCH', `${path}/${r.id}`, { key: admin.key, body: { is_active: false } })).body.is_active).toBe(false);
    expect((await call('DELETE', `${path}/${made.body.id}`, { key: admin.key })).status).toBe(200);
  });

  describe('list', () => itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/shf_x/counter_rules' }));
  describe('create', () =>
    itRejectsBadCredentials({ method: 'POST', path: '/v1/shifter/shf_x/counter_rules', body: { label: 'x', min_hourly_rate: 1 } }));
  describe('suggest', () =>
    itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/shf_x/counter_rules/suggest', query: { shift_request_id: 'sr_x' } }));
});

describe('counter rules: guarded writes', () => {
  afterEach(() => vi.restoreAllMocks());
  const rulesOf = (shifterId: string) => db().select().from(counterRules).where(eq(counterRules.shifter_id, shifterId));
  const auditsOf = (ruleId: string, action: string) =>
    db()
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.subject_type, 'counter_rule'), eq(auditLog.subject_id, ruleId), eq(auditLog.action, action)));

  it(`concurrent creates cannot pass the cap of ${MAX_RULES_PER_SHIFTER}`, async () => {
    const s = await makeUser({ shifter: true });
    const now = Date.now();
    for (let i = 0; i < MAX_RULES_PER_SHIFTER - 1; i++) {
      await db()
        .insert(counterRules)
        .values({
          id: newId('counterRule'),
          shifter_id: s.shifterId!,
          label: `seeded ${i}`,
          min_hourly_rate_minor: 2000,
          currency: 'USD',
          created_at: now,
          updated_at: now,
        });
    }
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call('POST', base(s.shifterId!), { key: s.key, body: { label: `race ${i}`, min_hourly_rate: 21 } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT-ERR');
    expect(await rulesOf(s.shifterId!)).toHaveLength(MAX_RULES_PER_SHIFTER);
  });

  it('a create whose answer is lost after the commit: the retry with the same Idempotency-Key answers with the one rule written', async () => {
    const s = await makeUser({ shifter: true });
    const body = { label: 'Nights', min_hourly_rate: 25, start_from: '22:00', start_to: '06:00' };
    const headers = { 'Idempotency-Key': `crl-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'counter_rules' });
    expectError(await call('POST', base(s.shifterId!), { key: s.key, body, headers }), 500, 'INTERNAL-ERR');
    const [stored, ...more] = await rulesOf(s.shifterId!);
    expect(more).toEqual([]);
    const retry = await call('POST', base(s.shifterId!), { key: s.key, body, headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body).toMatchObject({ id: stored!.id, label: 'Nights', min_hourly_rate: 25 });
    expect(await rulesOf(s.shifterId!)).toHaveLength(1);
    expect(await auditsOf(stored!.id, 'counter_rule.create')).toHaveLength(1);
  });

  it('concurrent changes of one rule: each answered change is kept and audited once; concurrent deletes delete once', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const r = (await call('POST', path, { key: s.key, body: { label: 'floor', min_hourly_rate: 20 } })).body;
    const changes = [{ label: 'Floor' }, { min_hourly_rate: 22 }, { weekdays: [1, 2] }, { is_active: false }];
    const results = await Promise.all(changes.map((body) => call('PATCH', `${path}/${r.id}`, { key: s.key, body })));
    const after = (await call('GET', `${path}/${r.id}`, { key: s.key })).body;
    const kept = results.filter((x) => x.status === 200);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const [i, x] of results.entries()) {
      if (x.status !== 200) {
        expectError(x, 409, 'CONFLICT-ERR');
        continue;
      }
      expect(after).toMatchObject(changes[i]!);
    }
    expect(await auditsOf(r.id, 'counter_rule.update')).toHaveLength(kept.length);

    const deletes = await Promise.all(Array.from({ length: 4 }, () => call('DELETE', `${path}/${r.id}`, { key: s.key })));
    expect(deletes.filter((x) => x.status === 200)).toHaveLength(1);
    for (const x of deletes.filter((d) => d.status !== 200)) expectError(x, 404, 'RULE-NOT-FND-ERR');
    expect(await auditsOf(r.id, 'counter_rule.delete')).toHaveLength(1);
  });
});

describe('counter suggestions on incoming requests', () => {
  it('the targeted shifter sees suggested_counter_rate on a pending targeted request; the business does not', async () => {
    // The business is in New York; the shifter about 15.3 km north of it.
    const biz = await makeUser({ business: { timezone: NY } });
    const s = await makeUser({ shifter: { latitude: 40.85, longitude: -74.006 } });
    const rules = base(s.shifterId!);
    const floor = (
      await call('POST', rules, {
        key: s.key,
        body: { label: 'Servers', shiftrole_id: 1, min_hourly_rate: 25, distance_threshold_km: 10, distance_premium: 3 },
      })
    ).body;
    await call('POST', rules, { key: s.key, body: { label: 'Bartenders', shiftrole_id: 2, min_hourly_rate: 40 } });
    const date = daysFromToday(10, NY);
    const row = { businessId: biz.businessId!, shifterId: s.shifterId, date, in: '09:00', out: '17:00', tz: NY, worked: false };
    const incoming = await insertShift({ ...row, rate: 2000, role: 1, status: 1 });
    const generous = await insertShift({ ...row, in: '18:00', out: '22:00', rate: 3000, role: 1, status: 1 });
    const accepted = await insertShift({ ...row, date: daysFromToday(11, NY), rate: 2000, role: 1, status: 2 });

    const mine = await call('POST', '/v1/shift_request/list_of_requests', { key: s.key, body: {} });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const byId = new Map(mine.body.data.map((r: any) => [r.id, r]));
    // 25.00 + 3.00 (15.3 km > 10 km) = 28.00 > 20.00
    expect(byId.get(incoming)).toMatchObject({ hourly_rate: 20, suggested_counter_rate: 28, counter_rule_id: floor.id });
    // 30.00 already meets the 28.00 floor: the fields are there, null.
    expect(byId.get(generous)).toMatchObject({ suggested_counter_rate: null, counter_rule_id: null });
    expect(byId.get(accepted)).not.toHaveProperty('suggested_counter_rate');

    const theirs = await call('POST', '/v1/shift_request/list_of_requests', { key: biz.key, body: {} });
    expect(theirs.body.data).toHaveLength(3);
    for (const r of theirs.body.data) expect(r).not.toHaveProperty('suggested_counter_rate');

    expect((await call('GET', `/v1/shift_request/${incoming}`, { key: s.key })).body).toMatchObject({
      suggested_counter_rate: 28,
      counter_rule_id: floor.id,
    });
    expect((await call('GET', `/v1/shift_request/${incoming}`, { key: biz.key })).body).not.toHaveProperty('suggested_counter_rate');

    const one = await call('GET', `${rules}/suggest`, { key: s.key, query: { shift_request_id: incoming } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({
      shift_request_id: incoming,
      hourly_rate: 20,
      currency: 'USD',
      distance_km: 15.3,
      floor_rate: 28,
      floor_rule_id: floor.id,
      suggested_counter_rate: 28,
      counter_rule_id: floor.id,
    });
    const met = await call('GET', `${rules}/suggest`, { key: s.key, query: { shift_request_id: generous } });
    expect(met.body).toMatchObject({ floor_rate: 28, suggested_counter_rate: null, counter_rule_id: null });

    // Only incoming requests can be countered; the suggestion is the shifter's own.
    expectError(await call('GET', `${rules}/suggest`, { key: s.key, query: { shift_request_id: accepted } }), 409, 'SHFT-STATE-ERR');
    const stranger = await makeUser({ shifter: true });
    const elsewhere = await insertShift({ ...row, shifterId: stranger.shifterId, rate: 2000, status: 1 });
    expectError(await call('GET', `${rules}/suggest`, { key: s.key, query: { shift_request_id: elsewhere } }), 404, 'SHFT-NOT-FND-ERR');
    expectError(await call('GET', `${rules}/suggest`, { key: s.key, query: { shift_request_id: 'sr_missing' } }), 404, 'SHFT-NOT-FND-ERR');
    expectError(
      await call('GET', `${rules}/suggest`, { key: (await makeUser({ admin: true })).key, query: { shift_request_id: incoming } }),
      403,
      'FORBIDDEN-ERR',
    );
    await expectDenied(await call('GET', `${rules}/suggest`, { key: biz.key, query: { shift_request_id: incoming } }), [404]);
    expectError(await call('GET', `${rules}/suggest`, { key: s.key }), 400, 'VALIDATION-ERR');
  });

  it('a broadcast below the counter-rule floor loses its pay points in relevance ranking', async () => {
    const biz = await makeUser({ business: { timezone: NY } });
    const s = await makeUser({ shifter: true });
    await connect(biz.businessId!, s.shifterId!);
    await insertShift({
      businessId: biz.businessId!,
      date: daysFromToday(5, NY),
      in: '09:00',
      out: '13:00',
      tz: NY,
      rate: 2000,
      role: 1,
      status: 1,
      worked: false,
      broadcast: true,
    });
    const rank = async () => {
      const res = await call('POST', '/v1/shift_request/list_of_broadcast_requests', {
        key: s.key,
        body: { shifter_id: s.shifterId, sort_by_relevance: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data[0].relevance_score as number;
    };
    // No history and no going rate in the city: no reference rate, so pay scores 12.5.
    const before = await rank();
    await call('POST', base(s.shifterId!), {
      key: s.key,
      body: { label: 'Night servers', shiftrole_id: 1, start_from: '22:00', start_to: '06:00', min_hourly_rate: 25 },
    });
    expect(await rank()).toBe(before); // the band does not hold 09:00
    await call('POST', base(s.shifterId!), { key: s.key, body: { label: 'Servers', shiftrole_id: 1, min_hourly_rate: 25 } });
    const after = await rank();
    expect(before - after).toBeGreaterThanOrEqual(12);
    expect(before - after).toBeLessThanOrEqual(13);
  });

  it('is in the OpenAPI document with its error codes, the suggestion on the shift request schema', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const codes = (op: any, status: string) =>
      op.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum ?? [];
    const list = doc.paths['/v1/shifter/{id}/counter_rules'];
    const one = doc.paths['/v1/shifter/{id}/counter_rules/{rule_id}'];
    const suggest = doc.paths['/v1/shifter/{id}/counter_rules/suggest'];
    for (const op of [list.get, list.post, one.get, one.patch, one.delete, suggest.get]) {
      expect(op).toBeDefined();
      expect(codes(op, '401')).toContain('AUTH-REQ-ERR');
      expect(codes(op, '404')).toContain('SHIFTER-NOT-FND-ERR');
    }
    for (const op of [one.get, one.patch, one.delete]) expect(codes(op, '404')).toContain('RULE-NOT-FND-ERR');
    expect(codes(suggest.get, '404')).toContain('SHFT-NOT-FND-ERR');
    expect(codes(suggest.get, '409')).toContain('SHFT-STATE-ERR');
    expect(Object.keys(doc.components.schemas.ShiftRequest.properties)).toEqual(
      expect.arrayContaining(['suggested_counter_rate', 'counter_rule_id']),
    );
  });
});
