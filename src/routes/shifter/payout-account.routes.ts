import { authRoute, jsonContent } from '../../http/openapi';
import { payoutAccountQuery, payoutAccountSchema, payoutOnboardingSchema } from '../../services/payments';

const tags = ['Payouts'];

export const startPayoutOnboarding = authRoute({
  method: 'post',
  path: '/v1/shifter/payout_account',
  operationId: 'startPayoutOnboarding',
  authorization: 'self',
  tags,
  summary: "Set up the caller's payout account (once) and get a fresh onboarding link",
  description:
    'Creates the shifter’s connected account at the payment processor the first time, and on every call returns a new one-time ' +
    'onboarding link (they expire). Once onboarding is complete, the shifter’s share of each paid invoice is transferred there.',
  responses: { 200: jsonContent(payoutOnboardingSchema, 'The account and its onboarding link.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'PAYMENT-GATEWAY-ERR'],
});

export const getPayoutAccount = authRoute({
  method: 'get',
  path: '/v1/shifter/payout_account',
  operationId: 'getPayoutAccount',
  authorization: 'shifter',
  tags,
  summary: "The caller's payout account: onboarding state and whether payouts are enabled",
  description:
    'Refreshed from the processor on each read (and kept current by its account.updated events). `set_up: false` until onboarding ' +
    'is started. An admin may name another shifter (`shifter_id`); anyone else naming one gets 404.',
  request: { query: payoutAccountQuery },
  responses: { 200: jsonContent(payoutAccountSchema, 'The payout account.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});
