import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { partnerClients } from './partners';

/**
 * A partner client's webhook endpoint. The signing secret must be readable to sign, so it is kept
 * encrypted (AES-GCM, services/webhooks/secrets.ts), never hashed; during a rotation's grace period
 * the previous secret signs too. `event_types` is a JSON array of the types it subscribes to. The
 * failure counters drive automatic disabling: `failing_since` is the first failed attempt since the
 * last success (null while healthy).
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(), // wep_…
    partner_client_id: text('partner_client_id')
      .notNull()
      .references(() => partnerClients.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    event_types: text('event_types').notNull(),
    secret_enc: text('secret_enc').notNull(),
    previous_secret_enc: text('previous_secret_enc'),
    previous_secret_expires_at: integer('previous_secret_expires_at'),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    /** Why it is disabled: `gone` (the receiver answered 410), `failing` (sustained failure). */
    disabled_reason: text('disabled_reason', { enum: ['gone', 'failing'] }),
    disabled_at: integer('disabled_at'),
    consecutive_failures: integer('consecutive_failures').notNull().default(0),
    failing_since: integer('failing_since'),
    last_success_at: integer('last_success_at'),
    last_failure_at: integer('last_failure_at'),
    /** Stamped by each guarded change; statements of the same batch test it. */
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_partner_idx').on(t.partner_client_id, t.created_at)],
);

/**
 * One partner event, stored once at fan-out: `payload` is the exact JSON body every delivery of it
 * sends (and signs), so its id and bytes are the same on every retry and redelivery.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(), // wev_…, sent as Shiftmarket-Event-Id
    type: text('type').notNull(),
    business_id: text('business_id'),
    payload: text('payload').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('webhook_events_created_idx').on(t.created_at)],
);

/**
 * One event to one endpoint. `pending` (waiting for `next_attempt_at`) → `sending` (an attempt holds it
 * until `lease_until`) → `succeeded`, back to `pending`, or `failed` (attempts used up, the endpoint
 * disabled or deleted, or a permanent refusal). `attempts` counts the attempts made;
 * `max_attempts` is where it stops (a manual redelivery allows one more).
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(), // wdl_…
    event_id: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpoint_id: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'sending', 'succeeded', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    max_attempts: integer('max_attempts').notNull(),
    next_attempt_at: integer('next_attempt_at').notNull(),
    lease_until: integer('lease_until'),
    last_attempt_at: integer('last_attempt_at'),
    last_response_code: integer('last_response_code'),
    last_duration_ms: integer('last_duration_ms'),
    last_error: text('last_error'),
    /** Stamped by the claim and by the recording of an attempt: the recording's guard and follow-ups test it. */
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.event_id, t.endpoint_id),
    index('webhook_deliveries_endpoint_idx').on(t.endpoint_id, t.created_at),
    index('webhook_deliveries_due_idx').on(t.status, t.next_attempt_at),
  ],
);

/** The delivery log: one row per attempt, written in the same batch that records its outcome. */
export const webhookDeliveryAttempts = sqliteTable(
  'webhook_delivery_attempts',
  {
    id: text('id').primaryKey(), // wat_…
    delivery_id: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    /** A manual redelivery asked for by the partner. */
    manual: bool('manual').notNull().default(false),
    started_at: integer('started_at').notNull(),
    duration_ms: integer('duration_ms').notNull(),
    response_code: integer('response_code'),
    error: text('error'),
    outcome: text('outcome', { enum: ['succeeded', 'retrying', 'failed'] }).notNull(),
  },
  (t) => [uniqueIndex('webhook_delivery_attempts_attempt_idx').on(t.delivery_id, t.attempt)],
);
