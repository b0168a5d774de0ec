import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Idempotency-Key records of authenticated POSTs (kept 24 hours). `processing` while the first
 * attempt runs; `committed` once the change is written (set by the guarded write in the same batch
 * as the change, with the subject it created or changed) but no answer is stored yet; `done` with the
 * stored answer. A `committed` record is never released: a retry answers from its subject.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    id: text('id').primaryKey(),
    scope: text('scope').notNull(), // the caller: user id, or partner:<id>
    idem_key: text('idem_key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    request_hash: text('request_hash').notNull(),
    state: text('state', { enum: ['processing', 'committed', 'done'] }).notNull(),
    /** The subject the committed change wrote (e.g. `shift_request` + its id). */
    resource_type: text('resource_type'),
    resource_id: text('resource_id'),
    /** Which attempt holds the record; a takeover bumps it conditionally, so only one retry runs. */
    attempt: integer('attempt').notNull().default(1),
    /** When the running attempt started; null when none runs (it answered 5xx after the commit). */
    attempt_started_at: integer('attempt_started_at'),
    status_code: integer('status_code'),
    response_body: text('response_body'),
    response_content_type: text('response_content_type'),
    created_at: integer('created_at').notNull(),
    expires_at: integer('expires_at').notNull(),
  },
  (t) => [uniqueIndex('idempotency_scope_key').on(t.scope, t.idem_key), index('idempotency_expires_idx').on(t.expires_at)],
);

/** Who did what. Written in the same batch as the change it describes. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    actor_kind: text('actor_kind').notNull(),
    actor_user_id: text('actor_user_id'),
    actor_ref: text('actor_ref'), // api key id, token id, partner id, job name
    action: text('action').notNull(),
    subject_type: text('subject_type').notNull(),
    subject_id: text('subject_id').notNull(),
    request_id: text('request_id'),
    data: text('data'), // JSON
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('audit_subject_idx').on(t.subject_type, t.subject_id), index('audit_actor_idx').on(t.actor_user_id)],
);

/**
 * Every email is written here before it is sent (the transactional outbox for mail). `queued` rows
 * are delivered by the notifications consumer, which claims a row as `sending` for a short lease,
 * then marks it `sent`, or back to `queued` with a later `next_attempt_at`, or `failed` after
 * MAX_EMAIL_ATTEMPTS. A `sensitive` row (codes, reset links) keeps no readable subject or body once
 * sent or failed, unless LOCAL_MAILBOX is on (the row is then the developer's mailbox).
 */
export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: text('id').primaryKey(),
    to_address: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text_body: text('text_body').notNull(),
    template: text('template').notNull(),
    provider: text('provider').notNull(), // 'outbox' locally, the provider's name otherwise
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] }).notNull(),
    sensitive: integer('sensitive', { mode: 'boolean' }).notNull().default(false),
    /** Delivery attempts made (each provider call counts, whether it succeeded or not). */
    attempts: integer('attempts').notNull().default(0),
    /** Why the last attempt failed; never the message itself. */
    last_error: text('last_error'),
    /** When the sweep may re-send it (for a `sending` row: when its lease ends). */
    next_attempt_at: integer('next_attempt_at').notNull().default(0),
    created_at: integer('created_at').notNull(),
    sent_at: integer('sent_at'),
  },
  (t) => [index('email_outbox_to_idx').on(t.to_address, t.created_at), index('email_outbox_due_idx').on(t.status, t.next_attempt_at)],
);

/** Notifications recorded by the notifications queue consumer; dedupe_key makes delivery idempotent. */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    dedupe_key: text('dedupe_key').notNull().unique(),
    user_id: text('user_id').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    data: text('data'),
    read_at: integer('read_at'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('notifications_user_idx').on(t.user_id, t.created_at)],
);

/** Messages that exhausted their retries, kept for an operator to inspect and replay. */
export const deadLetters = sqliteTable('dead_letters', {
  id: text('id').primaryKey(),
  queue: text('queue').notNull(),
  message_id: text('message_id').notNull().unique(),
  body: text('body').notNull(),
  attempts: integer('attempts').notNull(),
  created_at: integer('created_at').notNull(),
});

/**
 * Transactional outbox for queue messages: written in the same batch as the change that causes
 * them, sent after commit, and re-sent by the cron sweep while `queued` and due. A send that fails
 * counts an attempt and backs off; after MAX_OUTBOX_ATTEMPTS, or at once when the message is too
 * large for the queue, the row is `failed` and kept for an operator. Consumers are idempotent, so a
 * re-send is harmless.
 */
export const outboxEvents = sqliteTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    topic: text('topic', { enum: ['notifications', 'webhooks'] }).notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    next_attempt_at: integer('next_attempt_at').notNull().default(0),
    created_at: integer('created_at').notNull(),
    sent_at: integer('sent_at'),
  },
  (t) => [index('outbox_events_due_idx').on(t.status, t.next_attempt_at)],
);
