import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { invoices } from './invoices';
import { businesses, shifters } from './profiles';

/**
 * Every Stripe event the webhook accepted (signature verified), by Stripe's event id: a replayed or
 * duplicated delivery finds its row and is not processed again once `processed_at` is set. `outcome`
 * says what the handler did (applied, unchanged, ignored, mismatch).
 */
export const paymentEvents = sqliteTable(
  'payment_events',
  {
    id: text('id').primaryKey(), // evt_… (Stripe's)
    type: text('type').notNull(),
    invoice_id: text('invoice_id'),
    outcome: text('outcome'),
    received_at: integer('received_at').notNull(),
    processed_at: integer('processed_at'),
  },
  (t) => [index('payment_events_invoice_idx').on(t.invoice_id)],
);

/**
 * The payment processor's customer of a business (one per business): the saved cards hang off it and
 * off-session charges are made on its default card.
 */
export const paymentCustomers = sqliteTable(
  'payment_customers',
  {
    business_id: text('business_id')
      .primaryKey()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customer_id: text('customer_id').notNull(), // cus_… (the processor's)
    default_payment_method_id: text('default_payment_method_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_customers_customer_unique').on(t.customer_id)],
);

/** A card a business saved (through a SetupIntent): only the processor's id and what is shown of it. */
export const paymentMethods = sqliteTable(
  'payment_methods',
  {
    id: text('id').primaryKey(), // pm_… (the processor's)
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    exp_month: integer('exp_month').notNull(),
    exp_year: integer('exp_year').notNull(),
    created_at: integer('created_at').notNull(),
    /** The write that recorded it (its notification and audit row are conditional on it). */
    last_op_id: text('last_op_id'),
  },
  (t) => [index('payment_methods_business_idx').on(t.business_id, t.created_at)],
);

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * A refund of (part of) a paid invoice. The amount is reserved on the invoice (`refunded_minor`) in the
 * same guarded write that inserts the row, so concurrent refunds never exceed what was charged; a
 * refund the processor refuses is marked failed and its reservation given back. The transfer to the
 * shifter is reversed in proportion (`reversal_amount_minor`).
 */
export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(), // rfd_…
    invoice_id: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    amount_minor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    processor_refund_id: text('processor_refund_id'), // re_…
    reversal_id: text('reversal_id'), // trr_…
    reversal_amount_minor: integer('reversal_amount_minor').notNull().default(0),
    failure_reason: text('failure_reason'),
    requested_by: text('requested_by'),
    ...timestamps,
  },
  (t) => [index('refunds_invoice_idx').on(t.invoice_id, t.created_at)],
);

/**
 * A shifter's connected account at the processor, where their share of a paid invoice is transferred
 * and paid out from.
 */
export const payoutAccounts = sqliteTable(
  'payout_accounts',
  {
    shifter_id: text('shifter_id')
      .primaryKey()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    account_id: text('account_id').notNull(), // acct_… (the processor's)
    details_submitted: bool('details_submitted').notNull().default(false),
    payouts_enabled: bool('payouts_enabled').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('payout_accounts_account_unique').on(t.account_id)],
);

/**
 * The local payment simulator's objects (customers, setup and payment intents, payment methods,
 * charges, refunds, transfers, reversals, accounts), each a Stripe-shaped JSON document. Used only
 * when no STRIPE_SECRET_KEY is set.
 */
export const paymentSimObjects = sqliteTable(
  'payment_sim_objects',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The idempotency key the object was created with: a retried create returns the same object. */
    idempotency_key: text('idempotency_key'),
    data: text('data', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_sim_objects_idempotency_unique').on(t.idempotency_key)],
);

/** Events the local payment simulator signs and delivers to the webhook handler, until delivered. */
export const paymentSimEvents = sqliteTable(
  'payment_sim_events',
  {
    id: text('id').primaryKey(), // evt_…
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    created_at: integer('created_at').notNull(),
    delivered_at: integer('delivered_at'),
    /** A delivery in progress holds the event until then (epoch ms), so two sweeps never deliver it at once. */
    claimed_until: integer('claimed_until'),
  },
  (t) => [index('payment_sim_events_pending_idx').on(t.delivered_at, t.created_at)],
);
