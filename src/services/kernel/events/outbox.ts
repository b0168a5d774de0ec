import { and, asc, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { insertWhere } from '../../../db/conditional';
import { outboxEvents } from '../../../db/schema';
import { chunk } from '../../../lib/chunk';
import { newId } from '../../../lib/ids';
import { errorFields, safeErrorMessage } from '../../../lib/log';
import type { ServiceContext } from '../context';
import type { NotificationsMessage } from './messages';
import { planBatches, QUEUE_LIMITS } from './queue-batches';
import { nextAttemptAfterFailure } from './retry';

export type Topic = 'notifications' | 'webhooks';

/** After this many failed sends an event is `failed` and no longer swept. */
export const MAX_OUTBOX_ATTEMPTS = 10;
/** The sweep leaves a new event alone this long: the publish after commit normally sends it. */
export const OUTBOX_GRACE_MS = 60_000;
/** Events the sweep reads per run (sent in slices of 50, under D1's 100 bound parameters). */
const SWEEP_LIMIT = 500;
const SLICE = 50;

/**
 * Drafts an event for the transactional outbox. With `onlyIf`, the row is written only when that
 * condition holds inside the batch (e.g. the guarded state change took effect).
 */
export function draftEvent(ctx: ServiceContext, topic: Topic, body: NotificationsMessage | Record<string, unknown>, onlyIf?: SQL) {
  const id = newId('outbox');
  const now = ctx.now();
  const values = {
    id,
    topic,
    body: JSON.stringify(body),
    status: 'queued' as const,
    attempts: 0,
    last_error: null,
    next_attempt_at: now + OUTBOX_GRACE_MS,
    created_at: now,
    sent_at: null,
  };
  const statement = onlyIf ? insertWhere(ctx.db, outboxEvents, values, onlyIf) : ctx.db.insert(outboxEvents).values(values);
  return { id, statement };
}

function queueFor(ctx: ServiceContext, topic: Topic): Queue {
  return topic === 'webhooks' ? ctx.env.WEBHOOKS_QUEUE : ctx.env.NOTIFICATIONS_QUEUE;
}

/**
 * Sends the given outbox rows that exist and are still queued, then marks them sent. Rows whose
 * conditional insert did not happen simply are not there. A failed send counts an attempt and leaves
 * the rows for the cron sweep (with backoff); a message too large for the queue fails at once.
 */
export async function publishOutbox(ctx: ServiceContext, ids: string[]): Promise<number> {
  let sent = 0;
  for (const slice of chunk(ids, SLICE)) {
    const rows = await ctx.db
      .select({ id: outboxEvents.id, topic: outboxEvents.topic, body: outboxEvents.body })
      .from(outboxEvents)
      .where(and(inArray(outboxEvents.id, slice), eq(outboxEvents.status, 'queued')));
    sent += await publishRows(ctx, rows);
  }
  return sent;
}

async function publishRows(ctx: ServiceContext, rows: { id: string; topic: Topic; body: string }[]): Promise<number> {
  let sent = 0;
  for (const topic of ['notifications', 'webhooks'] as const) {
    const items = rows.filter((r) => r.topic === topic).map((r) => ({ key: r.id, body: JSON.parse(r.body) as unknown }));
    if (!items.length) continue;
    const plan = planBatches(items);
    for (const big of plan.tooLarge) await failTooLarge(ctx, topic, big.key, big.bytes);
    for (const batch of plan.batches) {
      const ids = batch.map((m) => m.key);
      try {
        await queueFor(ctx, topic).sendBatch(batch.map((m) => ({ body: m.body })));
      } catch (err) {
        ctx.log.warn('outbox publish failed; the sweep will retry', { topic, messages: ids.length, ...errorFields(err) });
        await recordFailedAttempt(ctx, topic, ids, err);
        continue;
      }
      await ctx.db
        .update(outboxEvents)
        .set({ status: 'sent', sent_at: ctx.now(), attempts: sql`${outboxEvents.attempts} + 1`, last_error: null })
        .where(and(inArray(outboxEvents.id, ids), eq(outboxEvents.status, 'queued')));
      sent += ids.length;
    }
  }
  return sent;
}

/** One more failed attempt for each row: back off, or give up after MAX_OUTBOX_ATTEMPTS. */
async function recordFailedAttempt(ctx: ServiceContext, topic: Topic, ids: string[], err: unknown) {
  const now = ctx.now();
  const failed = await ctx.db
    .update(outboxEvents)
    .set({
      attempts: sql`${outboxEvents.attempts} + 1`,
      status: sql`CASE WHEN ${outboxEvents.attempts} + 1 >= ${MAX_OUTBOX_ATTEMPTS} THEN 'failed' ELSE 'queued' END`,
      last_error: safeErrorMessage(err),
      next_attempt_at: nextAttemptAfterFailure(now, outboxEvents.attempts),
    })
    .where(and(inArray(outboxEvents.id, ids), eq(outboxEvents.status, 'queued')))
    .returning({ id: outboxEvents.id, status: outboxEvents.status, attempts: outboxEvents.attempts });
  for (const row of failed.filter((r) => r.status === 'failed')) {
    ctx.log.error('outbox event failed for good; it is no longer re-sent', { outbox_id: row.id, topic, attempts: row.attempts });
  }
}

async function failTooLarge(ctx: ServiceContext, topic: Topic, id: string, bytes: number) {
  ctx.log.error('outbox event too large for the queue; marked failed, not retried', {
    outbox_id: id,
    topic,
    bytes,
    limit_bytes: QUEUE_LIMITS.messageBytes,
  });
  await ctx.db
    .update(outboxEvents)
    .set({
      status: 'failed',
      attempts: sql`${outboxEvents.attempts} + 1`,
      last_error: `message too large for the queue: ${bytes} bytes, the limit is ${QUEUE_LIMITS.messageBytes}`,
    })
    .where(and(eq(outboxEvents.id, id), eq(outboxEvents.status, 'queued')));
}

/**
 * Cron: re-sends queued events that are due (past the grace period, or past their backoff). Events
 * never tried go first, then retries, each oldest first, so failing rows cannot hold back new ones.
 */
export async function sweepOutbox(ctx: ServiceContext): Promise<number> {
  const due = await ctx.db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(and(eq(outboxEvents.status, 'queued'), lte(outboxEvents.next_attempt_at, ctx.now())))
    .orderBy(asc(outboxEvents.attempts), asc(outboxEvents.next_attempt_at), asc(outboxEvents.created_at))
    .limit(SWEEP_LIMIT);
  return publishOutbox(
    ctx,
    due.map((r) => r.id),
  );
}
