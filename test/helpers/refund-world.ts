// inside: services/payments
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoices, outboxEvents, paymentSimObjects, refunds } from '../../src/db/schema';
import type { ServiceContext } from '../../src/services/kernel';
import { paymentGateway } from '../../src/services/payments';
import { markInvoicePaid } from '../../src/services/payments/settle';
import { simulatorCompleteOnboarding, simulatorConfirmSetupIntent } from '../../src/local/payment-simulator';
import { call } from './api';
import { contextAt } from './clock';
import { workedInvoice as workedInvoiceOfNewPair } from './invoices';
import { db, type TestUser } from './factory';

/*
 * Paid invoices charged through the local payment simulator (the same gateway the services use),
 * for the refund and payout tests: a real customer, saved test card, off-session PaymentIntent and
 * charge at the simulator, settled with markInvoicePaid as the webhook does.
 */

/** A service context whose background work (ctx.waitUntil) can be awaited, with settings overridden. */
export function testCtx(user: Pick<TestUser, 'userId' | 'keyId'>, opts: { isAdmin?: boolean; settings?: Record<string, unknown> } = {}) {
  const base = contextAt(Date.now(), user, { isAdmin: opts.isAdmin ?? false });
  const background: Promise<unknown>[] = [];
  const ctx: ServiceContext = {
    ...base,
    settings: { ...base.settings, ...(opts.settings ?? {}) } as ServiceContext['settings'],
    now: () => Date.now(),
    waitUntil: (p) => {
      background.push(p);
    },
  };
  return {
    ctx,
    /** Waits for everything handed to ctx.waitUntil so far (and what that started). */
    async settle() {
      while (background.length) await Promise.allSettled(background.splice(0));
    },
  };
}

/** A worked shift (4 h at `rateMinor`/h) with its pending invoice. */
export async function workedInvoice(rateMinor = 2000) {
  return workedInvoiceOfNewPair({ rateMinor });
}

/** Charges the invoice's amount on a saved 4242 card at the simulator and settles it paid. */
export async function payInvoice(ctx: ServiceContext, invoiceId: string) {
  const inv = (await db().select().from(invoices).where(eq(invoices.id, invoiceId)))[0]!;
  const gw = paymentGateway(ctx);
  const customer = await gw.createCustomer({
    businessId: inv.business_id,
    email: null,
    name: 'Test Co',
    idempotencyKey: `t-cus:${inv.id}`,
  });
  const si = await gw.createSetupIntent({
    customerId: customer.id,
    idempotencyKey: `t-seti:${inv.id}`,
    metadata: { business_id: inv.business_id },
  });
  const saved = await simulatorConfirmSetupIntent(ctx, si.id, { card_number: '4242424242424242' });
  const pi = await gw.chargeOffSession({
    customerId: customer.id,
    paymentMethodId: saved.payment_method_id!,
    amount: inv.amount_minor,
    currency: inv.currency.toLowerCase(),
    idempotencyKey: `t-charge:${inv.id}`,
    metadata: { invoice_id: inv.id, business_id: inv.business_id },
    transferGroup: inv.id,
  });
  expect(pi.status).toBe('succeeded');
  const r = await markInvoicePaid(ctx, inv.id, { paymentIntentId: pi.id, chargeId: pi.latest_charge_id });
  expect(r.invoice?.status).toBe('paid');
  return { paymentIntentId: pi.id, chargeId: pi.latest_charge_id! };
}

/** The shifter's payout account through the API, onboarding completed at the simulator. */
export async function enabledPayoutAccount(ctx: ServiceContext, shifter: TestUser): Promise<string> {
  const res = await call('POST', '/v1/shifter/payout_account', { key: shifter.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await simulatorCompleteOnboarding(ctx, res.body.account_id);
  const got = await call('GET', '/v1/shifter/payout_account', { key: shifter.key });
  expect(got.body).toMatchObject({ set_up: true, payouts_enabled: true });
  return res.body.account_id as string;
}

export const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
export const refundRows = (invoiceId: string) => db().select().from(refunds).where(eq(refunds.invoice_id, invoiceId));

/** A simulator object's Stripe-shaped document (a charge, a transfer…). */
export async function simObject<T = Record<string, any>>(id: string): Promise<T> {
  const [row] = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, id));
  return row!.data as T;
}

/** Simulator objects of one type whose document mentions `text` (e.g. transfers of an invoice's group). */
export async function simObjectsOf(type: string, text: string): Promise<Record<string, any>[]> {
  const rows = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.type, type));
  return rows.map((r) => r.data as Record<string, any>).filter((d) => JSON.stringify(d).includes(text));
}

/** Notifications drafted for an invoice (body mentions its id), of one kind. */
export async function noticesFor(invoiceId: string, kind: string) {
  const rows = await db().select().from(outboxEvents).where(eq(outboxEvents.topic, 'notifications'));
  return rows.map((r) => JSON.parse(r.body) as Record<string, any>).filter((b) => b.kind === kind && JSON.stringify(b).includes(invoiceId));
}

/** Partner events (outbox, topic webhooks) of one type about an invoice. */
export async function partnerEventsFor(invoiceId: string, type: string) {
  const rows = await db().select().from(outboxEvents).where(eq(outboxEvents.topic, 'webhooks'));
  return rows.map((r) => JSON.parse(r.body) as Record<string, any>).filter((b) => b.type === type && b.data?.invoice?.id === invoiceId);
}
