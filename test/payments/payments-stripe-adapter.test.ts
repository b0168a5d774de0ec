// inside: services/payments
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/lib/errors';
import type { Logger, LogFields } from '../../src/lib/log';
import type { ServiceContext } from '../../src/services/kernel';
import { paymentGateway } from '../../src/services/payments';
import { STRIPE_API_VERSION, StripeGateway } from '../../src/services/payments/stripe-gateway';
import { contextAt } from '../helpers/clock';
import { makeUser } from '../helpers/factory';

/**
 * The Stripe adapter against Stripe-shaped answers: outbound HTTP is intercepted at `fetch` (the
 * SDK's fetch client), every request is checked (method, path, form body, Idempotency-Key, API
 * version), and any call to an address the test did not expect fails it.
 */

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  form: URLSearchParams;
}
type Route = (req: Seen) => Response | Promise<Response>;

const SECRET = 'sk_test_adapter_only';
let unexpected: string[] = [];
let seen: Seen[] = [];

function stripeJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': `req_${crypto.randomUUID().slice(0, 8)}`, ...headers },
  });
}

/** Answers api.stripe.com requests from `routes` ("POST /v1/refunds"); anything else is recorded and refused. */
function fakeStripe(routes: Record<string, Route>) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (url.host !== 'api.stripe.com') {
      unexpected.push(`${method} ${url.href}`);
      throw new TypeError(`unexpected outbound call to ${url.host}`);
    }
    const req: Seen = {
      method,
      path: url.pathname,
      headers: new Headers(init?.headers as HeadersInit),
      form: new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
    };
    seen.push(req);
    const route = routes[`${method} ${url.pathname}`];
    if (!route) {
      unexpected.push(`${method} ${url.pathname}`);
      return stripeJson(
        404,
        { error: { type: 'invalid_request_error', message: 'not expected by the test' } },
        { 'stripe-should-retry': 'false' },
      );
    }
    return route(req);
  });
}

beforeEach(() => {
  unexpected = [];
  seen = [];
});

afterEach(() => {
  vi.restoreAllMocks();
  expect(unexpected, 'outbound calls the test did not expect').toEqual([]);
});

/** A context whose log lines are kept, and the Stripe adapter on it. */
async function adapter() {
  const user = await makeUser();
  const lines: { level: string; msg: string; fields: LogFields }[] = [];
  const log: Logger = {
    info: (msg, fields = {}) => void lines.push({ level: 'info', msg, fields }),
    warn: (msg, fields = {}) => void lines.push({ level: 'warn', msg, fields }),
    error: (msg, fields = {}) => void lines.push({ level: 'error', msg, fields }),
    child: () => log,
  };
  const base = contextAt(Date.now(), user);
  const ctx: ServiceContext = {
    ...base,
    log,
    settings: { ...base.settings, STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: 'pk_test_x' },
  };
  return { ctx, lines, gw: paymentGateway(ctx) };
}

function intent(over: Record<string, unknown> = {}) {
  return {
    id: 'pi_3Adapter',
    object: 'payment_intent',
    amount: 8000,
    currency: 'usd',
    customer: 'cus_A',
    payment_method: 'pm_A',
    status: 'succeeded',
    client_secret: 'pi_3Adapter_secret_abc',
    latest_charge: 'ch_3Adapter',
    last_payment_error: null,
    next_action: null,
    metadata: { invoice_id: 'in_1', business_id: 'biz_1' },
    transfer_group: 'in_1',
    livemode: false,
    ...over,
  };
}

const CHARGE = {
  customerId: 'cus_A',
  paymentMethodId: 'pm_A',
  amount: 8000,
  currency: 'usd',
  idempotencyKey: 'charge:in_1:1',
  metadata: { invoice_id: 'in_1', business_id: 'biz_1' },
  transferGroup: 'in_1',
  description: 'Invoice in_1',
};

async function rejected(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('Stripe adapter: off-session charges', () => {
  it('a confirmed off-session PaymentIntent: the form body, the Idempotency-Key, the pinned API version; succeeded with its charge', async () => {
    const { gw } = await adapter();
    expect(gw).toBeInstanceOf(StripeGateway);
    expect(gw.kind).toBe('stripe');
    expect(gw.publishableKey).toBe('pk_test_x');
    fakeStripe({ 'POST /v1/payment_intents': () => stripeJson(200, intent()) });

    const r = await gw.chargeOffSession(CHARGE);
    expect(r).toEqual({
      id: 'pi_3Adapter',
      status: 'succeeded',
      client_secret: 'pi_3Adapter_secret_abc',
      amount: 8000,
      currency: 'usd',
      customer_id: 'cus_A',
      metadata: { invoice_id: 'in_1', business_id: 'biz_1' },
      latest_charge_id: 'ch_3Adapter',
      last_error_code: null,
      last_error_message: null,
      payment_method_id: 'pm_A',
    });
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/payment_intents');
    expect(req.headers.get('Idempotency-Key')).toBe('charge:in_1:1');
    expect(req.headers.get('Stripe-Version')).toBe(STRIPE_API_VERSION);
    expect(req.headers.get('Authorization')).toBe(`Bearer ${SECRET}`);
    expect(Object.fromEntries(req.form)).toMatchObject({
      amount: '8000',
      currency: 'usd',
      customer: 'cus_A',
      payment_method: 'pm_A',
      off_session: 'true',
      confirm: 'true',
      'metadata[invoice_id]': 'in_1',
      'metadata[business_id]': 'biz_1',
      transfer_group: 'in_1',
      description: 'Invoice in_1',
    });
  });

  it('authentication_required (a card error carrying the intent) is a requires_action result with the client secret, not an error', async () => {
    const { gw } = await adapter();
    fakeStripe({
      'POST /v1/payment_intents': () =>
        stripeJson(402, {
          error: {
            type: 'card_error',
            code: 'authentication_required',
            decline_code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
            // Stripe's shape: the card is detached from the intent and named by the error.
            payment_intent: intent({
              status: 'requires_payment_method',
              payment_method: null,
              latest_charge: 'ch_failed',
              last_payment_error: {
                type: 'card_error',
                code: 'authentication_required',
                decline_code: 'authentication_required',
                message: 'auth',
                payment_method: { id: 'pm_Saved', object: 'payment_method', type: 'card' },
              },
            }),
          },
        }),
    });
    const r = await gw.chargeOffSession(CHARGE);
    expect(r).toMatchObject({
      id: 'pi_3Adapter',
      status: 'requires_action',
      client_secret: 'pi_3Adapter_secret_abc',
      last_error_code: 'authentication_required',
      payment_method_id: 'pm_Saved',
    });
    expect(seen).toHaveLength(1); // a card error is an answer: never retried
  });

  it('a decline is a failed result with its code (insufficient_funds; a generic decline reads card_declined)', async () => {
    const { gw } = await adapter();
    const decline = (decline_code: string) => () =>
      stripeJson(402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code,
          message: 'Your card was declined.',
          payment_intent: intent({
            status: 'requires_payment_method',
            latest_charge: 'ch_declined',
            last_payment_error: { type: 'card_error', code: 'card_declined', decline_code, message: 'Your card was declined.' },
          }),
        },
      });
    fakeStripe({ 'POST /v1/payment_intents': decline('insufficient_funds') });
    expect(await gw.chargeOffSession(CHARGE)).toMatchObject({
      status: 'requires_payment_method',
      last_error_code: 'insufficient_funds',
      last_error_message: 'Your card was declined.',
    });
    vi.restoreAllMocks();
    fakeStripe({ 'POST /v1/payment_intents': decline('generic_decline') });
    expect(await gw.chargeOffSession(CHARGE)).toMatchObject({ status: 'requires_payment_method', last_error_code: 'card_declined' });
  });
});

describe('Stripe adapter: refunds, transfers, reversals and accounts', () => {
  it('refund, transfer (from its source charge) and reversal send their fields and keys', async () => {
    const { gw } = await adapter();
    fakeStripe({
      'POST /v1/refunds': () =>
        stripeJson(200, {
          id: 're_1',
          object: 'refund',
          amount: 3000,
          currency: 'usd',
          status: 'succeeded',
          payment_intent: 'pi_3Adapter',
        }),
      'POST /v1/transfers': () =>
        stripeJson(200, {
          id: 'tr_1',
          object: 'transfer',
          amount: 7000,
          currency: 'usd',
          destination: 'acct_1',
          amount_reversed: 0,
          reversals: {},
        }),
      'POST /v1/transfers/tr_1/reversals': () =>
        stripeJson(200, { id: 'trr_1', object: 'transfer_reversal', amount: 2625, currency: 'usd', transfer: 'tr_1' }),
    });

    expect(
      await gw.createRefund({
        paymentIntentId: 'pi_3Adapter',
        amount: 3000,
        idempotencyKey: 'refund:rfd_1',
        metadata: { refund_id: 'rfd_1' },
      }),
    ).toEqual({
      id: 're_1',
      status: 'succeeded',
      amount: 3000,
      currency: 'usd',
    });
    expect(
      await gw.createTransfer({
        amount: 7000,
        currency: 'usd',
        destination: 'acct_1',
        transferGroup: 'in_1',
        sourceTransaction: 'ch_3Adapter',
        idempotencyKey: 'transfer:in_1',
        metadata: { invoice_id: 'in_1' },
      }),
    ).toEqual({ id: 'tr_1', amount: 7000, currency: 'usd', destination: 'acct_1' });
    expect(
      await gw.reverseTransfer({ transferId: 'tr_1', amount: 2625, idempotencyKey: 'reversal:rfd_1', metadata: { refund_id: 'rfd_1' } }),
    ).toEqual({
      id: 'trr_1',
      amount: 2625,
      transfer_id: 'tr_1',
    });

    expect(seen.map((s) => `${s.method} ${s.path} ${s.headers.get('Idempotency-Key')}`)).toEqual([
      'POST /v1/refunds refund:rfd_1',
      'POST /v1/transfers transfer:in_1',
      'POST /v1/transfers/tr_1/reversals reversal:rfd_1',
    ]);
    expect(Object.fromEntries(seen[0]!.form)).toEqual({ payment_intent: 'pi_3Adapter', amount: '3000', 'metadata[refund_id]': 'rfd_1' });
    expect(Object.fromEntries(seen[1]!.form)).toEqual({
      amount: '7000',
      currency: 'usd',
      destination: 'acct_1',
      transfer_group: 'in_1',
      source_transaction: 'ch_3Adapter',
      'metadata[invoice_id]': 'in_1',
    });
    expect(Object.fromEntries(seen[2]!.form)).toEqual({ amount: '2625', 'metadata[refund_id]': 'rfd_1' });
  });

  it('customer, SetupIntent, connected account (controller properties, transfers capability) and account link', async () => {
    const { gw } = await adapter();
    fakeStripe({
      'POST /v1/customers': () => stripeJson(200, { id: 'cus_A', object: 'customer' }),
      'POST /v1/setup_intents': () =>
        stripeJson(200, {
          id: 'seti_1',
          object: 'setup_intent',
          client_secret: 'seti_1_secret_x',
          status: 'requires_payment_method',
          customer: 'cus_A',
          payment_method: null,
        }),
      'GET /v1/setup_intents/seti_1': () =>
        stripeJson(200, {
          id: 'seti_1',
          object: 'setup_intent',
          client_secret: 'seti_1_secret_x',
          status: 'succeeded',
          customer: 'cus_A',
          payment_method: 'pm_A',
        }),
      'GET /v1/payment_methods/pm_A': () =>
        stripeJson(200, {
          id: 'pm_A',
          object: 'payment_method',
          customer: 'cus_A',
          card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
        }),
      'POST /v1/accounts': () => stripeJson(200, { id: 'acct_1', object: 'account', details_submitted: false, payouts_enabled: false }),
      'POST /v1/account_links': () =>
        stripeJson(200, { object: 'account_link', url: 'https://connect.stripe.com/setup/e/acct_1/x', expires_at: 1 }),
    });
    expect(
      await gw.createCustomer({ businessId: 'biz_1', email: 'o@example.test', name: 'Biz', idempotencyKey: 'customer:biz_1' }),
    ).toEqual({ id: 'cus_A' });
    expect(
      await gw.createSetupIntent({ customerId: 'cus_A', idempotencyKey: 'setup:biz_1:1', metadata: { business_id: 'biz_1' } }),
    ).toEqual({
      id: 'seti_1',
      client_secret: 'seti_1_secret_x',
      status: 'requires_payment_method',
      customer_id: 'cus_A',
      payment_method_id: null,
    });
    expect((await gw.retrieveSetupIntent('seti_1')).payment_method_id).toBe('pm_A');
    expect(await gw.retrievePaymentMethod('pm_A')).toEqual({
      id: 'pm_A',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2030,
      customer_id: 'cus_A',
    });
    expect(await gw.createConnectedAccount({ shifterId: 'shf_1', email: null, country: 'US', idempotencyKey: 'account:shf_1' })).toEqual({
      id: 'acct_1',
      details_submitted: false,
      payouts_enabled: false,
    });
    expect(
      await gw.createAccountLink({ accountId: 'acct_1', refreshUrl: 'https://app.example/r', returnUrl: 'https://app.example/done' }),
    ).toEqual({ url: 'https://connect.stripe.com/setup/e/acct_1/x', expires_at: 1 });

    const writes = seen.filter((s) => s.method === 'POST' && s.path !== '/v1/account_links');
    expect(writes.map((s) => s.headers.get('Idempotency-Key'))).toEqual(['customer:biz_1', 'setup:biz_1:1', 'account:shf_1']);
    expect(Object.fromEntries(seen[0]!.form)).toEqual({ name: 'Biz', email: 'o@example.test', 'metadata[business_id]': 'biz_1' });
    expect(Object.fromEntries(seen[1]!.form)).toMatchObject({ customer: 'cus_A', usage: 'off_session', 'metadata[business_id]': 'biz_1' });
    const account = Object.fromEntries(seen.find((s) => s.path === '/v1/accounts')!.form);
    expect(account).toMatchObject({
      'controller[stripe_dashboard][type]': 'express',
      'capabilities[transfers][requested]': 'true',
      country: 'US',
      'metadata[shifter_id]': 'shf_1',
    });
    expect(Object.fromEntries(seen.find((s) => s.path === '/v1/account_links')!.form)).toEqual({
      account: 'acct_1',
      refresh_url: 'https://app.example/r',
      return_url: 'https://app.example/done',
      type: 'account_onboarding',
    });
  });
});

describe('Stripe adapter: outages and refusals', () => {
  it('a 500 is retried with the same Idempotency-Key, then PAYMENT-GATEWAY-ERR (502) with a safe message, logging Stripe’s request id', async () => {
    const { gw, lines } = await adapter();
    fakeStripe({
      'POST /v1/refunds': () =>
        stripeJson(500, { error: { type: 'api_error', message: 'internal: db shard 7 timeout' } }, { 'request-id': 'req_outage_1' }),
    });
    const err = await rejected(gw.createRefund({ paymentIntentId: 'pi_1', amount: 100, idempotencyKey: 'refund:rfd_9', metadata: {} }));
    expect(err.code).toBe('PAYMENT-GATEWAY-ERR');
    expect(err.status).toBe(502);
    expect(err.message).not.toContain('shard');
    expect(seen).toHaveLength(3); // two network retries
    expect(new Set(seen.map((s) => s.headers.get('Idempotency-Key')))).toEqual(new Set(['refund:rfd_9']));
    const logged = lines.find((l) => l.msg === 'Stripe request failed');
    expect(logged?.fields).toMatchObject({ op: 'refunds.create', stripe_request_id: 'req_outage_1', stripe_status: 500 });
  });

  it('a connection failure is retried, then PAYMENT-GATEWAY-ERR; a refusal (400) is not retried and names Stripe’s code', async () => {
    const { gw } = await adapter();
    let calls = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.host !== 'api.stripe.com') unexpected.push(url.href);
      calls++;
      throw new TypeError('Network connection lost.');
    });
    const down = await rejected(gw.retrievePaymentIntent('pi_1'));
    expect(down.code).toBe('PAYMENT-GATEWAY-ERR');
    expect(calls).toBe(3);
    vi.restoreAllMocks();

    fakeStripe({
      'POST /v1/transfers/tr_1/reversals': () =>
        stripeJson(400, {
          error: {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            message: 'Amount (9000) is greater than the unreversed amount (7000).',
          },
        }),
    });
    const refused = await rejected(gw.reverseTransfer({ transferId: 'tr_1', amount: 9000, idempotencyKey: 'reversal:x', metadata: {} }));
    expect(refused.code).toBe('PAYMENT-GATEWAY-ERR');
    expect(refused.details).toEqual({ processor_code: 'amount_too_large' });
    expect(seen).toHaveLength(1);
  });

  it('an off-session charge that fails for another reason (invalid request, outage) is an error, not a result', async () => {
    const { gw } = await adapter();
    fakeStripe({
      'POST /v1/payment_intents': () =>
        stripeJson(400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such PaymentMethod: 'pm_A'" } }),
    });
    const err = await rejected(gw.chargeOffSession(CHARGE));
    expect(err.code).toBe('PAYMENT-GATEWAY-ERR');
    expect(err.details).toEqual({ processor_code: 'resource_missing' });
  });
});
