import { and, desc, eq, sql } from 'drizzle-orm';
import { paymentCustomers, paymentMethods, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { accessBusiness, type BusinessRow } from '../access';
import { prepareWrite, type ServiceContext } from '../kernel';
import { paymentGateway } from './processor';
import {
  PAYMENT_METHODS_MAX,
  type PaymentMethodList,
  type PaymentMethodView,
  type SavePaymentMethodInput,
  type SetupIntentView,
} from './schemas';
import { businessRecipients } from '../notifications';

/**
 * Saved cards of a business (spec 4.3): the card form (Stripe.js, or the simulator's form) confirms a
 * SetupIntent on the business's processor customer; the business then records the card it saved. Only
 * the processor's id and what is shown of the card are kept. Money is the owner's: the owner or an
 * admin manage cards; an active teammate is refused (403), anyone else learns nothing (404).
 */

const MONEY_ROLES = ['owner', 'admin'] as const;

type CustomerRow = typeof paymentCustomers.$inferSelect;
type CardRow = typeof paymentMethods.$inferSelect;

async function customerOf(ctx: ServiceContext, businessId: string): Promise<CustomerRow | null> {
  const [row] = await ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.business_id, businessId)).limit(1);
  return row ?? null;
}

/**
 * The business's processor customer, created once. Concurrent first calls send the same idempotency
 * key (`customer:{business_id}`), so the processor makes one customer; the insert keeps the first row.
 */
export async function ensureCustomer(ctx: ServiceContext, business: BusinessRow): Promise<CustomerRow> {
  const existing = await customerOf(ctx, business.id);
  if (existing) return existing;
  const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, business.user_id)).limit(1);
  const created = await paymentGateway(ctx).createCustomer({
    businessId: business.id,
    email: owner?.email ?? null,
    name: business.name,
    idempotencyKey: `customer:${business.id}`,
  });
  const now = ctx.now();
  await ctx.db
    .insert(paymentCustomers)
    .values({ business_id: business.id, customer_id: created.id, default_payment_method_id: null, created_at: now, updated_at: now })
    .onConflictDoNothing();
  const row = await customerOf(ctx, business.id);
  if (!row) throw new Error('payment customer row missing after insert');
  return row;
}

/** The default card's id and the customer of a business, or null when it has none (no charge is possible). */
export async function defaultCardOf(
  ctx: ServiceContext,
  businessId: string,
): Promise<{ customerId: string; paymentMethodId: string } | null> {
  const c = await customerOf(ctx, businessId);
  if (!c?.default_payment_method_id) return null;
  return { customerId: c.customer_id, paymentMethodId: c.default_payment_method_id };
}

/** POST /v1/business/{id}/payment_methods/setup_intent: a SetupIntent the card form confirms. */
export async function createCardSetup(ctx: ServiceContext, businessId: string): Promise<SetupIntentView> {
  const { business } = await accessBusiness(ctx, businessId, [...MONEY_ROLES]);
  const customer = await ensureCustomer(ctx, business);
  const gw = paymentGateway(ctx);
  // Each call is a new SetupIntent (a form opened twice gets two); the key makes a retried call one.
  const si = await gw.createSetupIntent({
    customerId: customer.customer_id,
    idempotencyKey: `setup:${business.id}:${ctx.requestId}`,
    metadata: { business_id: business.id },
  });
  return { setup_intent_id: si.id, client_secret: si.client_secret, publishable_key: gw.publishableKey, gateway: gw.kind };
}

function cardView(row: CardRow, defaultId: string | null): PaymentMethodView {
  return {
    payment_method_id: row.id,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    is_default: row.id === defaultId,
    created_at: toIso(row.created_at),
  };
}

async function cardsOf(ctx: ServiceContext, businessId: string): Promise<PaymentMethodList> {
  const [rows, customer] = await Promise.all([
    ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.business_id, businessId))
      .orderBy(desc(paymentMethods.created_at), desc(paymentMethods.id))
      .limit(PAYMENT_METHODS_MAX),
    customerOf(ctx, businessId),
  ]);
  return { data: rows.map((r) => cardView(r, customer?.default_payment_method_id ?? null)) };
}

/** GET /v1/business/{id}/payment_methods: newest first, with the default flagged. */
export async function listCards(ctx: ServiceContext, businessId: string): Promise<PaymentMethodList> {
  const { business } = await accessBusiness(ctx, businessId, [...MONEY_ROLES]);
  return cardsOf(ctx, business.id);
}

/**
 * POST /v1/business/{id}/payment_methods: records the card a succeeded SetupIntent saved. The intent
 * must be on this business's customer and the card attached to it (PAYMENT-SETUP-ERR otherwise: a
 * SetupIntent of another business is refused). The first card becomes the default; the owner is
 * notified (`card_created`). Recording the same SetupIntent again changes nothing and notifies no one.
 */
export async function saveCard(ctx: ServiceContext, businessId: string, input: SavePaymentMethodInput): Promise<PaymentMethodView> {
  const { business } = await accessBusiness(ctx, businessId, [...MONEY_ROLES]);
  const customer = await customerOf(ctx, business.id);
  const refused = (why: string) => new AppError('PAYMENT-SETUP-ERR', why);
  if (!customer) throw refused('This business has not started a card setup: create a SetupIntent first.');
  const gw = paymentGateway(ctx);
  let si: Awaited<ReturnType<typeof gw.retrieveSetupIntent>>;
  try {
    si = await gw.retrieveSetupIntent(input.setup_intent_id);
  } catch (err) {
    // The processor does not know the id (Stripe's resource_missing): as if it were another business's.
    if (processorCode(err) === 'resource_missing') throw refused('No such SetupIntent of this business.');
    throw err;
  }
  if (si.customer_id !== customer.customer_id) throw refused('No such SetupIntent of this business.');
  if (si.status !== 'succeeded' || !si.payment_method_id) {
    throw refused(`The SetupIntent has not saved a card (status ${si.status}): confirm it in the card form first.`);
  }
  const pm = await gw.retrievePaymentMethod(si.payment_method_id);
  if (pm.customer_id !== customer.customer_id) throw refused('The card is not attached to this business.');

  const [stored] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, pm.id)).limit(1);
  if (stored) {
    if (stored.business_id !== business.id) throw refused('The card is not attached to this business.');
    return cardView(stored, (await customerOf(ctx, business.id))?.default_payment_method_id ?? null);
  }

  const now = ctx.now();
  const w = prepareWrite(
    ctx,
    { type: 'payment_method', id: pm.id },
    (op) => sql`EXISTS (SELECT 1 FROM ${paymentMethods} WHERE ${paymentMethods.id} = ${pm.id} AND ${paymentMethods.last_op_id} = ${op})`,
  );
  const kind = 'card_created';
  await w.commit({
    guard: ctx.db
      .insert(paymentMethods)
      .values({
        id: pm.id,
        business_id: business.id,
        brand: pm.brand,
        last4: pm.last4,
        exp_month: pm.exp_month,
        exp_year: pm.exp_year,
        created_at: now,
        last_op_id: w.op,
      })
      .onConflictDoNothing(),
    follow: [
      // The first card becomes the default.
      ctx.db
        .update(paymentCustomers)
        .set({ default_payment_method_id: pm.id, updated_at: now })
        .where(and(eq(paymentCustomers.business_id, business.id), sql`${paymentCustomers.default_payment_method_id} IS NULL`, w.applied!)),
    ],
    audit: { action: 'payment_method.saved', data: { business_id: business.id, brand: pm.brand, last4: pm.last4 } },
    notify: [
      {
        kind,
        userIds: await businessRecipients(ctx, business.id, kind),
        title: 'A card was added',
        body: `A ${pm.brand} card ending in ${pm.last4} was added to ${business.name}.`,
        data: { business_id: business.id },
      },
    ],
  });
  const [row] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, pm.id)).limit(1);
  if (!row) throw new Error('payment method row missing after insert');
  return cardView(row, (await customerOf(ctx, business.id))?.default_payment_method_id ?? null);
}

/** The processor's error code of a refusal (`details.processor_code`), if any. */
function processorCode(err: unknown): string | undefined {
  return err instanceof AppError ? (err.details as { processor_code?: string } | undefined)?.processor_code : undefined;
}

/** Refusals of a detach that mean the card is no longer attached (Stripe's codes). */
const GONE_AT_PROCESSOR = new Set(['resource_missing', 'payment_method_unexpected_state']);

async function cardOfBusiness(ctx: ServiceContext, businessId: string, paymentMethodId: string): Promise<CardRow> {
  const [row] = await ctx.db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, paymentMethodId), eq(paymentMethods.business_id, businessId)))
    .limit(1);
  if (!row) throw new AppError('PAYMENT-METHOD-NOT-FND-ERR');
  return row;
}

/**
 * POST /v1/business/{id}/payment_methods/{payment_method_id}/default. Our record decides which card
 * off-session charges use (each charge names its card), so the processor's customer is not changed.
 */
export async function setDefaultCard(ctx: ServiceContext, businessId: string, paymentMethodId: string): Promise<PaymentMethodList> {
  const { business } = await accessBusiness(ctx, businessId, [...MONEY_ROLES]);
  const card = await cardOfBusiness(ctx, business.id, paymentMethodId);
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'payment_method', id: card.id });
  await w.commit({
    guard: ctx.db
      .update(paymentCustomers)
      .set({ default_payment_method_id: card.id, updated_at: now })
      .where(eq(paymentCustomers.business_id, business.id)),
    audit: { action: 'payment_method.default', data: { business_id: business.id } },
  });
  return cardsOf(ctx, business.id);
}

/**
 * DELETE /v1/business/{id}/payment_methods/{payment_method_id}: detaches the card at the processor,
 * then forgets it. When it was the default, the newest remaining card becomes the default (none left:
 * automatic charges wait until a card is saved).
 */
export async function deleteCard(ctx: ServiceContext, businessId: string, paymentMethodId: string): Promise<PaymentMethodList> {
  const { business } = await accessBusiness(ctx, businessId, [...MONEY_ROLES]);
  const card = await cardOfBusiness(ctx, business.id, paymentMethodId);
  try {
    await paymentGateway(ctx).detachPaymentMethod(card.id, `detach:${card.id}`);
  } catch (err) {
    // Already detached or gone at the processor (removed there, or a retried delete): forget it here too.
    if (!GONE_AT_PROCESSOR.has(processorCode(err) ?? '')) throw err;
  }
  const now = ctx.now();
  const w = prepareWrite(
    ctx,
    { type: 'payment_method', id: card.id },
    () => sql`NOT EXISTS (SELECT 1 FROM ${paymentMethods} WHERE ${paymentMethods.id} = ${card.id})`,
  );
  const newest = sql`(SELECT ${paymentMethods.id} FROM ${paymentMethods} WHERE ${paymentMethods.business_id} = ${business.id} ORDER BY ${paymentMethods.created_at} DESC, ${paymentMethods.id} DESC LIMIT 1)`;
  await w.commit({
    guard: ctx.db.delete(paymentMethods).where(and(eq(paymentMethods.id, card.id), eq(paymentMethods.business_id, business.id))),
    follow: [
      ctx.db
        .update(paymentCustomers)
        .set({ default_payment_method_id: newest, updated_at: now })
        .where(and(eq(paymentCustomers.business_id, business.id), eq(paymentCustomers.default_payment_method_id, card.id))),
    ],
    audit: { action: 'payment_method.deleted', data: { business_id: business.id, last4: card.last4 } },
  });
  return cardsOf(ctx, business.id);
}
