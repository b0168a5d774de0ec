import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, shiftRequests } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { advanceInsightRollups, crewAnalytics, goingRate, laborCosts, rebuildInsightRollups } from '../../src/services/insights';
import { systemContext } from '../../src/services/kernel';
import { call } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { db } from '../helpers/factory';
import { crewAnalyticsFromRows, goingRateFromRows, laborCostsFromRows, rollupTables } from '../helpers/insights-reference';
import { insertShift, MINUTE, makePair, readShift } from '../helpers/shifts';

/*
 * The writes that change what a figure counts, each through its own service: clock-out (worked),
 * no-show, cancellation by the shifter, a business's change of zone and of place. After each, the
 * rollups equal what a rebuild computes from the rows, and the figures equal the plain computation.
 */

const sys = () => systemContext(env as AppBindings, { waitUntil: () => undefined }, 'test:rollup-writes');

async function expectKept(businessId: string, owner: Parameters<typeof contextAt>[1]) {
  const now = Date.now();
  const [biz] = await db().select().from(businesses).where(eq(businesses.id, businessId));
  const ctx = contextAt(now, owner);
  expect(await laborCosts(ctx, businessId)).toEqual(await laborCostsFromRows(biz!, undefined, now));
  expect(await crewAnalytics(ctx, businessId)).toEqual(await crewAnalyticsFromRows(biz!, now, true));
  if (biz!.city_id) {
    expect(await goingRate(ctx, { city_id: biz!.city_id })).toEqual(await goingRateFromRows({ city_id: biz!.city_id }, now, 90, 10));
  }
  const kept = await rollupTables();
  await rebuildInsightRollups(sys());
  expect(await rollupTables()).toEqual(kept);
}

describe('every write that changes a figure keeps the rollups', () => {
  it('clock-out, no-show, the shifter cancelling, a new zone and a new place', async () => {
    const { biz, sh } = await makePair({ business: { timezone: 'America/New_York', city_id: 2, state_id: 1, country_id: 1 } });
    await advanceInsightRollups(sys());
    const owner = biz;

    // Worked: clocked in and out through the API (the clock-out is the write that makes it worked).
    const worked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - (3 * 60 + 50) * MINUTE,
    });
    expect((await call('POST', `/v1/shift_request/${worked.id}/clock_in`, { key: sh.key, body: {} })).status).toBe(200);
    await db()
      .update(shiftRequests)
      .set({ shift_start_at: Date.now() - 5 * MINUTE })
      .where(eq(shiftRequests.id, worked.id));
    const out = await call('POST', `/v1/shift_request/${worked.id}/clock_out`, { key: sh.key, body: {} });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const crew = await crewAnalytics(contextAt(Date.now(), owner), biz.businessId!);
    expect(crew.per_shifter[0]!.completed_shifts_90d).toBe(1);
    await expectKept(biz.businessId!, owner);

    // A no-show, marked by the business.
    const missed = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - 60 * MINUTE });
    expect((await call('POST', `/v1/shift_request/${missed.id}/no_show`, { key: owner.key })).status).toBe(200);
    expect((await crewAnalytics(contextAt(Date.now(), owner), biz.businessId!)).per_shifter[0]!.no_shows_90d).toBe(1);
    await expectKept(biz.businessId!, owner);

    // The shifter cancels an accepted shift that starts in an hour.
    const dropped = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 60 * MINUTE });
    const cancel = await call('POST', `/v1/shift_request/${dropped.id}/cancel`, { key: sh.key, body: { as: 'shifter' } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect((await readShift(dropped.id))!.cancelled_by).toBe('shifter');
    await expectKept(biz.businessId!, owner);

    // The owner moves the business to another zone (upcoming shifts get new instants) and city.
    const zone = await call('PUT', '/v1/business/update_settings', {
      key: owner.key,
      body: { business_id: biz.businessId, timezone: 'Asia/Kathmandu' },
    });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    await expectKept(biz.businessId!, owner);
    await db().update(businesses).set({ city_id: 1 }).where(eq(businesses.id, biz.businessId!));
    await expectKept(biz.businessId!, owner);
    expect((await goingRate(contextAt(Date.now(), owner), { city_id: 1 })).sample_size).toBeGreaterThanOrEqual(1);
  });
});
