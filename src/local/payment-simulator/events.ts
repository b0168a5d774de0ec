import Stripe from 'stripe';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import type { ServiceContext } from '../../services/kernel';
import { STRIPE_DEVELOPMENT_WEBHOOK_SECRET, receiveStripeWebhook } from '../../services/payments';

/**
 * Delivery of the simulator's events to the webhook handler, signed exactly as Stripe signs them
 * (`Stripe-Signature: t=…,v1=…` over the raw body with the endpoint secret), through the same
 * `receiveStripeWebhook` the HTTP route calls: the handler cannot tell the simulator from Stripe.
 */

/** How long a claimed event is held by the delivery that claimed it (a crashed delivery frees it then). */
export const SIM_EVENT_CLAIM_MS = 60_000;
/** After this many attempts an event is left undelivered (logged); Stripe gives up after 3 days. */
export const SIM_EVENT_MAX_ATTEMPTS = 10;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** The endpoint secret, as the webhook handler reads it (STRIPE_WEBHOOK_SECRET, else the development one). */
function signingSecret(ctx: ServiceContext): string {
  const secret = ctx.settings.STRIPE_WEBHOOK_SECRET;
  if (secret) return secret;
  if (ctx.settings.LOCAL_DEFAULT_SECRETS) return STRIPE_DEVELOPMENT_WEBHOOK_SECRET;
  throw new AppError('INTERNAL-ERR', 'The Stripe webhook is not configured: the simulator has nothing to sign its events with.');
}

export interface DeliveryReport {
  delivered: number;
  failed: number;
}

/**
 * Delivers the undelivered events, oldest first. Each event is claimed by a guarded update before it
 * is delivered (attempts + 1, held for SIM_EVENT_CLAIM_MS), so concurrent runs deliver each event once;
 * a failed delivery is released for the next run.
 */
export async function deliverSimulatorEvents(ctx: ServiceContext, opts: { limit?: number } = {}): Promise<DeliveryReport> {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
  const system: ServiceContext = { ...ctx, actor: { kind: 'system', job: 'payment-simulator' } };
  const db = ctx.env.DB;
  const now = ctx.now();
  const { results } = await db
    .prepare(
      'SELECT id, payload, attempts FROM payment_sim_events WHERE delivered_at IS NULL AND attempts < ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY created_at, rowid LIMIT ?',
    )
    .bind(SIM_EVENT_MAX_ATTEMPTS, now, limit)
    .all<{ id: string; payload: string; attempts: number }>();
  const report: DeliveryReport = { delivered: 0, failed: 0 };
  for (const ev of results) {
    const claim = await db
      .prepare(
        'UPDATE payment_sim_events SET attempts = attempts + 1, claimed_until = ? WHERE id = ? AND delivered_at IS NULL AND (claimed_until IS NULL OR claimed_until < ?)',
      )
      .bind(ctx.now() + SIM_EVENT_CLAIM_MS, ev.id, ctx.now())
      .run();
    if (claim.meta.changes !== 1) continue; // another run has it
    try {
      const header = await Stripe.webhooks.generateTestHeaderStringAsync({
        payload: ev.payload,
        secret: signingSecret(ctx),
        timestamp: Math.floor(ctx.now() / 1000),
        cryptoProvider,
      });
      const answer = await receiveStripeWebhook(system, ev.payload, header);
      await db.prepare('UPDATE payment_sim_events SET delivered_at = ?, claimed_until = NULL WHERE id = ?').bind(ctx.now(), ev.id).run();
      report.delivered++;
      ctx.log.info('payment simulator: event delivered', { event_id: ev.id, outcome: answer.outcome });
    } catch (err) {
      report.failed++;
      await db.prepare('UPDATE payment_sim_events SET claimed_until = NULL WHERE id = ?').bind(ev.id).run();
      const fields = { event_id: ev.id, attempts: ev.attempts + 1, ...errorFields(err) };
      if (ev.attempts + 1 >= SIM_EVENT_MAX_ATTEMPTS) ctx.log.error('payment simulator: event given up', fields);
      else ctx.log.warn('payment simulator: event delivery failed; retried by the next sweep', fields);
    }
  }
  return report;
}

/** After a change that queued events: delivers them now unless PAYMENT_SIMULATOR_DELIVERY=held. */
export function afterEventsQueued(ctx: ServiceContext): void {
  if (ctx.settings.PAYMENT_SIMULATOR_DELIVERY === 'held') return;
  ctx.waitUntil(
    deliverSimulatorEvents(ctx).catch((err: unknown) => ctx.log.error('payment simulator: delivery run failed', errorFields(err))),
  );
}

/** The 5-minute cron's sweep: delivers what immediate delivery missed (and held events). Idle with real Stripe keys. */
export async function sweepSimulatorEvents(ctx: ServiceContext): Promise<DeliveryReport | string> {
  if (ctx.settings.STRIPE_SECRET_KEY) return 'skipped: Stripe keys set';
  return deliverSimulatorEvents(ctx);
}
