import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEvents } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { committedSubject, prepareWrite, type ServiceContext } from '../kernel';
import { ownEndpoint } from './endpoints';
import { eventWrites } from './fanout';
import type { WebhookDeliverMessage } from './messages';
import { partnerEvent } from './produce';
import type { ListDeliveriesQuery, WebhookDeliveryView } from './schemas';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

function deliveryView(d: DeliveryRow, eventType: string, log: AttemptRow[]): WebhookDeliveryView {
  const final = d.status === 'succeeded' || d.status === 'failed';
  return {
    id: d.id,
    endpoint_id: d.endpoint_id,
    event_id: d.event_id,
    event_type: eventType,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.max_attempts,
    next_attempt_at: final ? null : toIso(d.next_attempt_at),
    last_attempt_at: toIso(d.last_attempt_at),
    last_response_code: d.last_response_code,
    last_duration_ms: d.last_duration_ms,
    last_error: d.last_error,
    created_at: toIso(d.created_at),
    attempt_log: log.map((a) => ({
      attempt: a.attempt,
      manual: a.manual,
      started_at: toIso(a.started_at),
      duration_ms: a.duration_ms,
      response_code: a.response_code,
      error: a.error,
      outcome: a.outcome,
    })),
  };
}

async function attemptLogs(ctx: ServiceContext, ids: string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const slice of chunk(ids, 50)) {
    const rows = await ctx.db
      .select()
      .from(webhookDeliveryAttempts)
      .where(inArray(webhookDeliveryAttempts.delivery_id, slice))
      .orderBy(asc(webhookDeliveryAttempts.attempt));
    for (const r of rows) byDelivery.set(r.delivery_id, [...(byDelivery.get(r.delivery_id) ?? []), r]);
  }
  return byDelivery;
}

/** The endpoint's deliveries, newest first, each with its attempt log (the delivery log). */
export async function listDeliveries(
  ctx: ServiceContext,
  endpointId: string,
  q: ListDeliveriesQuery,
): Promise<{ data: WebhookDeliveryView[]; deliveries: WebhookDeliveryView[]; next_cursor: string | null }> {
  const endpoint = await ownEndpoint(ctx, endpointId);
  const after = q.cursor ? decodeCursor(q.cursor, isKeysetCursor) : null;
  const rows = await ctx.db
    .select({ d: webhookDeliveries, type: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.event_id))
    .where(
      and(
        eq(webhookDeliveries.endpoint_id, endpoint.id),
        q.status ? eq(webhookDeliveries.status, q.status) : undefined,
        after
          ? or(
              lt(webhookDeliveries.created_at, after[0]),
              and(eq(webhookDeliveries.created_at, after[0]), lt(webhookDeliveries.id, after[1])),
            )
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const logs = await attemptLogs(
    ctx,
    page.map((r) => r.d.id),
  );
  const last = page.at(-1);
  const data = page.map((r) => deliveryView(r.d, r.type, logs.get(r.d.id) ?? []));
  return {
    data,
    // `deliveries`: the list's old name, kept through v1.
    deliveries: data,
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.d.created_at, last.d.id]) : null,
  };
}

async function loadOwnDelivery(ctx: ServiceContext, endpointId: string, deliveryId: string) {
  const endpoint = await ownEndpoint(ctx, endpointId);
  const [row] = await ctx.db
    .select({ d: webhookDeliveries, type: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.event_id))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpoint_id, endpoint.id)))
    .limit(1);
  if (!row) throw new AppError('WEBHOOK-DELIVERY-NOT-FND-ERR');
  return { endpoint, ...row };
}

async function viewOf(ctx: ServiceContext, endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  const { d, type } = await loadOwnDelivery(ctx, endpointId, deliveryId);
  return deliveryView(d, type, (await attemptLogs(ctx, [d.id])).get(d.id) ?? []);
}

/**
 * Sends a finished delivery (succeeded or failed) once more, now: the same event id and body, one
 * attempt, logged as manual. Its message goes through the outbox in the same batch, so it is not lost.
 */
export async function redeliver(ctx: ServiceContext, endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  const done = committedSubject(ctx, 'webhook_delivery');
  if (done) return viewOf(ctx, endpointId, done);
  const { endpoint, d } = await loadOwnDelivery(ctx, endpointId, deliveryId);
  if (endpoint.status !== 'active') throw new AppError('WEBHOOK-ENDPOINT-DISABLED-ERR');
  if (d.status === 'pending' || d.status === 'sending') throw new AppError('WEBHOOK-DELIVERY-IN-PROGRESS-ERR');
  const now = ctx.now();
  const w = prepareWrite(
    ctx,
    { type: 'webhook_delivery', id: d.id },
    (op) =>
      sql`EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${webhookDeliveries.id} = ${d.id} AND ${webhookDeliveries.last_op_id} = ${op})`,
  );
  const message: WebhookDeliverMessage = { type: 'webhook.deliver', delivery_id: d.id, attempts: d.attempts, manual: true };
  const r = await w.commit({
    guard: ctx.db
      .update(webhookDeliveries)
      .set({ status: 'pending', max_attempts: d.attempts + 1, next_attempt_at: now, last_op_id: w.op, updated_at: now })
      .where(
        and(
          eq(webhookDeliveries.id, d.id),
          eq(webhookDeliveries.attempts, d.attempts),
          inArray(webhookDeliveries.status, ['succeeded', 'failed']),
        ),
      ),
    audit: { action: 'webhook_delivery.redeliver', data: { endpoint_id: endpoint.id, event_id: d.event_id } },
    events: [{ topic: 'webhooks', body: message }],
  });
  if (!r.applied) throw new AppError('WEBHOOK-DELIVERY-IN-PROGRESS-ERR');
  return viewOf(ctx, endpoint.id, d.id);
}

/** A `webhook.test` event for this endpoint alone, delivered like any other (signed, retried, logged). */
export async function sendTestEvent(ctx: ServiceContext, endpointId: string): Promise<{ event_id: string; delivery_id: string }> {
  const done = committedSubject(ctx, 'webhook_event');
  if (done) {
    const [d] = await ctx.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.event_id, done), eq(webhookDeliveries.endpoint_id, endpointId)))
      .limit(1);
    if (d) return { event_id: done, delivery_id: d.id };
  }
  const endpoint = await ownEndpoint(ctx, endpointId);
  if (endpoint.status !== 'active') throw new AppError('WEBHOOK-ENDPOINT-DISABLED-ERR');
  const now = ctx.now();
  const event = partnerEvent(
    'webhook.test',
    null,
    { endpoint_id: endpoint.id, message: 'A test event from Shiftmarket: your endpoint received and verified it.' },
    now,
  ).body;
  const [guard, ...follow] = eventWrites(ctx, event, [endpoint.id]);
  const r = await prepareWrite(ctx, { type: 'webhook_event', id: event.id }).commit({
    guard: guard!,
    follow,
    audit: { action: 'webhook_endpoint.test', data: { endpoint_id: endpoint.id } },
  });
  const [d] = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.event_id, r.subject.id), eq(webhookDeliveries.endpoint_id, endpoint.id)))
    .limit(1);
  if (!d) throw new Error('test event delivery missing after commit');
  await ctx.env.WEBHOOKS_QUEUE.send({ type: 'webhook.deliver', delivery_id: d.id, attempts: 0 } satisfies WebhookDeliverMessage).catch(
    (err: unknown) => {
      // Written as pending and due: the sweep sends it.
      ctx.log.warn('test event not queued; the sweep will send it', { delivery_id: d.id, error: String(err) });
    },
  );
  return { event_id: r.subject.id, delivery_id: d.id };
}
