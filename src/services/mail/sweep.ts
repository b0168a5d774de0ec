import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { errorFields } from '../../lib/log';
import { type NotificationsMessage, planBatches, type ServiceContext } from '../kernel';
import { REDACTED_FAILED } from './redaction';

/** An email not delivered within a day is `failed`: whatever it said is stale by then. */
export const EMAIL_MAX_AGE_MS = 24 * 60 * 60_000;
/** A row the sweep re-enqueued is not re-enqueued again before this, unless a delivery reschedules it. */
export const EMAIL_SWEEP_RESEND_MS = 10 * 60_000;
const SWEEP_LIMIT = 100;
const SLICE = 50;

/**
 * Cron: re-enqueues emails that are due: queued past the grace period or their backoff, or `sending`
 * past a lease whose delivery never finished. Emails never tried go first, then retries, each oldest
 * first, so failing rows cannot hold back new mail; each picked row is pushed back before it is sent.
 */
export async function sweepEmailOutbox(ctx: ServiceContext): Promise<{ enqueued: number; expired: number }> {
  const now = ctx.now();
  const pending = inArray(emailOutbox.status, ['queued', 'sending']);
  const due = or(eq(emailOutbox.status, 'queued'), lte(emailOutbox.next_attempt_at, now));

  const expired = await ctx.db
    .update(emailOutbox)
    .set({ status: 'failed', last_error: 'not delivered within 24 hours', ...expiredRedaction(ctx) })
    .where(and(pending, due, lt(emailOutbox.created_at, now - EMAIL_MAX_AGE_MS)))
    .returning({ id: emailOutbox.id });
  if (expired.length) ctx.log.warn('emails not delivered within 24 hours marked failed', { count: expired.length });

  const picked = await ctx.db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(pending, lte(emailOutbox.next_attempt_at, now)))
    .orderBy(asc(emailOutbox.attempts), asc(emailOutbox.next_attempt_at), asc(emailOutbox.created_at))
    .limit(SWEEP_LIMIT);

  let enqueued = 0;
  for (const slice of chunk(
    picked.map((r) => r.id),
    SLICE,
  )) {
    // Rows a delivery claimed since the select carry a new lease and are left to it.
    const taken = await ctx.db
      .update(emailOutbox)
      .set({ status: 'queued', next_attempt_at: now + EMAIL_SWEEP_RESEND_MS })
      .where(and(inArray(emailOutbox.id, slice), pending, lte(emailOutbox.next_attempt_at, now)))
      .returning({ id: emailOutbox.id });
    const messages = taken.map((r) => ({ key: r.id, body: { type: 'email.send', outbox_id: r.id } satisfies NotificationsMessage }));
    for (const batch of planBatches(messages).batches) {
      try {
        await ctx.env.NOTIFICATIONS_QUEUE.sendBatch(batch.map((m) => ({ body: m.body })));
        enqueued += batch.length;
      } catch (err) {
        // The rows stay queued and are due again after EMAIL_SWEEP_RESEND_MS.
        ctx.log.warn('email re-enqueue failed; the next sweep retries', { messages: batch.length, ...errorFields(err) });
      }
    }
  }
  return { enqueued, expired: expired.length };
}

function expiredRedaction(ctx: ServiceContext) {
  if (ctx.settings.LOCAL_MAILBOX) return {};
  return {
    subject: sql`CASE WHEN ${emailOutbox.sensitive} THEN ${REDACTED_FAILED} ELSE ${emailOutbox.subject} END`,
    text_body: sql`CASE WHEN ${emailOutbox.sensitive} THEN ${REDACTED_FAILED} ELSE ${emailOutbox.text_body} END`,
  };
}
