import { createRouter, serviceCtx } from '../../http/create-app';
import { AppError } from '../../lib/errors';
import {
  simulatorAccountShifter,
  simulatorCompleteOnboarding,
  simulatorConfirmSetupIntent,
  simulatorSetupIntentBusiness,
} from '../../local/payment-simulator';
import { accessBusiness, callerShifter } from '../../services/access';
import type { ServiceContext } from '../../services/kernel';
import { receiveStripeWebhook, refundInvoice } from '../../services/payments';
import * as routes from './finance.routes';
import * as refund from './refund.routes';
import * as simulator from './simulator.routes';

/** The owner of the SetupIntent's business may confirm it; no standing (or no such intent) is 404. */
async function ownSetupIntent(ctx: ServiceContext, id: string): Promise<void> {
  const businessId = await simulatorSetupIntentBusiness(ctx, id);
  if (!businessId) throw new AppError('NOT-FOUND-ERR', 'No such SetupIntent.');
  try {
    await accessBusiness(ctx, businessId, ['owner']);
  } catch (err) {
    if (err instanceof AppError && err.code === 'BUSINESS-NOT-FND-ERR') throw new AppError('NOT-FOUND-ERR', 'No such SetupIntent.');
    throw err;
  }
}

async function ownAccount(ctx: ServiceContext, id: string): Promise<void> {
  const [shifterId, mine] = await Promise.all([simulatorAccountShifter(ctx, id), callerShifter(ctx)]);
  if (!shifterId || !mine || mine.id !== shifterId) throw new AppError('NOT-FOUND-ERR', 'No such connected account.');
}

// Refund, then the payment simulator, then the Stripe webhook: registration order is match order and OpenAPI document order.
export const financeRouter = createRouter()
  .openapi(refund.refundInvoice, async (c) =>
    c.json(await refundInvoice(serviceCtx(c), c.req.valid('param').invoiceId, c.req.valid('json')), 201),
  )
  .openapi(simulator.confirmSimulatorSetupIntent, async (c) => {
    const ctx = serviceCtx(c);
    const { id } = c.req.valid('param');
    await ownSetupIntent(ctx, id);
    const body = c.req.valid('json');
    const r = await simulatorConfirmSetupIntent(
      ctx,
      id,
      body.card_number !== undefined ? { card_number: body.card_number } : { test_token: body.test_token ?? 'pm_card_visa' },
    );
    return c.json(
      {
        id: r.id,
        status: r.status,
        customer_id: r.customer_id,
        payment_method_id: r.payment_method_id,
        last_setup_error_code: r.last_setup_error_code,
      },
      200,
    );
  })
  .openapi(simulator.completeSimulatorOnboarding, async (c) => {
    const ctx = serviceCtx(c);
    const { id } = c.req.valid('param');
    await ownAccount(ctx, id);
    return c.json(await simulatorCompleteOnboarding(ctx, id), 200);
  })
  .openapi(routes.receiveStripeWebhook, async (c) => {
    // The raw body, read before anything parses it: the signature covers these exact bytes.
    const raw = await c.req.text();
    const ctx = { ...serviceCtx(c), actor: { kind: 'system' as const, job: 'stripe-webhook' } };
    return c.json(await receiveStripeWebhook(ctx, raw, c.req.header('Stripe-Signature')), 200);
  });
