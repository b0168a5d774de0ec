import { and, inArray, isNull, lt, type SQL } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { outboxEvents } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { newId } from '../../lib/ids';
import type { NotificationsMessage } from '../../queues/messages';
import type { ServiceContext } from '../context';

export type Topic = 'notifications' | 'webhooks';

/**
 * Drafts an event for the transactional outbox. With `onlyIf`, the row is written only when that
 * condition holds inside the batch (e.g. the guarded state change took effect).
 */
export function draftEvent(ctx: ServiceContext, topic: Topic, body: NotificationsMessage | Record<string, unknown>, onlyIf?: SQL) {
  const id = newId('outbox');
  const values = { id, topic, body: JSON.stringify(body), created_at: ctx.now(), sent_at: null };
  const statement = onlyIf ? insertWhere(ctx.db, outboxEvents, values, onlyIf) : ctx.db.insert(outboxEvents).values(values);
  return { id, statement };
}

function queueFor(ctx: ServiceContext, topic: string): Queue {
  return topic === 'webhooks' ? ctx.env.WEBHOOKS_QUEUE : ctx.env.NOTIFICATIONS_QUEUE;
}

/**
 * Sends the given outbox rows that exist and are unsent, then stamps them. Rows whose conditional
 * insert did not happen simply are not there. A failure leaves rows unsent for the cron sweep.
 */
export async function publishOutbox(ctx: ServiceContext, ids: string[]): Promise<number> {
  let sent = 0;
  // D1 binds at most 100 parameters per statement.
  for (const slice of chunk(ids, 50)) sent += await publishSlice(ctx, slice);
  return sent;
}

async function publishSlice(ctx: ServiceContext, ids: string[]): Promise<number> {
  const rows = await ctx.db
    .select()
    .from(outboxEvents)
    .where(and(inArray(outboxEvents.id, ids), isNull(outboxEvents.sent_at)));
  let sent = 0;
  for (const topic of ['notifications', 'webhooks'] as const) {
    const batch = rows.filter((r) => r.topic === topic);
    if (!batch.length) continue;
    try {
      await queueFor(ctx, topic).sendBatch(batch.map((r) => ({ body: JSON.parse(r.body) as unknown })));
      await ctx.db
        .update(outboxEvents)
        .set({ sent_at: ctx.now() })
        .where(inArray(outboxEvents.id, batch.map((r) => r.id)));
      sent += batch.length;
    } catch (err) {
      ctx.log.warn('outbox publish failed; the sweep will retry', { topic, error: String(err) });
    }
  }
  return sent;
}

/** Cron: re-sends outbox rows still unsent a minute after they were written. */
export async function sweepOutbox(ctx: ServiceContext): Promise<number> {
  const stale = await ctx.db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(and(isNull(outboxEvents.sent_at), lt(outboxEvents.created_at, ctx.now() - 60_000)))
    .limit(500);
  return publishOutbox(ctx, stale.map((r) => r.id));
}
