import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { SIMULATOR_TEST_TOKENS } from '../../local/payment-simulator';
import { onlyWithSimulator } from './simulator.middleware';

/**
 * The local payment simulator's stand-ins for what Stripe's browser side does: Stripe.js's card form
 * confirming a SetupIntent, and Stripe's hosted onboarding of a connected account. They exist only
 * while the simulator is the processor (no STRIPE_SECRET_KEY); with real Stripe keys they are 404.
 */

const tags = ['Finance'];

const TOKENS = Object.keys(SIMULATOR_TEST_TOKENS) as [keyof typeof SIMULATOR_TEST_TOKENS, ...(keyof typeof SIMULATOR_TEST_TOKENS)[]];

export const confirmSetupInput = z
  .object({
    card_number: z
      .string()
      .max(23)
      .regex(/^[0-9][0-9 -]{10,21}[0-9]$/, 'a card number: 12 to 19 digits, spaces or dashes between')
      .optional()
      .openapi({
        example: '4242424242424242',
        description: "One of Stripe's test card numbers (any other is declined, as in Stripe's test mode).",
      }),
    test_token: z.enum(TOKENS).optional().openapi({ description: "Or one of Stripe's test PaymentMethod tokens." }),
  })
  .refine((v) => (v.card_number === undefined) !== (v.test_token === undefined), {
    message: 'give exactly one of card_number and test_token',
    path: ['card_number'],
  })
  .openapi('SimulatorConfirmSetupIntentInput');

export const simulatorSetupIntentSchema = z
  .object({
    id: z.string().max(255),
    status: z.enum(['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'succeeded', 'canceled']),
    customer_id: z.string().max(255),
    payment_method_id: z.string().max(255).nullable().openapi({ description: 'The card saved, once the intent succeeded.' }),
    last_setup_error_code: z
      .string()
      .max(100)
      .nullable()
      .openapi({ description: '`card_declined` when a number that is not a test card was given; the intent can then be confirmed again.' }),
  })
  .openapi('SimulatorSetupIntent');

export const simulatorAccountSchema = z
  .object({ id: z.string().max(255), details_submitted: z.boolean(), payouts_enabled: z.boolean() })
  .openapi('SimulatorConnectedAccount');

export const confirmSimulatorSetupIntent = authRoute({
  method: 'post',
  path: '/v1/finance/simulator/setup_intents/{id}/confirm',
  operationId: 'confirmSimulatorSetupIntent',
  authorization: 'business-owner',
  tags,
  summary: "Payment simulator: confirm a SetupIntent with a test card (what Stripe.js's card form does)",
  description:
    'Only while the local payment simulator is the processor (no STRIPE_SECRET_KEY); otherwise 404. Only the owner of the business ' +
    'the SetupIntent was made for (`metadata.business_id`); a teammate or an admin gets 403, anyone else 404. A test card saves ' +
    '(the answer names the payment method) and `setup_intent.succeeded` is delivered to the webhook; any other number is declined. ' +
    'Test cards: 4242424242424242 charges succeed; 4000000000000002 declined (`card_declined`); 4000000000009995 declined ' +
    '(`insufficient_funds`); 4000002760003184 every charge demands authentication (3DS). A SetupIntent that already succeeded is 409.',
  request: { params: z.object({ id: pathParam('id') }), body: jsonBody(confirmSetupInput) },
  middleware: [onlyWithSimulator],
  responses: { 200: jsonContent(simulatorSetupIntentSchema, 'The SetupIntent after confirmation.') },
  errors: ['NOT-FOUND-ERR', 'CONFLICT-ERR', 'PAYMENT-GATEWAY-ERR'],
});

export const completeSimulatorOnboarding = authRoute({
  method: 'post',
  path: '/v1/finance/simulator/accounts/{id}/complete_onboarding',
  operationId: 'completeSimulatorOnboarding',
  authorization: 'shifter',
  tags,
  summary: "Payment simulator: complete a connected account's onboarding (what Stripe's hosted onboarding does)",
  description:
    'Only while the local payment simulator is the processor (no STRIPE_SECRET_KEY); otherwise 404. Only the shifter the account ' +
    'was made for; anyone else 404. The account becomes `details_submitted` and `payouts_enabled` and `account.updated` is delivered ' +
    'to the webhook; completing it again changes nothing.',
  request: { params: z.object({ id: pathParam('id') }) },
  middleware: [onlyWithSimulator],
  responses: { 200: jsonContent(simulatorAccountSchema, 'The account after onboarding.') },
  errors: ['NOT-FOUND-ERR', 'PAYMENT-GATEWAY-ERR'],
});
