import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { counterRules, shiftRequests } from '../src/db/schema';
import { call } from './helpers/api';
import { db, makeUser } from './helpers/factory';
import { expectValidation, makePair, postShift, shiftBody } from './helpers/shifts';

/**
 * DECISIONS.md "Rounding": an amount with more decimals than its currency's minor unit is refused
 * (VALIDATION-ERR naming the field), never truncated or rounded, wherever a client sends money to be
 * stored. Filters (min_rate) may round. Templates, the weekly budget and the earnings goal are tested
 * beside their features (templates.test.ts, insights.test.ts).
 */
describe('money amounts a client sends', () => {
  it('send_request refuses 23.333 USD and 10.5 JPY, keeps 23.33 USD and 1,500 JPY exactly', async () => {
    const { biz, sh } = await makePair();
    const send = (body: Record<string, unknown>) =>
      call('POST', '/v1/shift_request/send_request', { key: biz.key, body: shiftBody({ shifter_id: sh.shifterId, ...body }) });
    expectValidation(await send({ hourly_rate: 23.333 }), 'hourly_rate');
    expectValidation(await send({ hourly_rate: 10.5, currency: 'JPY' }), 'hourly_rate');
    expectValidation(await send({ hourly_rate: 0.001 }), 'hourly_rate');
    // Nothing was stored for the refused ones.
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, biz.businessId!))).toHaveLength(0);

    const usd = await postShift(biz.key, { shifter_id: sh.shifterId, hourly_rate: 23.33 });
    expect(usd.hourly_rate).toBe(23.33);
    // 0.29 × 100 is 28.999… in binary: the stored rate is still exactly 29 ¢.
    const small = await postShift(biz.key, { shifter_id: sh.shifterId, hourly_rate: 0.29, shift_in: '18:00', shift_out: '19:00' });
    const [row] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, small.id));
    expect(row!.hourly_rate_minor).toBe(29);
    const jpy = await postShift(biz.key, {
      shifter_id: sh.shifterId,
      hourly_rate: 1500,
      currency: 'JPY',
      shift_in: '20:00',
      shift_out: '22:00',
    });
    expect(jpy).toMatchObject({ hourly_rate: 1500, currency: 'JPY' });
  });

  it('change_request refuses a rate finer than the currency and leaves the request pending', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId, hourly_rate: 20 });
    const change = (body: Record<string, unknown>) =>
      call('PUT', '/v1/shift_request/change_request', { key: biz.key, body: { shift_request_id: s.id, ...body } });
    expectValidation(await change({ hourly_rate: 23.333 }), 'hourly_rate');
    const [row] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, s.id));
    expect(row).toMatchObject({ request_status: 1, hourly_rate_minor: 2000 });
    const ok = await change({ hourly_rate: 23.34 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.shift_request.hourly_rate).toBe(23.34);
  });

  it('counter rules refuse a minimum or premium finer than the currency, at create and on a currency change', async () => {
    const s = await makeUser({ shifter: true });
    const path = `/v1/shifter/${s.shifterId}/counter_rules`;
    expectValidation(await call('POST', path, { key: s.key, body: { label: 'Floor', min_hourly_rate: 24.005 } }), 'min_hourly_rate');
    expectValidation(
      await call('POST', path, { key: s.key, body: { label: 'Yen', min_hourly_rate: 1500.5, currency: 'JPY' } }),
      'min_hourly_rate',
    );
    expectValidation(
      await call('POST', path, {
        key: s.key,
        body: { label: 'Far', min_hourly_rate: 24, distance_threshold_km: 10, distance_premium: 1.001 },
      }),
      'distance_premium',
    );
    const rule = await call('POST', path, { key: s.key, body: { label: 'Floor', min_hourly_rate: 24.5 } });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    // 24.50 USD cannot become yen without rounding: the change must bring its own amount.
    expectValidation(await call('PATCH', `${path}/${rule.body.id}`, { key: s.key, body: { currency: 'JPY' } }), 'min_hourly_rate');
    const [kept] = await db().select().from(counterRules).where(eq(counterRules.id, rule.body.id));
    expect(kept).toMatchObject({ currency: 'USD', min_hourly_rate_minor: 2450 });
    const yen = await call('PATCH', `${path}/${rule.body.id}`, { key: s.key, body: { currency: 'JPY', min_hourly_rate: 3000 } });
    expect(yen.status, JSON.stringify(yen.body)).toBe(200);
    expect(yen.body).toMatchObject({ currency: 'JPY', min_hourly_rate: 3000 });
  });

  it('a min_rate filter is not an amount to store: it may have any decimals', async () => {
    const s = await makeUser({ shifter: true });
    const res = await call('POST', '/v1/shift_request/list_of_broadcast_requests', { key: s.key, body: { min_rate: 20.005 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
