// inside: services/payments
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refunds, shiftRequests } from '../../src/db/schema';
import { sweepMissingTransfers, sweepUnworkedShiftRefunds } from '../../src/services/payments';
import { transferShifterShare } from '../../src/services/payments/payouts';
import { AUTO_REFUND_MAX_FAILURES, SHIFT_NOT_WORKED_REFUND_REASON } from '../../src/services/payments/refunds';
import { SimulatorGateway } from '../../src/local/payment-simulator';
import { call } from '../helpers/api';
import { heldCtx, heldWorker, saveCard, shiftStatus } from '../helpers/charges';
import { enabledPayoutAccount, invoiceRow, noticesFor, simObjectsOf, testCtx } from '../helpers/refund-world';
import { db } from '../helpers/factory';
import { DAY, HOUR, insertShift, MINUTE, makePair } from '../helpers/shifts';
import { approveShiftTime } from '../helpers/timesheets';

/*
 * A pre-paid shift (POST /v1/shift_request/{id}/prepay on an accepted shift not worked yet): the
 * shifter's share is transferred only once the shift is worked, and a shift that ends without being
 * worked (cancelled, a no-show) is refunded in full by the system.
 */

afterEach(() => vi.restoreAllMocks());

/** An accepted shift of a new pair (4 h × $20), pre-paid by the owner on a saved card. `clockedIn`: started 4 h ago less 5 min. */
async function prepaidShift(opts: { clockedIn?: boolean; payouts?: boolean } = {}) {
  const { biz, sh } = await makePair();
  const start = opts.clockedIn ? Date.now() - 4 * HOUR + 5 * MINUTE : Date.now() + 2 * DAY;
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: start,
    minutes: 240,
    ...(opts.clockedIn ? { set: { shift_start_at: start } } : {}),
  });
  if (opts.payouts) await enabledPayoutAccount(testCtx(biz).ctx, sh);
  await saveCard(biz, biz.businessId!);
  const res = await call('POST', `/v1/shift_request/${shift.id}/prepay`, { key: biz.key, worker: heldWorker });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('succeeded');
  const invoiceId = res.body.invoice_id as string;
  expect(await invoiceRow(invoiceId)).toMatchObject({ status: 'paid', amount_minor: 8000 });
  expect(await shiftStatus(shift.id)).toBe(2);
  return { biz, sh, shift, invoiceId };
}

const refundsOf = (invoiceId: string) => db().select().from(refunds).where(eq(refunds.invoice_id, invoiceId));

describe("the shifter's share of a pre-paid shift", () => {
  it('is not transferred before the shift is worked and its time approved (payment, explicit call, sweep); after the approval (→ 5) the sweep transfers it once', async () => {
    const { biz, sh, shift, invoiceId } = await prepaidShift({ clockedIn: true, payouts: true });
    const { ctx, settle } = testCtx(sh, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
    // The payment's own attempt (afterInvoicePaid) has run: nothing went out.
    expect((await invoiceRow(invoiceId)).transfer_id).toBeNull();
    expect(await transferShifterShare(ctx, invoiceId)).toEqual({ status: 'skipped', reason: 'not_worked' });
    expect(await sweepMissingTransfers(ctx, { shifterId: sh.shifterId! })).toEqual({ transferred: 0, failed: 0, skipped: 0 });
    expect(await simObjectsOf('transfer', invoiceId)).toHaveLength(0);
    expect((await invoiceRow(invoiceId)).transfer_amount_minor).toBeNull();

    const out = await call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {}, worker: heldWorker });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    // Worked, its time not yet approved: nothing goes out.
    expect(await shiftStatus(shift.id)).toBe(2);
    expect(await transferShifterShare(ctx, invoiceId)).toEqual({ status: 'skipped', reason: 'not_worked' });
    // The approval keeps the invoice paid beforehand and completes the shift.
    expect((await approveShiftTime(biz, shift.id)).id).toBe(invoiceId);
    expect(await shiftStatus(shift.id)).toBe(5);

    const swept = await Promise.all([
      sweepMissingTransfers(ctx, { shifterId: sh.shifterId! }),
      sweepMissingTransfers(ctx, { shifterId: sh.shifterId! }),
    ]);
    await settle();
    expect(swept.reduce((n, s) => n + s.transferred, 0)).toBe(1);
    const inv = await invoiceRow(invoiceId);
    expect(inv.transfer_id).toMatch(/^tr_/);
    expect(inv.transfer_amount_minor).toBe(8000);
    expect(await simObjectsOf('transfer', invoiceId)).toHaveLength(1);
    expect(await noticesFor(invoiceId, 'payout_paid')).toHaveLength(1);
  });
});

describe('a pre-paid shift that ends without being worked', () => {
  it('cancelled by the business: refunded in full at once by the system (reason shift_cancelled), nothing transferred; a later sweep does nothing', async () => {
    const { biz, sh, shift, invoiceId } = await prepaidShift({ payouts: true });
    const res = await call('POST', `/v1/shift_request/${shift.id}/cancel`, {
      key: biz.key,
      body: { reason: 'closed' },
      worker: heldWorker,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await shiftStatus(shift.id)).toBe(7);
    const rows = await refundsOf(invoiceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_minor: 8000, status: 'succeeded', reason: SHIFT_NOT_WORKED_REFUND_REASON, requested_by: null });
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: 'paid', refunded_minor: 8000, transfer_id: null });
    expect(await simObjectsOf('refund', invoiceId)).toHaveLength(1);
    expect(await simObjectsOf('transfer', invoiceId)).toHaveLength(0);
    // Both parties hear of it once: the owner and the shifter.
    const notices = await noticesFor(invoiceId, 'refund_issued');
    expect(notices.flatMap((n) => n.user_ids).sort()).toEqual([biz.userId, sh.userId].sort());

    expect(await sweepUnworkedShiftRefunds(heldCtx(null))).toMatchObject({ refunded: 0, failed: 0 });
    expect(await refundsOf(invoiceId)).toHaveLength(1);
  });

  it('cancelled (the immediate attempt missed) and a no-show: two concurrent sweeps refund each once, in full', async () => {
    const cancelled = await prepaidShift();
    const noShow = await prepaidShift();
    // As if the cancel's own attempt never ran (an outage): the sweeps find the shifts.
    await db()
      .update(shiftRequests)
      .set({ request_status: 7, cancelled_at: Date.now(), cancelled_by: 'shifter' })
      .where(eq(shiftRequests.id, cancelled.shift.id));
    await db()
      .update(shiftRequests)
      .set({ starts_at: Date.now() - HOUR, is_noshow: true })
      .where(eq(shiftRequests.id, noShow.shift.id));

    const runs = await Promise.all([sweepUnworkedShiftRefunds(heldCtx(null)), sweepUnworkedShiftRefunds(heldCtx(null))]);
    expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
    for (const { invoiceId } of [cancelled, noShow]) {
      const rows = await refundsOf(invoiceId);
      expect(rows, invoiceId).toHaveLength(1);
      expect(rows[0]).toMatchObject({ amount_minor: 8000, status: 'succeeded', reason: SHIFT_NOT_WORKED_REFUND_REASON });
      expect((await invoiceRow(invoiceId)).refunded_minor).toBe(8000);
      expect(await simObjectsOf('refund', invoiceId)).toHaveLength(1);
    }
    // Nothing left: a further run refunds nothing.
    expect(await sweepUnworkedShiftRefunds(heldCtx(null))).toMatchObject({ refunded: 0 });
  });

  it('a partial refund made earlier: the sweep refunds only what is left', async () => {
    const { biz, shift, invoiceId } = await prepaidShift();
    const partial = await call('POST', `/v1/finance/refund/${invoiceId}`, { key: biz.key, body: { amount: 30 }, worker: heldWorker });
    expect(partial.status, JSON.stringify(partial.body)).toBe(201);
    await db()
      .update(shiftRequests)
      .set({ request_status: 7, cancelled_at: Date.now(), cancelled_by: 'business' })
      .where(eq(shiftRequests.id, shift.id));
    await sweepUnworkedShiftRefunds(heldCtx(null));
    const rows = (await refundsOf(invoiceId)).sort((a, b) => a.created_at - b.created_at);
    expect(rows.map((r) => r.amount_minor).sort()).toEqual([3000, 5000]);
    expect((await invoiceRow(invoiceId)).refunded_minor).toBe(8000);
  });

  it('a processor refusal gives the amount back and the sweep asks again, at most AUTO_REFUND_MAX_FAILURES times', async () => {
    const { shift, invoiceId } = await prepaidShift();
    await db()
      .update(shiftRequests)
      .set({ request_status: 7, cancelled_at: Date.now(), cancelled_by: 'business' })
      .where(eq(shiftRequests.id, shift.id));
    const refuse = vi.spyOn(SimulatorGateway.prototype, 'createRefund').mockRejectedValue(new Error('processor down'));
    for (let i = 0; i < AUTO_REFUND_MAX_FAILURES + 2; i++) await sweepUnworkedShiftRefunds(heldCtx(null));
    expect(refuse).toHaveBeenCalledTimes(AUTO_REFUND_MAX_FAILURES);
    expect((await refundsOf(invoiceId)).map((r) => r.status)).toEqual(Array(AUTO_REFUND_MAX_FAILURES).fill('failed'));
    expect((await invoiceRow(invoiceId)).refunded_minor).toBe(0);
  });

  it('a worked pre-paid shift (clocked out, 5) and one not yet worked (2) are never refunded automatically', async () => {
    const worked = await prepaidShift({ clockedIn: true });
    const out = await call('POST', `/v1/shift_request/${worked.shift.id}/clock_out`, { key: worked.sh.key, body: {}, worker: heldWorker });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await approveShiftTime(worked.biz, worked.shift.id);
    expect(await shiftStatus(worked.shift.id)).toBe(5);
    const waiting = await prepaidShift();
    await Promise.all([sweepUnworkedShiftRefunds(heldCtx(null)), sweepUnworkedShiftRefunds(heldCtx(null))]);
    for (const { invoiceId } of [worked, waiting]) {
      expect(await refundsOf(invoiceId)).toHaveLength(0);
      expect(await invoiceRow(invoiceId)).toMatchObject({ status: 'paid', refunded_minor: 0 });
    }
    // A cancel refused for the worked shift refunds nothing either.
    const refused = await call('POST', `/v1/shift_request/${worked.shift.id}/cancel`, {
      key: worked.biz.key,
      body: {},
      worker: heldWorker,
    });
    expect(refused.status).toBe(409);
    expect(await refundsOf(worked.invoiceId)).toHaveLength(0);
  });
});
