import { and, eq, inArray } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { type PartnerScope, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { newId } from '../../lib/ids';
import { partnersOfBusiness } from '../access';
import type { ServiceContext } from '../kernel';
import type { WebhookDeliverMessage } from './messages';
import type { WebhookEnvelope, WebhookEventType } from './payloads';
import { MAX_ATTEMPTS } from './schedule';

/**
 * What a business's link must grant for its events to reach a partner client: `webhooks:manage` (the
 * business's consent to being pushed events) and the scope that reads what the event shows, so an
 * event never tells a partner more than the API would.
 */
const READ_SCOPE: Record<Exclude<WebhookEventType, 'webhook.test'>, PartnerScope> = {
  'shift_request.created': 'shifts:read',
  'broadcast.created': 'shifts:read',
  'shift_request.claimed': 'shifts:read',
  'shift_request.accepted': 'shifts:read',
  'shift_request.cancelled': 'shifts:read',
  'shift_request.clocked_in': 'shifts:read',
  'shift_request.clocked_out': 'shifts:read',
  'invoice.paid': 'shifts:read',
  'invoice.refunded': 'shifts:read',
  'review.disputed': 'shifts:read',
  'timesheet.submitted': 'shifts:read',
  'timesheet.approved': 'shifts:read',
  'timesheet.disputed': 'shifts:read',
  'timesheet.resolved': 'shifts:read',
};

export function parseEventTypes(stored: string): string[] {
  try {
    const v: unknown = JSON.parse(stored);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** The active endpoints that should receive an event about `businessId` of type `type`. */
export async function subscribedEndpoints(ctx: ServiceContext, businessId: string, type: WebhookEventType): Promise<string[]> {
  if (type === 'webhook.test') return [];
  const needed: PartnerScope[] = ['webhooks:manage', READ_SCOPE[type]];
  const clients = (await partnersOfBusiness(ctx, businessId)).filter((p) => needed.every((s) => p.scopes.includes(s)));
  if (!clients.length) return [];
  const rows: { id: string; eventTypes: string }[] = [];
  // Well under D1's 100 bound parameters a statement, however many clients a business links.
  for (const slice of chunk(clients, 50)) {
    rows.push(
      ...(await ctx.db
        .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.event_types })
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.status, 'active'),
            inArray(
              webhookEndpoints.partner_client_id,
              slice.map((p) => p.clientId),
            ),
          ),
        )),
    );
  }
  return rows.filter((r) => parseEventTypes(r.eventTypes).includes(type)).map((r) => r.id);
}

/** The event row (stored once, its payload the exact body every delivery sends) and its delivery rows. */
export function eventWrites(ctx: ServiceContext, event: WebhookEnvelope, endpointIds: string[]): BatchItem[] {
  const now = ctx.now();
  const statements: BatchItem[] = [
    ctx.db
      .insert(webhookEvents)
      .values({ id: event.id, type: event.type, business_id: event.business_id, payload: JSON.stringify(event), created_at: now })
      .onConflictDoNothing(),
  ];
  // D1 binds at most 100 parameters a statement: a handful of delivery rows per insert.
  for (const ids of chunk(endpointIds, 5)) {
    statements.push(
      ctx.db
        .insert(webhookDeliveries)
        .values(
          ids.map((endpointId) => ({
            id: newId('webhookDelivery'),
            event_id: event.id,
            endpoint_id: endpointId,
            status: 'pending' as const,
            attempts: 0,
            max_attempts: MAX_ATTEMPTS,
            next_attempt_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflictDoNothing(),
    );
  }
  return statements;
}

/** Queues the first attempt of each of the event's deliveries that has not made one yet (a duplicate is harmless). */
export async function enqueueFirstAttempts(ctx: ServiceContext, eventId: string): Promise<number> {
  const rows = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.event_id, eventId), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, 0)));
  for (const slice of chunk(rows, 100)) {
    await ctx.env.WEBHOOKS_QUEUE.sendBatch(
      slice.map((r) => ({ body: { type: 'webhook.deliver', delivery_id: r.id, attempts: 0 } satisfies WebhookDeliverMessage })),
    );
  }
  return rows.length;
}

/**
 * A partner event from the outbox: one delivery per subscribed endpoint, each its own queue message
 * (a slow receiver holds back nobody else). Safe to repeat: the event and its deliveries are keyed on
 * the event id, so a re-sent outbox row or a redelivered message makes no second delivery.
 */
export async function fanOutEvent(ctx: ServiceContext, event: WebhookEnvelope): Promise<number> {
  if (!event.business_id) return 0;
  const endpointIds = await subscribedEndpoints(ctx, event.business_id, event.type);
  ctx.log.info('partner event', { event_id: event.id, type: event.type, business_id: event.business_id, subscribers: endpointIds.length });
  if (!endpointIds.length) return 0;
  await runBatch(ctx.db, eventWrites(ctx, event, endpointIds));
  return enqueueFirstAttempts(ctx, event.id);
}
