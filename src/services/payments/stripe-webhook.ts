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
        'ignored: a type we do not handle, or an event of a connected account other than account.updated (logged); mismatch: the payment intent is not the one ' +
        'this service made for the invoice it names, or differs from it in amount or currency (logged, not retried). Nothing changes unless applied.',
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

/**
 * The signing time of a Stripe-Signature header (`t=…`), read as the Stripe library reads it (the
 * last `t` element), or null.
 */
function signedAtSeconds(header: string): number | null {
  let t: number | null = null;
  for (const item of header.split(',')) {
    const [k, v] = item.split('=');
    if (k === 't') t = Number.parseInt(v ?? '', 10);
  }
  return t !== null && Number.isFinite(t) ? t : null;
}

/**
 * The event, once its signature is verified on the raw body; else 400. Its signing time must lie
 * within the tolerance (300 s) of ctx.now() on either side: the library refuses only old ones, and a
 * signature dated ahead would otherwise stay replayable until that date plus the tolerance.
 */
export async function verifyStripeEvent(ctx: ServiceContext, rawBody: string, header: string | undefined): Promise<Stripe.Event> {
  const secret = webhookSecret(ctx);
  if (!header) throw new AppError('STRIPE-SIGNATURE-ERR', 'The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = await Stripe.webhooks.constructEventAsync(
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
  const signedAt = signedAtSeconds(header);
  if (signedAt === null || signedAt - Math.floor(ctx.now() / 1000) > STRIPE_SIGNATURE_TOLERANCE_SECONDS) {
    ctx.log.warn('Stripe event refused: signing time missing or in the future', { event_id: event.id, signed_at: signedAt });
    throw new AppError('STRIPE-SIGNATURE-ERR');
  }
  return event;
}

/**
 * The invoice a payment intent pays, or why it does not match one (logged by the caller). Only the
 * intent this service made for that invoice counts: the one its charge recorded on the invoice
 * (charge.ts stamps the intent's id before acting on the processor's answer). The metadata alone
 * proves nothing: anyone who can have an event signed (a connected account, a dashboard user) can
 * name an invoice there. An event that beats the stamp loses nothing: the charge applies the
 * processor's answer itself, and a later event of that intent finds it recorded.
 */
async function invoiceOfIntent(ctx: ServiceContext, pi: Stripe.PaymentIntent): Promise<{ invoice: InvoiceRow } | { reason: string }> {
  const invoiceId = pi.metadata?.invoice_id;
  if (!invoiceId || invoiceId.length > 64) return { reason: 'no invoice_id in the metadata' };
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) return { reason: 'unknown invoice' };
  if (inv.payment_intent_id === null) return { reason: 'no payment intent of ours is on the invoice' };
  if (inv.payment_intent_id !== pi.id) return { reason: 'another payment intent is on the invoice' };
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
  // Payments and refunds are the platform's own: an event from a connected account (`account` set)
  // is about that account's money, never an invoice or refund of ours, whatever its metadata says.
  if (event.account) {
    ctx.log.warn('Stripe event of a connected account: ignored', {
      event_id: event.id,
      event_type: event.type,
      account: event.account.slice(0, 64),
    });
    return { outcome: 'ignored', invoiceId: null };
  }
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
