import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import type { PersonActor, ServiceContext } from '../../services/kernel';
import { chargeInvoice, createCardSetup, refundInvoice, saveCard, setDefaultCard, simulatorActive } from '../../services/payments';
import { deliverSimulatorEvents, simulatorConfirmSetupIntent } from '../payment-simulator';
import { BUSINESSES } from './cast';
import type { DemoExtra, DemoWorld } from './world';

/**
 * The demo's payments, made through the same services and the local payment simulator a business
 * goes through, so every simulator object (customer, SetupIntent, card, PaymentIntent, charge,
 * refund) exists behind the rows. Stripe's test cards: 4242 4242 4242 4242 always succeeds,
 * 4000 0027 6000 3184 makes the issuer ask for 3D Secure on every charge.
 * - The bistro saves 4242; its two oldest pending invoices are charged on demand and paid (the
 *   simulator's signed events delivered to the webhook handler), and the older one is refunded.
 * - The events business saves 3184 and its newest pending invoice is charged: it stays pending with
 *   requires_action, and the owner gets the payment_action_required email with the link to
 *   /finance/web/authenticate/…. It then saves 4242 as its default card, so the automatic charge pays
 *   its other invoices and no further one waits for authentication.
 * - The London café saves no card: its invoices stay pending until someone adds one.
 * Once a card is saved, the 5-minute automatic charge pays that business's remaining pending invoices,
 * as it would for any business. With real Stripe keys (STRIPE_SECRET_KEY) nothing is made: demo data
 * never reaches a Stripe account.
 */
const SUCCEEDS = '4242424242424242';
const ALWAYS_AUTHENTICATE = '4000002760003184';
const PAID_ON_DEMAND = 2;

const personActor = (userId: string): PersonActor => ({
  kind: 'user',
  userId,
  isAdmin: false,
  isDemo: true,
  via: 'session',
  credentialId: 'demo-seed',
});

let step = 0;

/**
 * The context as the business's owner, as its own request: the payment services key their processor
 * writes by request id (a retried request is one write), and each seed step is a new one.
 */
function asOwnerOf(ctx: ServiceContext, world: DemoWorld, businessKey: string): ServiceContext {
  const business = BUSINESSES.find((b) => b.key === businessKey);
  if (!business) throw new Error(`demo payments: no business ${businessKey}`);
  return { ...ctx, actor: personActor(world.userId(business.owner)), requestId: `${ctx.requestId}_demo${++step}` };
}

/** Saves a test card for the business as its owner would (SetupIntent, the card form, save); returns the card's id. */
async function saveTestCard(owner: ServiceContext, businessId: string, card: string): Promise<string> {
  const setup = await createCardSetup(owner, businessId);
  await simulatorConfirmSetupIntent(owner, setup.setup_intent_id, { card_number: card });
  return (await saveCard(owner, businessId, { setup_intent_id: setup.setup_intent_id })).payment_method_id;
}

async function pendingInvoices(ctx: ServiceContext, businessId: string, order: 'oldest' | 'newest', limit: number) {
  const rows = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.business_id, businessId), eq(invoices.status, 'pending'), isNull(invoices.payment_intent_id)))
    .orderBy(order === 'oldest' ? asc(invoices.created_at) : desc(invoices.created_at))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The simulator's events, delivered now (the seed reads the settled invoices right after). */
const deliverNow = (ctx: ServiceContext) => deliverSimulatorEvents({ ...ctx, actor: { kind: 'system', job: 'demo-seed' } });

export const demoPayments: DemoExtra = {
  name: 'payments',
  async seed(ctx: ServiceContext, world: DemoWorld) {
    if (!simulatorActive(ctx)) {
      ctx.log.info('demo payments skipped: real Stripe keys are set');
      return 0;
    }
    let made = 0;
    const bistro = world.businessId('bistro');
    await saveTestCard(asOwnerOf(ctx, world, 'bistro'), bistro, SUCCEEDS);
    made++;
    const paid = await pendingInvoices(ctx, bistro, 'oldest', PAID_ON_DEMAND);
    for (const id of paid) {
      const result = await chargeInvoice(asOwnerOf(ctx, world, 'bistro'), id, { trigger: 'on_demand' });
      if (result.status !== 'succeeded') ctx.log.warn('demo payments: a charge did not succeed', { invoice_id: id, status: result.status });
      made++;
    }
    await deliverNow(ctx);
    const [refunded] = paid;
    if (refunded) {
      await refundInvoice(asOwnerOf(ctx, world, 'bistro'), refunded, { reason: 'requested_by_customer' });
      await deliverNow(ctx);
      made++;
    }

    const events = world.businessId('events');
    await saveTestCard(asOwnerOf(ctx, world, 'events'), events, ALWAYS_AUTHENTICATE);
    made++;
    const [stuck] = await pendingInvoices(ctx, events, 'newest', 1);
    if (stuck) {
      const result = await chargeInvoice(asOwnerOf(ctx, world, 'events'), stuck, { trigger: 'on_demand' });
      if (result.status !== 'requires_action')
        ctx.log.warn('demo payments: the 3DS charge did not wait', { invoice_id: stuck, status: result.status });
      made++;
    } else {
      ctx.log.warn('demo payments: the events business has no pending invoice to hold for 3D Secure');
    }
    const fallback = await saveTestCard(asOwnerOf(ctx, world, 'events'), events, SUCCEEDS);
    await setDefaultCard(asOwnerOf(ctx, world, 'events'), events, fallback);
    made++;
    await deliverNow(ctx);
    return made;
  },
};

/**
 * Deletes the simulator's objects and events that belong to demo accounts, before the demo rows go
 * (they are found through those rows): the demo businesses' customers and everything made for them
 * (SetupIntents, cards, PaymentIntents and their charges, refunds), the demo shifters' connected
 * accounts with their transfers and reversals. Events whose object is gone go with it.
 */
export async function purgeDemoPaymentObjects(ctx: ServiceContext): Promise<number> {
  const d1 = ctx.env.DB;
  const demoUsers = 'SELECT "id" FROM "users" WHERE "is_demo" = 1';
  const demoBusinesses = `SELECT "id" FROM "businesses" WHERE "user_id" IN (${demoUsers})`;
  const demoShifters = `SELECT "id" FROM "shifters" WHERE "user_id" IN (${demoUsers})`;
  const demoInvoices = `SELECT "id" FROM "invoices" WHERE "business_id" IN (${demoBusinesses})`;
  const customers = `SELECT "customer_id" FROM "payment_customers" WHERE "business_id" IN (${demoBusinesses})`;
  const accounts = `SELECT "account_id" FROM "payout_accounts" WHERE "shifter_id" IN (${demoShifters})`;
  const [direct, events] = await d1.batch([
    // The objects that name a demo customer, business, invoice or account, or are one.
    d1.prepare(
      `DELETE FROM "payment_sim_objects" WHERE "id" IN (${customers}) OR "id" IN (${accounts})
        OR json_extract("data", '$.customer') IN (${customers})
        OR json_extract("data", '$.metadata.business_id') IN (${demoBusinesses})
        OR json_extract("data", '$.metadata.invoice_id') IN (${demoInvoices})
        OR json_extract("data", '$.destination') IN (${accounts})
        OR json_extract("data", '$.payment_intent') IN (SELECT "payment_intent_id" FROM "invoices" WHERE "business_id" IN (${demoBusinesses}))
        OR json_extract("data", '$.transfer') IN (SELECT "transfer_id" FROM "invoices" WHERE "business_id" IN (${demoBusinesses}))`,
    ),
    // Their events: any whose object no longer exists.
    d1.prepare(
      `DELETE FROM "payment_sim_events" WHERE json_extract("payload", '$.data.object.id') NOT IN (SELECT "id" FROM "payment_sim_objects")`,
    ),
  ]);
  return (direct?.meta.changes ?? 0) + (events?.meta.changes ?? 0);
}
