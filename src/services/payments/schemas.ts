import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';

const iso = z.string().max(40).openapi({ description: 'ISO 8601 UTC.', example: '2026-11-20T14:00:00.000Z' });
const processorId = z.string().max(255);

export const CHARGE_STATUSES = ['succeeded', 'requires_action', 'failed', 'processing'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

export const CHARGE_TRIGGERS = ['automatic', 'on_demand', 'prepay'] as const;
export type ChargeTrigger = (typeof CHARGE_TRIGGERS)[number];

/**
 * What a charge of an invoice came to (spec 3.4). `requires_action`: the issuer asks the card holder to
 * authenticate; the invoice stays pending and `client_secret` (fresh) is what the authentication page
 * hands to Stripe.js. `failed`: declined (`decline_code`), the invoice stays pending. `processing`: the
 * processor answers later (a webhook event settles it).
 */
export const chargeResultSchema = z
  .object({
    status: z.enum(CHARGE_STATUSES),
    invoice_id: z.string().max(ID_MAX_LENGTH),
    payment_intent_id: processorId.nullable(),
    client_secret: processorId
      .nullable()
      .openapi({ description: 'Only with status requires_action: give it to Stripe.js, never store it.' }),
    decline_code: z
      .string()
      .max(255)
      .nullable()
      .openapi({ description: 'With status failed: the decline (card_declined, insufficient_funds…).' }),
  })
  .openapi('ChargeResult');
export type ChargeResult = z.infer<typeof chargeResultSchema>;

export const setupIntentSchema = z
  .object({
    setup_intent_id: processorId,
    client_secret: processorId.openapi({ description: "Give it to Stripe.js's card form (confirmCardSetup); never store it." }),
    publishable_key: z.string().max(255),
    gateway: z.enum(['stripe', 'simulator']),
  })
  .openapi('SetupIntent');
export type SetupIntentView = z.infer<typeof setupIntentSchema>;

export const savePaymentMethodInput = z
  .object({
    setup_intent_id: z.string().min(1).max(255).openapi({ description: 'The SetupIntent the card form confirmed (seti_…).' }),
  })
  .openapi('SavePaymentMethodInput');
export type SavePaymentMethodInput = z.infer<typeof savePaymentMethodInput>;

export const paymentMethodSchema = z
  .object({
    payment_method_id: processorId,
    brand: z.string().max(50),
    last4: z.string().max(4),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int(),
    is_default: z.boolean().openapi({ description: 'Off-session charges (automatic and on demand) use the default card.' }),
    created_at: iso,
  })
  .openapi('PaymentMethod');
export type PaymentMethodView = z.infer<typeof paymentMethodSchema>;

/** A business has few cards; the list is bounded all the same. */
export const PAYMENT_METHODS_MAX = 50;

export const paymentMethodListSchema = z
  .object({ data: z.array(paymentMethodSchema).max(PAYMENT_METHODS_MAX) })
  .openapi('PaymentMethodList');
export type PaymentMethodList = z.infer<typeof paymentMethodListSchema>;

/** What a charge pays for, shown to its payer before they confirm it (services/payments/charge-details.ts). */
export const chargeDetailsSchema = z.object({
  business_name: z.string().nullable(),
  /** The shifts the invoice bills (one today: an invoice is per worked shift), in the business's zone. */
  shifts: z.array(
    z.object({
      id: z.string().max(ID_MAX_LENGTH),
      shift_date: z.string(),
      shift_in: z.string(),
      shift_out: z.string(),
      role: z.string().nullable(),
      timezone: z.string(),
    }),
  ),
  shifter_name: z.string().nullable(),
  /** The saved card the intent charges; null when it is not one of the business's saved cards. */
  card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() }).nullable(),
});
export type ChargeDetails = z.infer<typeof chargeDetailsSchema>;

/** What the authentication page needs to run the issuer's step (Stripe.js handleNextAction, or the simulator's page). */
export const freshClientSecretSchema = z.object({
  invoice_id: z.string().max(ID_MAX_LENGTH),
  payment_intent_id: processorId,
  client_secret: processorId,
  publishable_key: z.string().max(255),
  gateway: z.enum(['stripe', 'simulator']),
  amount: z.number(),
  currency: z.string().max(3),
  /**
   * The intent's state: `requires_action` (the issuer's step is pending: Stripe.js `handleNextAction`)
   * or `requires_payment_method` after an off-session `authentication_required` decline (Stripe's real
   * shape: the customer confirms on-session with `confirmCardPayment(client_secret, { payment_method })`,
   * which runs 3D Secure).
   */
  status: z.enum(['requires_action', 'requires_payment_method']),
  /** The saved card to confirm with (pm_…); set whenever it is known. */
  payment_method_id: processorId.nullable(),
  /** The Stripe.js call the page makes, read from the two fields above. */
  next_step: z.enum(['handle_next_action', 'confirm_card_payment']),
  /** What the charge is for: business, shift, shifter and card, so the payer knows what they confirm. */
  charge: chargeDetailsSchema,
});
export type FreshClientSecret = z.infer<typeof freshClientSecretSchema>;

/** One invoice of the caller's businesses waiting for the card holder's authentication. */
export const stuckInvoiceSchema = z.object({
  invoice_id: z.string().max(ID_MAX_LENGTH),
  business_id: z.string().max(ID_MAX_LENGTH),
  shift_request_id: z.string().max(ID_MAX_LENGTH),
  amount: z.number(),
  currency: z.string().max(3),
  payment_intent_id: processorId.nullable(),
  requires_action_at: iso.nullable(),
  authenticate_path: z.string().max(200).openapi({ description: 'The page that completes it: /finance/web/authenticate/{invoice_id}.' }),
});
export type StuckInvoice = z.infer<typeof stuckInvoiceSchema>;
