import { and, eq, lte, or, sql } from 'drizzle-orm';
import { smsOutbox } from '../../db/schema';
import { newId } from '../../lib/ids';
import { safeErrorMessage } from '../../lib/log';
import { type NotificationsMessage, retryAfterMs, type ServiceContext } from '../kernel';
import { type DeliveryOutbox, sweepDeliveryOutbox } from '../mail';
import { smsProviderFor } from './sms';

/**
 * Texts to a phone number of no account (a crew invitation), through the events outbox: the caller
 * puts `insert` into the batch of the change that causes the text and `event` among its events
 * (`prepareWrite`'s `events`), so the text exists and is queued exactly when the change happened; the
 * outbox publishes it after the commit and its sweep re-publishes a failed send. The notifications
 * queue then delivers it once (`deliverText`); a text still unsent past its grace, its backoff or a
 * dead delivery's lease is re-queued by the cron's text sweep (`sweepTextOutbox`: the email outbox's
 * rule, `sweepDeliveryOutbox`), and given up on after a day or MAX_TEXT_ATTEMPTS attempts. Texts to
 * an account go through the notifications' SMS channel instead (its preferences, quiet hours and
 * record).
 */
export interface TextDraft {
  to: string;
  text: string;
  template: string;
  /** Carries a secret (a link with a token): its text is not kept once sent, unless LOCAL_MAILBOX is on. */
  sensitive?: boolean;
}

/** After this many provider calls without success the text is `failed` and no longer sent. */
export const MAX_TEXT_ATTEMPTS = 8;
/** A delivery holds its row this long; a duplicate message meanwhile is acknowledged, not sent. */
export const TEXT_LEASE_MS = 60_000;
/** What a sensitive text keeps once it is out. */
export const TEXT_REDACTED = '[redacted after sending]';
/** The sweep leaves a new text alone this long: the outbox's publish after commit normally sends it. */
export const TEXT_GRACE_MS = 2 * 60_000;

/** The text outbox as the sweep reads it: a sensitive text given up on keeps none of its content. */
const TEXT_OUTBOX: DeliveryOutbox = {
  table: smsOutbox,
  message: 'sms.send',
  noun: 'text',
  maxAttempts: MAX_TEXT_ATTEMPTS,
  givenUp: (ctx) =>
    ctx.settings.LOCAL_MAILBOX
      ? {}
      : { text_body: sql`CASE WHEN ${smsOutbox.sensitive} THEN ${TEXT_REDACTED} ELSE ${smsOutbox.text_body} END` },
};

/** Cron: re-queues texts left unsent, fails those a day old or out of attempts (sweepDeliveryOutbox). */
export function sweepTextOutbox(ctx: ServiceContext): Promise<{ enqueued: number; expired: number }> {
  return sweepDeliveryOutbox(ctx, TEXT_OUTBOX);
}

export function draftText(ctx: ServiceContext, draft: TextDraft) {
  const id = newId('textMessage');
  const now = ctx.now();
  const configured = ctx.settings.TWILIO_ACCOUNT_SID && ctx.settings.TWILIO_AUTH_TOKEN && ctx.settings.SMS_FROM;
  const insert = ctx.db.insert(smsOutbox).values({
    id,
    to_number: draft.to,
    text_body: draft.text,
    template: draft.template,
    provider: configured ? 'twilio' : 'local',
    status: 'queued',
    sensitive: draft.sensitive ?? false,
    attempts: 0,
    next_attempt_at: now + TEXT_GRACE_MS,
    created_at: now,
  });
  const message: NotificationsMessage = { type: 'sms.send', outbox_id: id };
  return { id, insert, event: { topic: 'notifications' as const, body: message } };
}

/**
 * Queue side: sends one outbox text once. The row is claimed first (queued → sending, one more
 * attempt, a lease), so a redelivered or concurrent duplicate message finds it taken or sent and is
 * skipped. A provider failure puts it back to queued and throws, for the queue to retry with backoff;
 * the MAX_TEXT_ATTEMPTS-th failure makes it `failed`.
 */
export async function deliverText(ctx: ServiceContext, outboxId: string): Promise<'sent' | 'skipped' | 'failed'> {
  const now = ctx.now();
  const [row] = await ctx.db
    .update(smsOutbox)
    .set({ status: 'sending', attempts: sql`${smsOutbox.attempts} + 1`, next_attempt_at: now + TEXT_LEASE_MS })
    .where(
      and(
        eq(smsOutbox.id, outboxId),
        or(eq(smsOutbox.status, 'queued'), and(eq(smsOutbox.status, 'sending'), lte(smsOutbox.next_attempt_at, now))),
      ),
    )
    .returning();
  if (!row) return 'skipped';
  const provider = smsProviderFor(ctx.settings, ctx.log);
  const redacted = row.sensitive && !ctx.settings.LOCAL_MAILBOX ? { text_body: TEXT_REDACTED } : {};
  try {
    await provider.send({ to: row.to_number, text: row.text_body, sensitive: row.sensitive });
  } catch (err) {
    const givingUp = row.attempts >= MAX_TEXT_ATTEMPTS;
    await ctx.db
      .update(smsOutbox)
      .set({
        status: givingUp ? 'failed' : 'queued',
        last_error: safeErrorMessage(err),
        // The queue retries it sooner; past its own retries, the sweep sends it again after this backoff.
        next_attempt_at: ctx.now() + retryAfterMs(row.attempts),
        ...(givingUp ? redacted : {}),
      })
      .where(and(eq(smsOutbox.id, row.id), eq(smsOutbox.status, 'sending'), eq(smsOutbox.attempts, row.attempts)));
    if (givingUp) {
      ctx.log.error('text failed for good; it is no longer sent', { outbox_id: row.id, template: row.template, attempts: row.attempts });
      return 'failed';
    }
    throw err;
  }
  await ctx.db
    .update(smsOutbox)
    .set({ status: 'sent', sent_at: ctx.now(), provider: provider.name, last_error: null, ...redacted })
    .where(and(eq(smsOutbox.id, row.id), eq(smsOutbox.status, 'sending')));
  return 'sent';
}
