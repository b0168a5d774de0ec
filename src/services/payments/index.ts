export { sweepAutomaticCharges } from './auto-charge';
export { createCardSetup, deleteCard, listCards, saveCard, setDefaultCard } from './cards';
export { authenticatePath, chargeInvoice, freshClientSecret, prepayShift, stuckInvoices } from './charge';
export {
  applyAccountStatus,
  getPayoutAccount,
  listPayouts,
  payoutAccountOfUser,
  type PayoutRow,
  type PayoutState,
  startPayoutOnboarding,
  sweepMissingTransfers,
} from './payouts';
export { paymentGateway, simulatorActive } from './processor';
export { payoutAccountQuery, payoutAccountSchema, payoutOnboardingSchema, refundInput, refundResultSchema } from './refund-schemas';
export { checkRefund, refundIfShiftEndedUnworked, refundInvoice, sweepUnworkedShiftRefunds } from './refunds';
export {
  type ChargeDetails,
  type ChargeResult,
  chargeResultSchema,
  type FreshClientSecret,
  paymentMethodListSchema,
  paymentMethodSchema,
  type PaymentMethodView,
  savePaymentMethodInput,
  setupIntentSchema,
  type StuckInvoice,
} from './schemas';
export { completeIfPrepaid } from './settle';
export { receiveStripeWebhook, STRIPE_DEVELOPMENT_WEBHOOK_SECRET, stripeWebhookAnswerSchema } from './stripe-webhook';
