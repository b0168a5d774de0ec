import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool } from './columns';
import { users } from './users';

/*
 * The notifications system beyond the in-app row (`notifications`, platform.ts): a user's settings
 * and per-channel preferences, their browsers' push subscriptions, and one delivery row per event,
 * person and channel (the de-duplication claim and the outbox an admin lists). services/notifications.
 */

/**
 * One row per user who changed a setting. `timezone` (IANA) is where quiet hours are read; it is
 * filled from the user's profile (shifter zone, else default business zone, else UTC) when the row
 * is first written. Quiet hours are wall-clock HH:MM in that zone; start > end spans midnight; both
 * null: none.
 */
export const notificationSettings = sqliteTable('notification_settings', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  timezone: text('timezone').notNull(),
  quiet_start: text('quiet_start'),
  quiet_end: text('quiet_end'),
  updated_at: integer('updated_at').notNull(),
});

/**
 * A user's choice for one outbound channel (push, email, sms) of one kind, or of a group of kinds
 * (`scope` = `group:<name>`). A kind's own row wins over its group's, which wins over the catalog's
 * default. No row: the default.
 */
export const notificationPreferences = sqliteTable(
  'notification_preferences',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    channel: text('channel', { enum: ['push', 'email', 'sms'] }).notNull(),
    enabled: bool('enabled').notNull(),
    updated_at: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.scope, t.channel] })],
);

/**
 * A browser's Web Push subscription (PushManager.subscribe): its push-service endpoint and the
 * keys the payload is encrypted to (RFC 8291). One account may register the same browser once;
 * a push service answering 404/410 ends it.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(), // psub_…
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The push service's own expiry of the subscription, when it gives one (epoch ms). */
    expiration_time: integer('expiration_time'),
    label: text('label'),
    created_at: integer('created_at').notNull(),
    last_success_at: integer('last_success_at'),
  },
  (t) => [uniqueIndex('push_subscriptions_user_endpoint').on(t.user_id, t.endpoint)],
);

export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;

/**
 * One row per (event's dedupe key, person, channel, target): claimed before anything is sent, so a
 * redelivered or concurrent message never sends twice. `queued` → `sending` (an attempt counted, a
 * lease in `next_attempt_at`) → `sent`, or back to `queued` with backoff, or `failed`; `skipped`
 * when there was nothing to send to (a subscription gone). `deliver_after` holds a non-urgent
 * notification until the person's quiet hours end. `target` is the push subscription id (one row
 * per browser) and '' for email and SMS. The rows are also the outbox of the local stand-ins.
 */
export const notificationDeliveries = sqliteTable(
  'notification_deliveries',
  {
    id: text('id').primaryKey(), // ndl_…
    dedupe_key: text('dedupe_key').notNull(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['push', 'email', 'sms'] }).notNull(),
    target: text('target').notNull().default(''),
    kind: text('kind').notNull(),
    /** The in-app notification this delivery carries (the push payload names it). */
    notification_id: text('notification_id'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** JSON of the producer's data (ids), for the push payload. */
    data: text('data'),
    sensitive: bool('sensitive').notNull().default(false),
    /** Where it went: the email address, the phone number, the push service's origin. */
    destination: text('destination'),
    /** Which adapter sent it: resend/outbox (email), twilio/local (SMS), webpush/local (push). */
    provider: text('provider'),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    deliver_after: integer('deliver_after').notNull(),
    next_attempt_at: integer('next_attempt_at').notNull(),
    created_at: integer('created_at').notNull(),
    sent_at: integer('sent_at'),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once').on(t.dedupe_key, t.user_id, t.channel, t.target),
    index('notification_deliveries_due_idx').on(t.status, t.next_attempt_at),
    index('notification_deliveries_user_idx').on(t.user_id, t.created_at),
    index('notification_deliveries_created_idx').on(t.created_at),
  ],
);
