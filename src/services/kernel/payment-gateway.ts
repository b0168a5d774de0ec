import type { ServiceContext } from './context';

/**
 * The payment processor, behind one interface with two implementations: the Stripe adapter
 * (services/payments/stripe-gateway.ts, with STRIPE_SECRET_KEY) and the local payment simulator
 * (src/local/payment-simulator, without one). Services never import either directly: they call
 * `paymentGateway(ctx)` (services/payments/processor.ts).
 *
 * Rules every implementation keeps:
 * - Amounts are integers in the currency's minor units; currencies are lower-case ISO 4217 codes.
 * - Every write takes an idempotency key: the same key returns the same object and never acts twice.
 * - Errors the caller should show are thrown as AppError (`PAYMENT-GATEWAY-ERR`, 502, for an outage or
 *   a refusal the processor gives as an error; card declines are not errors: they are results).
 * - The processor's own ids are passed through unchanged (cus_, seti_, pm_, pi_, ch_, re_, tr_, trr_, acct_).
 */

export type GatewayKind = 'stripe' | 'simulator';

export interface CardSummary {
  id: string; // pm_…
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface SetupIntentResult {
  id: string; // seti_…
  client_secret: string;
  status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';
  customer_id: string;
  /** Set once the intent succeeded: the card it saved. */
  payment_method_id: string | null;
}

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface PaymentIntentResult {
  id: string; // pi_…
  status: PaymentIntentStatus;
  /** Fresh on every read; the page hands it to Stripe.js (or the simulator's script). */
  client_secret: string;
  amount: number;
  currency: string;
  customer_id: string | null;
  metadata: Record<string, string>;
  /** The charge that settled it (ch_…), once succeeded. */
  latest_charge_id: string | null;
  /** A decline's code (e.g. `card_declined`, `insufficient_funds`) when the last attempt failed. */
  last_error_code: string | null;
  last_error_message: string | null;
  /**
   * The card the intent charges (pm_…): its `payment_method`, or, once an attempt failed (Stripe
   * detaches it then), the one `last_payment_error.payment_method` names. An off-session charge held
   * for authentication needs it: the customer confirms on-session with that saved card.
   */
  payment_method_id: string | null;
}

export interface OffSessionChargeInput {
  customerId: string;
  paymentMethodId: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  /** Always carries invoice_id and business_id: the webhook matches events to invoices by it. */
  metadata: { invoice_id: string; business_id: string } & Record<string, string>;
  /** Groups the charge with the shifter's transfer (the invoice id). */
  transferGroup: string;
  description?: string;
}

export interface RefundResult {
  id: string; // re_…
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
  amount: number;
  currency: string;
}

export interface TransferResult {
  id: string; // tr_…
  amount: number;
  currency: string;
  destination: string;
}

export interface TransferReversalResult {
  id: string; // trr_…
  amount: number;
  transfer_id: string;
}

export interface ConnectedAccountResult {
  id: string; // acct_…
  details_submitted: boolean;
  payouts_enabled: boolean;
}

export interface CustomerInput {
  businessId: string;
  email: string | null;
  name: string;
  idempotencyKey: string;
}

export interface SetupIntentInput {
  customerId: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface RefundInput {
  paymentIntentId: string;
  amount: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface ConnectedAccountInput {
  shifterId: string;
  email: string | null;
  country: string | null;
  idempotencyKey: string;
}

export interface AccountLinkInput {
  accountId: string;
  refreshUrl: string;
  returnUrl: string;
}

export interface TransferInput {
  amount: number;
  currency: string;
  destination: string;
  transferGroup: string;
  sourceTransaction: string | null;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface TransferReversalInput {
  transferId: string;
  amount: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface PaymentGateway {
  readonly kind: GatewayKind;
  /** The key pages give Stripe.js (pk_…); the simulator's is `pk_simulator`. */
  readonly publishableKey: string;

  createCustomer(input: CustomerInput): Promise<{ id: string }>;
  createSetupIntent(input: SetupIntentInput): Promise<SetupIntentResult>;
  retrieveSetupIntent(id: string): Promise<SetupIntentResult>;
  retrievePaymentMethod(id: string): Promise<CardSummary & { customer_id: string | null }>;
  detachPaymentMethod(id: string, idempotencyKey: string): Promise<void>;

  /** An off-session, confirmed PaymentIntent on a saved card. A decline or a 3DS demand is a result, not an error. */
  chargeOffSession(input: OffSessionChargeInput): Promise<PaymentIntentResult>;
  retrievePaymentIntent(id: string): Promise<PaymentIntentResult>;

  createRefund(input: RefundInput): Promise<RefundResult>;

  createConnectedAccount(input: ConnectedAccountInput): Promise<ConnectedAccountResult>;
  retrieveConnectedAccount(id: string): Promise<ConnectedAccountResult>;
  /** A one-time onboarding link for the account (Stripe-hosted; the simulator's own page). */
  createAccountLink(input: AccountLinkInput): Promise<{ url: string; expires_at: number }>;
  createTransfer(input: TransferInput): Promise<TransferResult>;
  reverseTransfer(input: TransferReversalInput): Promise<TransferReversalResult>;
}

/**
 * The code a decline is reported with: the specific decline code when the issuer gave one
 * (`insufficient_funds`), else the error code (`card_declined`). The Stripe adapter reports the same way.
 */
export function declineCode(code: string | null | undefined, decline: string | null | undefined): string | null {
  if (decline && decline !== 'generic_decline') return decline;
  return code ?? decline ?? null;
}

/**
 * The stand-in used when STRIPE_SECRET_KEY is absent: the local payment simulator (src/local/
 * payment-simulator) registers itself here when it is loaded (the Worker entry and the test setup load
 * it), so the payments domain never imports a development tool.
 */
let localGateway: ((ctx: ServiceContext) => PaymentGateway) | null = null;

export function useLocalPaymentGateway(factory: (ctx: ServiceContext) => PaymentGateway): void {
  localGateway = factory;
}

export function localPaymentGateway(ctx: ServiceContext): PaymentGateway {
  if (!localGateway) throw new Error('STRIPE_SECRET_KEY is not set and the local payment simulator is not loaded.');
  return localGateway(ctx);
}
