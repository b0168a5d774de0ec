import { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { paymentMethodListSchema, paymentMethodSchema, savePaymentMethodInput, setupIntentSchema } from '../../services/payments';

const tags = ['Payment methods'];
const cardParams = z.object({ id: pathParam('id'), payment_method_id: pathParam('payment_method_id') });
const access = 'The business owner or an admin; an active teammate gets 403, anyone else 404.';

export const createSetupIntent = authRoute({
  method: 'post',
  path: '/v1/business/{id}/payment_methods/setup_intent',
  operationId: 'createPaymentMethodSetupIntent',
  authorization: 'business-owner',
  tags,
  summary: 'Start saving a card: a SetupIntent for the card form (Stripe.js, or the local simulator)',
  description: `Creates the business's processor customer once, then a SetupIntent on it. Confirm it with the card form (Stripe.js confirmCardSetup with client_secret and publishable_key), then record the card with savePaymentMethod. ${access}`,
  request: { params: idParam },
  responses: { 201: jsonContent(setupIntentSchema, 'The SetupIntent to confirm.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PAYMENT-GATEWAY-ERR'],
});

export const savePaymentMethod = authRoute({
  method: 'post',
  path: '/v1/business/{id}/payment_methods',
  operationId: 'savePaymentMethod',
  authorization: 'business-owner',
  tags,
  summary: 'Record the card a confirmed SetupIntent saved (the first card becomes the default)',
  description: `The SetupIntent must be this business's and succeeded (else 422 PAYMENT-SETUP-ERR). The owner is notified (card_created). Recording the same SetupIntent again answers the same card. ${access}`,
  request: { params: idParam, body: jsonBody(savePaymentMethodInput) },
  responses: { 201: jsonContent(paymentMethodSchema, 'The saved card.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PAYMENT-SETUP-ERR', 'PAYMENT-GATEWAY-ERR'],
});

export const listPaymentMethods = authRoute({
  method: 'get',
  path: '/v1/business/{id}/payment_methods',
  operationId: 'listPaymentMethods',
  authorization: 'business-owner',
  tags,
  summary: "The business's saved cards, newest first, the default flagged",
  description: access,
  request: { params: idParam },
  responses: { 200: jsonContent(paymentMethodListSchema, 'Saved cards.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const setDefaultPaymentMethod = authRoute({
  method: 'post',
  path: '/v1/business/{id}/payment_methods/{payment_method_id}/default',
  operationId: 'setDefaultPaymentMethod',
  authorization: 'business-owner',
  tags,
  summary: 'Make a saved card the default (automatic and on-demand charges use it)',
  description: access,
  request: { params: cardParams },
  responses: { 200: jsonContent(paymentMethodListSchema, 'Saved cards after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PAYMENT-METHOD-NOT-FND-ERR'],
});

export const deletePaymentMethod = authRoute({
  method: 'delete',
  path: '/v1/business/{id}/payment_methods/{payment_method_id}',
  operationId: 'deletePaymentMethod',
  authorization: 'business-owner',
  tags,
  summary: 'Remove a saved card (detached at the processor); the newest remaining card becomes the default',
  description: access,
  request: { params: cardParams },
  responses: { 200: jsonContent(paymentMethodListSchema, 'Saved cards after the removal.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PAYMENT-METHOD-NOT-FND-ERR', 'PAYMENT-GATEWAY-ERR'],
});
