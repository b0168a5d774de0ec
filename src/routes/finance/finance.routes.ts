import { jsonContent, publicRoute } from '../../http/openapi';
import { stripeWebhookAnswerSchema } from '../../services/payments';

const tags = ['Finance'];

export const receiveStripeWebhook = publicRoute({
  method: 'post',
  path: '/v1/finance/stripe/webhook',
  operationId: 'receiveStripeWebhook',
  tags,
  summary: 'Stripe events (signed): payment intents succeeded or failed settle their invoice',
  description:
    'Called by Stripe, not by clients. The `Stripe-Signature` header is verified on the raw body with the endpoint secret ' +
    '(STRIPE_WEBHOOK_SECRET), tolerance 300 s; a missing, forged or stale signature is 400 `STRIPE-SIGNATURE-ERR` and changes nothing. ' +
    '`payment_intent.succeeded` marks the invoice named by `metadata.invoice_id` paid (the shift moves 2 → 5); ' +
    '`payment_intent.payment_failed` leaves it pending with `requires_action` cleared; a paid invoice stays paid. ' +
    'Each event id is processed once; other types, and intents that do not match their invoice (id, amount, currency), are answered 200 and change nothing.',
  responses: { 200: jsonContent(stripeWebhookAnswerSchema, 'Received.') },
  errors: ['STRIPE-SIGNATURE-ERR', 'PAYLOAD-TOO-LARGE-ERR'],
});
