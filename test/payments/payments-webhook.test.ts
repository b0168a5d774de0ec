// inside: services/payments
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { invoices, paymentEvents, shiftRequests } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import worker from '../../src';
import { STRIPE_DEVELOPMENT_WEBHOOK_SECRET } from '../../src/services/payments';
import { markInvoiceFailed, markInvoicePaid } from '../../src/services/payments/settle';
import { SHIFT_STATUS } from '../../src/services/kernel';
import { call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { workedInvoice } from '../helpers/invoices';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { auditFor, HOUR, outboxFor } from '../helpers/shifts';

const PATH = '/v1/finance/stripe/webhook';
const subtleCrypto = Stripe.createSubtleCryptoProvider();

type Inv = Awaited<ReturnType<typeof workedInvoice>>['invoice'];

function intentEvent(
  type: string,
  inv: Pick<Inv, 'id' | 'amount_minor' | 'currency'>,
  over: { id?: string; pi?: string; amount?: number; currency?: string; invoiceId?: string; account?: string } = {},
) {
  return {
    id: over.id ?? `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    ...(over.account ? { account: over.account } : {}),
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: over.pi ?? `pi_${inv.id}`,
        object: 'payment_intent',
        amount: over.amount ?? inv.amount_minor,
        currency: (over.currency ?? inv.currency).toLowerCase(),
        status: type === 'payment_intent.succeeded' ? 'succeeded' : 'requires_payment_method',
        metadata: { invoice_id: over.invoiceId ?? inv.id },
      },
    },
  };
}

async function signed(payload: string, opts: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? STRIPE_DEVELOPMENT_WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider: subtleCrypto,
  });
}

async function deliver(event: unknown, opts: { secret?: string; timestamp?: number; body?: string } = {}) {
  const payload = JSON.stringify(event);
  const header = await signed(payload, opts);
  return call('POST', PATH, { body: opts.body ?? payload, headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' } });
}

const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;

/** The intent a charge of the invoice made, recorded on it as charge.ts does before acting on the answer. */
async function recordIntent(inv: Pick<Inv, 'id'>, pi = `pi_${inv.id}`) {
  await db().update(invoices).set({ payment_intent_id: pi }).where(eq(invoices.id, inv.id));
  return pi;
}
const shiftStatus = async (id: string) =>
  (await db().select({ s: shiftRequests.request_status }).from(shiftRequests).where(eq(shiftRequests.id, id)))[0]!.s;
const paidNotices = (shiftId: string) => outboxFor(shiftId, { topic: 'notifications', kind: 'invoice_paid' });
const paidEvents = async (shiftId: string) =>
  (await outboxFor(shiftId, { topic: 'webhooks' })).filter((r) => r.body.type === 'invoice.paid');

async function expectUnchanged(inv: Inv, shiftId: string, recorded: string | null = null) {
  const row = await invoiceRow(inv.id);
  expect(row).toMatchObject({ status: 'pending', paid_at: null, failed_at: null, payment_intent_id: recorded, last_op_id: null });
  expect(await shiftStatus(shiftId)).toBe(SHIFT_STATUS.accepted);
  expect(await paidNotices(shiftId)).toHaveLength(0);
  expect(await paidEvents(shiftId)).toHaveLength(0);
}

describe('Stripe webhook: signatures', () => {
  it('a valid signature is processed; forged (wrong secret), changed body, stale (> 300 s) or missing header is 400 STRIPE-SIGNATURE-ERR and changes nothing', async () => {
    const { shift, invoice } = await workedInvoice();
    const pi = await recordIntent(invoice);
    const event = intentEvent('payment_intent.succeeded', invoice);

    expectError(await deliver(event, { secret: 'whsec_not_the_endpoint_secret' }), 400, 'STRIPE-SIGNATURE-ERR');
    const tampered = JSON.stringify({ ...event, data: { object: { ...event.data.object, amount: 1 } } });
    expectError(await deliver(event, { body: tampered }), 400, 'STRIPE-SIGNATURE-ERR');
    expectError(await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }), 400, 'STRIPE-SIGNATURE-ERR');
    expectError(
      await call('POST', PATH, { body: JSON.stringify(event), headers: { 'Content-Type': 'application/json' } }),
      400,
      'STRIPE-SIGNATURE-ERR',
    );
    await expectUnchanged(invoice, shift.id, pi);
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, event.id))).toHaveLength(0);

    // Within the tolerance (290 s old) the same event is accepted.
    const ok = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ received: true, event_id: event.id, outcome: 'applied' });
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
  });
});

describe('Stripe webhook: signatures dated ahead', () => {
  it('a signature dated more than 300 s in the future is 400 STRIPE-SIGNATURE-ERR like a stale one, records nothing; 290 s ahead (clock skew) is accepted', async () => {
    const { shift, invoice } = await workedInvoice();
    const pi = await recordIntent(invoice);
    const event = intentEvent('payment_intent.succeeded', invoice);
    const now = Math.floor(Date.now() / 1000);
    for (const ahead of [301, 3600, 10 * 365 * 86_400]) {
      expectError(await deliver(event, { timestamp: now + ahead }), 400, 'STRIPE-SIGNATURE-ERR');
    }
    await expectUnchanged(invoice, shift.id, pi);
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, event.id))).toHaveLength(0);
    const ok = await deliver(event, { timestamp: now + 290 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.outcome).toBe('applied');
  });
});

describe('Stripe webhook: intents this service did not make', () => {
  const loggedOutcome = async (eventId: string) =>
    (await db().select().from(paymentEvents).where(eq(paymentEvents.id, eventId)))[0]?.outcome;

  it('a made-up intent naming a pending, never-charged invoice with its exact amount and currency is acknowledged (200 mismatch) and pays nothing', async () => {
    const { shift, invoice } = await workedInvoice();
    const event = intentEvent('payment_intent.succeeded', invoice, { pi: 'pi_madeUpByAnAttacker0001' });
    const res = await deliver(event);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ received: true, event_id: event.id, outcome: 'mismatch' });
    await expectUnchanged(invoice, shift.id);
    expect(await loggedOutcome(event.id)).toBe('mismatch');
    // A charge later made by this service records its own intent; the foreign one still pays nothing.
    await recordIntent(invoice, 'pi_madeByTheService0001');
    expect((await deliver(intentEvent('payment_intent.succeeded', invoice, { pi: 'pi_madeUpByAnAttacker0002' }))).body.outcome).toBe(
      'mismatch',
    );
    await expectUnchanged(invoice, shift.id, 'pi_madeByTheService0001');
  });

  it('an event from a connected account (account set) is acknowledged (200 ignored) and changes nothing, even naming the recorded intent', async () => {
    const { shift, invoice } = await workedInvoice();
    const made = intentEvent('payment_intent.succeeded', invoice, { pi: 'pi_onAConnectedAccount01', account: 'acct_1ConnectedShifter0' });
    const res = await deliver(made);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcome).toBe('ignored');
    await expectUnchanged(invoice, shift.id);

    const pi = await recordIntent(invoice);
    const same = intentEvent('payment_intent.succeeded', invoice, { account: 'acct_1ConnectedShifter0' });
    expect((await deliver(same)).body.outcome).toBe('ignored');
    const failed = intentEvent('payment_intent.payment_failed', invoice, { account: 'acct_1ConnectedShifter0' });
    expect((await deliver(failed)).body.outcome).toBe('ignored');
    await expectUnchanged(invoice, shift.id, pi);
    expect(await loggedOutcome(same.id)).toBe('ignored');
  });

  it('a foreign payment_intent.payment_failed stamps neither its id nor a failure time and notifies no one', async () => {
    const { shift, invoice } = await workedInvoice();
    const res = await deliver(intentEvent('payment_intent.payment_failed', invoice, { pi: 'pi_madeUpByAnAttacker0003' }));
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('mismatch');
    await expectUnchanged(invoice, shift.id);
    expect(await outboxFor(shift.id, { topic: 'notifications', kind: 'payment_failed' })).toHaveLength(0);
    expect(await auditFor(invoice.id, 'invoice.payment_failed')).toHaveLength(0);
  });
});

/** Delivers to the Worker with other Worker vars (settings are parsed per env object). */
async function deliverWithEnv(event: unknown, secret: string, vars: Record<string, string>) {
  const payload = JSON.stringify(event);
  const headers = { 'Stripe-Signature': await signed(payload, { secret }), 'Content-Type': 'application/json' };
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://example.com${PATH}`, { method: 'POST', headers, body: payload }),
    {
      ...env,
      ...vars,
    } as AppBindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

describe('Stripe webhook: the endpoint secret', () => {
  it('STRIPE_WEBHOOK_SECRET is used when set (the development secret then fails); unset without LOCAL_DEFAULT_SECRETS every event is refused', async () => {
    const { shift, invoice } = await workedInvoice();
    const pi = await recordIntent(invoice);
    const mine = 'whsec_operator_configured_secret_for_this_test';
    const withSecret = { STRIPE_WEBHOOK_SECRET: mine };
    const event = intentEvent('payment_intent.succeeded', invoice);
    const dev = await deliverWithEnv(event, STRIPE_DEVELOPMENT_WEBHOOK_SECRET, withSecret);
    expect(dev.status).toBe(400);
    expect(dev.body.error.code).toBe('STRIPE-SIGNATURE-ERR');
    const unset = await deliverWithEnv(event, STRIPE_DEVELOPMENT_WEBHOOK_SECRET, { LOCAL_DEFAULT_SECRETS: 'false' });
    expect(unset.status).toBe(500);
    await expectUnchanged(invoice, shift.id, pi);
    const ok = await deliverWithEnv(event, mine, withSecret);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.outcome).toBe('applied');
  });
});

describe('Stripe webhook: settlement', () => {
  it('payment_intent.succeeded pays the invoice, clears requires_action (3DS), moves the shift 2 → 5, notifies the owner only and emits invoice.paid', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const askedAt = Date.now() - HOUR;
    await recordIntent(invoice);
    await db().update(invoices).set({ requires_action: true, requires_action_at: askedAt }).where(eq(invoices.id, invoice.id));

    const event = intentEvent('payment_intent.succeeded', invoice);
    const res = await deliver(event);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcome).toBe('applied');

    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: 'paid', requires_action: false, requires_action_at: null, payment_intent_id: `pi_${invoice.id}` });
    expect(row.paid_at).toBeGreaterThan(askedAt);
    expect(await shiftStatus(shift.id)).toBe(SHIFT_STATUS.completed);

    const notices = await paidNotices(shift.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.user_ids).toEqual([biz.userId]);
    expect(notices[0]!.body.data).toMatchObject({ invoice_id: invoice.id, shift_request_id: shift.id });

    const events = await paidEvents(shift.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.body).toMatchObject({
      type: 'invoice.paid',
      business_id: biz.businessId,
      data: { invoice: { id: invoice.id, business_id: biz.businessId, shift_request_ids: [shift.id], amount: 80, currency: 'USD' } },
    });
    expect(events[0]!.body.data.invoice.paid_at).toBe(new Date(row.paid_at!).toISOString());
    expect(await auditFor(invoice.id, 'invoice.paid')).toHaveLength(1);

    const logged = (await db().select().from(paymentEvents).where(eq(paymentEvents.id, event.id)))[0]!;
    expect(logged).toMatchObject({ type: 'payment_intent.succeeded', invoice_id: invoice.id, outcome: 'applied' });
    expect(logged.processed_at).not.toBeNull();
  });

  it('the same event delivered twice, then 10 times at once, changes the invoice once and notifies once', async () => {
    const { shift, invoice } = await workedInvoice();
    await recordIntent(invoice);
    const event = intentEvent('payment_intent.succeeded', invoice);
    expect((await deliver(event)).body.outcome).toBe('applied');
    const paidAt = (await invoiceRow(invoice.id)).paid_at;
    const again = await deliver(event);
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe('duplicate');
    expect((await invoiceRow(invoice.id)).paid_at).toBe(paidAt);
    expect(await paidNotices(shift.id)).toHaveLength(1);

    const other = await workedInvoice();
    await recordIntent(other.invoice);
    const burst = intentEvent('payment_intent.succeeded', other.invoice);
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(burst)));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(results.filter((r) => r.body.outcome === 'applied')).toHaveLength(1);
    expect(await paidNotices(other.shift.id)).toHaveLength(1);
    expect(await paidEvents(other.shift.id)).toHaveLength(1);
    expect(await auditFor(other.invoice.id, 'invoice.paid')).toHaveLength(1);
    expect(await shiftStatus(other.shift.id)).toBe(SHIFT_STATUS.completed);
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, burst.id))).toHaveLength(1);
  });

  it('a failure after the success changes nothing: the invoice stays paid', async () => {
    const { shift, invoice } = await workedInvoice();
    await recordIntent(invoice);
    expect((await deliver(intentEvent('payment_intent.succeeded', invoice))).body.outcome).toBe('applied');
    const before = await invoiceRow(invoice.id);
    const late = await deliver(intentEvent('payment_intent.payment_failed', invoice));
    expect(late.status).toBe(200);
    expect(late.body.outcome).toBe('unchanged');
    expect(await invoiceRow(invoice.id)).toEqual(before);
    expect(await shiftStatus(shift.id)).toBe(SHIFT_STATUS.completed);
    expect(await outboxFor(shift.id, { topic: 'notifications', kind: 'payment_failed' })).toHaveLength(0);
  });

  it('payment_intent.payment_failed leaves the invoice pending with requires_action cleared and notifies the owner; a success after it pays', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    await recordIntent(invoice);
    await db()
      .update(invoices)
      .set({ requires_action: true, requires_action_at: Date.now() - HOUR })
      .where(eq(invoices.id, invoice.id));
    const failed = await deliver(intentEvent('payment_intent.payment_failed', invoice));
    expect(failed.status).toBe(200);
    expect(failed.body.outcome).toBe('applied');
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: 'pending', requires_action: false, requires_action_at: null, paid_at: null });
    expect(row.failed_at).not.toBeNull();
    expect(await shiftStatus(shift.id)).toBe(SHIFT_STATUS.accepted);
    const notices = await outboxFor(shift.id, { topic: 'notifications', kind: 'payment_failed' });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.user_ids).toEqual([biz.userId]);

    // Another failure event of the same intent, nothing new pending: no second change or notice.
    expect((await deliver(intentEvent('payment_intent.payment_failed', invoice))).body.outcome).toBe('unchanged');
    expect(await outboxFor(shift.id, { topic: 'notifications', kind: 'payment_failed' })).toHaveLength(1);

    expect((await deliver(intentEvent('payment_intent.succeeded', invoice))).body.outcome).toBe('applied');
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
    expect(await shiftStatus(shift.id)).toBe(SHIFT_STATUS.completed);
  });

  it('an unknown invoice, another amount, another currency or another payment intent is answered 200 and changes nothing', async () => {
    const { shift, invoice } = await workedInvoice();
    const pi = await recordIntent(invoice);
    const cases = [
      intentEvent('payment_intent.succeeded', invoice, { invoiceId: 'in_doesnotexist000000' }),
      intentEvent('payment_intent.succeeded', invoice, { amount: invoice.amount_minor - 1 }),
      intentEvent('payment_intent.succeeded', invoice, { currency: 'eur' }),
    ];
    for (const e of cases) {
      const r = await deliver(e);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.outcome).toBe('mismatch');
    }
    await expectUnchanged(invoice, shift.id, pi);

    await db().update(invoices).set({ payment_intent_id: 'pi_the_real_one' }).where(eq(invoices.id, invoice.id));
    const r = await deliver(intentEvent('payment_intent.succeeded', invoice, { pi: 'pi_someone_else' }));
    expect(r.body.outcome).toBe('mismatch');
    expect((await invoiceRow(invoice.id)).status).toBe('pending');
    expect(await paidNotices(shift.id)).toHaveLength(0);
  });

  it('other event types are answered 200 and ignored', async () => {
    const { shift, invoice } = await workedInvoice();
    const r = await deliver(intentEvent('payment_intent.created', invoice));
    expect(r.status).toBe(200);
    expect(r.body.outcome).toBe('ignored');
    await expectUnchanged(invoice, shift.id);
  });
});

describe('settlement services', () => {
  it('markInvoicePaid twice changes the invoice once; markInvoiceFailed after it changes nothing', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    const ctx = contextAt(Date.now(), biz);
    const first = await markInvoicePaid(ctx, invoice.id, { paymentIntentId: 'pi_direct' });
    expect(first.applied).toBe(true);
    expect(first.invoice?.status).toBe('paid');
    const second = await markInvoicePaid(contextAt(Date.now() + HOUR, biz), invoice.id, { paymentIntentId: 'pi_direct' });
    expect(second.applied).toBe(false);
    expect(second.invoice?.paid_at).toBe(first.invoice?.paid_at);
    expect((await markInvoiceFailed(ctx, invoice.id, { paymentIntentId: 'pi_direct' })).applied).toBe(false);
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
    expect(await paidNotices(shift.id)).toHaveLength(1);
  });

  it('10 concurrent markInvoicePaid calls (and 10 differently numbered events of one intent) change the invoice once, notify once, emit once', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => markInvoicePaid(contextAt(Date.now(), biz), invoice.id, { paymentIntentId: 'pi_race' })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await paidNotices(shift.id)).toHaveLength(1);
    expect(await paidEvents(shift.id)).toHaveLength(1);
    expect(await auditFor(invoice.id, 'invoice.paid')).toHaveLength(1);

    const other = await workedInvoice();
    await recordIntent(other.invoice);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(intentEvent('payment_intent.succeeded', other.invoice))));
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['applied', ...Array(9).fill('unchanged')]);
    expect(await paidNotices(other.shift.id)).toHaveLength(1);
    expect(await paidEvents(other.shift.id)).toHaveLength(1);
  });

  it('paying the invoice of a shift no longer accepted (already settled) does not move the shift', async () => {
    const { biz, shift, invoice } = await workedInvoice();
    await db().update(shiftRequests).set({ request_status: SHIFT_STATUS.completed }).where(eq(shiftRequests.id, shift.id));
    const r = await markInvoicePaid(contextAt(Date.now(), biz), invoice.id, { paymentIntentId: 'pi_x' });
    expect(r.applied).toBe(true);
    expect(await shiftStatus(shift.id)).toBe(SHIFT_STATUS.completed);
  });
});
