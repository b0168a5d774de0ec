import { createRouter, serviceCtx } from '../../http/create-app';
import { receiveStripeWebhook } from '../../services/payments';
import * as routes from './finance.routes';
import { refundRouter } from './refund.routes';
import { simulatorRouter } from './simulator.routes';

export const financeRouter = createRouter()
  .route('/', refundRouter)
  .route('/', simulatorRouter)
  .openapi(routes.receiveStripeWebhook, async (c) => {
    // The raw body, read before anything parses it: the signature covers these exact bytes.
    const raw = await c.req.text();
    const ctx = { ...serviceCtx(c), actor: { kind: 'system' as const, job: 'stripe-webhook' } };
    return c.json(await receiveStripeWebhook(ctx, raw, c.req.header('Stripe-Signature')), 200);
  });
