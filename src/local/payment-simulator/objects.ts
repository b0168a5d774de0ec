import {
  type CardSummary,
  type ConnectedAccountResult,
  declineCode,
  type PaymentIntentResult,
  type PaymentIntentStatus,
  type SetupIntentResult,
} from '../../services/kernel';
import type { SimObject } from './store';

/** The Stripe-shaped documents the simulator keeps (the fields it uses; `_…` fields are its own). */

export interface SimCustomer extends SimObject {
  object: 'customer';
  email: string | null;
  name: string;
  metadata: Record<string, string>;
}

export interface SimError {
  type: 'card_error';
  code: string;
  decline_code?: string;
  message: string;
}

export interface SimSetupIntent extends SimObject {
  object: 'setup_intent';
  client_secret: string;
  customer: string;
  payment_method: string | null;
  status: SetupIntentResult['status'];
  usage: 'off_session';
  last_setup_error: SimError | null;
  metadata: Record<string, string>;
  created: number;
}

export interface SimPaymentMethod extends SimObject {
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  created: number;
  /** The test card it was made from: decides each charge's outcome. */
  _test_card: string;
}

export interface SimPaymentIntent extends SimObject {
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: PaymentIntentStatus;
  client_secret: string;
  latest_charge: string | null;
  last_payment_error: SimError | null;
  next_action: { type: 'use_stripe_sdk'; use_stripe_sdk: Record<string, never> } | null;
  metadata: Record<string, string>;
  transfer_group: string | null;
  description: string | null;
  off_session: boolean;
  created: number;
}

export interface SimCharge extends SimObject {
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  customer: string | null;
  payment_intent: string;
  payment_method: string | null;
  paid: boolean;
  captured: boolean;
  refunded: boolean;
  status: 'succeeded';
  transfer_group: string | null;
  metadata: Record<string, string>;
  created: number;
  /** What transfers naming this charge as their source_transaction have taken from it. */
  _transferred: number;
}

export interface SimRefund extends SimObject {
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
}

export interface SimAccount extends SimObject {
  object: 'account';
  type: 'express';
  email: string | null;
  country: string;
  details_submitted: boolean;
  payouts_enabled: boolean;
  charges_enabled: boolean;
  metadata: Record<string, string>;
  created: number;
}

export interface SimTransfer extends SimObject {
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  source_transaction: string | null;
  reversed: boolean;
  metadata: Record<string, string>;
  created: number;
}

export interface SimTransferReversal extends SimObject {
  object: 'transfer_reversal';
  amount: number;
  currency: string;
  transfer: string;
  metadata: Record<string, string>;
  created: number;
}

export const toSetupIntentResult = (si: SimSetupIntent): SetupIntentResult => ({
  id: si.id,
  client_secret: si.client_secret,
  status: si.status,
  customer_id: si.customer,
  payment_method_id: si.status === 'succeeded' ? si.payment_method : null,
});

export const toPaymentIntentResult = (pi: SimPaymentIntent): PaymentIntentResult => ({
  id: pi.id,
  status: pi.status,
  client_secret: pi.client_secret,
  amount: pi.amount,
  currency: pi.currency,
  customer_id: pi.customer,
  metadata: { ...pi.metadata },
  latest_charge_id: pi.latest_charge,
  last_error_code: pi.last_payment_error ? declineCode(pi.last_payment_error.code, pi.last_payment_error.decline_code) : null,
  last_error_message: pi.last_payment_error?.message ?? null,
  payment_method_id: pi.payment_method,
});

export const toCardSummary = (pm: SimPaymentMethod): CardSummary & { customer_id: string | null } => ({
  id: pm.id,
  brand: pm.card.brand,
  last4: pm.card.last4,
  exp_month: pm.card.exp_month,
  exp_year: pm.card.exp_year,
  customer_id: pm.customer,
});

export const toAccountResult = (a: SimAccount): ConnectedAccountResult => ({
  id: a.id,
  details_submitted: a.details_submitted,
  payouts_enabled: a.payouts_enabled,
});
