import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { emailOutbox, invoices, paymentSimObjects } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { QUEUES } from '../../src/queues/consumer';
import { freshClientSecret, STRIPE_DEVELOPMENT_WEBHOOK_SECRET, stuckInvoices, sweepAutomaticCharges } from '../../src/services/payments';
import { simulatorAuthenticate } from '../../src/local/payment-simulator';
import { systemContext } from '../../src/services/kernel';
import { call } from '../helpers/api';
import { CARD, chargeCall, deliverEvents, heldCtx, intentsOf, invoiceRow, saveCard, shiftStatus, workedInvoice } from '../helpers/charges';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { deliver, message } from '../helpers/queues';
import { outboxFor } from '../helpers/shifts';

const paidNotices = (invoiceId: string) => outboxFor(invoiceId, { topic: 'notifications', kind: 'invoice_paid' });

/** An invoice whose on-demand charge the issuer holds for authentication. */
async function heldForAuthentication() {
  const world = await workedInvoice({ card: CARD.threeDs });
  const res = await chargeCall(world.biz, world.invoice.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...world, charge: res.body as { status: string; payment_intent_id: string; client_secret: string } };
}

/** What the issuer's page does when the card holder answers (the event stays queued until deliverEvents). */
async function authenticate(owner: Parameters<typeof heldCtx>[0], invoiceId: string, outcome: 'succeed' | 'fail') {
  const page = await freshClientSecret(heldCtx(owner), invoiceId);
  return simulatorAuthenticate(heldCtx(owner), page.payment_intent_id, page.client_secret, outcome);
}

/** A payment intent event signed as Stripe signs it, posted to the webhook. */
async function signedEvent(type: string, intent: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_test_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: intent },
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

async function expectForbidden(p: Promise<unknown>) {
  await expect(p).rejects.toMatchObject({ code: 'FORBIDDEN-ERR', status: 403 });
}

describe('strong customer authentication (3DS)', () => {
  it('requires_action: the invoice stays pending with requires_action stamped, the result carries the intent and a client secret, nothing is paid', async () => {
    const { biz, shift, invoice, charge } = await heldForAuthentication();
    expect(charge).toMatchObject({ status: 'requires_action', invoice_id: invoice.id, decline_code: null });
    expect(charge.payment_intent_id).toMatch(/^pi_/);
    expect(charge.client_secret).toMatch(new RegExp(`^${charge.payment_intent_id}_secret_`));
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({
      status: 'pending',
      requires_action: true,
      payment_intent_id: charge.payment_intent_id,
      paid_at: null,
      charging_since: null,
    });
    expect(row.requires_action_at).not.toBeNull();
    expect(await shiftStatus(shift.id)).toBe(2);
    expect(await paidNotices(invoice.id)).toHaveLength(0);

    // Charging again starts nothing new: the same intent, a fresh secret.
    const again = await chargeCall(biz, invoice.id);
    expect(again.body).toMatchObject({ status: 'requires_action', payment_intent_id: charge.payment_intent_id });
    expect(again.body.client_secret).toBeTruthy();
    expect(await intentsOf(invoice.id)).toHaveLength(1);

    // The list of stuck invoices (for /finance/web/requires-action): the owner's, nobody else's.
    const stuck = await stuckInvoices(heldCtx(biz));
    expect(stuck).toEqual([
      expect.objectContaining({
        invoice_id: invoice.id,
        amount: 80,
        currency: 'USD',
        authenticate_path: `/finance/web/authenticate/${invoice.id}`,
      }),
    ]);
    const other = await makeUser({ business: true });
    expect(await stuckInvoices(heldCtx(other))).toEqual([]);
  });

  it('the owner alone gets the urgent notification; its email carries {app_url}/finance/web/authenticate/{invoice_id}', async () => {
    const world = await workedInvoice({ card: CARD.threeDs });
    const mate = await makeUser();
    await addTeammate(world.biz.businessId!, mate.userId);
    const res = await chargeCall(world.biz, world.invoice.id);
    expect(res.body.status).toBe('requires_action');
    const notices = await outboxFor(world.invoice.id, { topic: 'notifications', kind: 'payment_action_required' });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.user_ids).toEqual([world.biz.userId]);
    const link = `http://example.com/finance/web/authenticate/${world.invoice.id}`;
    expect(notices[0]!.body.body).toContain(link);

    // Through the notifications queue to the email outbox.
    await deliver(QUEUES.notifications, [message(notices[0]!.body)]);
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, world.biz.email));
    const mail = mails.find((m) => m.template === 'notification:payment_action_required');
    expect(mail, JSON.stringify(mails.map((m) => m.template))).toBeDefined();
    expect(mail!.text_body).toContain(link);
    const mateMails = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, mate.email));
    expect(mateMails).toHaveLength(0);
  });

  it('the automatic charge held for authentication links to APP_URL when it is set', async () => {
    const world = await workedInvoice({ card: CARD.threeDs });
    const bindings = { ...env, PAYMENT_SIMULATOR_DELIVERY: 'held', APP_URL: 'https://app.shiftmarket.example/ignored/path' } as AppBindings;
    await sweepAutomaticCharges(systemContext(bindings, { waitUntil: () => undefined }, 'test:auto-charge'));
    expect(await invoiceRow(world.invoice.id)).toMatchObject({ status: 'pending', requires_action: true });
    const [notice] = await outboxFor(world.invoice.id, { topic: 'notifications', kind: 'payment_action_required' });
    expect(notice!.body.body).toContain(`https://app.shiftmarket.example/finance/web/authenticate/${world.invoice.id}`);
  });

  it('the succeeded event before the redirect: paid once with its charge, requires_action cleared; the redirect then finds nothing to confirm', async () => {
    const { biz, shift, invoice } = await heldForAuthentication();
    const pi = await authenticate(biz, invoice.id, 'succeed');
    expect((await deliverEvents()).delivered).toBeGreaterThan(0);
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({
      status: 'paid',
      requires_action: false,
      requires_action_at: null,
      payment_intent_id: pi.id,
      charge_id: pi.latest_charge_id,
    });
    expect(row.charge_id).toMatch(/^ch_/);
    expect(await shiftStatus(shift.id)).toBe(5);

    await expectForbidden(freshClientSecret(heldCtx(biz), invoice.id));
    expect((await chargeCall(biz, invoice.id)).body.error.code).toBe('INVOICE-PAID-ERR');
    await deliverEvents();
    expect(await paidNotices(invoice.id)).toHaveLength(1);
  });

  it('the succeeded event after the redirect: the redirect settles from the processor, the late event changes nothing; paid once', async () => {
    const { biz, shift, invoice } = await heldForAuthentication();
    const pi = await authenticate(biz, invoice.id, 'succeed');
    // The customer comes back before the event: the page asks again and the invoice is settled from the intent.
    await expectForbidden(freshClientSecret(heldCtx(biz), invoice.id));
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', requires_action: false, charge_id: pi.latest_charge_id });
    const paidAt = (await invoiceRow(invoice.id)).paid_at;
    expect((await deliverEvents()).delivered).toBeGreaterThan(0);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', paid_at: paidAt });
    expect(await paidNotices(invoice.id)).toHaveLength(1);
    expect(await shiftStatus(shift.id)).toBe(5);
  });

  it('a failed authentication: pending with requires_action cleared, so a normal charge can be retried (a new attempt, a new intent)', async () => {
    const { biz, shift, invoice, charge } = await heldForAuthentication();
    await authenticate(biz, invoice.id, 'fail');
    await deliverEvents();
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: 'pending', requires_action: false, requires_action_at: null, paid_at: null });
    expect(row.failed_at).not.toBeNull();
    expect(await shiftStatus(shift.id)).toBe(2);
    await expectForbidden(freshClientSecret(heldCtx(biz), invoice.id));

    const card = await saveCard(biz, biz.businessId!, CARD.visa);
    await call('POST', `/v1/business/${biz.businessId}/payment_methods/${card.payment_method_id}/default`, { key: biz.key });
    const retry = await chargeCall(biz, invoice.id);
    expect(retry.body.status).toBe('succeeded');
    expect(retry.body.payment_intent_id).not.toBe(charge.payment_intent_id);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', charge_attempts: 2 });
  });

  it('a late failure event after the success does not un-pay the invoice', async () => {
    const { biz, invoice } = await heldForAuthentication();
    const pi = await authenticate(biz, invoice.id, 'succeed');
    await deliverEvents();
    expect((await invoiceRow(invoice.id)).status).toBe('paid');

    const [sim] = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, pi.id));
    const res = await signedEvent('payment_intent.payment_failed', {
      ...(sim!.data as Record<string, unknown>),
      status: 'requires_payment_method',
      latest_charge: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('unchanged');
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', requires_action: false, charge_id: pi.latest_charge_id });
    expect(await outboxFor(invoice.id, { topic: 'notifications', kind: 'payment_failed' })).toHaveLength(0);
  });

  it('an open intent is never doubled: with the hold not recorded (injected) or the intent still processing, charging again reads it and starts nothing', async () => {
    const { biz, invoice, charge } = await heldForAuthentication();
    // As if the hold had not been recorded (the process died after stamping the intent).
    await db().update(invoices).set({ requires_action: false, requires_action_at: null }).where(eq(invoices.id, invoice.id));
    const again = await chargeCall(biz, invoice.id);
    expect(again.body).toMatchObject({ status: 'requires_action', payment_intent_id: charge.payment_intent_id });
    // The processor still processing the intent.
    const [sim] = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, charge.payment_intent_id));
    await db()
      .update(paymentSimObjects)
      .set({ data: { ...(sim!.data as Record<string, unknown>), status: 'processing' } })
      .where(eq(paymentSimObjects.id, charge.payment_intent_id));
    expect((await chargeCall(biz, invoice.id)).body).toMatchObject({ status: 'processing', payment_intent_id: charge.payment_intent_id });
    expect(await intentsOf(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', charge_attempts: 1, charging_since: null });
  });

  it("Stripe's own shape of a 3DS hold (a failed intent with authentication_required, and its payment_failed event) keeps the invoice waiting; a failed authentication then clears it", async () => {
    const { biz, invoice, charge } = await heldForAuthentication();
    const [sim] = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, charge.payment_intent_id));
    const stripeShape = {
      ...(sim!.data as Record<string, unknown>),
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'authentication_required', message: 'This transaction requires authentication.' },
    };
    await db().update(paymentSimObjects).set({ data: stripeShape }).where(eq(paymentSimObjects.id, charge.payment_intent_id));

    expect((await signedEvent('payment_intent.payment_failed', stripeShape)).body.outcome).toBe('unchanged');
    expect(await invoiceRow(invoice.id)).toMatchObject({
      status: 'pending',
      requires_action: true,
      payment_intent_id: charge.payment_intent_id,
    });
    expect(await outboxFor(invoice.id, { topic: 'notifications', kind: 'payment_failed' })).toHaveLength(0);
    // The page still gets a client secret; charging again starts nothing new.
    expect((await freshClientSecret(heldCtx(biz), invoice.id)).payment_intent_id).toBe(charge.payment_intent_id);
    expect((await chargeCall(biz, invoice.id)).body).toMatchObject({
      status: 'requires_action',
      payment_intent_id: charge.payment_intent_id,
    });
    expect(await intentsOf(invoice.id)).toHaveLength(1);

    const failed = {
      ...stripeShape,
      last_payment_error: {
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message: 'The cardholder did not complete authentication.',
      },
    };
    expect((await signedEvent('payment_intent.payment_failed', failed)).body.outcome).toBe('applied');
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', requires_action: false, requires_action_at: null });
  });

  it('the authentication page: only the owner, only while the invoice requires action; anyone else (an admin too) the same 403', async () => {
    const { biz, invoice, charge } = await heldForAuthentication();
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const stranger = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });
    const page = await freshClientSecret(heldCtx(biz), invoice.id);
    expect(page).toMatchObject({
      invoice_id: invoice.id,
      payment_intent_id: charge.payment_intent_id,
      gateway: 'simulator',
      amount: 80,
      currency: 'USD',
    });
    expect(page.client_secret).toMatch(/_secret_/);
    for (const who of [mate, stranger]) await expectForbidden(freshClientSecret(heldCtx(who), invoice.id));
    await expectForbidden(freshClientSecret(heldCtx(admin, { isAdmin: true }), invoice.id));
    await expectForbidden(freshClientSecret(heldCtx(biz), 'in_doesnotexist'));
    const plain = await workedInvoice({ card: null });
    await expectForbidden(freshClientSecret(heldCtx(plain.biz), plain.invoice.id));
  });
});
