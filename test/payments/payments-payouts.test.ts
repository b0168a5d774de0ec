// inside: services/payments
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { payoutAccounts, refunds } from '../../src/db/schema';
import { transferShifterShare } from '../../src/services/payments/payouts';
import { deliverSimulatorEvents, SimulatorGateway, simulatorCompleteOnboarding } from '../../src/local/payment-simulator';
import { STRIPE_DEVELOPMENT_WEBHOOK_SECRET, sweepMissingTransfers } from '../../src/services/payments';
import { call, expectError } from '../helpers/api';
import { db, makeUser } from '../helpers/factory';
import {
  enabledPayoutAccount,
  invoiceRow,
  noticesFor,
  payInvoice,
  simObject,
  simObjectsOf,
  testCtx,
  workedInvoice,
} from '../helpers/refund-world';
import { runCron } from '../helpers/shifts';

afterEach(() => {
  vi.restoreAllMocks();
});

const accountRow = async (shifterId: string) =>
  (await db().select().from(payoutAccounts).where(eq(payoutAccounts.shifter_id, shifterId)))[0];

describe('payout accounts', () => {
  it('not set up → POST creates the connected account once and returns fresh onboarding links → onboarding completed (account.updated) → payouts enabled', async () => {
    const sh = await makeUser({ shifter: true });
    const none = await call('GET', '/v1/shifter/payout_account', { key: sh.key });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      set_up: false,
      shifter_id: sh.shifterId,
      account_id: null,
      details_submitted: false,
      payouts_enabled: false,
    });

    const first = await call('POST', '/v1/shifter/payout_account', { key: sh.key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.account_id).toMatch(/^acct_/);
    expect(typeof first.body.url).toBe('string');
    expect(Date.parse(first.body.expires_at)).toBeGreaterThan(Date.now());
    // Again (and concurrently): the same account, a new link.
    const again = await Promise.all([1, 2, 3].map(() => call('POST', '/v1/shifter/payout_account', { key: sh.key })));
    for (const r of again) {
      expect(r.status).toBe(200);
      expect(r.body.account_id).toBe(first.body.account_id);
    }
    expect(await simObjectsOf('account', sh.shifterId!)).toHaveLength(1);

    const pending = await call('GET', '/v1/shifter/payout_account', { key: sh.key });
    expect(pending.body).toMatchObject({
      set_up: true,
      account_id: first.body.account_id,
      details_submitted: false,
      payouts_enabled: false,
    });

    // The shifter finishes onboarding at the processor: its signed account.updated event updates the row.
    const { ctx, settle } = testCtx(sh);
    await simulatorCompleteOnboarding(ctx, first.body.account_id);
    await settle();
    await deliverSimulatorEvents(ctx);
    expect(await accountRow(sh.shifterId!)).toMatchObject({ details_submitted: true, payouts_enabled: true });

    const done = await call('GET', '/v1/shifter/payout_account', { key: sh.key });
    expect(done.body).toMatchObject({ set_up: true, details_submitted: true, payouts_enabled: true });
  });

  it('account.updated for an account no shifter has changes nothing (answered mismatch); a replay of a real one changes nothing twice', async () => {
    const sh = await makeUser({ shifter: true });
    const made = await call('POST', '/v1/shifter/payout_account', { key: sh.key });
    const send = async (id: string, account: string, enabled: boolean) => {
      const payload = JSON.stringify({
        id,
        object: 'event',
        type: 'account.updated',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: { id: account, object: 'account', details_submitted: enabled, payouts_enabled: enabled } },
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
    };
    const stranger = await send(`evt_${crypto.randomUUID().replaceAll('-', '')}`, 'acct_nobodyHasThisOne0000', true);
    expect(stranger.body).toMatchObject({ outcome: 'mismatch' });
    expect(await accountRow(sh.shifterId!)).toMatchObject({ payouts_enabled: false });

    const evt = `evt_${crypto.randomUUID().replaceAll('-', '')}`;
    expect((await send(evt, made.body.account_id, true)).body).toMatchObject({ outcome: 'applied' });
    expect(await accountRow(sh.shifterId!)).toMatchObject({ details_submitted: true, payouts_enabled: true });
    expect((await send(evt, made.body.account_id, true)).body).toMatchObject({ outcome: 'duplicate' });
    // Payouts switched off again (e.g. the bank account failed verification): the row follows.
    expect((await send(`${evt}x`, made.body.account_id, false)).body).toMatchObject({ outcome: 'applied' });
    expect(await accountRow(sh.shifterId!)).toMatchObject({ payouts_enabled: false });
  });

  it('the status is refreshed from the processor on GET when an event was missed', async () => {
    const sh = await makeUser({ shifter: true });
    const made = await call('POST', '/v1/shifter/payout_account', { key: sh.key });
    // Onboarding completes, but the event is never delivered (no background delivery in this context).
    const { ctx } = testCtx(sh, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
    await simulatorCompleteOnboarding(ctx, made.body.account_id);
    expect(await accountRow(sh.shifterId!)).toMatchObject({ payouts_enabled: false });
    const got = await call('GET', '/v1/shifter/payout_account', { key: sh.key });
    expect(got.body).toMatchObject({ payouts_enabled: true, details_submitted: true });
    expect(await accountRow(sh.shifterId!)).toMatchObject({ payouts_enabled: true });
  });

  it('only the shifter sets it up and reads it; an admin may read it; anyone else naming the shifter gets 404', async () => {
    const sh = await makeUser({ shifter: true });
    await call('POST', '/v1/shifter/payout_account', { key: sh.key });
    const stranger = await makeUser({ shifter: true });
    const business = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });

    expectError(await call('POST', '/v1/shifter/payout_account', { key: business.key }), 404, 'SHIFTER-NOT-FND-ERR');
    for (const who of [stranger, business]) {
      const res = await call('GET', '/v1/shifter/payout_account', { key: who.key, query: { shifter_id: sh.shifterId! } });
      expectError(res, 404, 'SHIFTER-NOT-FND-ERR');
    }
    const asAdmin = await call('GET', '/v1/shifter/payout_account', { key: admin.key, query: { shifter_id: sh.shifterId! } });
    expect(asAdmin.status, JSON.stringify(asAdmin.body)).toBe(200);
    expect(asAdmin.body).toMatchObject({ set_up: true, shifter_id: sh.shifterId });
    // The stranger's own account is untouched by any of it.
    expect((await call('GET', '/v1/shifter/payout_account', { key: stranger.key })).body.set_up).toBe(false);
  });
});

describe('transfers of the shifter share', () => {
  it('10 concurrent callers make one transfer, one stamp and one payout_paid notice', async () => {
    const w = await workedInvoice();
    const { ctx, settle } = testCtx(w.biz, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
    await payInvoice(ctx, w.invoice.id);
    await settle();
    expect(await transferShifterShare(ctx, w.invoice.id)).toEqual({ status: 'skipped', reason: 'no_account' });
    // Payouts enabled (the event held back, so no background sweep races the callers below).
    const made = await call('POST', '/v1/shifter/payout_account', { key: w.sh.key });
    await simulatorCompleteOnboarding(ctx, made.body.account_id);
    await db()
      .update(payoutAccounts)
      .set({ payouts_enabled: true, details_submitted: true })
      .where(eq(payoutAccounts.shifter_id, w.sh.shifterId!));

    const outs = await Promise.all(Array.from({ length: 10 }, () => transferShifterShare(ctx, w.invoice.id)));
    expect(outs.filter((o) => o.status === 'transferred')).toHaveLength(1);
    expect(outs.filter((o) => o.status === 'already')).toHaveLength(9);
    const inv = await invoiceRow(w.invoice.id);
    expect(inv.transfer_id).toMatch(/^tr_/);
    expect(inv.transfer_amount_minor).toBe(8000);
    expect(new Set(outs.map((o) => ('transfer_id' in o ? o.transfer_id : null)))).toEqual(new Set([inv.transfer_id]));
    expect(await simObjectsOf('transfer', w.invoice.id)).toHaveLength(1);
    const tr = await simObject(inv.transfer_id!);
    expect(tr).toMatchObject({ amount: 8000, source_transaction: inv.charge_id, transfer_group: w.invoice.id });
    const notices = await noticesFor(w.invoice.id, 'payout_paid');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.user_ids).toEqual([w.sh.userId]);
  });

  it('the platform fee is kept (PLATFORM_FEE_BPS, rounded half-up): 3.33% of $80.00 leaves $77.34', async () => {
    const w = await workedInvoice();
    const { ctx, settle } = testCtx(w.biz, { settings: { PLATFORM_FEE_BPS: 333 } });
    await enabledPayoutAccount(ctx, w.sh);
    await payInvoice(ctx, w.invoice.id);
    await settle();
    const out = await transferShifterShare(ctx, w.invoice.id);
    // 8000 × 333 ÷ 10000 = 266.4 → 266 fee.
    expect(out).toMatchObject({ amount_minor: 7734 });
    expect((await invoiceRow(w.invoice.id)).transfer_amount_minor).toBe(7734);
  });

  it('the 5-minute sweep transfers a paid invoice whose shifter enabled payouts later', async () => {
    const w = await workedInvoice();
    const { ctx, settle } = testCtx(w.biz, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
    await payInvoice(ctx, w.invoice.id);
    await settle();
    expect((await invoiceRow(w.invoice.id)).transfer_id).toBeNull();
    // The account is enabled at the processor; the row learns it only from a read or an event.
    const made = await call('POST', '/v1/shifter/payout_account', { key: w.sh.key });
    await simulatorCompleteOnboarding(ctx, made.body.account_id);
    await db()
      .update(payoutAccounts)
      .set({ payouts_enabled: true, details_submitted: true })
      .where(eq(payoutAccounts.shifter_id, w.sh.shifterId!));
    expect((await invoiceRow(w.invoice.id)).transfer_id).toBeNull();

    await runCron('*/5 * * * *').catch(() => undefined); // other jobs' failures do not concern this one
    const inv = await invoiceRow(w.invoice.id);
    expect(inv.transfer_id).toMatch(/^tr_/);
    expect(inv.transfer_amount_minor).toBe(8000);
    // Nothing left for the sweep to do.
    expect(await sweepMissingTransfers(ctx, { shifterId: w.sh.shifterId! })).toEqual({ transferred: 0, failed: 0, skipped: 0 });
  });

  it('a refund before the transfer reduces it by the same share; the final refund then takes all of it back', async () => {
    const w = await workedInvoice();
    const { ctx, settle } = testCtx(w.biz, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
    await payInvoice(ctx, w.invoice.id);
    await settle();
    const early = await call('POST', `/v1/finance/refund/${w.invoice.id}`, { key: w.biz.key, body: { amount: 20 } });
    expect(early.status, JSON.stringify(early.body)).toBe(201);
    expect(early.body.transfer_reversal).toBeNull();

    const made = await call('POST', '/v1/shifter/payout_account', { key: w.sh.key });
    await simulatorCompleteOnboarding(ctx, made.body.account_id);
    await db()
      .update(payoutAccounts)
      .set({ payouts_enabled: true, details_submitted: true })
      .where(eq(payoutAccounts.shifter_id, w.sh.shifterId!));
    expect(await transferShifterShare(ctx, w.invoice.id)).toMatchObject({ status: 'transferred', amount_minor: 6000 });

    const rest = await call('POST', `/v1/finance/refund/${w.invoice.id}`, { key: w.biz.key, body: {} });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body).toMatchObject({ amount: 60, refundable_remaining: 0, transfer_reversal: { amount: 60 } });
    expect(await invoiceRow(w.invoice.id)).toMatchObject({
      refunded_minor: 8000,
      transfer_amount_minor: 6000,
      transfer_reversed_minor: 6000,
    });
  });

  it('refunds racing the first transfer: what the shifter keeps is always the share of what was not refunded, at the processor too', async () => {
    for (let round = 0; round < 3; round++) {
      const w = await workedInvoice();
      const { ctx, settle } = testCtx(w.biz, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
      await payInvoice(ctx, w.invoice.id);
      await settle();
      const made = await call('POST', '/v1/shifter/payout_account', { key: w.sh.key });
      await simulatorCompleteOnboarding(ctx, made.body.account_id);
      await db()
        .update(payoutAccounts)
        .set({ payouts_enabled: true, details_submitted: true })
        .where(eq(payoutAccounts.shifter_id, w.sh.shifterId!));

      const refund = () => call('POST', `/v1/finance/refund/${w.invoice.id}`, { key: w.biz.key, body: { amount: 20 } });
      const transfer = () => transferShifterShare(ctx, w.invoice.id);
      const answers = await Promise.all([transfer(), refund(), transfer(), refund(), transfer()]);
      for (const a of answers) if ('status' in a && typeof a.status === 'number') expect(a.status, JSON.stringify(a.body)).toBe(201);
      // The sweep makes the transfer if a refund in flight held it back.
      await sweepMissingTransfers(ctx, { shifterId: w.sh.shifterId! });

      const inv = await invoiceRow(w.invoice.id);
      expect(inv.refunded_minor).toBe(4000);
      expect(inv.transfer_id).toMatch(/^tr_/);
      // Fee 0: the shifter keeps exactly the 4000 not refunded.
      expect(inv.transfer_amount_minor! - inv.transfer_reversed_minor).toBe(4000);
      const tr = await simObject(inv.transfer_id!);
      expect(tr.amount - tr.amount_reversed).toBe(4000);
      // No reversal is left reserved but not made.
      const rows = await db().select().from(refunds).where(eq(refunds.invoice_id, w.invoice.id));
      for (const r of rows) if (r.reversal_amount_minor > 0) expect(r.reversal_id).toMatch(/^trr_/);
    }
  });

  /** Polls (each waiter on its own timer) until `open()` is true, at most 10 s. */
  async function until(open: () => boolean | Promise<boolean>) {
    const end = Date.now() + 10_000;
    while (!(await open())) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function enabledWithoutTransfer() {
    const w = await workedInvoice();
    const { ctx, settle } = testCtx(w.biz, { settings: { PAYMENT_SIMULATOR_DELIVERY: 'held' } });
    await payInvoice(ctx, w.invoice.id);
    await settle();
    const made = await call('POST', '/v1/shifter/payout_account', { key: w.sh.key });
    await simulatorCompleteOnboarding(ctx, made.body.account_id);
    await db()
      .update(payoutAccounts)
      .set({ payouts_enabled: true, details_submitted: true })
      .where(eq(payoutAccounts.shifter_id, w.sh.shifterId!));
    return { ...w, ctx };
  }

  async function expectShifterKeeps(invoiceId: string, kept: number) {
    const inv = await invoiceRow(invoiceId);
    expect(inv.transfer_amount_minor! - inv.transfer_reversed_minor).toBe(kept);
    const tr = await simObject(inv.transfer_id!);
    expect(tr.amount - tr.amount_reversed).toBe(kept);
  }

  it('a refund made while the first transfer is with the processor is reversed from it once it lands', async () => {
    const w = await enabledWithoutTransfer();
    const real = SimulatorGateway.prototype.createTransfer;
    let atProcessor = false;
    let refunded = false;
    vi.spyOn(SimulatorGateway.prototype, 'createTransfer').mockImplementationOnce(async function (this: SimulatorGateway, input) {
      atProcessor = true;
      await until(() => refunded);
      return real.call(this, input);
    });
    const transfer = transferShifterShare(w.ctx, w.invoice.id);
    await until(() => atProcessor);
    const r = await call('POST', `/v1/finance/refund/${w.invoice.id}`, { key: w.biz.key, body: { amount: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    refunded = true;
    expect(await transfer).toMatchObject({ status: 'transferred', amount_minor: 8000 });
    // 8000 transferred, the refund's 2000 reversed once the transfer existed.
    await expectShifterKeeps(w.invoice.id, 6000);
    const [row] = await db().select().from(refunds).where(eq(refunds.invoice_id, w.invoice.id));
    expect(row).toMatchObject({ reversal_amount_minor: 2000 });
    expect(row!.reversal_id).toMatch(/^trr_/);
  });

  it('a transfer asked while a refund is with the processor waits for it; the sweep then transfers the share of what is left', async () => {
    const w = await enabledWithoutTransfer();
    const real = SimulatorGateway.prototype.createRefund;
    let atProcessor = false;
    let transferTried = false;
    vi.spyOn(SimulatorGateway.prototype, 'createRefund').mockImplementationOnce(async function (this: SimulatorGateway, input) {
      atProcessor = true;
      await until(() => transferTried);
      return real.call(this, input);
    });
    const refund = call('POST', `/v1/finance/refund/${w.invoice.id}`, { key: w.biz.key, body: { amount: 20 } });
    await until(() => atProcessor);
    expect(await transferShifterShare(w.ctx, w.invoice.id)).toEqual({ status: 'skipped', reason: 'refund_in_progress' });
    transferTried = true;
    const r = await refund;
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.transfer_reversal).toBeNull();

    await sweepMissingTransfers(w.ctx, { shifterId: w.sh.shifterId! });
    expect((await invoiceRow(w.invoice.id)).transfer_amount_minor).toBe(6000);
    await expectShifterKeeps(w.invoice.id, 6000);
  });
});
