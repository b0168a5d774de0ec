import { and, asc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { emailOutbox, smsOutbox } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { errorFields } from '../../lib/log';
import { type NotificationsMessage, planBatches, type ServiceContext } from '../kernel';

/** A message not delivered within a day is `failed`: whatever it said is stale by then. */
export const OUTBOX_MAX_AGE_MS = 24 * 60 * 60_000;
/** A row the sweep re-enqueued is not re-enqueued again before this, unless a delivery reschedules it. */
export const OUTBOX_SWEEP_RESEND_MS = 10 * 60_000;
/** The email names of the same bounds (the tests and the mail docs use them). */
export const EMAIL_MAX_AGE_MS = OUTBOX_MAX_AGE_MS;
export const EMAIL_SWEEP_RESEND_MS = OUTBOX_SWEEP_RESEND_MS;
const SWEEP_LIMIT = 100;
const SLICE = 50;

/**
 * A table of messages to send once each through the notifications queue (email_outbox, sms_outbox):
 * the columns they share (status queued → sending → sent or failed, attempts, next_attempt_at as the
 * grace, backoff or lease end, created_at), the queue message that delivers a row, the attempts bound
 * its delivery keeps, and what a row given up on keeps of its content.
 */
export interface DeliveryOutbox {
  table: typeof emailOutbox | typeof smsOutbox;
  message: NotificationsMessage['type'] & ('email.send' | 'sms.send');
  /** The messages' name in the log: "email", "text". */
  noun: string;
  maxAttempts: number;
  /** The content columns of the table that replace a sensitive row's once given up on (none to keep it readable). */
  givenUp: (ctx: ServiceContext) => Partial<Record<'subject' | 'text_body', SQL>>;
}

/**
 * Cron, for any delivery outbox: re-enqueues its rows that are due: queued past the grace period or
 * their backoff, or `sending` past a lease whose delivery never finished. Rows never tried go first,
 * then retries, each oldest first, so failing rows cannot hold back new ones; each picked row is
 * pushed back OUTBOX_SWEEP_RESEND_MS before it is sent. A due row older than OUTBOX_MAX_AGE_MS, or one
 * that has had its `maxAttempts` provider calls (a delivery that died holding its last lease), is
 * `failed` instead: the sweep never adds an attempt past the bound the delivery keeps.
 */
export async function sweepDeliveryOutbox(ctx: ServiceContext, box: DeliveryOutbox): Promise<{ enqueued: number; expired: number }> {
  const t = box.table;
  const now = ctx.now();
  const pending = inArray(t.status, ['queued', 'sending']);
  const due = or(eq(t.status, 'queued'), lte(t.next_attempt_at, now));
  const stale = lt(t.created_at, now - OUTBOX_MAX_AGE_MS);
  const spent = gte(t.attempts, box.maxAttempts);

  const expired = await ctx.db
    .update(t)
    .set({
      status: 'failed',
      last_error: sql`CASE WHEN ${stale} THEN 'not delivered within 24 hours' ELSE ${`no delivery after ${box.maxAttempts} attempts`} END`,
      ...box.givenUp(ctx),
    })
    .where(and(pending, due, or(stale, spent)))
    .returning({ id: t.id });
  if (expired.length) ctx.log.warn(`${box.noun}s given up on: a day old or out of attempts, marked failed`, { count: expired.length });

  const picked = await ctx.db
    .select({ id: t.id })
    .from(t)
    .where(and(pending, lte(t.next_attempt_at, now)))
    .orderBy(asc(t.attempts), asc(t.next_attempt_at), asc(t.created_at))
    .limit(SWEEP_LIMIT);

  let enqueued = 0;
  for (const slice of chunk(
    picked.map((r) => r.id),
    SLICE,
  )) {
    // Rows a delivery claimed since the select carry a new lease and are left to it.
    const taken = await ctx.db
      .update(t)
      .set({ status: 'queued', next_attempt_at: now + OUTBOX_SWEEP_RESEND_MS })
      .where(and(inArray(t.id, slice), pending, lte(t.next_attempt_at, now)))
      .returning({ id: t.id });
    const messages = taken.map((r) => ({ key: r.id, body: { type: box.message, outbox_id: r.id } satisfies NotificationsMessage }));
    for (const batch of planBatches(messages).batches) {
      try {
        await ctx.env.NOTIFICATIONS_QUEUE.sendBatch(batch.map((m) => ({ body: m.body })));
        enqueued += batch.length;
      } catch (err) {
        // The rows stay queued and are due again after OUTBOX_SWEEP_RESEND_MS.
        ctx.log.warn(`${box.noun} re-enqueue failed; the next sweep retries`, { messages: batch.length, ...errorFields(err) });
      }
    }
  }
  return { enqueued, expired: expired.length };
}
