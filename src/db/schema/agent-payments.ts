import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { businesses, shifters } from './profiles';
import { shiftRequests } from './shifts';
import { users } from './users';

/**
 * A one-time confirmation of an agent's payment request (spec 4.9 rule 6, 3.5): issued by the
 * `confirm_payment_for_shift` tool, used once on {app_url}/mcp-confirm/{token} by the user it names,
 * or expired after 5 minutes. Only the sha-256 of the token is stored. `used_op_id` marks the one
 * confirmation whose guarded update took the token, so the charge that follows runs once.
 */
export const mcpConfirmTokens = sqliteTable(
  'mcp_confirm_tokens',
  {
    id: text('id').primaryKey(), // mct_…
    token_hash: text('token_hash').notNull(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    amount_minor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** The access token (or personal key) the tool call came with. */
    requested_by_token_id: text('requested_by_token_id'),
    expires_at: integer('expires_at').notNull(),
    used_at: integer('used_at'),
    used_op_id: text('used_op_id'),
    /** The prepayment's answer once confirmed: succeeded, requires_action, failed or processing. */
    charge_status: text('charge_status'),
    invoice_id: text('invoice_id'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('mcp_confirm_tokens_hash_unique').on(t.token_hash), index('mcp_confirm_tokens_user_idx').on(t.user_id, t.created_at)],
);

export const COUNTER_OFFER_STATUSES = ['pending'] as const;
export type CounterOfferStatus = (typeof COUNTER_OFFER_STATUSES)[number];

/**
 * A shifter's counter-offer on a pending request targeted to them (tool `create_counter_offer`): the
 * rate they would work it for. One per shift request (a new offer replaces the last); the business
 * answers with a change request at that rate, or lets it be.
 */
export const counterOffers = sqliteTable(
  'counter_offers',
  {
    id: text('id').primaryKey(), // cof_…
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    shifter_id: text('shifter_id')
      .notNull()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    hourly_rate_minor: integer('hourly_rate_minor').notNull(),
    currency: text('currency').notNull(),
    note: text('note'),
    status: text('status', { enum: COUNTER_OFFER_STATUSES }).notNull().default('pending'),
    created_at: integer('created_at').notNull(),
    updated_at: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('counter_offers_shift_unique').on(t.shift_request_id),
    index('counter_offers_business_idx').on(t.business_id, t.created_at),
  ],
);
