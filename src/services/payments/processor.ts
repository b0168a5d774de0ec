import { type ServiceContext, localPaymentGateway, type PaymentGateway } from '../kernel';
import { StripeGateway } from './stripe-gateway';

/** Whether payments go to the local simulator (no STRIPE_SECRET_KEY) rather than to Stripe. */
export const simulatorActive = (ctx: ServiceContext): boolean => !ctx.settings.STRIPE_SECRET_KEY;

/**
 * The payment processor every payment service calls: Stripe when STRIPE_SECRET_KEY is set, else the
 * local payment simulator. Made per call (cheap), so each request's context and settings are used.
 */
export function paymentGateway(ctx: ServiceContext): PaymentGateway {
  const key = ctx.settings.STRIPE_SECRET_KEY;
  return key ? new StripeGateway(ctx, key, ctx.settings.STRIPE_PUBLISHABLE_KEY ?? '') : localPaymentGateway(ctx);
}
