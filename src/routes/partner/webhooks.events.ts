import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { DELIVERY_TIMEOUT_MS, MAX_ATTEMPTS, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, webhookEnvelopeSchema } from '../../services/webhooks';

/**
 * The partner events in the OpenAPI 3.1 document's `webhooks` section: one entry per event type, the
 * request Shiftmarket sends to an endpoint (its headers and its JSON body). Generated from the same
 * zod payload schemas the producers use.
 */
const headers = z.object({
  'Shiftmarket-Signature': z.string().max(400).openapi({
    example: 't=1764000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    description:
      'HMAC-SHA256 of `<t>.<raw body>` under the endpoint secret (its UTF-8 bytes), hex. During a secret rotation a second `v1=` may follow: accept any that matches. Reject `t` more than 5 minutes from your clock.',
  }),
  'Shiftmarket-Event-Id': z
    .string()
    .max(64)
    .openapi({ description: 'The event id (also `id` in the body): the same on every retry; de-duplicate on it.' }),
  'Shiftmarket-Event-Type': z.string().max(64).openapi({ description: 'The event type (also `type` in the body).' }),
  'webhook-id': z
    .string()
    .max(64)
    .openapi({ description: 'Standard Webhooks: the event id, as Shiftmarket-Event-Id (the same on every retry and redelivery).' }),
  'webhook-timestamp': z
    .string()
    .max(20)
    .openapi({ example: '1764000000', description: 'Standard Webhooks: the unix seconds of this attempt (the same as `t` above).' }),
  'webhook-signature': z.string().max(400).openapi({
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    description:
      'Standard Webhooks: `v1,<base64>`, the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the endpoint secret as the standard reads `whsec_<base64>` (the decoded bytes after the prefix). During a secret rotation a second `v1,…` follows after a space. Any Standard Webhooks library verifies it with the endpoint secret.',
  }),
});

const DELIVERY_NOTE = `Delivered at least once: answer 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s to acknowledge. Anything else (or no answer) is retried up to ${MAX_ATTEMPTS} times over about three days (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, with jitter); a 429 or 503 with Retry-After waits at least that long; 410 Gone disables the endpoint; redirects are not followed.`;

const operationId = (type: string) =>
  `webhook${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;

export function registerWebhookEvents(registry: OpenAPIHono['openAPIRegistry']) {
  for (const type of WEBHOOK_EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: operationId(type),
      tags: ['Partner webhooks'],
      summary: type,
      description: `${WEBHOOK_EVENTS[type].summary}\n\n${DELIVERY_NOTE}`,
      security: [],
      request: {
        headers,
        body: { required: true, content: { 'application/json': { schema: webhookEnvelopeSchema(type) } } },
      },
      responses: {
        200: { description: 'Any 2xx acknowledges the delivery; the body is ignored.' },
        410: { description: 'Gone: the endpoint is disabled and receives nothing more until the partner enables it.' },
      },
    });
  }
}
