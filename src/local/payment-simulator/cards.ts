/**
 * Stripe's own test cards, so the same numbers work against the simulator and against Stripe in test
 * mode. Outcomes show at charge time: every listed card saves (the simulator's card form does not ask
 * the issuer), then a charge succeeds, declines with its code, or demands authentication (3DS).
 */
export type TestCardOutcome =
  | { kind: 'succeeds' }
  | { kind: 'declines'; code: 'card_declined'; decline_code: 'generic_decline' | 'insufficient_funds' }
  | { kind: 'requires_authentication' };

export interface TestCard {
  number: string;
  brand: 'visa';
  outcome: TestCardOutcome;
}

export const SIMULATOR_TEST_CARDS = {
  '4242424242424242': { number: '4242424242424242', brand: 'visa', outcome: { kind: 'succeeds' } },
  '4000000000000002': {
    number: '4000000000000002',
    brand: 'visa',
    outcome: { kind: 'declines', code: 'card_declined', decline_code: 'generic_decline' },
  },
  '4000000000009995': {
    number: '4000000000009995',
    brand: 'visa',
    outcome: { kind: 'declines', code: 'card_declined', decline_code: 'insufficient_funds' },
  },
  '4000002760003184': { number: '4000002760003184', brand: 'visa', outcome: { kind: 'requires_authentication' } },
} as const satisfies Record<string, TestCard>;

/** Stripe's test PaymentMethod tokens, each standing for one of the cards above. */
export const SIMULATOR_TEST_TOKENS = {
  pm_card_visa: '4242424242424242',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_authenticationRequired: '4000002760003184',
} as const satisfies Record<string, keyof typeof SIMULATOR_TEST_CARDS>;

export type TestCardNumber = keyof typeof SIMULATOR_TEST_CARDS;
export type TestToken = keyof typeof SIMULATOR_TEST_TOKENS;

export function testCardByNumber(number: string): TestCard | null {
  const digits = number.replace(/[\s-]/g, '');
  return (SIMULATOR_TEST_CARDS as Record<string, TestCard>)[digits] ?? null;
}

export function testCardByToken(token: string): TestCard | null {
  const number = (SIMULATOR_TEST_TOKENS as Record<string, string>)[token];
  return number ? testCardByNumber(number) : null;
}
