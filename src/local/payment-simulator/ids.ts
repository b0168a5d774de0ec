import { randomBase62 } from '../../lib/ids';

const body = () => randomBase62(24);

/** Stripe's id prefixes for the objects the simulator keeps. */
export const SIM_PREFIX = {
  customer: 'cus',
  setup_intent: 'seti',
  payment_method: 'pm',
  payment_intent: 'pi',
  charge: 'ch',
  refund: 're',
  transfer: 'tr',
  transfer_reversal: 'trr',
  account: 'acct',
  event: 'evt',
} as const;

export type SimObjectType = Exclude<keyof typeof SIM_PREFIX, 'event'>;

export const simId = (kind: keyof typeof SIM_PREFIX) => `${SIM_PREFIX[kind]}_${body()}`;

/** A client secret as Stripe writes them: `<intent id>_secret_<random>`. */
export const simClientSecret = (intentId: string) => `${intentId}_secret_${body()}`;

/** A fresh token for each stored revision of an object (see store.ts). */
export const simRevision = () => body();
