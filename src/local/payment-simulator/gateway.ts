import {
  type AccountLinkInput,
  appLinkOrigin,
  type CardSummary,
  type ConnectedAccountInput,
  type ConnectedAccountResult,
  type CustomerInput,
  type OffSessionChargeInput,
  type PaymentGateway,
  type PaymentIntentResult,
  type RefundInput,
  type RefundResult,
  type ServiceContext,
  type SetupIntentInput,
  type SetupIntentResult,
  type TransferInput,
  type TransferResult,
  type TransferReversalInput,
  type TransferReversalResult,
} from '../../services/kernel';
import { testCardByNumber } from './cards';
import { afterEventsQueued } from './events';
import { simClientSecret, simId } from './ids';
import {
  type SimAccount,
  type SimCharge,
  type SimCustomer,
  type SimPaymentIntent,
  type SimPaymentMethod,
  type SimRefund,
  type SimSetupIntent,
  type SimTransfer,
  type SimTransferReversal,
  toAccountResult,
  toCardSummary,
  toPaymentIntentResult,
  toSetupIntentResult,
} from './objects';
import { type Committed, createOnce, type Loaded, mustLoad, mutate, processorRefusal, type SimObject } from './store';

/** The publishable key pages get when the simulator is active (the simulator's script takes it). */
export const SIMULATOR_PUBLISHABLE_KEY = 'pk_simulator';

const CURRENCY = /^[a-z]{3}$/;
/** Stripe's largest amount in minor units (eight digits). */
const STRIPE_MAX_AMOUNT = 99_999_999;

function checkAmount(amount: number, currency: string): void {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > STRIPE_MAX_AMOUNT) {
    throw processorRefusal('amount_invalid', 'the amount must be a positive whole number of minor units');
  }
  if (!CURRENCY.test(currency)) throw processorRefusal('parameter_invalid_string', 'the currency must be a lower-case ISO 4217 code');
}

/** A new charge settling `pi` (what Stripe creates when an intent succeeds). */
export function chargeFor(pi: SimPaymentIntent, created: number): SimCharge {
  return {
    id: simId('charge'),
    object: 'charge',
    amount: pi.amount,
    amount_captured: pi.amount,
    amount_refunded: 0,
    currency: pi.currency,
    customer: pi.customer,
    payment_intent: pi.id,
    payment_method: pi.payment_method,
    paid: true,
    captured: true,
    refunded: false,
    status: 'succeeded',
    transfer_group: pi.transfer_group,
    metadata: { ...pi.metadata },
    created,
    _transferred: 0,
  };
}

/**
 * The local payment simulator behind the PaymentGateway interface (used without STRIPE_SECRET_KEY):
 * Stripe's objects, ids, test cards, refusals and events, kept in D1 (store.ts).
 */
export class SimulatorGateway implements PaymentGateway {
  readonly kind = 'simulator' as const;
  readonly publishableKey = SIMULATOR_PUBLISHABLE_KEY;

  constructor(private readonly ctx: ServiceContext) {}

  private get seconds(): number {
    return Math.floor(this.ctx.now() / 1000);
  }

  private done<T extends SimObject>(r: Committed<T> | { obj: T; queuedEvents: boolean }): T {
    if (r.queuedEvents) afterEventsQueued(this.ctx);
    return r.obj;
  }

  async createCustomer(input: CustomerInput): Promise<{ id: string }> {
    const r = await createOnce<SimCustomer>(this.ctx, 'customers.create', input.idempotencyKey, async () => ({
      primary: {
        key: input.idempotencyKey,
        insert: {
          id: simId('customer'),
          object: 'customer',
          email: input.email,
          name: input.name,
          metadata: { business_id: input.businessId },
          created: this.seconds,
        } satisfies SimCustomer,
      },
    }));
    return { id: this.done(r).id };
  }

  async createSetupIntent(input: SetupIntentInput): Promise<SetupIntentResult> {
    const r = await createOnce<SimSetupIntent>(this.ctx, 'setup_intents.create', input.idempotencyKey, async () => {
      await mustLoad(this.ctx, input.customerId, 'customer');
      const id = simId('setup_intent');
      const si: SimSetupIntent = {
        id,
        object: 'setup_intent',
        client_secret: simClientSecret(id),
        customer: input.customerId,
        payment_method: null,
        status: 'requires_payment_method',
        usage: 'off_session',
        last_setup_error: null,
        metadata: { ...input.metadata },
        created: this.seconds,
      };
      return { primary: { key: input.idempotencyKey, insert: si } };
    });
    return toSetupIntentResult(this.done(r));
  }

  async retrieveSetupIntent(id: string): Promise<SetupIntentResult> {
    return toSetupIntentResult((await mustLoad<SimSetupIntent>(this.ctx, id, 'setup_intent')).obj);
  }

  async retrievePaymentMethod(id: string): Promise<CardSummary & { customer_id: string | null }> {
    return toCardSummary((await mustLoad<SimPaymentMethod>(this.ctx, id, 'payment_method')).obj);
  }

  async detachPaymentMethod(id: string, _idempotencyKey: string): Promise<void> {
    // Detaching is idempotent by nature: a detached card stays detached.
    await mutate<SimPaymentMethod>(this.ctx, id, 'payment_method', async ({ obj }) =>
      obj.customer ? { next: { ...obj, customer: null } } : null,
    );
  }

  async chargeOffSession(input: OffSessionChargeInput): Promise<PaymentIntentResult> {
    checkAmount(input.amount, input.currency);
    const r = await createOnce<SimPaymentIntent>(this.ctx, 'payment_intents.create', input.idempotencyKey, async () => {
      await mustLoad(this.ctx, input.customerId, 'customer');
      const pm = (await mustLoad<SimPaymentMethod>(this.ctx, input.paymentMethodId, 'payment_method')).obj;
      if (pm.customer !== input.customerId) {
        throw processorRefusal('payment_method_not_attached', 'the payment method is not attached to this customer');
      }
      const id = simId('payment_intent');
      const base: SimPaymentIntent = {
        id,
        object: 'payment_intent',
        amount: input.amount,
        amount_received: 0,
        currency: input.currency,
        customer: input.customerId,
        payment_method: pm.id,
        status: 'processing',
        client_secret: simClientSecret(id),
        latest_charge: null,
        last_payment_error: null,
        next_action: null,
        metadata: { ...input.metadata },
        transfer_group: input.transferGroup,
        description: input.description ?? null,
        off_session: true,
        created: this.seconds,
      };
      const card = testCardByNumber(pm._test_card);
      const outcome = card?.outcome ?? {
        kind: 'declines' as const,
        code: 'card_declined' as const,
        decline_code: 'generic_decline' as const,
      };
      const key = input.idempotencyKey;
      if (outcome.kind === 'succeeds') {
        const charge = chargeFor(base, this.seconds);
        const pi: SimPaymentIntent = { ...base, status: 'succeeded', amount_received: base.amount, latest_charge: charge.id };
        return { primary: { key, insert: pi }, inserts: [charge], events: [{ type: 'payment_intent.succeeded', object: pi }] };
      }
      if (outcome.kind === 'requires_authentication') {
        const pi: SimPaymentIntent = {
          ...base,
          status: 'requires_action',
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
          last_payment_error: {
            type: 'card_error',
            code: 'authentication_required',
            decline_code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
          },
        };
        return { primary: { key, insert: pi }, events: [{ type: 'payment_intent.requires_action', object: pi }] };
      }
      const pi: SimPaymentIntent = {
        ...base,
        status: 'requires_payment_method',
        payment_method: null,
        last_payment_error: {
          type: 'card_error',
          code: outcome.code,
          decline_code: outcome.decline_code,
          message: outcome.decline_code === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.',
        },
      };
      return { primary: { key, insert: pi }, events: [{ type: 'payment_intent.payment_failed', object: pi }] };
    });
    return toPaymentIntentResult(this.done(r));
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntentResult> {
    return toPaymentIntentResult((await mustLoad<SimPaymentIntent>(this.ctx, id, 'payment_intent')).obj);
  }

  /** Refunds never exceed what is left of the charge, also under concurrent refunds (compare-and-set on the charge). */
  async createRefund(input: RefundInput): Promise<RefundResult> {
    const r = await createOnce<SimRefund>(this.ctx, 'refunds.create', input.idempotencyKey, async () => {
      const pi = (await mustLoad<SimPaymentIntent>(this.ctx, input.paymentIntentId, 'payment_intent')).obj;
      if (pi.status !== 'succeeded' || !pi.latest_charge) {
        throw processorRefusal('charge_not_refundable', 'the payment intent has no successful charge to refund');
      }
      const charge = await mustLoad<SimCharge>(this.ctx, pi.latest_charge, 'charge');
      checkAmount(input.amount, charge.obj.currency);
      const left = charge.obj.amount - charge.obj.amount_refunded;
      if (left <= 0) throw processorRefusal('charge_already_refunded', 'the charge has already been refunded');
      if (input.amount > left) {
        throw processorRefusal('amount_too_large', `the refund (${input.amount}) is greater than what is left of the charge (${left})`);
      }
      const refunded = charge.obj.amount_refunded + input.amount;
      const nextCharge: SimCharge = { ...charge.obj, amount_refunded: refunded, refunded: refunded === charge.obj.amount };
      const refund: SimRefund = {
        id: simId('refund'),
        object: 'refund',
        amount: input.amount,
        currency: charge.obj.currency,
        charge: charge.obj.id,
        payment_intent: pi.id,
        status: 'succeeded',
        metadata: { ...input.metadata },
        created: this.seconds,
      };
      return {
        primary: { key: input.idempotencyKey, insert: refund },
        updates: [{ old: charge as Loaded, next: nextCharge }],
        events: [{ type: 'charge.refunded', object: nextCharge }],
      };
    });
    const refund = this.done(r);
    return { id: refund.id, status: refund.status, amount: refund.amount, currency: refund.currency };
  }

  async createConnectedAccount(input: ConnectedAccountInput): Promise<ConnectedAccountResult> {
    const r = await createOnce<SimAccount>(this.ctx, 'accounts.create', input.idempotencyKey, async () => ({
      primary: {
        key: input.idempotencyKey,
        insert: {
          id: simId('account'),
          object: 'account',
          type: 'express',
          email: input.email,
          country: input.country ?? 'US',
          details_submitted: false,
          payouts_enabled: false,
          charges_enabled: false,
          metadata: { shifter_id: input.shifterId },
          created: this.seconds,
        } satisfies SimAccount,
      },
    }));
    return toAccountResult(this.done(r));
  }

  async retrieveConnectedAccount(id: string): Promise<ConnectedAccountResult> {
    return toAccountResult((await mustLoad<SimAccount>(this.ctx, id, 'account')).obj);
  }

  /** The simulator's onboarding page, on the same site as the return address (else APP_URL, else local development's). */
  /** A link to the simulator's own onboarding page (with the return URL's path when it is on this origin). */
  async createAccountLink(input: AccountLinkInput): Promise<{ url: string; expires_at: number }> {
    await mustLoad(this.ctx, input.accountId, 'account');
    let origin: string;
    try {
      origin = new URL(input.returnUrl).origin;
    } catch {
      origin = appLinkOrigin(this.ctx);
    }
    return {
      url: `${origin}/finance/web/simulator/onboarding/${encodeURIComponent(input.accountId)}${returnPath(input.returnUrl, origin)}`,
      expires_at: this.seconds + 300,
    };
  }

  /** Transfers need an onboarded destination; from a source charge, never more than is left of it. */
  async createTransfer(input: TransferInput): Promise<TransferResult> {
    checkAmount(input.amount, input.currency);
    const r = await createOnce<SimTransfer>(this.ctx, 'transfers.create', input.idempotencyKey, async () => {
      const account = (await mustLoad<SimAccount>(this.ctx, input.destination, 'account')).obj;
      if (!account.payouts_enabled) {
        throw processorRefusal('account_invalid', 'the destination account has not finished onboarding (transfers capability inactive)');
      }
      const transfer: SimTransfer = {
        id: simId('transfer'),
        object: 'transfer',
        amount: input.amount,
        amount_reversed: 0,
        currency: input.currency,
        destination: account.id,
        transfer_group: input.transferGroup,
        source_transaction: input.sourceTransaction,
        reversed: false,
        metadata: { ...input.metadata },
        created: this.seconds,
      };
      const primary = { key: input.idempotencyKey, insert: transfer };
      if (!input.sourceTransaction) return { primary };
      const charge = await mustLoad<SimCharge>(this.ctx, input.sourceTransaction, 'charge');
      if (charge.obj.currency !== input.currency) {
        throw processorRefusal('transfer_source_currency_mismatch', 'the transfer currency differs from the source charge');
      }
      const left = charge.obj.amount - charge.obj._transferred;
      if (input.amount > left) {
        throw processorRefusal(
          'insufficient_funds',
          `the transfer (${input.amount}) is greater than what is left of the source charge (${left})`,
        );
      }
      return {
        primary,
        updates: [{ old: charge as Loaded, next: { ...charge.obj, _transferred: charge.obj._transferred + input.amount } }],
      };
    });
    const t = this.done(r);
    return { id: t.id, amount: t.amount, currency: t.currency, destination: t.destination };
  }

  /** Reversals never exceed what is left of the transfer, also when concurrent. */
  async reverseTransfer(input: TransferReversalInput): Promise<TransferReversalResult> {
    const r = await createOnce<SimTransferReversal>(this.ctx, 'transfers.createReversal', input.idempotencyKey, async () => {
      const transfer = await mustLoad<SimTransfer>(this.ctx, input.transferId, 'transfer');
      checkAmount(input.amount, transfer.obj.currency);
      const left = transfer.obj.amount - transfer.obj.amount_reversed;
      if (input.amount > left) {
        throw processorRefusal('amount_too_large', `the reversal (${input.amount}) is greater than what is left of the transfer (${left})`);
      }
      const reversed = transfer.obj.amount_reversed + input.amount;
      return {
        primary: {
          key: input.idempotencyKey,
          insert: {
            id: simId('transfer_reversal'),
            object: 'transfer_reversal',
            amount: input.amount,
            currency: transfer.obj.currency,
            transfer: transfer.obj.id,
            metadata: { ...input.metadata },
            created: this.seconds,
          } satisfies SimTransferReversal,
        },
        updates: [
          { old: transfer as Loaded, next: { ...transfer.obj, amount_reversed: reversed, reversed: reversed === transfer.obj.amount } },
        ],
      };
    });
    const rev = this.done(r);
    return { id: rev.id, amount: rev.amount, transfer_id: rev.transfer };
  }
}

/** `?return_to=<path>` for a return URL on `origin`, else nothing (the page then returns to /account). */
function returnPath(returnUrl: string, origin: string): string {
  try {
    const u = new URL(returnUrl);
    if (u.origin !== origin) return '';
    return `?${new URLSearchParams({ return_to: `${u.pathname}${u.search}` })}`;
  } catch {
    return '';
  }
}
