export { listDeliveries, redeliver, sendTestEvent } from './deliveries';
export { createEndpoint, deleteEndpoint, enableEndpoint, listEndpoints, rotateSecret } from './endpoints';
export { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, webhookEnvelopeSchema } from './payloads';
export { partnerEvent, type PartnerEventPart, reviewDisputedEvent, shiftEvent, webhookShiftRequest } from './produce';
export { handleWebhooksBatch } from './queue';
export { DELIVERY_TIMEOUT_MS, MAX_ATTEMPTS } from './schedule';
export {
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
} from './schemas';
export { sweepWebhookDeliveries } from './sweep';
