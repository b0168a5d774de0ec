import { timingSafeEqualStr } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { ConnectedAccountResult, PaymentIntentResult, ServiceContext, SetupIntentResult } from '../../services/kernel';
import { type TestCard, testCardByNumber, testCardByToken } from './cards';
import { afterEventsQueued } from './events';
import { simId } from './ids';
import { chargeFor } from './gateway';
import {
  type SimAccount,
  type SimPaymentIntent,
  type SimPaymentMethod,
  type SimSetupIntent,
  toAccountResult,
  toPaymentIntentResult,
  toSetupIntentResult,
} from './objects';
import { loadObject, mutate } from './store';

/**
 * What the browser side of Stripe does, simulated: Stripe.js's card form confirming a SetupIntent, the
 * issuer's 3DS page answering a PaymentIntent that needs authentication, and the hosted onboarding of
 * a connected account. Each raises the events Stripe would.
 */

export type SimulatorCardInput = { card_number: string; test_token?: undefined } | { test_token: string; card_number?: undefined };

/**
 * Confirms a SetupIntent with a card, as Stripe.js's card form does: a test card saves (a payment
 * method attached to the intent's customer; `setup_intent.succeeded`); any other number is declined
 * as Stripe's test mode declines real cards (`setup_intent.setup_failed`, the intent stays
 * requires_payment_method). An intent that already succeeded is a 409.
 */
export async function simulatorConfirmSetupIntent(
  ctx: ServiceContext,
  setupIntentId: string,
  input: SimulatorCardInput,
): Promise<SetupIntentResult & { last_setup_error_code: string | null }> {
  const card: TestCard | null = input.card_number !== undefined ? testCardByNumber(input.card_number) : testCardByToken(input.test_token);
  const now = ctx.now();
  const r = await mutate<SimSetupIntent>(ctx, setupIntentId, 'setup_intent', async ({ obj: si }) => {
    if (si.status !== 'requires_payment_method') {
      throw new AppError('CONFLICT-ERR', `The SetupIntent is ${si.status}: it cannot be confirmed again.`);
    }
    if (!card) {
      const next: SimSetupIntent = {
        ...si,
        last_setup_error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'test_mode_live_card',
          message: 'Your card was declined: the payment simulator accepts only the test cards.',
        },
      };
      return { next, events: [{ type: 'setup_intent.setup_failed', object: next }] };
    }
    const pm: SimPaymentMethod = {
      id: simId('payment_method'),
      object: 'payment_method',
      type: 'card',
      customer: si.customer,
      card: { brand: card.brand, last4: card.number.slice(-4), exp_month: 12, exp_year: new Date(now).getUTCFullYear() + 3 },
      created: Math.floor(now / 1000),
      _test_card: card.number,
    };
    const next: SimSetupIntent = { ...si, status: 'succeeded', payment_method: pm.id, last_setup_error: null };
    return { next, inserts: [pm], events: [{ type: 'setup_intent.succeeded', object: next }] };
  });
  if (r.queuedEvents) afterEventsQueued(ctx);
  return { ...toSetupIntentResult(r.obj), last_setup_error_code: r.obj.last_setup_error?.code ?? null };
}

/** The business a SetupIntent was made for (its metadata.business_id), or null when there is no such intent. */
export async function simulatorSetupIntentBusiness(ctx: ServiceContext, setupIntentId: string): Promise<string | null> {
  const si = await loadObject<SimSetupIntent>(ctx, setupIntentId, 'setup_intent');
  return si?.obj.metadata.business_id ?? null;
}

/**
 * The issuer's authentication page answering: `succeed` settles the intent with a charge
 * (`payment_intent.succeeded`); `fail` sends it back to requires_payment_method with
 * `payment_intent_authentication_failure` (`payment_intent.payment_failed`). Only with the intent's
 * client secret, and only while it requires action (else 409).
 */
export async function simulatorAuthenticate(
  ctx: ServiceContext,
  paymentIntentId: string,
  clientSecret: string,
  outcome: 'succeed' | 'fail',
): Promise<PaymentIntentResult> {
  const now = Math.floor(ctx.now() / 1000);
  const r = await mutate<SimPaymentIntent>(ctx, paymentIntentId, 'payment_intent', async ({ obj: pi }) => {
    if (!timingSafeEqualStr(pi.client_secret, clientSecret)) {
      throw new AppError('FORBIDDEN-ERR', 'The client secret does not match the payment.');
    }
    if (pi.status !== 'requires_action') {
      throw new AppError('CONFLICT-ERR', `The payment is ${pi.status}: it does not wait for authentication.`);
    }
    if (outcome === 'succeed') {
      const charge = chargeFor(pi, now);
      const next: SimPaymentIntent = {
        ...pi,
        status: 'succeeded',
        amount_received: pi.amount,
        latest_charge: charge.id,
        last_payment_error: null,
        next_action: null,
      };
      return { next, inserts: [charge], events: [{ type: 'payment_intent.succeeded', object: next }] };
    }
    const next: SimPaymentIntent = {
      ...pi,
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: {
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message: 'The cardholder did not complete authentication.',
      },
    };
    return { next, events: [{ type: 'payment_intent.payment_failed', object: next }] };
  });
  if (r.queuedEvents) afterEventsQueued(ctx);
  return toPaymentIntentResult(r.obj);
}

/** The connected account's onboarding, completed: details submitted, payouts on (`account.updated`); once. */
export async function simulatorCompleteOnboarding(ctx: ServiceContext, accountId: string): Promise<ConnectedAccountResult> {
  const r = await mutate<SimAccount>(ctx, accountId, 'account', async ({ obj: a }) => {
    if (a.details_submitted && a.payouts_enabled) return null;
    const next: SimAccount = { ...a, details_submitted: true, payouts_enabled: true, charges_enabled: true };
    return { next, events: [{ type: 'account.updated', object: next }] };
  });
  if (r.queuedEvents) afterEventsQueued(ctx);
  return toAccountResult(r.obj);
}

/** The shifter a simulated connected account belongs to (metadata.shifter_id), or null. */
export async function simulatorAccountShifter(ctx: ServiceContext, accountId: string): Promise<string | null> {
  const a = await loadObject<SimAccount>(ctx, accountId, 'account');
  return a?.obj.metadata.shifter_id ?? null;
}
