import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoices, paymentSimObjects, shiftRequests } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { type ServiceContext, systemContext } from '../../src/services/kernel';
import { deliverSimulatorEvents, simulatorConfirmSetupIntent } from '../../src/local/payment-simulator';
import { call, type WorkerFetch, workerWith } from './api';
import { contextAt } from './clock';
import { workedInvoice as workedInvoiceOfNewPair } from './invoices';
import { db, type TestUser } from './factory';

/** Stripe's test cards, as the simulator takes them. */
export const CARD = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDs: '4000002760003184',
} as const;

/**
 * The Worker with the simulator's events held back: nothing is delivered to the webhook until a test
 * calls `deliverEvents()`, so it chooses whether an event comes before or after the redirect.
 */
export const heldWorker: WorkerFetch = workerWith({ PAYMENT_SIMULATOR_DELIVERY: 'held' });

/** A context with the simulator's events held, acting as `user` (or as the automatic-charge job). */
export function heldCtx(user: Pick<TestUser, 'userId' | 'keyId'> | null, opts: { isAdmin?: boolean } = {}): ServiceContext {
  const bindings = { ...env, PAYMENT_SIMULATOR_DELIVERY: 'held' } as AppBindings;
  if (!user) return systemContext(bindings, { waitUntil: () => undefined }, 'test:auto-charge');
  const base = contextAt(Date.now(), user, opts);
  return { ...systemContext(bindings, { waitUntil: () => undefined }, 'test', base.actor), actor: base.actor };
}

/** Delivers the simulator's queued events (signed) to the webhook handler, as the cron would. */
export async function deliverEvents() {
  return deliverSimulatorEvents(heldCtx(null));
}

/** Saves a card for the business through the API and the simulated card form; returns the saved card. */
export async function saveCard(owner: TestUser, businessId: string, cardNumber: string = CARD.visa) {
  const setup = await call('POST', `/v1/business/${businessId}/payment_methods/setup_intent`, { key: owner.key, worker: heldWorker });
  expect(setup.status, JSON.stringify(setup.body)).toBe(201);
  await simulatorConfirmSetupIntent(heldCtx(owner), setup.body.setup_intent_id, { card_number: cardNumber });
  const saved = await call('POST', `/v1/business/${businessId}/payment_methods`, {
    key: owner.key,
    worker: heldWorker,
    body: { setup_intent_id: setup.body.setup_intent_id },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return saved.body as { payment_method_id: string; is_default: boolean; last4: string };
}

/** A worked (accepted, clocked out) shift of a new pair with its pending invoice: 4 h × $20 = 8000 cents. */
export async function workedInvoice(opts: { card?: string | null; rateMinor?: number } = {}) {
  const made = await workedInvoiceOfNewPair(opts.rateMinor ? { rateMinor: opts.rateMinor } : {});
  if (opts.card !== null) await saveCard(made.biz, made.biz.businessId!, opts.card ?? CARD.visa);
  return made;
}

export const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
export const shiftStatus = async (id: string) =>
  (await db().select({ s: shiftRequests.request_status }).from(shiftRequests).where(eq(shiftRequests.id, id)))[0]!.s;

/** The simulator's PaymentIntents made for an invoice. */
export async function intentsOf(invoiceId: string) {
  const rows = await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.type, 'payment_intent'));
  return rows.filter((r) => (r.data as { metadata?: Record<string, string> }).metadata?.invoice_id === invoiceId);
}

/** Charges an invoice on demand through the API (events held). */
export function chargeCall(user: TestUser, invoiceId: string, headers: Record<string, string> = {}) {
  return call('POST', `/v1/invoices/${invoiceId}/charge`, { key: user.key, worker: heldWorker, headers });
}
