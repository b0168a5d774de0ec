import { z } from '@hono/zod-openapi';
import { and, eq, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { paymentEvents } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import type { ServiceContext } from '../kernel';
import { chargedAmount, type InvoiceRow, loadInvoice } from '../invoices';
import { handleAccountUpdated } from './payouts';
import { handleRefundUpdated } from './refunds';
import { markInvoiceFailed, markInvoicePaid } from './settle';

/**
 * The development signing secret, published on purpose: used only with LOCAL_DEFAULT_SECRETS on
 * (`npm run dev`, the tests), by the local payment simulator to sign the events it delivers.
 */
export const STRIPE_DEVELOPMENT_WEBHOOK_SECRET = 'whsec_shiftmarket_local_development_only';

/** Seconds a signature's timestamp may be old (Stripe's default). */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export const STRIPE_EVENT_OUTCOMES = ['applied', 'unchanged', 'duplicate', 'ignored', 'mismatch'] as const;
export type StripeEventOutcome = (typeof STRIPE_EVENT_OUTCOMES)[number];

export const stripeWebhookAnswerSchema = z
  .object({
    received: z.literal(true),
    event_id: z.string().max(255),
    outcome: z.enum(STRIPE_EVENT_OUTCOMES).openapi({
      description:
        'applied: the invoice changed; unchanged: it already was so (or is paid, which is final); duplicate: this event was processed before; ' +
        'ignored: a type we do not handle; mismatch: the payment intent does not match an invoice (logged, not retried).',
    }),
  })
  .openapi('StripeWebhookAnswer');
export type StripeWebhookAnswer = z.infer<typeof stripeWebhookAnswerSchema>;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

function webhookSecret(ctx: ServiceContext): string {
  const secret = ctx.settings.STRIPE_WEBHOOK_SECRET;
  if (secret) return secret;
  if (ctx.settings.LOCAL_DEFAULT_SECRETS) return STRIPE_DEVELOPMENT_WEBHOOK_SECRET;
  ctx.log.error('STRIPE_WEBHOOK_SECRET is not set: refusing Stripe events');
  throw new AppError('INTERNAL-ERR', 'The Stripe webhook is not configured.');
}

/** The event, once its signature is verified on the raw body (tolerance 300 s on ctx.now()); else 400. */
export async function verifyStripeEvent(ctx: ServiceContext, rawBody: string, header: string | undefined): Promise<Stripe.Event> {
  const secret = webhookSecret(ctx);
  if (!header) throw new AppError('STRIPE-SIGNATURE-ERR', 'The Stripe-Signature header is missing.');
  try {
    return await Stripe.webhooks.constructEventAsync(
      rawBody,
      header,
      secret,
      STRIPE_SIGNATURE_TOLERANCE_SECONDS,
      cryptoProvider,
      ctx.now(),
    );
  } catch (err) {
    ctx.log.warn('Stripe event refused: bad signature', errorFields(err));
    throw new AppError('STRIPE-SIGNATURE-ERR');
  }
}

/** The invoice a payment intent pays, or why it does not match one (logged by the caller). */
async function invoiceOfIntent(ctx: ServiceContext, pi: Stripe.PaymentIntent): Promise<{ invoice: InvoiceRow } | { reason: string }> {
  const invoiceId = pi.metadata?.invoice_id;
  if (!invoiceId || invoiceId.length > 64) return { reason: 'no invoice_id in the metadata' };
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) return { reason: 'unknown invoice' };
  if (inv.payment_intent_id && inv.payment_intent_id !== pi.id) return { reason: 'another payment intent is on the invoice' };
  const want = chargedAmount(inv);
  if (pi.amount !== want.amount || pi.currency.toLowerCase() !== want.currency.toLowerCase()) {
    return { reason: 'amount or currency differs from the invoice' };
  }
  return { invoice: inv };
}

/** The charge that settled an intent (`latest_charge`, an id or, when expanded, the object). */
function latestChargeId(pi: Stripe.PaymentIntent): string | null {
  const c = pi.latest_charge;
  if (!c) return null;
  const id = typeof c === 'string' ? c : c.id;
  return id.length <= 255 ? id : null;
}

async function handle(ctx: ServiceContext, event: Stripe.Event): Promise<{ outcome: StripeEventOutcome; invoiceId: string | null }> {
  // A shifter's connected account changed (onboarding finished, payouts on or off): payouts.ts.
  if (event.type === 'account.updated') return { outcome: await handleAccountUpdated(ctx, event.data.object), invoiceId: null };
  // A refund's later state (pending → succeeded, or failed): refunds.ts.
  if (event.type === 'refund.updated' || event.type === 'refund.failed' || event.type === 'charge.refund.updated') {
    return { outcome: await handleRefundUpdated(ctx, event.data.object), invoiceId: null };
  }
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    return { outcome: 'ignored', invoiceId: null };
  }
  const pi = event.data.object;
  const found = await invoiceOfIntent(ctx, pi);
  if ('reason' in found) {
    ctx.log.warn('Stripe event does not match an invoice: ignored', {
      event_id: event.id,
      event_type: event.type,
      payment_intent_id: pi.id,
      invoice_id: pi.metadata?.invoice_id?.slice(0, 64) ?? null,
      reason: found.reason,
    });
    return { outcome: 'mismatch', invoiceId: null };
  }
  const id = found.invoice.id;
  // Stripe reports an off-session charge whose issuer demands authentication as a failed intent
  // (`authentication_required`): it is the 3DS hold the charge records, not a failure, so the invoice
  // keeps requires_action until the card holder answers (succeeded, or failed with another code).
  if (event.type === 'payment_intent.payment_failed' && pi.last_payment_error?.code === 'authentication_required') {
    return { outcome: 'unchanged', invoiceId: id };
  }
  const r =
    event.type === 'payment_intent.succeeded'
      ? await markInvoicePaid(ctx, id, { paymentIntentId: pi.id, chargeId: latestChargeId(pi) })
      : await markInvoiceFailed(ctx, id, { paymentIntentId: pi.id });
  return { outcome: r.applied ? 'applied' : 'unchanged', invoiceId: id };
}

/**
 * POST /v1/finance/stripe/webhook: verifies the signature on the raw body, then handles the event once
 * per Stripe event id. A replayed or duplicated event whose first delivery was processed answers
 * `duplicate`; concurrent duplicates (or a redelivery after a crash mid-way) may each run the handler,
 * whose guarded writes change the invoice, notify and emit once.
 */
export async function receiveStripeWebhook(
  ctx: ServiceContext,
  rawBody: string,
  signature: string | undefined,
): Promise<StripeWebhookAnswer> {
  const event = await verifyStripeEvent(ctx, rawBody, signature);
  const [seen] = await ctx.db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id)).limit(1);
  if (seen?.processed_at != null) return { received: true, event_id: event.id, outcome: 'duplicate' };
  if (!seen) {
    await ctx.db
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type, received_at: ctx.now() })
      .onConflictDoNothing({ target: paymentEvents.id });
  }
  const { outcome, invoiceId } = await handle(ctx, event);
  await ctx.db
    .update(paymentEvents)
    .set({ processed_at: ctx.now(), outcome, invoice_id: invoiceId })
    .where(and(eq(paymentEvents.id, event.id), isNull(paymentEvents.processed_at)));
  return { received: true, event_id: event.id, outcome };
}
