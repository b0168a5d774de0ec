import { useLocalPaymentGateway } from '../../services/kernel';
import { SimulatorGateway } from './gateway';

/**
 * The local payment simulator: Stripe's objects, test cards, refusals and signed webhook events,
 * kept in D1, behind the PaymentGateway interface. Active whenever STRIPE_SECRET_KEY is absent.
 */
export {
  simulatorAccountShifter,
  simulatorAuthenticate,
  simulatorCompleteOnboarding,
  simulatorConfirmSetupIntent,
  simulatorSetupIntentBusiness,
} from './actions';
export { SIMULATOR_TEST_CARDS, SIMULATOR_TEST_TOKENS } from './cards';
export { deliverSimulatorEvents, sweepSimulatorEvents } from './events';
export { SimulatorGateway } from './gateway';

useLocalPaymentGateway((ctx) => new SimulatorGateway(ctx));
