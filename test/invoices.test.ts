import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices, shiftRequests } from '../src/db/schema';
import { addDays } from '../src/lib/shift-time';
import { ensureInvoiceForShift } from '../src/services/invoices/create';
import { clockOut as clockOutAt } from '../src/services/shifts/clock';
import { call } from './helpers/api';
import { contextAt, nextDstChangeFromNow } from './helpers/clock';
import { db } from './helpers/factory';
import { HOUR, insertShift, MINUTE, makePair, NY } from './helpers/shifts';

const invoicesOf = (shiftId: string) => db().select().from(invoices).where(eq(invoices.shift_request_id, shiftId));

/** An accepted shift of a connected pair, clocked in `minutes` long ago and ending now. */
async function clockedIn(opts: { minutes?: number; rateMinor?: number } = {}) {
  const { biz, sh } = await makePair();
  const minutes = opts.minutes ?? 4 * 60;
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: Date.now() - minutes * MINUTE + 5 * MINUTE,
    minutes,
    rateMinor: opts.rateMinor,
    set: { shift_start_at: Date.now() - minutes * MINUTE + 5 * MINUTE },
  });
  return { biz, sh, shift };
}

describe('invoice creation', () => {
  it('a clock-out writes exactly one pending invoice of hours × rate; a retried clock-out with the same Idempotency-Key adds none', async () => {
    const { biz, sh, shift } = await clockedIn({ rateMinor: 2050 });
    const headers = { 'Idempotency-Key': `idem-${shift.id}` };
    const first = await call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {}, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {}, headers });
    expect(again.status).toBe(200);
    // A second clock-out without the key finds the shift already worked and writes nothing either.
    expect((await call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {} })).status).toBe(200);
    const rows = await invoicesOf(shift.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      business_id: biz.businessId,
      shifter_id: sh.shifterId,
      status: 'pending',
      currency: 'USD',
      amount_minor: 8200, // 4 h × 20.50
      requires_action: false,
      paid_at: null,
    });
    expect(rows[0]!.id).toMatch(/^in_[0-9A-Za-z]{20}$/);
  });

  it('concurrent clock-outs of one shift make one invoice', async () => {
    const { sh, shift } = await clockedIn();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {} })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(await invoicesOf(shift.id)).toHaveLength(1);
  });

  it('a no-show has no invoice: its clock-out is refused and ensureInvoiceForShift refuses it too', async () => {
    const { biz, sh, shift } = await clockedIn();
    await db().update(shiftRequests).set({ is_noshow: true }).where(eq(shiftRequests.id, shift.id));
    expect((await call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {} })).status).not.toBe(200);
    await expect(ensureInvoiceForShift(contextAt(Date.now(), biz), shift.id)).rejects.toMatchObject({ code: 'SHFT-STATE-ERR' });
    expect(await invoicesOf(shift.id)).toHaveLength(0);
  });

  it('an overnight shift across the autumn DST change is billed for its real 9 hours, the spring one for 7', async () => {
    for (const [direction, hours] of [
      ['fall', 9],
      ['spring', 7],
    ] as const) {
      const { sh, biz } = await makePair();
      const change = nextDstChangeFromNow(NY, direction);
      const shift = await insertShift({
        businessId: biz.businessId!,
        shifterId: sh.shifterId,
        date: addDays(change, -1),
        in: '22:00',
        out: '06:00',
        rateMinor: 1999,
      });
      expect(shift.ends_at - shift.starts_at).toBe(hours * HOUR);
      await db().update(shiftRequests).set({ shift_start_at: shift.starts_at }).where(eq(shiftRequests.id, shift.id));
      await clockOutAt(contextAt(shift.ends_at, sh), shift.id, {});
      const [inv] = await invoicesOf(shift.id);
      expect(inv!.amount_minor).toBe(hours * 1999);
    }
  });

  it('ensureInvoiceForShift invoices a shift worked before invoices existed, once, also under concurrent callers', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 10 * HOUR,
      minutes: 90,
      rateMinor: 1333,
      set: { shift_start_at: Date.now() - 10 * HOUR, shift_end_at: Date.now() - 8 * HOUR },
    });
    const ctx = contextAt(Date.now(), biz);
    const all = await Promise.all(Array.from({ length: 6 }, () => ensureInvoiceForShift(ctx, shift.id)));
    expect(new Set(all.map((i) => i.id)).size).toBe(1);
    expect(all[0]!.amount_minor).toBe(2000); // 1.5 h × 13.33 = 19.995 → 20.00 (half-up)
    expect(await invoicesOf(shift.id)).toHaveLength(1);
    // A shift not worked yet has none.
    const open = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + HOUR });
    await expect(ensureInvoiceForShift(ctx, open.id)).rejects.toMatchObject({ code: 'SHFT-STATE-ERR' });
  });
});
