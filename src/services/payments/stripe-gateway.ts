import Stripe from 'stripe';
import { AppError } from '../../lib/errors';
import {
  type AccountLinkInput,
  type CardSummary,
  type ConnectedAccountInput,
  type ConnectedAccountResult,
  type CustomerInput,
  declineCode,
  type OffSessionChargeInput,
  type PaymentGateway,
  type PaymentIntentResult,
  type PaymentIntentStatus,
  type RefundInput,
  type RefundResult,
  type ServiceContext,
  type SetupIntentInput,
  type SetupIntentResult,
  type TransferInput,
  type TransferResult,
  type TransferReversalInput,
  type TransferReversalResult,
} from '../kernel';

/** The Stripe API version every request names (the one the installed `stripe` package is typed for). */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** What a Stripe SDK error carries that we read (the SDK's StripeError). */
interface StripeErrorLike {
  type: string;
  code?: string;
  decline_code?: string;
  message?: string;
  requestId?: string;
  statusCode?: number;
  payment_intent?: Stripe.PaymentIntent;
}

function isStripeError(err: unknown): err is StripeErrorLike {
  const type = err instanceof Error ? (err as unknown as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('Stripe');
}

const INTENT_STATUSES = new Set<string>([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
] satisfies PaymentIntentStatus[]);
const SETUP_STATUSES = new Set<string>([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
] satisfies SetupIntentResult['status'][]);
/** A status this API version did not list is reported as processing (not settled either way). */
const intentStatus = (s: string): PaymentIntentStatus => (INTENT_STATUSES.has(s) ? (s as PaymentIntentStatus) : 'processing');
const setupStatus = (s: string): SetupIntentResult['status'] => (SETUP_STATUSES.has(s) ? (s as SetupIntentResult['status']) : 'processing');

const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);

function toPaymentIntentResult(pi: Stripe.PaymentIntent, status: PaymentIntentStatus = intentStatus(pi.status)): PaymentIntentResult {
  const err = pi.last_payment_error;
  return {
    id: pi.id,
    status,
    client_secret: pi.client_secret ?? '',
    amount: pi.amount,
    currency: pi.currency,
    customer_id: idOf(pi.customer),
    metadata: { ...(pi.metadata ?? {}) },
    latest_charge_id: idOf(pi.latest_charge),
    last_error_code: err ? declineCode(err.code, err.decline_code) : null,
    last_error_message: err?.message ?? null,
    payment_method_id: idOf(pi.payment_method) ?? idOf(err?.payment_method),
  };
}

function toSetupIntentResult(si: Stripe.SetupIntent): SetupIntentResult {
  return {
    id: si.id,
    client_secret: si.client_secret ?? '',
    status: setupStatus(si.status),
    customer_id: idOf(si.customer) ?? '',
    payment_method_id: si.status === 'succeeded' ? idOf(si.payment_method) : null,
  };
}

const toAccountResult = (a: Stripe.Account): ConnectedAccountResult => ({
  id: a.id,
  details_submitted: a.details_submitted ?? false,
  payouts_enabled: a.payouts_enabled ?? false,
});

const REFUND_STATUSES = new Set<RefundResult['status']>(['pending', 'succeeded', 'failed', 'canceled', 'requires_action']);

/**
 * The PaymentGateway on Stripe's API through the `stripe` SDK (fetch HTTP client, two network retries,
 * the API version pinned). Every write sends an idempotency key. A card decline or a 3DS demand on an
 * off-session charge comes back as a result; every other Stripe error or outage is PAYMENT-GATEWAY-ERR
 * (502) with a safe message, logged with Stripe's request id.
 */
export class StripeGateway implements PaymentGateway {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly ctx: ServiceContext,
    secretKey: string,
    readonly publishableKey: string,
  ) {
    this.stripe = new Stripe(secretKey, {
      apiVersion: STRIPE_API_VERSION,
      // The global fetch looked up on each request (not captured once), so a test's interception applies.
      httpClient: Stripe.createFetchHttpClient((url, init) => fetch(url, init)),
      maxNetworkRetries: 2,
      timeout: 20_000,
    });
  }

  private failure(op: string, err: unknown): Error {
    if (!isStripeError(err)) return err instanceof Error ? err : new Error(String(err));
    const fields = {
      op,
      stripe_request_id: err.requestId ?? null,
      stripe_error_type: err.type,
      stripe_code: err.code ?? null,
      stripe_status: err.statusCode ?? null,
    };
    const outage = err.type === 'StripeConnectionError' || err.type === 'StripeAPIError' || (err.statusCode ?? 0) >= 500;
    if (outage) this.ctx.log.error('Stripe request failed', fields);
    else this.ctx.log.warn('Stripe refused the request', fields);
    return new AppError(
      'PAYMENT-GATEWAY-ERR',
      outage ? 'The payment processor could not be reached; try again shortly.' : 'The payment processor refused the request.',
      err.code ? { processor_code: err.code } : undefined,
    );
  }

  private async call<T>(op: string, fn: (s: Stripe) => Promise<T>): Promise<T> {
    try {
      return await fn(this.stripe);
    } catch (err) {
      throw this.failure(op, err);
    }
  }

  createCustomer(input: CustomerInput): Promise<{ id: string }> {
    return this.call('customers.create', async (s) => {
      const c = await s.customers.create(
        { name: input.name, ...(input.email ? { email: input.email } : {}), metadata: { business_id: input.businessId } },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: c.id };
    });
  }

  createSetupIntent(input: SetupIntentInput): Promise<SetupIntentResult> {
    return this.call('setupIntents.create', async (s) =>
      toSetupIntentResult(
        await s.setupIntents.create(
          { customer: input.customerId, usage: 'off_session', allowed_payment_method_types: ['card'], metadata: input.metadata },
          { idempotencyKey: input.idempotencyKey },
        ),
      ),
    );
  }

  retrieveSetupIntent(id: string): Promise<SetupIntentResult> {
    return this.call('setupIntents.retrieve', async (s) => toSetupIntentResult(await s.setupIntents.retrieve(id)));
  }

  retrievePaymentMethod(id: string): Promise<CardSummary & { customer_id: string | null }> {
    return this.call('paymentMethods.retrieve', async (s) => {
      const pm = await s.paymentMethods.retrieve(id);
      if (!pm.card)
        throw new AppError('PAYMENT-GATEWAY-ERR', 'The payment method is not a card.', { processor_code: 'payment_method_invalid_type' });
      return {
        id: pm.id,
        brand: pm.card.brand,
        last4: pm.card.last4,
        exp_month: pm.card.exp_month,
        exp_year: pm.card.exp_year,
        customer_id: idOf(pm.customer),
      };
    });
  }

  async detachPaymentMethod(id: string, idempotencyKey: string): Promise<void> {
    await this.call('paymentMethods.detach', (s) => s.paymentMethods.detach(id, {}, { idempotencyKey }));
  }

  async chargeOffSession(input: OffSessionChargeInput): Promise<PaymentIntentResult> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          metadata: input.metadata,
          transfer_group: input.transferGroup,
          ...(input.description ? { description: input.description } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toPaymentIntentResult(pi);
    } catch (err) {
      // Stripe answers a 3DS demand and a decline of a confirmed off-session intent as a card error
      // carrying the intent: both are outcomes of the charge, not failures of the request.
      if (isStripeError(err) && err.type === 'StripeCardError' && err.payment_intent) {
        const pi = err.payment_intent;
        this.ctx.log.info('Stripe charge not completed', {
          payment_intent_id: pi.id,
          stripe_code: err.code ?? null,
          decline_code: err.decline_code ?? null,
          stripe_request_id: err.requestId ?? null,
        });
        if (err.code === 'authentication_required') return toPaymentIntentResult(pi, 'requires_action');
        const result = toPaymentIntentResult(pi, pi.status === 'succeeded' ? 'requires_payment_method' : intentStatus(pi.status));
        return { ...result, last_error_code: result.last_error_code ?? declineCode(err.code, err.decline_code) };
      }
      throw this.failure('paymentIntents.create', err);
    }
  }

  retrievePaymentIntent(id: string): Promise<PaymentIntentResult> {
    return this.call('paymentIntents.retrieve', async (s) => toPaymentIntentResult(await s.paymentIntents.retrieve(id)));
  }

  createRefund(input: RefundInput): Promise<RefundResult> {
    return this.call('refunds.create', async (s) => {
      const r = await s.refunds.create(
        { payment_intent: input.paymentIntentId, amount: input.amount, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      const status = REFUND_STATUSES.has(r.status as RefundResult['status']) ? (r.status as RefundResult['status']) : 'pending';
      return { id: r.id, status, amount: r.amount, currency: r.currency };
    });
  }

  /** A connected account Stripe onboards and pays out (controller properties equivalent to Express), able to receive transfers. */
  createConnectedAccount(input: ConnectedAccountInput): Promise<ConnectedAccountResult> {
    return this.call('accounts.create', async (s) =>
      toAccountResult(
        await s.accounts.create(
          {
            controller: {
              stripe_dashboard: { type: 'express' },
              fees: { payer: 'application' },
              losses: { payments: 'application' },
            },
            capabilities: { transfers: { requested: true } },
            ...(input.email ? { email: input.email } : {}),
            ...(input.country ? { country: input.country } : {}),
            metadata: { shifter_id: input.shifterId },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      ),
    );
  }

  retrieveConnectedAccount(id: string): Promise<ConnectedAccountResult> {
    return this.call('accounts.retrieve', async (s) => toAccountResult(await s.accounts.retrieve(id)));
  }

  /** Account links are single-use and short-lived: a retry makes a new one, which is harmless. */
  createAccountLink(input: AccountLinkInput): Promise<{ url: string; expires_at: number }> {
    return this.call('accountLinks.create', async (s) => {
      const link = await s.accountLinks.create({
        account: input.accountId,
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
        type: 'account_onboarding',
      });
      return { url: link.url, expires_at: link.expires_at };
    });
  }

  createTransfer(input: TransferInput): Promise<TransferResult> {
    return this.call('transfers.create', async (s) => {
      const t = await s.transfers.create(
        {
          amount: input.amount,
          currency: input.currency,
          destination: input.destination,
          transfer_group: input.transferGroup,
          ...(input.sourceTransaction ? { source_transaction: input.sourceTransaction } : {}),
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: t.id, amount: t.amount, currency: t.currency, destination: idOf(t.destination) ?? input.destination };
    });
  }

  reverseTransfer(input: TransferReversalInput): Promise<TransferReversalResult> {
    return this.call('transfers.createReversal', async (s) => {
      const r = await s.transfers.createReversal(
        input.transferId,
        { amount: input.amount, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: r.id, amount: r.amount, transfer_id: idOf(r.transfer) ?? input.transferId };
    });
  }
}
