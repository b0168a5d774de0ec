import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

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
