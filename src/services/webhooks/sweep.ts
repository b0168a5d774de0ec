import { and, asc, eq, inArray, lte, notExists, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEvents } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import type { ServiceContext } from '../kernel';
import type { WebhookDeliverMessage } from './messages';

/** A due delivery nobody has taken for this long has lost its message: the sweep sends another. */
export const OVERDUE_MS = 10 * 60_000;
/** Deliveries (and their events and attempt log) are kept this long once final. */
export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 60 * 60_000;
const SWEEP_LIMIT = 200;

/**
 * Cron (every 5 minutes), the safety net under the queue: a `pending` delivery long past due, or a
 * `sending` one whose lease ran out long ago (its consumer crashed and the message is gone, e.g.
 * dead-lettered), gets a fresh message for the attempt it is waiting for; it is marked due now so the
 * next sweep leaves it alone for OVERDUE_MS. Old finished events are pruned with their log.
 */
export async function sweepWebhookDeliveries(ctx: ServiceContext): Promise<{ resent: number; pruned: number }> {
  const now = ctx.now();
  const stale = now - OVERDUE_MS;
  const pending = await ctx.db
    .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.next_attempt_at, stale)))
    .orderBy(asc(webhookDeliveries.next_attempt_at))
    .limit(SWEEP_LIMIT);
  const crashed = await ctx.db
    .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'sending'), lte(webhookDeliveries.lease_until, stale)))
    .limit(SWEEP_LIMIT);
  const messages: WebhookDeliverMessage[] = [
    ...pending.map((r) => ({ type: 'webhook.deliver' as const, delivery_id: r.id, attempts: r.attempts })),
    // A crashed attempt is taken up again as the same attempt (its number was counted at the claim).
    ...crashed.map((r) => ({ type: 'webhook.deliver' as const, delivery_id: r.id, attempts: r.attempts - 1 })),
  ];
  for (const slice of chunk(messages, 50)) {
    await ctx.env.WEBHOOKS_QUEUE.sendBatch(slice.map((body) => ({ body })));
    const ids = slice.map((m) => m.delivery_id);
    await ctx.db
      .update(webhookDeliveries)
      .set({ next_attempt_at: now, lease_until: sql`CASE WHEN ${webhookDeliveries.status} = 'sending' THEN ${now} ELSE NULL END` })
      .where(inArray(webhookDeliveries.id, ids));
  }
  const old = await ctx.db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        lte(webhookEvents.created_at, now - DELIVERY_LOG_RETENTION_MS),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(webhookDeliveries)
            .where(and(eq(webhookDeliveries.event_id, webhookEvents.id), inArray(webhookDeliveries.status, ['pending', 'sending']))),
        ),
      ),
    )
    .limit(SWEEP_LIMIT);
  for (const ids of chunk(
    old.map((r) => r.id),
    50,
  )) {
    await ctx.db.delete(webhookEvents).where(inArray(webhookEvents.id, ids));
  }
  return { resent: messages.length, pruned: old.length };
}
