import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { SUBSCRIBABLE_EVENT_TYPES } from './payloads';
import { MAX_WEBHOOK_URL_LENGTH } from './url-policy';
import { pagingCursor, pagingLimit } from '../kernel';

// The partner webhook routes' request and response schemas: the route contracts import them, the
// services take and return their inferred types.

/** Endpoints one partner client may have. */
export const MAX_ENDPOINTS_PER_CLIENT = 10;
/** The longest grace period of a rotated-out secret. */
export const MAX_PREVIOUS_SECRET_SECONDS = 24 * 60 * 60;

const iso = z.string().openapi({ format: 'date-time' });
const eventTypes = z
  .array(z.enum(SUBSCRIBABLE_EVENT_TYPES))
  .min(1)
  .max(SUBSCRIBABLE_EVENT_TYPES.length)
  .openapi({ description: 'The event types to receive (each listed once).' });

export const createEndpointInput = z
  .object({
    url: z.string().max(MAX_WEBHOOK_URL_LENGTH).openapi({
      example: 'https://hooks.example.com/shiftmarket',
      description: 'An https URL on a public host (no private, loopback or link-local addresses).',
    }),
    event_types: eventTypes,
    description: z.string().trim().max(200).optional(),
  })
  .openapi('CreateWebhookEndpointInput');
export type CreateEndpointInput = z.infer<typeof createEndpointInput>;

export const rotateSecretInput = z
  .object({
    previous_secret_valid_for_seconds: z.number().int().min(0).max(MAX_PREVIOUS_SECRET_SECONDS).default(0).openapi({
      description:
        'How long the old secret keeps signing too (a second `v1=` in Shiftmarket-Signature), so receivers can switch without losing events. 0: at once.',
    }),
  })
  .openapi('RotateWebhookSecretInput');
export type RotateSecretInput = z.infer<typeof rotateSecretInput>;

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.string()),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z
      .enum(['gone', 'failing'])
      .nullable()
      .openapi({ description: '`gone`: the receiver answered 410; `failing`: every attempt failed for 5 days.' }),
    disabled_at: iso.nullable(),
    consecutive_failures: z.number().int().openapi({ description: 'Failed attempts since the last success.' }),
    failing_since: iso.nullable().openapi({ description: 'The first failed attempt since the last success; null while healthy.' }),
    last_success_at: iso.nullable(),
    last_failure_at: iso.nullable(),
    previous_secret_expires_at: iso.nullable().openapi({ description: 'Until when the rotated-out secret still signs, if it does.' }),
    created_at: iso,
    updated_at: iso,
  })
  .openapi('WebhookEndpoint');
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;

const secret = z.string().nullable().openapi({
  example: 'whsec_3kT9…',
  description:
    'The signing secret, shown this once. Null only when this answer repeats a request whose first answer was lost (same Idempotency-Key): rotate the secret to get one.',
});

export const createdEndpointSchema = webhookEndpointSchema.extend({ secret }).openapi('WebhookEndpointCreated');
export const rotatedSecretSchema = z.object({ endpoint: webhookEndpointSchema, secret }).openapi('WebhookSecretRotated');
/** The list answers under `data`, like every list; the old name is kept, deprecated, through v1 (docs/decisions/partner-webhooks.md). */
const deprecatedAlias = (_name: string) =>
  ({
    deprecated: true,
    description: `The same list as \`data\`, under its old name; it goes in the next version: read \`data\`.`,
  }) as const;
export const endpointListSchema = z
  .object({
    data: z.array(webhookEndpointSchema).max(MAX_ENDPOINTS_PER_CLIENT),
    endpoints: z.array(webhookEndpointSchema).max(MAX_ENDPOINTS_PER_CLIENT).openapi(deprecatedAlias('endpoints')),
  })
  .openapi('WebhookEndpointList');
export const endpointDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('WebhookEndpointDeleted');

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  manual: z.boolean().openapi({ description: 'A redelivery the partner asked for.' }),
  started_at: iso,
  duration_ms: z.number().int(),
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
  outcome: z.enum(['succeeded', 'retrying', 'failed']),
});

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string().openapi({ description: 'Also sent as Shiftmarket-Event-Id.' }),
    event_type: z.string(),
    status: z.enum(['pending', 'sending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: iso.nullable().openapi({ description: 'When the next attempt is due; null once final.' }),
    last_attempt_at: iso.nullable(),
    last_response_code: z.number().int().nullable(),
    last_duration_ms: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: iso,
    attempt_log: z.array(deliveryAttemptSchema).max(64).openapi({ description: 'Every attempt, oldest first.' }),
  })
  .openapi('WebhookDelivery');
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export const MAX_DELIVERIES_PAGE = 100;
export const listDeliveriesQuery = z.object({
  limit: pagingLimit({ max: MAX_DELIVERIES_PAGE, default: 20, limitDescription: 'At most 100; default 20.' }),
  status: z.enum(['pending', 'sending', 'succeeded', 'failed']).optional(),
  cursor: pagingCursor({ cursorDescription: 'next_cursor of the previous page.' }),
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

export const deliveryListSchema = z
  .object({
    data: z.array(webhookDeliverySchema).max(MAX_DELIVERIES_PAGE),
    deliveries: z.array(webhookDeliverySchema).max(MAX_DELIVERIES_PAGE).openapi(deprecatedAlias('deliveries')),
    next_cursor: z.string().nullable(),
  })
  .openapi('WebhookDeliveryList');

export const testEventSchema = z
  .object({
    event_id: z.string(),
    delivery_id: z.string(),
  })
  .openapi('WebhookTestEventQueued');

export const deliveryParams = z.object({
  id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name: 'id', in: 'path' } }),
  delivery_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name: 'delivery_id', in: 'path' } }),
});
