import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices, paymentEvents, paymentSimEvents, paymentSimObjects } from '../../src/db/schema';
import { AppError } from '../../src/lib/errors';
import type { ServiceContext } from '../../src/services/kernel';
import { paymentGateway } from '../../src/services/payments';
import {
  deliverSimulatorEvents,
  SIMULATOR_TEST_CARDS,
  SimulatorGateway,
  simulatorAuthenticate,
  simulatorCompleteOnboarding,
  simulatorConfirmSetupIntent,
  sweepSimulatorEvents,
} from '../../src/local/payment-simulator';
import { CRON } from '../../src/jobs/scheduled';
import { call, expectError, workerWith } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { workedInvoice } from '../helpers/invoices';
import { addTeammate, db, makeUser, type TestUser } from '../helpers/factory';
import { runCron } from '../helpers/queues';

type Delivery = 'immediate' | 'held';

/**
 * A context acting as `user` with the simulator's delivery mode chosen, whose background work
 * (ctx.waitUntil: the immediate delivery) is collected so a test can wait for it.
 */
function simCtx(user: Pick<TestUser, 'userId' | 'keyId'>, delivery: Delivery = 'held', settings: Partial<ServiceContext['settings']> = {}) {
  const base = contextAt(Date.now(), user);
  const background: Promise<unknown>[] = [];
  const ctx: ServiceContext = {
    ...base,
    now: () => Date.now(),
    settings: { ...base.settings, PAYMENT_SIMULATOR_DELIVERY: delivery, ...settings },
    waitUntil: (p) => {
      background.push(p);
    },
  };
  return {
    ctx,
    gw: new SimulatorGateway(ctx),
    /** Waits for every background delivery started so far (and any they start). */
    async settle() {
      while (background.length) await background.shift();
    },
  };
}

/** A customer for the business with a card saved from `card` (a SetupIntent confirmed as Stripe.js would). */
async function savedCard(ctx: ServiceContext, businessId: string, card: { card_number: string } | { test_token: string }) {
  const gw = new SimulatorGateway(ctx);
  const customer = await gw.createCustomer({ businessId, email: null, name: 'Biz', idempotencyKey: `cus-${crypto.randomUUID()}` });
  const si = await gw.createSetupIntent({
    customerId: customer.id,
    idempotencyKey: `si-${crypto.randomUUID()}`,
    metadata: { business_id: businessId },
  });
  const confirmed = await simulatorConfirmSetupIntent(ctx, si.id, card);
  return { customerId: customer.id, setupIntent: si, confirmed, paymentMethodId: confirmed.payment_method_id };
}

const chargeInput = (
  customerId: string,
  paymentMethodId: string,
  inv: { id: string; amount_minor: number; currency: string; business_id: string },
) => ({
  customerId,
  paymentMethodId,
  amount: inv.amount_minor,
  currency: inv.currency.toLowerCase(),
  idempotencyKey: `charge-${crypto.randomUUID()}`,
  metadata: { invoice_id: inv.id, business_id: inv.business_id },
  transferGroup: inv.id,
});

const simEvents = async (objectId: string) => {
  const rows = await db().select().from(paymentSimEvents).orderBy(paymentSimEvents.created_at);
  return rows.filter((r) => (JSON.parse(r.payload) as { data: { object: { id: string } } }).data.object.id === objectId);
};
const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
/** The intent on the invoice, as the service's charge records it: the webhook settles only an intent so recorded. */
const recordOnInvoice = async (invoiceId: string, paymentIntentId: string) =>
  db().update(invoices).set({ payment_intent_id: paymentIntentId }).where(eq(invoices.id, invoiceId));

async function gatewayError(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('PAYMENT-GATEWAY-ERR');
  expect((err as AppError).status).toBe(502);
  return err as AppError;
}

describe('payment simulator: test cards', () => {
  it("each of Stripe's test cards (and tokens) saves, then its charge succeeds, declines with its code, or demands authentication", async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw } = simCtx(biz);
    const expected: Record<string, { status: string; code: string | null; charge: boolean; event: string }> = {
      '4242424242424242': { status: 'succeeded', code: null, charge: true, event: 'payment_intent.succeeded' },
      '4000000000000002': {
        status: 'requires_payment_method',
        code: 'card_declined',
        charge: false,
        event: 'payment_intent.payment_failed',
      },
      '4000000000009995': {
        status: 'requires_payment_method',
        code: 'insufficient_funds',
        charge: false,
        event: 'payment_intent.payment_failed',
      },
      '4000002760003184': {
        status: 'requires_action',
        code: 'authentication_required',
        charge: false,
        event: 'payment_intent.requires_action',
      },
    };
    expect(Object.keys(SIMULATOR_TEST_CARDS).sort()).toEqual(Object.keys(expected).sort());
    const tokens: Record<string, string> = {
      pm_card_visa: '4242424242424242',
      pm_card_chargeDeclined: '4000000000000002',
      pm_card_authenticationRequired: '4000002760003184',
    };
    const cases = [
      ...Object.keys(expected).map((n) => ({ input: { card_number: n.replace(/(\d{4})(?=\d)/g, '$1 ') }, number: n })),
      ...Object.entries(tokens).map(([t, n]) => ({ input: { test_token: t }, number: n })),
    ];
    for (const c of cases) {
      const card = await savedCard(ctx, biz.businessId!, c.input);
      expect(card.confirmed, JSON.stringify(c)).toMatchObject({ status: 'succeeded', last_setup_error_code: null });
      expect((await simEvents(card.setupIntent.id)).map((e) => e.type)).toEqual(['setup_intent.succeeded']);
      const pm = await gw.retrievePaymentMethod(card.paymentMethodId!);
      expect(pm).toMatchObject({ brand: 'visa', last4: c.number.slice(-4), customer_id: card.customerId });

      const input = chargeInput(card.customerId, card.paymentMethodId!, invoice);
      const pi = await gw.chargeOffSession(input);
      const want = expected[c.number]!;
      expect(pi, JSON.stringify(c)).toMatchObject({ status: want.status, last_error_code: want.code, amount: 8000, currency: 'usd' });
      expect(pi.id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
      expect(pi.client_secret.startsWith(`${pi.id}_secret_`)).toBe(true);
      expect(pi.latest_charge_id === null).toBe(!want.charge);
      if (want.charge) expect(pi.latest_charge_id).toMatch(/^ch_/);
      const stored = (await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, pi.id)))[0]!.data;
      if (want.status === 'requires_action') expect(stored.next_action).toEqual({ type: 'use_stripe_sdk', use_stripe_sdk: {} });
      else expect(stored.next_action).toBeNull();
      const events = await simEvents(pi.id);
      expect(events.map((e) => e.type)).toEqual([want.event]);
      const payload = JSON.parse(events[0]!.payload);
      expect(payload).toMatchObject({
        object: 'event',
        type: want.event,
        livemode: false,
        data: { object: { id: pi.id, object: 'payment_intent' } },
      });
      expect(payload.id).toMatch(/^evt_/);
      expect(payload.request).toEqual({ id: null, idempotency_key: input.idempotencyKey });
      expect(typeof payload.api_version).toBe('string');
      expect(JSON.stringify(payload)).not.toContain('_rev');
    }
  });

  it('a number that is not a test card is declined at setup (the intent can be confirmed again); a confirmed intent cannot', async () => {
    const { biz } = await workedInvoice();
    const { ctx } = simCtx(biz);
    const card = await savedCard(ctx, biz.businessId!, { card_number: '5555 5555 5555 4444' });
    expect(card.confirmed).toMatchObject({
      status: 'requires_payment_method',
      payment_method_id: null,
      last_setup_error_code: 'card_declined',
    });
    expect((await simEvents(card.setupIntent.id)).map((e) => e.type)).toEqual(['setup_intent.setup_failed']);
    const again = await simulatorConfirmSetupIntent(ctx, card.setupIntent.id, { card_number: '4242424242424242' });
    expect(again.status).toBe('succeeded');
    await expect(simulatorConfirmSetupIntent(ctx, card.setupIntent.id, { card_number: '4242424242424242' })).rejects.toMatchObject({
      code: 'CONFLICT-ERR',
    });
  });

  it('a card detached from the customer, or another customer, cannot be charged (PAYMENT-GATEWAY-ERR, nothing made)', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw } = simCtx(biz);
    const a = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const b = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const err = await gatewayError(gw.chargeOffSession(chargeInput(b.customerId, a.paymentMethodId!, invoice)));
    expect(err.details).toEqual({ processor_code: 'payment_method_not_attached' });
    await gw.detachPaymentMethod(a.paymentMethodId!, 'detach-1');
    expect((await gw.retrievePaymentMethod(a.paymentMethodId!)).customer_id).toBeNull();
    await gatewayError(gw.chargeOffSession(chargeInput(a.customerId, a.paymentMethodId!, invoice)));
    const intents = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.type, 'payment_intent'));
    expect(intents.filter((r) => (r.data as { metadata: { invoice_id: string } }).metadata.invoice_id === invoice.id)).toHaveLength(0);
  });
});

describe('payment simulator: idempotency', () => {
  it('the same key twice, and 10 concurrent charges with one key, make one object (one charge, one event)', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw } = simCtx(biz);
    const c1 = await gw.createCustomer({ businessId: biz.businessId!, email: null, name: 'A', idempotencyKey: 'cus-key' });
    const c2 = await gw.createCustomer({ businessId: biz.businessId!, email: null, name: 'A', idempotencyKey: 'cus-key' });
    expect(c2.id).toBe(c1.id);
    // The same key for another operation is another request.
    const si = await gw.createSetupIntent({ customerId: c1.id, idempotencyKey: 'cus-key', metadata: { business_id: biz.businessId! } });
    expect(si.id).toMatch(/^seti_/);

    const card = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const input = { ...chargeInput(card.customerId, card.paymentMethodId!, invoice), idempotencyKey: 'one-charge' };
    const results = await Promise.all(Array.from({ length: 10 }, () => new SimulatorGateway(ctx).chargeOffSession(input)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.latest_charge_id)).size).toBe(1);
    const objects = await db()
      .select()
      .from(paymentSimObjects)
      .where(inArray(paymentSimObjects.type, ['payment_intent', 'charge']));
    const mine = objects.filter((o) => (o.data as { metadata: { invoice_id?: string } }).metadata.invoice_id === invoice.id);
    expect(mine.map((o) => o.type).sort()).toEqual(['charge', 'payment_intent']);
    expect(await simEvents(results[0]!.id)).toHaveLength(1);
  });
});

describe('payment simulator: 3DS and signed events to the webhook handler', () => {
  it('authentication succeeds: the charge settles, payment_intent.succeeded is signed and delivered at once, and the invoice is paid', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw, settle } = simCtx(biz, 'immediate');
    const card = await savedCard(ctx, biz.businessId!, { card_number: '4000002760003184' });
    const pi = await gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
    expect(pi.status).toBe('requires_action');
    await recordOnInvoice(invoice.id, pi.id);
    await settle();
    expect((await invoiceRow(invoice.id)).status).toBe('pending');

    // The wrong client secret is refused and changes nothing.
    await expect(simulatorAuthenticate(ctx, pi.id, `${pi.id}_secret_forged`, 'succeed')).rejects.toMatchObject({ code: 'FORBIDDEN-ERR' });
    const done = await simulatorAuthenticate(ctx, pi.id, pi.client_secret, 'succeed');
    expect(done).toMatchObject({ status: 'succeeded', last_error_code: null });
    expect(done.latest_charge_id).toMatch(/^ch_/);
    await settle();

    const inv = await invoiceRow(invoice.id);
    expect(inv.status).toBe('paid');
    const succeeded = (await simEvents(pi.id)).filter((e) => e.type === 'payment_intent.succeeded');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]!.delivered_at).not.toBeNull();
    expect(succeeded[0]!.attempts).toBe(1);
    // The handler verified the signature and recorded the event under the simulator's event id.
    const logged = (await db().select().from(paymentEvents).where(eq(paymentEvents.id, succeeded[0]!.id)))[0]!;
    expect(logged).toMatchObject({ type: 'payment_intent.succeeded', invoice_id: invoice.id, outcome: 'applied' });
    // Authenticating again is refused: it no longer requires action.
    await expect(simulatorAuthenticate(ctx, pi.id, pi.client_secret, 'succeed')).rejects.toMatchObject({ code: 'CONFLICT-ERR' });
  });

  it('authentication fails: the intent goes back to requires_payment_method, payment_intent.payment_failed is delivered, the invoice stays pending', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw, settle } = simCtx(biz, 'immediate');
    const card = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_authenticationRequired' });
    const pi = await gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
    await recordOnInvoice(invoice.id, pi.id);
    const failed = await simulatorAuthenticate(ctx, pi.id, pi.client_secret, 'fail');
    expect(failed).toMatchObject({
      status: 'requires_payment_method',
      last_error_code: 'payment_intent_authentication_failure',
      latest_charge_id: null,
    });
    await settle();
    const events = await simEvents(pi.id);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.requires_action', 'payment_intent.payment_failed']);
    expect(events.every((e) => e.delivered_at !== null)).toBe(true);
    const logged = (await db().select().from(paymentEvents).where(eq(paymentEvents.id, events[1]!.id)))[0]!;
    expect(logged.invoice_id).toBe(invoice.id);
    const inv = await invoiceRow(invoice.id);
    expect(inv.status).toBe('pending');
    expect(inv.paid_at).toBeNull();
  });

  it('held events: delivered before the customer returns, or after; either way the invoice ends paid once', async () => {
    for (const order of ['event-first', 'redirect-first'] as const) {
      const { biz, invoice } = await workedInvoice();
      const { ctx, gw } = simCtx(biz, 'held');
      const card = await savedCard(ctx, biz.businessId!, { card_number: '4000002760003184' });
      const pi = await gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
      await recordOnInvoice(invoice.id, pi.id);
      await simulatorAuthenticate(ctx, pi.id, pi.client_secret, 'succeed');
      // Held: nothing reached the handler yet.
      expect((await simEvents(pi.id)).every((e) => e.delivered_at === null)).toBe(true);
      expect((await invoiceRow(invoice.id)).status).toBe('pending');
      if (order === 'event-first') {
        await deliverSimulatorEvents(ctx);
        expect((await invoiceRow(invoice.id)).status).toBe('paid');
      }
      // The return page reads the intent: succeeded, whether or not the event has arrived.
      expect((await gw.retrievePaymentIntent(pi.id)).status).toBe('succeeded');
      if (order === 'redirect-first') {
        expect((await invoiceRow(invoice.id)).status).toBe('pending');
        await deliverSimulatorEvents(ctx);
      }
      const paid = await invoiceRow(invoice.id);
      expect(paid.status, order).toBe('paid');
      const paidAt = paid.paid_at;
      // Delivering again finds nothing left; the invoice is unchanged.
      expect(await deliverSimulatorEvents(ctx)).toEqual({ delivered: 0, failed: 0 });
      expect((await invoiceRow(invoice.id)).paid_at).toBe(paidAt);
    }
  });

  it('concurrent delivery runs deliver each event once', async () => {
    const { biz } = await workedInvoice();
    const { ctx } = simCtx(biz, 'held');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { invoice } = await workedInvoice();
      const card = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
      const pi = await new SimulatorGateway(ctx).chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
      ids.push(pi.id);
    }
    const pending = await db().select().from(paymentSimEvents);
    const undelivered = pending.filter((e) => e.delivered_at === null);
    expect(undelivered.length).toBeGreaterThanOrEqual(12); // 6 setup_intent.succeeded + 6 payment_intent.succeeded
    const reports = await Promise.all(Array.from({ length: 5 }, () => deliverSimulatorEvents(ctx)));
    expect(reports.reduce((n, r) => n + r.delivered, 0)).toBe(undelivered.length);
    expect(reports.reduce((n, r) => n + r.failed, 0)).toBe(0);
    const after = await db()
      .select()
      .from(paymentSimEvents)
      .where(
        inArray(
          paymentSimEvents.id,
          undelivered.map((e) => e.id),
        ),
      );
    expect(after.every((e) => e.delivered_at !== null && e.attempts === 1)).toBe(true);
    const handled = await db()
      .select()
      .from(paymentEvents)
      .where(
        inArray(
          paymentEvents.id,
          undelivered.map((e) => e.id),
        ),
      );
    expect(handled).toHaveLength(undelivered.length);
  });

  it('a failed delivery (no signing secret) is released and counted; the next run delivers it; the cron sweep is idle with Stripe keys', async () => {
    const { biz, invoice } = await workedInvoice();
    const broken = simCtx(biz, 'held', { LOCAL_DEFAULT_SECRETS: false, STRIPE_WEBHOOK_SECRET: undefined });
    const card = await savedCard(broken.ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const pi = await broken.gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
    await recordOnInvoice(invoice.id, pi.id);
    const first = await deliverSimulatorEvents(broken.ctx);
    expect(first.delivered).toBe(0);
    expect(first.failed).toBeGreaterThanOrEqual(2);
    const [ev] = (await simEvents(pi.id)).filter((e) => e.type === 'payment_intent.succeeded');
    expect(ev).toMatchObject({ delivered_at: null, attempts: 1, claimed_until: null });
    expect((await invoiceRow(invoice.id)).status).toBe('pending');

    const { ctx } = simCtx(biz, 'held');
    expect(await sweepSimulatorEvents({ ...ctx, settings: { ...ctx.settings, STRIPE_SECRET_KEY: 'sk_test_x' } })).toBe(
      'skipped: Stripe keys set',
    );
    const swept = await sweepSimulatorEvents(ctx);
    expect(swept).toMatchObject({ failed: 0 });
    const [again] = (await simEvents(pi.id)).filter((e) => e.type === 'payment_intent.succeeded');
    expect(again).toMatchObject({ attempts: 2 });
    expect(again!.delivered_at).not.toBeNull();
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
  });
  it('the 5-minute cron delivers held events (deliver_payment_simulator_events)', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw } = simCtx(biz, 'held');
    const card = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const pi = await gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
    await recordOnInvoice(invoice.id, pi.id);
    expect((await invoiceRow(invoice.id)).status).toBe('pending');
    // Other jobs of the same cron may fail in this test world; this job's work is what is checked.
    await runCron(CRON.frequent).catch(() => undefined);
    const [ev] = (await simEvents(pi.id)).filter((e) => e.type === 'payment_intent.succeeded');
    expect(ev!.delivered_at).not.toBeNull();
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
  });
});

describe('payment simulator: refunds, transfers and reversals are bounded', () => {
  it('refunds never exceed the charge, also 10 at once; then charge_already_refunded', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx, gw } = simCtx(biz);
    const card = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const pi = await gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
    const r1 = await gw.createRefund({ paymentIntentId: pi.id, amount: 5000, idempotencyKey: 'r1', metadata: {} });
    expect(r1).toMatchObject({ status: 'succeeded', amount: 5000, currency: 'usd' });
    expect(r1.id).toMatch(/^re_/);
    expect((await gw.createRefund({ paymentIntentId: pi.id, amount: 5000, idempotencyKey: 'r1', metadata: {} })).id).toBe(r1.id);
    expect(
      (await gatewayError(gw.createRefund({ paymentIntentId: pi.id, amount: 3001, idempotencyKey: 'r2', metadata: {} }))).details,
    ).toEqual({
      processor_code: 'amount_too_large',
    });

    const tries = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        new SimulatorGateway(ctx).createRefund({ paymentIntentId: pi.id, amount: 1000, idempotencyKey: `c${i}`, metadata: {} }),
      ),
    );
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(3);
    for (const t of tries) if (t.status === 'rejected') expect((t.reason as AppError).code).toBe('PAYMENT-GATEWAY-ERR');
    const charge = (await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, pi.latest_charge_id!)))[0]!.data;
    expect(charge).toMatchObject({ amount: 8000, amount_refunded: 8000, refunded: true });
    const refundEvents = (await simEvents(pi.latest_charge_id!)).filter((e) => e.type === 'charge.refunded');
    expect(refundEvents).toHaveLength(4);
    expect(
      (await gatewayError(gw.createRefund({ paymentIntentId: pi.id, amount: 1, idempotencyKey: 'r3', metadata: {} }))).details,
    ).toEqual({
      processor_code: 'charge_already_refunded',
    });
    // An intent that did not succeed has nothing to refund.
    const declined = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_chargeDeclined' });
    const dpi = await gw.chargeOffSession(chargeInput(declined.customerId, declined.paymentMethodId!, invoice));
    await gatewayError(gw.createRefund({ paymentIntentId: dpi.id, amount: 1, idempotencyKey: 'r4', metadata: {} }));
  });

  it('transfers need an onboarded account and stay within the source charge; reversals within the transfer, also concurrently', async () => {
    const { biz, sh, invoice } = await workedInvoice();
    const { ctx, gw } = simCtx(biz);
    const card = await savedCard(ctx, biz.businessId!, { test_token: 'pm_card_visa' });
    const pi = await gw.chargeOffSession(chargeInput(card.customerId, card.paymentMethodId!, invoice));
    const acct = await gw.createConnectedAccount({ shifterId: sh.shifterId!, email: null, country: null, idempotencyKey: 'acct-1' });
    expect(acct).toMatchObject({ details_submitted: false, payouts_enabled: false });
    expect(acct.id).toMatch(/^acct_/);
    const link = await gw.createAccountLink({
      accountId: acct.id,
      refreshUrl: 'https://app.example/r',
      returnUrl: 'https://app.example/done',
    });
    expect(link.url).toBe(`https://app.example/finance/web/simulator/onboarding/${acct.id}?return_to=%2Fdone`);

    const transfer = (key: string, amount: number) =>
      gw.createTransfer({
        amount,
        currency: 'usd',
        destination: acct.id,
        transferGroup: invoice.id,
        sourceTransaction: pi.latest_charge_id,
        idempotencyKey: key,
        metadata: {},
      });
    expect((await gatewayError(transfer('t0', 100))).details).toEqual({ processor_code: 'account_invalid' });
    expect(await simulatorCompleteOnboarding(ctx, acct.id)).toMatchObject({ details_submitted: true, payouts_enabled: true });
    await simulatorCompleteOnboarding(ctx, acct.id);
    expect((await simEvents(acct.id)).map((e) => e.type)).toEqual(['account.updated']);

    await gatewayError(transfer('t1', 8001));
    const t = await transfer('t2', 6000);
    expect(t).toMatchObject({ amount: 6000, currency: 'usd', destination: acct.id });
    expect(t.id).toMatch(/^tr_/);
    await gatewayError(transfer('t3', 2001));

    const reversals = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        new SimulatorGateway(ctx).reverseTransfer({ transferId: t.id, amount: 1000, idempotencyKey: `rv${i}`, metadata: {} }),
      ),
    );
    const made = reversals.filter((r) => r.status === 'fulfilled');
    expect(made).toHaveLength(6);
    expect((made[0] as PromiseFulfilledResult<{ id: string; transfer_id: string }>).value.id).toMatch(/^trr_/);
    const stored = (await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, t.id)))[0]!.data;
    expect(stored).toMatchObject({ amount_reversed: 6000, reversed: true });
  });
});

describe('payment simulator: routes and the factory', () => {
  it('paymentGateway is the simulator without STRIPE_SECRET_KEY and Stripe with it', async () => {
    const user = await makeUser();
    const base = contextAt(Date.now(), user);
    expect(paymentGateway(base).kind).toBe('simulator');
    expect(paymentGateway(base).publishableKey).toBe('pk_simulator');
    const stripe = paymentGateway({
      ...base,
      settings: { ...base.settings, STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PUBLISHABLE_KEY: 'pk_test_123' },
    });
    expect(stripe.kind).toBe('stripe');
    expect(stripe.publishableKey).toBe('pk_test_123');
  });

  it('POST /v1/finance/simulator/setup_intents/{id}/confirm: the owner saves a card; a teammate 403, a stranger 404; bad input 400; 404 with Stripe keys', async () => {
    const { biz, sh } = await workedInvoice();
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const stranger = await makeUser({ business: true });
    const { gw } = simCtx(biz);
    const customer = await gw.createCustomer({ businessId: biz.businessId!, email: null, name: 'B', idempotencyKey: crypto.randomUUID() });
    const si = await gw.createSetupIntent({
      customerId: customer.id,
      idempotencyKey: crypto.randomUUID(),
      metadata: { business_id: biz.businessId! },
    });
    const path = `/v1/finance/simulator/setup_intents/${si.id}/confirm`;
    const body = { card_number: '4242 4242 4242 4242' };

    expectError(await call('POST', path, { body }), 401, 'AUTH-REQ-ERR');
    expectError(await call('POST', path, { key: mate.key, body }), 403, 'FORBIDDEN-ERR');
    expectError(await call('POST', path, { key: stranger.key, body }), 404, 'NOT-FOUND-ERR');
    expectError(await call('POST', path, { key: sh.key, body }), 404, 'NOT-FOUND-ERR');
    expectError(
      await call('POST', '/v1/finance/simulator/setup_intents/seti_nothing/confirm', { key: biz.key, body }),
      404,
      'NOT-FOUND-ERR',
    );
    expectError(
      await call('POST', path, { key: biz.key, body: { card_number: '4242', test_token: 'pm_card_visa' } }),
      400,
      'VALIDATION-ERR',
    );
    expectError(await call('POST', path, { key: biz.key, body: {} }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', path, { key: biz.key, body: { test_token: 'tok_visa' } }), 400, 'VALIDATION-ERR');
    expectError(
      await call('POST', path, { key: biz.key, body, worker: workerWith({ STRIPE_SECRET_KEY: 'sk_test_123' }) }),
      404,
      'NOT-FOUND-ERR',
    );
    expect((await gw.retrieveSetupIntent(si.id)).status).toBe('requires_payment_method');

    const ok = await call('POST', path, { key: biz.key, body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ id: si.id, status: 'succeeded', customer_id: customer.id, last_setup_error_code: null });
    expect(ok.body.payment_method_id).toMatch(/^pm_/);
    expect((await gw.retrieveSetupIntent(si.id)).payment_method_id).toBe(ok.body.payment_method_id);
    expectError(await call('POST', path, { key: biz.key, body }), 409, 'CONFLICT-ERR');
  });

  it('POST /v1/finance/simulator/accounts/{id}/complete_onboarding: only the account’s shifter; account.updated once', async () => {
    const { biz, sh } = await workedInvoice();
    const { gw } = simCtx(biz);
    const acct = await gw.createConnectedAccount({
      shifterId: sh.shifterId!,
      email: null,
      country: 'US',
      idempotencyKey: crypto.randomUUID(),
    });
    const path = `/v1/finance/simulator/accounts/${acct.id}/complete_onboarding`;
    expectError(await call('POST', path, { key: biz.key }), 404, 'NOT-FOUND-ERR');
    expectError(await call('POST', path, { key: sh.key, worker: workerWith({ STRIPE_SECRET_KEY: 'sk_test_123' }) }), 404, 'NOT-FOUND-ERR');
    expect((await gw.retrieveConnectedAccount(acct.id)).payouts_enabled).toBe(false);
    const ok = await call('POST', path, { key: sh.key });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ id: acct.id, details_submitted: true, payouts_enabled: true });
    expect((await call('POST', path, { key: sh.key })).status).toBe(200);
    expect((await simEvents(acct.id)).map((e) => e.type)).toEqual(['account.updated']);
  });
});
