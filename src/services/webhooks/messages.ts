import { z } from 'zod';
import { type WebhookEnvelope, webhookEnvelopeAnySchema } from './payloads';

/**
 * Messages on the webhooks queue: a partner event from the outbox (its envelope, fanned out to the
 * subscribed endpoints), or one delivery's next attempt. `attempts` is how many attempts the delivery
 * had made when the message was sent; the message makes attempt `attempts + 1`, so a stale duplicate
 * (its attempt already made) is recognised and acknowledged.
 */
export const webhookDeliverMessageSchema = z.object({
  type: z.literal('webhook.deliver'),
  delivery_id: z.string().max(64),
  attempts: z.number().int().min(0),
  /** A redelivery the partner asked for (one attempt, logged as manual). */
  manual: z.boolean().optional(),
});
export type WebhookDeliverMessage = z.infer<typeof webhookDeliverMessageSchema>;

export type WebhooksMessage = { kind: 'deliver'; message: WebhookDeliverMessage } | { kind: 'event'; event: WebhookEnvelope };

/** Reads a webhooks-queue body; null when it is neither (it will never succeed: dead-lettered). */
export function parseWebhooksMessage(body: unknown): WebhooksMessage | null {
  const deliver = webhookDeliverMessageSchema.safeParse(body);
  if (deliver.success) return { kind: 'deliver', message: deliver.data };
  const event = webhookEnvelopeAnySchema.safeParse(body);
  return event.success ? { kind: 'event', event: event.data } : null;
}
