import { partnerRoute } from '../../http/middleware/partner-auth';
import { idParam, jsonBody, jsonContent } from '../../http/openapi';
import {
  createdEndpointSchema,
  createEndpointInput,
  deliveryListSchema,
  deliveryParams,
  endpointDeletedSchema,
  endpointListSchema,
  listDeliveriesQuery,
  rotatedSecretSchema,
  rotateSecretInput,
  testEventSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from '../../services/webhooks';

const tags = ['Partner webhooks'];
const scope = 'webhooks:manage' as const;
const BASE = '/v1/partner/webhooks/endpoints';

export const createEndpoint = partnerRoute({
  method: 'post',
  path: BASE,
  operationId: 'createWebhookEndpoint',
  tags,
  scope,
  summary: 'Register a webhook endpoint',
  description:
    "Events about the businesses linked to this partner client, of the types listed, are POSTed to the URL, signed with the endpoint's secret (Shiftmarket-Signature). The secret is in this answer only. At most 10 endpoints per client.",
  request: { body: jsonBody(createEndpointInput) },
  responses: { 201: jsonContent(createdEndpointSchema, 'The endpoint, with its signing secret (shown once).') },
  errors: ['WEBHOOK-URL-ERR', 'WEBHOOK-ENDPOINT-LIMIT-ERR'],
});

export const listEndpoints = partnerRoute({
  method: 'get',
  path: BASE,
  operationId: 'listWebhookEndpoints',
  tags,
  scope,
  summary: "The partner client's webhook endpoints",
  responses: { 200: jsonContent(endpointListSchema, 'Newest first; secrets are never shown again.') },
});

export const deleteEndpoint = partnerRoute({
  method: 'delete',
  path: `${BASE}/{id}`,
  operationId: 'deleteWebhookEndpoint',
  tags,
  scope,
  summary: 'Delete a webhook endpoint',
  description: 'Stops every delivery to it at once; its delivery log goes with it.',
  request: { params: idParam },
  responses: { 200: jsonContent(endpointDeletedSchema, 'Deleted.') },
  errors: ['WEBHOOK-ENDPOINT-NOT-FND-ERR'],
});

export const rotateSecret = partnerRoute({
  method: 'post',
  path: `${BASE}/{id}/rotate_secret`,
  operationId: 'rotateWebhookSecret',
  tags,
  scope,
  summary: "Replace an endpoint's signing secret",
  description:
    'The new secret is in this answer only. With `previous_secret_valid_for_seconds`, the old secret keeps signing too (a second `v1=`) until then.',
  request: { params: idParam, body: jsonBody(rotateSecretInput) },
  responses: { 200: jsonContent(rotatedSecretSchema, 'The endpoint and its new secret (shown once).') },
  errors: ['WEBHOOK-ENDPOINT-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const enableEndpoint = partnerRoute({
  method: 'post',
  path: `${BASE}/{id}/enable`,
  operationId: 'enableWebhookEndpoint',
  tags,
  scope,
  summary: 'Turn a disabled endpoint back on',
  description:
    'After a 410 or 5 days of failures the endpoint was disabled; this clears its failure counters. Missed deliveries can be redelivered.',
  request: { params: idParam },
  responses: { 200: jsonContent(webhookEndpointSchema, 'The endpoint, active.') },
  errors: ['WEBHOOK-ENDPOINT-NOT-FND-ERR', 'WEBHOOK-URL-ERR'],
});

export const sendTestEvent = partnerRoute({
  method: 'post',
  path: `${BASE}/{id}/test`,
  operationId: 'sendWebhookTestEvent',
  tags,
  scope,
  summary: 'Send a test event to an endpoint',
  description: 'Queues a signed `webhook.test` event for this endpoint alone; follow it in the delivery log.',
  request: { params: idParam },
  responses: { 202: jsonContent(testEventSchema, 'Queued.') },
  errors: ['WEBHOOK-ENDPOINT-NOT-FND-ERR', 'WEBHOOK-ENDPOINT-DISABLED-ERR'],
});

export const listDeliveries = partnerRoute({
  method: 'get',
  path: `${BASE}/{id}/deliveries`,
  operationId: 'listWebhookDeliveries',
  tags,
  scope,
  summary: "An endpoint's recent deliveries (the delivery log)",
  description: 'Newest first, each with every attempt: response code, duration, error. Kept 30 days.',
  request: { params: idParam, query: listDeliveriesQuery },
  responses: { 200: jsonContent(deliveryListSchema, 'A page of deliveries.') },
  errors: ['WEBHOOK-ENDPOINT-NOT-FND-ERR'],
});

export const redeliver = partnerRoute({
  method: 'post',
  path: `${BASE}/{id}/deliveries/{delivery_id}/redeliver`,
  operationId: 'redeliverWebhook',
  tags,
  scope,
  summary: 'Send a delivery again',
  description: 'One more attempt, now, with the same event id and body. Only for a delivery that has succeeded or failed.',
  request: { params: deliveryParams },
  responses: { 202: jsonContent(webhookDeliverySchema, 'The delivery, pending again.') },
  errors: [
    'WEBHOOK-ENDPOINT-NOT-FND-ERR',
    'WEBHOOK-DELIVERY-NOT-FND-ERR',
    'WEBHOOK-ENDPOINT-DISABLED-ERR',
    'WEBHOOK-DELIVERY-IN-PROGRESS-ERR',
  ],
});
