import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema';
import { newId } from '../../lib/ids';
import { safeErrorMessage } from '../../lib/log';
import { type NotificationsMessage, retryAfterMs, type ServiceContext } from '../kernel';
import { mailProviderFor } from './provider';
import { REDACTED_FAILED, REDACTED_SENT, redaction } from './redaction';
import { type DeliveryOutbox, sweepDeliveryOutbox } from './sweep';

export { REDACTED_FAILED, REDACTED_SENT } from './redaction';
export { type DeliveryOutbox, OUTBOX_MAX_AGE_MS, sweepDeliveryOutbox } from './sweep';

export interface EmailDraft {
  to: string;
  subject: string;
  text: string;
  template: string;
  /**
   * The email carries a secret (a verification or reset code, a confirm link). Its subject and text
   * are never logged and not kept readable once it is sent or has failed, unless LOCAL_MAILBOX is on.
   */
  sensitive?: boolean;
}

/** After this many provider calls without success the email is `failed` and no longer sent. */
export const MAX_EMAIL_ATTEMPTS = 8;
/** A delivery holds its row this long; a duplicate message meanwhile is acknowledged, not sent. */
export const EMAIL_LEASE_MS = 60_000;
/** The sweep leaves a new email alone this long: the enqueue after commit normally sends it. */
export const EMAIL_GRACE_MS = 2 * 60_000;

/**
 * Transactional-outbox email: the caller puts `insert` in the same db.batch as the change that causes
 * the mail, then calls `enqueue` after the batch commits. A cron sweep re-enqueues rows still queued,
 * so a failed queue send loses nothing.
 */
export function draftEmail(ctx: ServiceContext, draft: EmailDraft) {
  const id = newId('email');
  const now = ctx.now();
  const insert = ctx.db.insert(emailOutbox).values({
    id,
    to_address: draft.to,
    subject: draft.subject,
    text_body: draft.text,
    template: draft.template,
    provider: ctx.env.MAIL_PROVIDER_API_KEY ? 'resend' : 'outbox',
    status: 'queued',
    sensitive: draft.sensitive ?? false,
    attempts: 0,
    next_attempt_at: now + EMAIL_GRACE_MS,
    created_at: now,
  });
  const message: NotificationsMessage = { type: 'email.send', outbox_id: id };
  return { id, insert, enqueue: () => ctx.env.NOTIFICATIONS_QUEUE.send(message) };
}

/** The email outbox as the sweep reads it: a sensitive email given up on keeps none of its content. */
const EMAIL_OUTBOX: DeliveryOutbox = {
  table: emailOutbox,
  message: 'email.send',
  noun: 'email',
  maxAttempts: MAX_EMAIL_ATTEMPTS,
  givenUp: (ctx) =>
    ctx.settings.LOCAL_MAILBOX
      ? {}
      : {
          subject: sql`CASE WHEN ${emailOutbox.sensitive} THEN ${REDACTED_FAILED} ELSE ${emailOutbox.subject} END`,
          text_body: sql`CASE WHEN ${emailOutbox.sensitive} THEN ${REDACTED_FAILED} ELSE ${emailOutbox.text_body} END`,
        },
};

/** Cron: the email outbox's sweep (sweepDeliveryOutbox: due rows re-enqueued, a day old or out of attempts failed). */
export function sweepEmailOutbox(ctx: ServiceContext): Promise<{ enqueued: number; expired: number }> {
  return sweepDeliveryOutbox(ctx, EMAIL_OUTBOX);
}

export type DeliveryResult = 'sent' | 'skipped' | 'failed';

/**
 * Queue side: delivers one outbox email once. The row is claimed first (queued → sending, one more
 * attempt, a lease), so a redelivered or concurrent duplicate message finds it taken or sent and is
 * skipped. A provider failure puts it back to queued and throws, for the queue to retry with backoff;
 * the MAX_EMAIL_ATTEMPTS-th failure makes it `failed` ('failed' is returned: nothing more to retry).
 */
export async function deliverEmail(ctx: ServiceContext, outboxId: string): Promise<DeliveryResult> {
  const now = ctx.now();
  const [row] = await ctx.db
    .update(emailOutbox)
    .set({ status: 'sending', attempts: sql`${emailOutbox.attempts} + 1`, next_attempt_at: now + EMAIL_LEASE_MS })
    .where(
      and(
        eq(emailOutbox.id, outboxId),
        or(eq(emailOutbox.status, 'queued'), and(eq(emailOutbox.status, 'sending'), lte(emailOutbox.next_attempt_at, now))),
      ),
    )
    .returning();
  if (!row) return 'skipped';

  const provider = mailProviderFor(ctx.env.MAIL_PROVIDER_API_KEY, ctx.log, ctx.settings.LOCAL_MAILBOX);
  try {
    await provider.send({
      id: row.id,
      to: row.to_address,
      from: ctx.settings.MAIL_FROM,
      subject: row.subject,
      text: row.text_body,
      template: row.template,
      sensitive: row.sensitive,
    });
  } catch (err) {
    const givingUp = row.attempts >= MAX_EMAIL_ATTEMPTS;
    await ctx.db
      .update(emailOutbox)
      .set({
        status: givingUp ? 'failed' : 'queued',
        last_error: safeErrorMessage(err),
        next_attempt_at: ctx.now() + retryAfterMs(row.attempts),
        ...(givingUp ? redaction(ctx, row.sensitive, REDACTED_FAILED) : {}),
      })
      // Only while this delivery still holds the row (a later claim's outcome is its own).
      .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, 'sending'), eq(emailOutbox.attempts, row.attempts)));
    if (givingUp) {
      ctx.log.error('email failed for good; it is no longer sent', { outbox_id: row.id, template: row.template, attempts: row.attempts });
      return 'failed';
    }
    throw err;
  }
  await ctx.db
    .update(emailOutbox)
    .set({ status: 'sent', sent_at: ctx.now(), provider: provider.name, last_error: null, ...redaction(ctx, row.sensitive, REDACTED_SENT) })
    .where(and(eq(emailOutbox.id, row.id), inArray(emailOutbox.status, ['sending', 'queued'])));
  return 'sent';
}
