// inside: services/payments
import { env } from 'cloudflare:workers';
import Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paymentGateway, STRIPE_DEVELOPMENT_WEBHOOK_SECRET } from '../../src/services/payments';
import { transferShifterShare } from '../../src/services/payments/payouts';
import { SimulatorGateway } from '../../src/local/payment-simulator';
import { webhookEnvelopeSchema } from '../../src/services/webhooks';
import { call, expectError } from '../helpers/api';
import { addTeammate, makeUser, type TestUser } from '../helpers/factory';
import {
  enabledPayoutAccount,
  invoiceRow,
  noticesFor,
  partnerEventsFor,
  payInvoice,
  refundRows,
  simObject,
  simObjectsOf,
  testCtx,
  workedInvoice,
} from '../helpers/refund-world';

const refund = (key: string, invoiceId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call('POST', `/v1/finance/refund/${invoiceId}`, { key, body, headers });

/**
 * A paid invoice of 4 h × $20 = $80.00 (8000 cents) charged at the simulator; with `transfer`, the
 * shifter's share went to their enabled payout account (fee `feeBps`).
 */
async function paidWorld(opts: { transfer?: boolean; feeBps?: number } = {}) {
  const w = await workedInvoice();
  const { ctx, settle } = testCtx(w.biz, { settings: { PLATFORM_FEE_BPS: opts.feeBps ?? 0 } });
  if (opts.transfer) await enabledPayoutAccount(ctx, w.sh);
  const paid = await payInvoice(ctx, w.invoice.id);
  await settle();
  if (opts.transfer) {
    const t = await transferShifterShare(ctx, w.invoice.id);
    expect(t.status === 'transferred' || t.status === 'already').toBe(true);
  }
  return { ...w, ...paid, ctx, settle };
}

/**
 * Holds the next `n` D1 batches until all `n` have arrived (or 5 s passed), then lets them run: n
 * concurrent refunds all pass their early checks on the same figures before any reservation lands,
 * so only the guarded write can keep the total within the charge.
 */
function batchBarrier(n: number) {
  const real = env.DB.batch.bind(env.DB);
  const deadline = Date.now() + 5000;
  let arrived = 0;
  let open = false;
  return vi.spyOn(env.DB, 'batch').mockImplementation(async (statements) => {
    if (!open) {
      arrived++;
      // Each waiter polls on its own timer (a promise resolved from another request would count as hung).
      while (arrived < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      open = true;
    }
    return real(statements);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('refunds: full and partial', () => {
  it('a full refund (no amount) refunds everything at the processor, reverses the whole transfer and notifies the owner and the shifter (not an active teammate)', async () => {
    const w = await paidWorld({ transfer: true });
    // Money kinds go to the owner only: an active teammate of the business hears nothing.
    const teammate = await makeUser();
    await addTeammate(w.biz.businessId!, teammate.userId);
    const before = await invoiceRow(w.invoice.id);
    expect(before.transfer_amount_minor).toBe(8000);

    const res = await refund(w.biz.key, w.invoice.id, { reason: 'Shift cancelled after the fact' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      invoice_id: w.invoice.id,
      amount: 80,
      currency: 'USD',
      status: 'succeeded',
      refunded_total: 80,
      refundable_remaining: 0,
      transfer_reversal: { amount: 80 },
    });
    expect(res.body.refund_id).toMatch(/^rfd_/);
    expect(res.body.transfer_reversal.id).toMatch(/^trr_/);

    const inv = await invoiceRow(w.invoice.id);
    expect(inv).toMatchObject({ status: 'paid', refunded_minor: 8000, transfer_reversed_minor: 8000 });
    const [row] = await refundRows(w.invoice.id);
    expect(row).toMatchObject({
      status: 'succeeded',
      amount_minor: 8000,
      reason: 'Shift cancelled after the fact',
      reversal_amount_minor: 8000,
    });
    expect(row!.processor_refund_id).toMatch(/^re_/);
    // The processor's side agrees: the charge is fully refunded, the transfer fully reversed.
    expect(await simObject(w.chargeId)).toMatchObject({ amount_refunded: 8000, refunded: true });
    expect(await simObject(inv.transfer_id!)).toMatchObject({ amount_reversed: 8000 });

    const notices = await noticesFor(w.invoice.id, 'refund_issued');
    const recipients = notices.flatMap((n) => n.user_ids as string[]);
    expect(recipients.sort()).toEqual([w.biz.userId, w.sh.userId].sort());
    expect(recipients).not.toContain(teammate.userId);
    // Partners linked to the business hear of it as invoice.refunded.
    const events = await partnerEventsFor(w.invoice.id, 'invoice.refunded');
    expect(events).toHaveLength(1);
    expect(webhookEnvelopeSchema('invoice.refunded').parse(events[0])).toMatchObject({
      business_id: w.biz.businessId,
      data: {
        invoice: { refunded_total: 80, refundable_remaining: 0 },
        refund: { id: res.body.refund_id, amount: 80, status: 'succeeded' },
      },
    });

    // Nothing is left: another refund is refused and changes nothing.
    expectError(await refund(w.biz.key, w.invoice.id), 422, 'REFUND-AMOUNT-ERR');
    expectError(await refund(w.biz.key, w.invoice.id, { amount: 0.01 }), 422, 'REFUND-AMOUNT-ERR');
    expect(await refundRows(w.invoice.id)).toHaveLength(1);
  });

  it('partial refunds add up; the transfer is reversed in proportion (half-up), and the last refund takes what is left of it', async () => {
    // A 50% fee: the transfer is 4000 of the 8000 charged, so each refund reverses refund ÷ 2.
    const w = await paidWorld({ transfer: true, feeBps: 5000 });
    expect((await invoiceRow(w.invoice.id)).transfer_amount_minor).toBe(4000);

    const a = await refund(w.biz.key, w.invoice.id, { amount: 0.01 });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    // 4000 × 1 ÷ 8000 = 0.5 → 1 (half-up).
    expect(a.body).toMatchObject({ amount: 0.01, refunded_total: 0.01, refundable_remaining: 79.99, transfer_reversal: { amount: 0.01 } });

    const b = await refund(w.biz.key, w.invoice.id, { amount: 0.03 });
    // 4000 × 3 ÷ 8000 = 1.5 → 2.
    expect(b.body).toMatchObject({ amount: 0.03, refunded_total: 0.04, refundable_remaining: 79.96, transfer_reversal: { amount: 0.02 } });

    const c = await refund(w.biz.key, w.invoice.id, { amount: 20 });
    // 4000 × 2000 ÷ 8000 = 1000.
    expect(c.body).toMatchObject({ amount: 20, refunded_total: 20.04, refundable_remaining: 59.96, transfer_reversal: { amount: 10 } });

    // The rest (5996): proportionally 2998, but the last refund reverses all that is left: 4000 − 1 − 2 − 1000 = 2997.
    const d = await refund(w.biz.key, w.invoice.id);
    expect(d.body).toMatchObject({ amount: 59.96, refunded_total: 80, refundable_remaining: 0, transfer_reversal: { amount: 29.97 } });

    const inv = await invoiceRow(w.invoice.id);
    expect(inv).toMatchObject({ refunded_minor: 8000, transfer_reversed_minor: 4000 });
    expect((await refundRows(w.invoice.id)).map((r) => r.reversal_amount_minor).sort((x, y) => x - y)).toEqual([1, 2, 1000, 2997]);
    expect(await simObject(inv.transfer_id!)).toMatchObject({ amount_reversed: 4000 });
    expect(await simObject(w.chargeId)).toMatchObject({ amount_refunded: 8000 });
  });

  it('without a transfer (the shifter has no payout account) a refund reverses nothing', async () => {
    const w = await paidWorld();
    const res = await refund(w.biz.key, w.invoice.id, { amount: 10 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'succeeded', amount: 10, transfer_reversal: null, refundable_remaining: 70 });
  });
});

describe('refunds: bounds', () => {
  it('more than what is left is refused with REFUND-AMOUNT-ERR and changes nothing; more decimals than the currency allows is a VALIDATION-ERR', async () => {
    const w = await paidWorld({ transfer: true });
    const err = expectError(await refund(w.biz.key, w.invoice.id, { amount: 80.01 }), 422, 'REFUND-AMOUNT-ERR');
    expect(err.details).toMatchObject({ refundable_remaining: 80 });
    expectError(await refund(w.biz.key, w.invoice.id, { amount: 10.001 }), 400, 'VALIDATION-ERR');
    expectError(await refund(w.biz.key, w.invoice.id, { amount: -5 }), 400, 'VALIDATION-ERR');

    expect(await invoiceRow(w.invoice.id)).toMatchObject({ refunded_minor: 0, transfer_reversed_minor: 0 });
    expect(await refundRows(w.invoice.id)).toHaveLength(0);
    expect(await simObject(w.chargeId)).toMatchObject({ amount_refunded: 0 });

    // After a partial refund, the bound is what is left.
    expect((await refund(w.biz.key, w.invoice.id, { amount: 50 })).status).toBe(201);
    const again = expectError(await refund(w.biz.key, w.invoice.id, { amount: 30.01 }), 422, 'REFUND-AMOUNT-ERR');
    expect(again.details).toMatchObject({ refundable_remaining: 30 });
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(5000);
  });

  it('an unpaid invoice is refused (INVOICE-NOT-PAID-ERR) and an unknown one is 404', async () => {
    const w = await workedInvoice();
    expectError(await refund(w.biz.key, w.invoice.id), 409, 'INVOICE-NOT-PAID-ERR');
    expectError(await refund(w.biz.key, w.invoice.id, { amount: 1 }), 409, 'INVOICE-NOT-PAID-ERR');
    expect(await refundRows(w.invoice.id)).toHaveLength(0);
    expectError(await refund(w.biz.key, 'in_doesNotExist000000000'), 404, 'INVOICE-NOT-FND-ERR');
  });

  for (const n of [2, 10]) {
    it(`${n} concurrent refunds that together exceed the charge: the succeeded ones never sum past it, the losers get REFUND-AMOUNT-ERR`, async () => {
      const w = await paidWorld({ transfer: true });
      // 2 × $50 or 10 × $15 against $80.
      const each = n === 2 ? 50 : 15;
      const barrier = batchBarrier(n);
      const answers = await Promise.all(Array.from({ length: n }, () => refund(w.biz.key, w.invoice.id, { amount: each })));
      const won = answers.filter((r) => r.status === 201);
      const lost = answers.filter((r) => r.status !== 201);
      barrier.mockRestore();
      for (const l of lost) expectError(l, 422, 'REFUND-AMOUNT-ERR');
      const expectedWins = Math.floor(8000 / (each * 100));
      expect(won).toHaveLength(expectedWins);
      const sum = won.reduce((s, r) => s + Math.round(r.body.amount * 100), 0);
      expect(sum).toBeLessThanOrEqual(8000);

      const inv = await invoiceRow(w.invoice.id);
      const rows = await refundRows(w.invoice.id);
      expect(rows.filter((r) => r.status === 'succeeded')).toHaveLength(expectedWins);
      expect(rows.filter((r) => r.status !== 'succeeded')).toHaveLength(0);
      expect(inv.refunded_minor).toBe(sum);
      expect((await simObject(w.chargeId)).amount_refunded).toBe(sum);
      // Reversals track the refunds (transfer = charge here) and never pass the transfer.
      expect(inv.transfer_reversed_minor).toBe(rows.reduce((s, r) => s + r.reversal_amount_minor, 0));
      expect(inv.transfer_reversed_minor).toBeLessThanOrEqual(inv.transfer_amount_minor!);
      expect(inv.transfer_reversed_minor).toBe(sum);
    });
  }
});

describe('refunds: processor failures', () => {
  it('a refusal by the processor marks the refund failed, gives the amount back and leaves it refundable', async () => {
    const w = await paidWorld({ transfer: true });
    // $70 refunded at the processor's own dashboard: only $10 is left there, so a $20 refund is refused.
    await paymentGateway(w.ctx).createRefund({
      paymentIntentId: w.paymentIntentId,
      amount: 7000,
      idempotencyKey: 'dashboard-1',
      metadata: {},
    });

    const res = await refund(w.biz.key, w.invoice.id, { amount: 20 });
    const err = expectError(res, 502, 'PAYMENT-GATEWAY-ERR');
    const refundId = (err.details as { refund_id: string }).refund_id;
    const [row] = await refundRows(w.invoice.id);
    expect(row).toMatchObject({ id: refundId, status: 'failed', amount_minor: 2000, processor_refund_id: null, reversal_amount_minor: 0 });
    expect(row!.failure_reason).toBeTruthy();
    expect(await invoiceRow(w.invoice.id)).toMatchObject({ refunded_minor: 0, transfer_reversed_minor: 0 });
    expect(await noticesFor(w.invoice.id, 'refund_issued')).toHaveLength(0);
    expect(await partnerEventsFor(w.invoice.id, 'invoice.refunded')).toHaveLength(0);

    // The amount is refundable again: $10 goes through.
    const ok = await refund(w.biz.key, w.invoice.id, { amount: 10 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ status: 'succeeded', refunded_total: 10, refundable_remaining: 70 });
  });

  it('an outage (the processor call throws) is a 502, the refund failed and nothing stays reserved', async () => {
    const w = await paidWorld();
    vi.spyOn(SimulatorGateway.prototype, 'createRefund').mockRejectedValueOnce(new Error('injected: connection reset'));
    expectError(await refund(w.biz.key, w.invoice.id, { amount: 30 }), 502, 'PAYMENT-GATEWAY-ERR');
    expect((await refundRows(w.invoice.id)).map((r) => r.status)).toEqual(['failed']);
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(0);
    expect(await simObject(w.chargeId)).toMatchObject({ amount_refunded: 0 });

    const full = await refund(w.biz.key, w.invoice.id);
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(full.body).toMatchObject({ amount: 80, refunded_total: 80 });
  });

  it('a failed transfer reversal gives its reservation back; the refund itself stands', async () => {
    const w = await paidWorld({ transfer: true });
    vi.spyOn(SimulatorGateway.prototype, 'reverseTransfer').mockRejectedValueOnce(new Error('injected: reversal refused'));
    const res = await refund(w.biz.key, w.invoice.id, { amount: 40 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'succeeded', transfer_reversal: null });
    expect(await invoiceRow(w.invoice.id)).toMatchObject({ refunded_minor: 4000, transfer_reversed_minor: 0 });
  });
});

describe('refunds: idempotency', () => {
  it('a retry with the same Idempotency-Key answers the same refund and refunds once', async () => {
    const w = await paidWorld();
    const headers = { 'Idempotency-Key': `refund-${crypto.randomUUID()}` };
    const first = await refund(w.biz.key, w.invoice.id, { amount: 25 }, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await refund(w.biz.key, w.invoice.id, { amount: 25 }, headers);
    expect(second.status).toBe(201);
    expect(second.body.refund_id).toBe(first.body.refund_id);
    expect(await refundRows(w.invoice.id)).toHaveLength(1);
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(2500);
    expect(await simObject(w.chargeId)).toMatchObject({ amount_refunded: 2500 });
  });
});

describe('refunds: who may refund', () => {
  it('the owner and an admin may; an active teammate and the shifter get 403, another business 404; nothing changes', async () => {
    const w = await paidWorld({ transfer: true });
    const teammate = await makeUser();
    await addTeammate(w.biz.businessId!, teammate.userId);
    const other = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });

    const denied: Array<[TestUser, number, string]> = [
      [teammate, 403, 'FORBIDDEN-ERR'],
      [w.sh, 403, 'FORBIDDEN-ERR'],
      [other, 404, 'INVOICE-NOT-FND-ERR'],
    ];
    for (const [who, status, code] of denied) {
      expectError(await refund(who.key, w.invoice.id, { amount: 1 }), status, code);
      expectError(await refund(who.key, w.invoice.id), status, code);
    }
    expect(await refundRows(w.invoice.id)).toHaveLength(0);
    expect(await invoiceRow(w.invoice.id)).toMatchObject({ refunded_minor: 0, transfer_reversed_minor: 0 });
    expect(await simObjectsOf('refund', w.paymentIntentId)).toHaveLength(0);

    const byOwner = await refund(w.biz.key, w.invoice.id, { amount: 10 });
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(201);
    const byAdmin = await refund(admin.key, w.invoice.id, { amount: 5 });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(201);
    expect(byAdmin.body).toMatchObject({ refunded_total: 15 });
    const rows = await refundRows(w.invoice.id);
    expect(rows.map((r) => r.requested_by).sort()).toEqual([w.biz.userId, admin.userId].sort());
  });
});

/** A signed Stripe event about a refund, delivered to the webhook. */
async function refundEvent(type: string, refund: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { object: 'refund', ...refund } },
  });
  const header = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: STRIPE_DEVELOPMENT_WEBHOOK_SECRET,
    timestamp: Math.floor(Date.now() / 1000),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return call('POST', '/v1/finance/stripe/webhook', {
    body: payload,
    headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' },
  });
}

describe("refunds: the processor's later word (webhook)", () => {
  it('a refund the processor fails later is marked failed and its amount is refundable again; a stranger refund id changes nothing', async () => {
    const w = await paidWorld();
    const made = await refund(w.biz.key, w.invoice.id, { amount: 30 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [row] = await refundRows(w.invoice.id);

    const stranger = await refundEvent('charge.refund.updated', {
      id: 're_notOurs',
      status: 'failed',
      metadata: { refund_id: 'rfd_notOurs' },
    });
    expect(stranger.body).toMatchObject({ outcome: 'mismatch' });
    const otherProcessorId = await refundEvent('refund.failed', { id: 're_other', status: 'failed', metadata: { refund_id: row!.id } });
    expect(otherProcessorId.body).toMatchObject({ outcome: 'mismatch' });
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(3000);

    const failed = await refundEvent('charge.refund.updated', {
      id: row!.processor_refund_id,
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
      metadata: { refund_id: row!.id, invoice_id: w.invoice.id },
    });
    expect(failed.body).toMatchObject({ outcome: 'applied' });
    expect((await refundRows(w.invoice.id))[0]).toMatchObject({ status: 'failed', failure_reason: 'processor: expired_or_canceled_card' });
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(0);
    // The same news again changes nothing.
    const again = await refundEvent('refund.updated', { id: row!.processor_refund_id, status: 'failed', metadata: { refund_id: row!.id } });
    expect(again.body).toMatchObject({ outcome: 'unchanged' });
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(0);
  });

  it('a refund the processor answers pending keeps its reservation until refund.updated says it succeeded', async () => {
    const w = await paidWorld();
    const real = SimulatorGateway.prototype.createRefund;
    vi.spyOn(SimulatorGateway.prototype, 'createRefund').mockImplementationOnce(async function (this: SimulatorGateway, input) {
      return { ...(await real.call(this, input)), status: 'pending' as const };
    });
    const made = await refund(w.biz.key, w.invoice.id, { amount: 80 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'pending', refundable_remaining: 0 });
    expectError(await refund(w.biz.key, w.invoice.id, { amount: 1 }), 422, 'REFUND-AMOUNT-ERR');

    const [row] = await refundRows(w.invoice.id);
    const ok = await refundEvent('refund.updated', { id: row!.processor_refund_id, status: 'succeeded', metadata: { refund_id: row!.id } });
    expect(ok.body).toMatchObject({ outcome: 'applied' });
    expect((await refundRows(w.invoice.id))[0]).toMatchObject({ status: 'succeeded' });
    expect((await invoiceRow(w.invoice.id)).refunded_minor).toBe(8000);
  });
});
