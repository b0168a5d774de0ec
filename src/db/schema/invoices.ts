import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { businesses, shifters } from './profiles';
import { shiftRequests } from './shifts';

export const INVOICE_STATUSES = ['pending', 'paid', 'failed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * One invoice per worked shift (spec 2.10, 4.3): the business pays hours × rate in the shift's
 * currency. Created in the same batch as the clock-out that makes the shift worked; the unique
 * shift_request_id makes a second one impossible. `conversion_*` is set when the charge settles in
 * another currency. An invoice is paid if and only if its status is `paid`.
 */
export const invoices = sqliteTable(
  'invoices',
  {
    id: text('id').primaryKey(), // in_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    shifter_id: text('shifter_id').references(() => shifters.id, { onDelete: 'set null' }),
    amount_minor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    conversion_amount_minor: integer('conversion_amount_minor'),
    conversion_currency: text('conversion_currency'),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('pending'),
    requires_action: bool('requires_action').notNull().default(false),
    requires_action_at: integer('requires_action_at'),
    payment_intent_id: text('payment_intent_id'),
    paid_at: integer('paid_at'),
    failed_at: integer('failed_at'),
    /** The charge that paid it (ch_…): refunds and the shifter's transfer refer to it. */
    charge_id: text('charge_id'),
    /** When the last off-session charge was attempted (the automatic charge tries once per invoice). */
    charge_attempted_at: integer('charge_attempted_at'),
    /** Off-session charges claimed so far: the idempotency key of attempt n is `charge:{invoice_id}:{n}`. */
    charge_attempts: integer('charge_attempts').notNull().default(0),
    /** Set while a charge attempt is with the processor (the claim); cleared once its answer is recorded. */
    charging_since: integer('charging_since'),
    /** Refunded so far (succeeded and pending refunds), in the charged currency's minor units. */
    refunded_minor: integer('refunded_minor').notNull().default(0),
    /** The transfer of the shifter's share to their connected account (tr_…), once paid out. */
    transfer_id: text('transfer_id'),
    transfer_amount_minor: integer('transfer_amount_minor'),
    /** Reversed of that transfer so far by refunds. */
    transfer_reversed_minor: integer('transfer_reversed_minor').notNull().default(0),
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invoices_shift_request_unique').on(t.shift_request_id),
    index('invoices_business_list_idx').on(t.business_id, t.created_at, t.id),
    index('invoices_business_status_idx').on(t.business_id, t.status, t.created_at, t.id),
    // The automatic charge's sweep: pending invoices not yet attempted, oldest first.
    index('invoices_auto_charge_idx').on(t.status, t.charge_attempted_at, t.created_at),
  ],
);
