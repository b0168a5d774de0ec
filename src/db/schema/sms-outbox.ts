import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Text messages to a phone number that belongs to no account (a crew invitation), sent through the
 * events outbox: the row is written in the batch of the change that causes it, with an outbox event
 * (`sms.send`) that the notifications queue delivers (services/notifications/text-outbox.ts). Texts
 * to an account go through the notifications' SMS channel instead. Like email_outbox, a `sensitive`
 * text (one carrying a link with a token) is redacted once sent, unless LOCAL_MAILBOX is on.
 */
export const smsOutbox = sqliteTable(
  'sms_outbox',
  {
    id: text('id').primaryKey(), // txt_…
    to_number: text('to_number').notNull(),
    text_body: text('text_body').notNull(),
    template: text('template').notNull(),
    provider: text('provider').notNull(), // 'local' for the stand-in, else the provider's name
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] }).notNull(),
    sensitive: integer('sensitive', { mode: 'boolean' }).notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    /** Why the last attempt failed; never the message itself. */
    last_error: text('last_error'),
    /** When the sweep may re-send it (for a `sending` row: when its lease ends). */
    next_attempt_at: integer('next_attempt_at').notNull().default(0),
    created_at: integer('created_at').notNull(),
    sent_at: integer('sent_at'),
  },
  (t) => [index('sms_outbox_to_idx').on(t.to_number, t.created_at)],
);
