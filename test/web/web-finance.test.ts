import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  businesses,
  invoices,
  outboxEvents,
  paymentCustomers,
  paymentMethods,
  paymentSimEvents,
  paymentSimObjects,
  refunds,
  shiftRequests,
  shiftRoles,
  shifters,
  users,
} from '../../src/db/schema';
import { BUSINESSES, demoEmail, PEOPLE } from '../../src/local/demo';
import { chargeInvoice, createCardSetup, paymentGateway, saveCard } from '../../src/services/payments';
import { deliverSimulatorEvents, simulatorConfirmSetupIntent } from '../../src/local/payment-simulator';
import { assetPaths } from '../../src/web/assets';
import { BASE, call, expectError, workerWith, type WorkerFetch } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { contextAt } from '../helpers/clock';
import { workedShiftInvoice } from '../helpers/invoices';
import { addTeammate, db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { makePair } from '../helpers/shifts';
import { type Page, WebClient } from '../helpers/web';

const ALWAYS_AUTHENTICATE = '4000002760003184';
const SUCCEEDS = '4242424242424242';
/** Every refusal of the finance pages says this, whoever asks and whatever the reason. */
const REFUSAL = 'This payment page is not available.';

/** The Worker as configured, waiting for its background work (the simulator's event delivery) before answering. */
const worker = workerWith({});
/** The same Worker with the simulator's events held back until a test delivers them. */
const heldWorker = workerWith({ PAYMENT_SIMULATOR_DELIVERY: 'held' });

class Browser extends WebClient {
  constructor(w: WorkerFetch = worker) {
    super(BASE, { 'CF-Connecting-IP': randomIp(), 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' }, w);
  }
}

async function signedIn(user: TestUser, w: WorkerFetch = worker): Promise<Browser> {
  const browser = new Browser(w);
  const landed = await browser.signIn(user.email, TEST_PASSWORD, '/account');
  expect(landed.status, landed.html.slice(0, 300)).toBe(303);
  return browser;
}

/** A business whose saved card is `card`, and its shifter. */
async function businessWithCard(card: string, owner?: TestUser) {
  const { biz, sh } = await makePair();
  const who = owner ?? biz;
  const ctx = contextAt(Date.now(), biz);
  const setup = await createCardSetup(ctx, biz.businessId!);
  await simulatorConfirmSetupIntent(ctx, setup.setup_intent_id, { card_number: card });
  await saveCard(ctx, biz.businessId!, { setup_intent_id: setup.setup_intent_id });
  return { biz, sh, owner: who };
}

/** A worked shift (4 h × $20) of the pair and its pending invoice. */
async function workedInvoice(biz: TestUser, sh: TestUser, hoursAgo = 6) {
  return (await workedShiftInvoice(biz, sh, { hoursAgo })).invoice;
}

/** An invoice held for 3D Secure: charged on demand on a card that always asks the issuer. */
async function stuckInvoice(pair?: { biz: TestUser; sh: TestUser }) {
  const { biz, sh } = pair ?? (await businessWithCard(ALWAYS_AUTHENTICATE));
  const invoice = await workedInvoice(biz, sh);
  const result = await chargeInvoice(contextAt(Date.now(), biz), invoice.id, { trigger: 'on_demand' });
  expect(result.status).toBe('requires_action');
  expect(result.payment_intent_id).toMatch(/^pi_/);
  const row = await invoiceRow(invoice.id);
  expect(row).toMatchObject({ status: 'pending', requires_action: true, payment_intent_id: result.payment_intent_id });
  return { biz, sh, invoice: row, paymentIntentId: result.payment_intent_id! };
}

const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const deliverEvents = (user: TestUser) => deliverSimulatorEvents(contextAt(Date.now(), user));
const undeliveredEvents = async () => (await db().select().from(paymentSimEvents)).filter((e) => e.delivered_at === null);

/** The text of the page's <main>, tags stripped, so two pages can be compared by what they say. */
function mainText(page: Page): string {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(page.html)?.[1] ?? '';
  return main
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const attr = (html: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(html)?.[1]?.replaceAll('&amp;', '&');

/** Follows the authenticate page's simulator link to the issuer page, as the script's handleNextAction does. */
async function openIssuerPage(browser: Browser, invoiceId: string) {
  const page = await browser.get(`/finance/web/authenticate/${invoiceId}`);
  expect(page.status, page.html.slice(0, 500)).toBe(200);
  const url = attr(page.html, 'data-simulator-url');
  expect(url).toBeTruthy();
  // The simulator keeps its held intents in requires_action: the script's call is handleNextAction.
  expect(attr(page.html, 'data-next-step')).toBe('handle_next_action');
  const issuer = await browser.get(url!);
  expect(issuer.status, issuer.html.slice(0, 500)).toBe(200);
  return { authenticate: page, issuerUrl: url!, issuer };
}

describe('/finance/web/authenticate/{invoice_id}', () => {
  it('the owner gets the page with a fresh client secret wired to the simulator script (hashed, same-origin) under the self-only policy', async () => {
    const { biz, invoice, paymentIntentId } = await stuckInvoice();
    const browser = await signedIn(biz);
    const page = await browser.get(`/finance/web/authenticate/${invoice.id}`);
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    expect(page.headers.get('Cache-Control')).toBe('no-store');

    // The secret on the page is the processor's current one for the intent the invoice waits on.
    const intent = await paymentGateway(contextAt(Date.now(), biz)).retrievePaymentIntent(paymentIntentId);
    expect(intent.status).toBe('requires_action');
    expect(attr(page.html, 'data-client-secret')).toBe(intent.client_secret);
    expect(attr(page.html, 'data-payment-intent')).toBe(paymentIntentId);
    expect(attr(page.html, 'data-mode')).toBe('simulator');
    expect(attr(page.html, 'data-result-url')).toBe(`/finance/web/authenticate/${invoice.id}/result`);
    const simulatorUrl = new URL(attr(page.html, 'data-simulator-url')!, BASE);
    expect(simulatorUrl.pathname).toBe(`/finance/web/simulator/authenticate/${paymentIntentId}`);
    expect(simulatorUrl.searchParams.get('client_secret')).toBe(intent.client_secret);
    expect(page.html).toContain('$80.00');

    // The script is this Worker's own, at its hashed path, and offers handleNextAction; no other host.
    expect(page.html).toContain(`<script src="${assetPaths.financeJs}" defer`);
    expect(page.html).not.toContain('js.stripe.com');
    const csp = page.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('stripe.com');
    const script = await browser.get(assetPaths.financeJs);
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toContain('javascript');
    expect(script.html).toContain('handleNextAction');
  });

  it('says what the charge pays for before the bank’s step: the business, the shift and its role, who worked it, the card and the amount', async () => {
    const { biz, sh, invoice } = await stuckInvoice();
    const [shift] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, invoice.shift_request_id));
    const [role] = await db().select().from(shiftRoles).where(eq(shiftRoles.id, shift!.shiftrole_id));
    const [business] = await db().select().from(businesses).where(eq(businesses.id, biz.businessId!));
    const [shifter] = await db().select().from(shifters).where(eq(shifters.id, sh.shifterId!));
    const [card] = await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, biz.businessId!));
    const page = await (await signedIn(biz)).get(`/finance/web/authenticate/${invoice.id}`);
    expect(page.status).toBe(200);
    const text = mainText(page);
    expect(text).toContain('What you are paying for');
    expect(text).toContain(`Business ${business!.name}`);
    expect(text).toContain(`${shift!.shift_date.slice(0, 4)}, ${shift!.shift_in}–${shift!.shift_out}`);
    expect(text).toContain(`· ${role!.label}`);
    expect(text).toContain(`(times in ${business!.timezone})`);
    expect(text).toContain(`Worked by ${shifter!.display_name}`);
    expect(card!.last4).toBe('3184');
    expect(text).toMatch(new RegExp(`Card \\w+ ending 3184, expires ${String(card!.exp_month).padStart(2, '0')}/${card!.exp_year}`));
    expect(text).toContain('Amount $80.00');
    expect(text).toContain(`Invoice ${invoice.id}`);
    expect(text).toContain('If any of this is not what you expect, do not confirm.');
  });

  it('another user, an active teammate, an unknown invoice and the owner once it is paid all get the same generic 403', async () => {
    const { biz, invoice } = await stuckInvoice();
    const [stranger, teammate, otherOwner] = await Promise.all([makeUser({ shifter: true }), makeUser(), makeUser({ business: true })]);
    await addTeammate(biz.businessId!, teammate.userId, 1);
    const path = `/finance/web/authenticate/${invoice.id}`;

    const pages: Page[] = [];
    for (const user of [stranger, teammate, otherOwner]) pages.push(await (await signedIn(user)).get(path));
    const owner = await signedIn(biz);
    pages.push(await owner.get('/finance/web/authenticate/in_doesnotexist0000000000'));
    pages.push(await owner.get('/finance/web/authenticate/not-an-id'));

    // The owner pays through the issuer page; the page then refuses the owner too.
    const { issuerUrl, issuer } = await openIssuerPage(owner, invoice.id);
    expect(issuer.html).toContain('Complete authentication');
    const done = await answerIssuer(owner, issuerUrl, issuer, 'succeed');
    expect(done.status, done.html.slice(0, 500)).toBe(303);
    await deliverEvents(biz);
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
    pages.push(await owner.get(path));

    const first = mainText(pages[0]!);
    expect(first).toContain(REFUSAL);
    for (const page of pages) {
      expect(page.status).toBe(403);
      expect(mainText(page)).toBe(first);
      expect(page.html).not.toContain(invoice.id);
      expect(page.html).not.toContain('data-client-secret');
    }
  });

  it('signed out, the page sends the browser to sign-in and back here; after signing in it is shown', async () => {
    const { biz, invoice } = await stuckInvoice();
    const path = `/finance/web/authenticate/${invoice.id}`;
    const browser = new Browser();
    const page = await browser.get(path);
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    expect(page.html).not.toContain('data-client-secret');

    const landed = await browser.signIn(biz.email, TEST_PASSWORD, path);
    expect(landed.status).toBe(303);
    expect(landed.location).toBe(path);
    expect((await browser.get(path)).status).toBe(200);
  });
});

/** A pending invoice held for authentication on a Stripe intent `pi`, and Stripe answering its read with `shape`. */
async function stripeHeldInvoice(
  shape: (ctx: { pi: string; secret: string; amount: number; invoiceId: string; businessId: string }) => Record<string, unknown>,
) {
  const { biz, sh } = await makePair();
  const invoice = await workedInvoice(biz, sh);
  const pi = `pi_3Stripe${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const secret = `${pi}_secret_fresh${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await db()
    .update(invoices)
    .set({ requires_action: true, requires_action_at: Date.now(), payment_intent_id: pi })
    .where(eq(invoices.id, invoice.id));
  const unexpected: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (req.method === 'GET' && req.url.startsWith(`https://api.stripe.com/v1/payment_intents/${pi}`)) {
      expect(req.headers.get('Authorization')).toBe('Bearer sk_test_pages');
      return Response.json({
        id: pi,
        object: 'payment_intent',
        client_secret: secret,
        amount: invoice.amount_minor,
        currency: 'usd',
        customer: 'cus_test',
        metadata: { invoice_id: invoice.id, business_id: biz.businessId },
        latest_charge: null,
        ...shape({ pi, secret, amount: invoice.amount_minor, invoiceId: invoice.id, businessId: biz.businessId! }),
      });
    }
    unexpected.push(`${req.method} ${req.url}`);
    throw new Error(`unexpected outbound request to ${req.url}`);
  });
  const stripeWorker = workerWith({ STRIPE_SECRET_KEY: 'sk_test_pages', STRIPE_PUBLISHABLE_KEY: 'pk_test_pages' });
  const browser = await signedIn(biz, stripeWorker);
  return { biz, invoice, pi, secret, unexpected, browser };
}

describe('/finance/web/authenticate/{invoice_id} with real Stripe keys', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads Stripe.js from js.stripe.com with the publishable key and a fresh secret read from Stripe; the policy opens to Stripe on this page only; no simulator page', async () => {
    const { biz, sh } = await makePair();
    const invoice = await workedInvoice(biz, sh);
    const pi = `pi_3Stripe${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const secret = `${pi}_secret_fresh${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    // The invoice as a requires_action charge leaves it (the charge itself is the charge service's tests' business).
    await db()
      .update(invoices)
      .set({ requires_action: true, requires_action_at: Date.now(), payment_intent_id: pi })
      .where(eq(invoices.id, invoice.id));

    // Stripe answers the intent's read; any other outbound call fails the test.
    const unexpected: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input as RequestInfo, init);
      if (req.method === 'GET' && req.url.startsWith(`https://api.stripe.com/v1/payment_intents/${pi}`)) {
        expect(req.headers.get('Authorization')).toBe('Bearer sk_test_pages');
        return Response.json({
          id: pi,
          object: 'payment_intent',
          status: 'requires_action',
          client_secret: secret,
          amount: invoice.amount_minor,
          currency: 'usd',
          customer: 'cus_test',
          metadata: { invoice_id: invoice.id, business_id: biz.businessId },
          latest_charge: null,
          last_payment_error: null,
          next_action: { type: 'use_stripe_sdk' },
        });
      }
      unexpected.push(`${req.method} ${req.url}`);
      throw new Error(`unexpected outbound request to ${req.url}`);
    });

    const stripeWorker = workerWith({ STRIPE_SECRET_KEY: 'sk_test_pages', STRIPE_PUBLISHABLE_KEY: 'pk_test_pages' });
    const browser = await signedIn(biz, stripeWorker);
    const page = await browser.get(`/finance/web/authenticate/${invoice.id}`);
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    expect(unexpected).toEqual([]);
    expect(attr(page.html, 'data-mode')).toBe('stripe');
    expect(attr(page.html, 'data-publishable-key')).toBe('pk_test_pages');
    expect(attr(page.html, 'data-client-secret')).toBe(secret);
    expect(attr(page.html, 'data-simulator-url')).toBeUndefined();
    // An intent in requires_action: the script runs Stripe.js handleNextAction.
    expect(attr(page.html, 'data-next-step')).toBe('handle_next_action');
    // Stripe.js first (Stripe forbids self-hosting it), then our script, which calls its handleNextAction.
    const scripts = [...page.html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.slice(-2)).toEqual(['https://js.stripe.com/v3', assetPaths.financeJs]);
    const csp = page.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");

    // Every other page keeps the self-only policy, and the simulated issuer page does not exist.
    const account = await browser.get('/account');
    expect(account.headers.get('Content-Security-Policy')).not.toContain('stripe.com');
    const result = await browser.get(`/finance/web/authenticate/${invoice.id}/result`);
    expect(result.headers.get('Content-Security-Policy')).not.toContain('stripe.com');
    expect((await browser.get(`/finance/web/simulator/authenticate/${pi}?client_secret=${secret}`)).status).toBe(404);
  });

  it("Stripe's shape of an off-session authentication_required decline (requires_payment_method, the card named by last_payment_error) is confirmed on-session with confirmCardPayment and that saved card", async () => {
    const { browser, invoice, secret, unexpected } = await stripeHeldInvoice(() => ({
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: {
        type: 'card_error',
        code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        payment_method: { id: 'pm_SavedCard3ds', object: 'payment_method', type: 'card' },
      },
    }));
    const page = await browser.get(`/finance/web/authenticate/${invoice.id}`);
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    expect(unexpected).toEqual([]);
    expect(attr(page.html, 'data-mode')).toBe('stripe');
    expect(attr(page.html, 'data-client-secret')).toBe(secret);
    expect(attr(page.html, 'data-next-step')).toBe('confirm_card_payment');
    expect(attr(page.html, 'data-payment-method')).toBe('pm_SavedCard3ds');
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', requires_action: true });
  });

  it('an intent that failed for another reason (requires_payment_method with a decline code) is nothing to authenticate: the generic 403', async () => {
    const { browser, invoice, unexpected } = await stripeHeldInvoice(() => ({
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        payment_method: { id: 'pm_SavedCard3ds', object: 'payment_method', type: 'card' },
      },
    }));
    const page = await browser.get(`/finance/web/authenticate/${invoice.id}`);
    expect(page.status).toBe(403);
    expect(mainText(page)).toContain(REFUSAL);
    expect(unexpected).toEqual([]);
  });

  it('the page script makes the call the page names: confirmCardPayment with the saved card, else handleNextAction; the simulated stand-in offers both', async () => {
    const { biz } = await makePair();
    const browser = await signedIn(biz);
    const script = await browser.get(assetPaths.financeJs);
    expect(script.status).toBe(200);
    const js = script.html;
    expect(js).toContain("root.getAttribute('data-next-step') === 'confirm_card_payment'");
    expect(js).toContain('stripe.confirmCardPayment(secret, { payment_method: pm })');
    expect(js).toContain('stripe.handleNextAction({ clientSecret: secret })');
    expect(js).toMatch(/confirmCardPayment: function \(clientSecret, data\)/);
    expect(js).toMatch(/handleNextAction: function \(options\)/);
  });
});

function hiddenValue(html: string, name: string): string | undefined {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll('&amp;', '&');
}

/** Posts the issuer page's form as its button would. */
async function answerIssuer(
  browser: Browser,
  issuerUrl: string,
  issuer: Page,
  outcome: 'succeed' | 'fail',
  opts: { csrf?: boolean; headers?: Record<string, string> } = {},
) {
  return browser.post(
    new URL(issuerUrl, BASE).pathname,
    { outcome, client_secret: hiddenValue(issuer.html, 'client_secret')!, return_to: hiddenValue(issuer.html, 'return_to')! },
    opts,
  );
}

describe('the simulated issuer page', () => {
  it('"Complete authentication" pays the invoice; with the event delivered before the redirect the result page says paid', async () => {
    const { biz, invoice } = await stuckInvoice();
    const browser = await signedIn(biz);
    const { issuerUrl, issuer } = await openIssuerPage(browser, invoice.id);
    expect(issuer.html).toContain('$80.00');
    expect(issuer.html).toContain('Fail authentication');

    const done = await answerIssuer(browser, issuerUrl, issuer, 'succeed');
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/finance/web/authenticate/${invoice.id}/result`);
    // The Worker delivered the signed event before answering (waitUntil), so the invoice is settled.
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', requires_action: false });

    const result = await browser.get(done.location!);
    expect(result.status).toBe(200);
    expect(attr(result.html, 'data-state')).toBe('paid');
    expect(mainText(result)).toContain('is paid');
  });

  it('with the event held back, the result page says processing until it lands, then its status says paid', async () => {
    const { biz, invoice } = await stuckInvoice();
    const browser = await signedIn(biz, heldWorker);
    const { issuerUrl, issuer } = await openIssuerPage(browser, invoice.id);
    const done = await answerIssuer(browser, issuerUrl, issuer, 'succeed');
    expect(done.status).toBe(303);
    expect(await undeliveredEvents()).not.toHaveLength(0);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', requires_action: true });

    const waiting = await browser.get(done.location!);
    expect(attr(waiting.html, 'data-state')).toBe('processing');
    expect(waiting.headers.get('Content-Security-Policy')).toContain("connect-src 'self'");
    const before = await browser.get(`/finance/web/authenticate/${invoice.id}/status`);
    expect(JSON.parse(before.html)).toMatchObject({
      invoice_id: invoice.id,
      state: 'processing',
      status: 'pending',
      requires_action: true,
    });

    await deliverEvents(biz);
    const after = await browser.get(`/finance/web/authenticate/${invoice.id}/status`);
    expect(JSON.parse(after.html)).toMatchObject({ state: 'paid', status: 'paid', requires_action: false });
    expect(attr((await browser.get(done.location!)).html, 'data-state')).toBe('paid');
  });

  it('"Fail authentication" leaves the invoice pending with requires_action cleared; the result page says not completed', async () => {
    const { biz, invoice } = await stuckInvoice();
    const browser = await signedIn(biz);
    const { issuerUrl, issuer } = await openIssuerPage(browser, invoice.id);
    const done = await answerIssuer(browser, issuerUrl, issuer, 'fail');
    expect(done.status).toBe(303);
    await deliverEvents(biz);
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: 'pending', requires_action: false, paid_at: null });

    const result = await browser.get(done.location!);
    expect(attr(result.html, 'data-state')).toBe('failed');
    expect(mainText(result)).toContain('was not completed');
    // No longer requiring action, the authenticate page refuses like any other refusal.
    const again = await browser.get(`/finance/web/authenticate/${invoice.id}`);
    expect(again.status).toBe(403);
    expect(mainText(again)).toContain(REFUSAL);
  });

  it('the POST needs the CSRF token and this origin: without either it is refused and nothing changes', async () => {
    const { biz, invoice, paymentIntentId } = await stuckInvoice();
    const browser = await signedIn(biz);
    const { issuerUrl, issuer } = await openIssuerPage(browser, invoice.id);

    const noToken = await answerIssuer(browser, issuerUrl, issuer, 'succeed', { csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain('Form not accepted');
    const wrongToken = await browser.post(new URL(issuerUrl, BASE).pathname, {
      _csrf: 'A'.repeat(43),
      outcome: 'succeed',
      client_secret: hiddenValue(issuer.html, 'client_secret')!,
    });
    expect(wrongToken.status).toBe(403);
    const foreign = await answerIssuer(browser, issuerUrl, issuer, 'succeed', { headers: { Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);

    await deliverEvents(biz);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', requires_action: true });
    const intent = await paymentGateway(contextAt(Date.now(), biz)).retrievePaymentIntent(paymentIntentId);
    expect(intent.status).toBe('requires_action');
  });

  it('another user cannot open or answer the owner’s issuer page, even with the link and a valid CSRF token of their own', async () => {
    const { biz, invoice, paymentIntentId } = await stuckInvoice();
    const owner = await signedIn(biz);
    const { issuerUrl, issuer } = await openIssuerPage(owner, invoice.id);
    const stranger = await signedIn(await makeUser({ business: true }));
    const seen = await stranger.get(issuerUrl);
    expect(seen.status).toBe(403);
    expect(mainText(seen)).toContain(REFUSAL);
    expect(seen.html).not.toContain('$80.00');
    const answered = await answerIssuer(stranger, issuerUrl, issuer, 'succeed');
    expect(answered.status).toBe(403);
    // A wrong client secret from the owner is refused too.
    const wrongSecret = await owner.post(new URL(issuerUrl, BASE).pathname, {
      outcome: 'succeed',
      client_secret: `${paymentIntentId}_secret_wrong`,
      return_to: '/account',
    });
    expect(wrongSecret.status).toBe(403);
    await deliverEvents(biz);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'pending', requires_action: true });
  });

  it('signed out, the issuer page sends the browser to sign-in; an off-site return_to is never followed', async () => {
    const { biz, invoice } = await stuckInvoice();
    const browser = await signedIn(biz);
    const { issuerUrl, issuer } = await openIssuerPage(browser, invoice.id);
    expect((await new Browser().get(issuerUrl)).status).toBe(303);
    const done = await browser.post(new URL(issuerUrl, BASE).pathname, {
      outcome: 'fail',
      client_secret: hiddenValue(issuer.html, 'client_secret')!,
      return_to: '//evil.example/phish',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/account');
  });

  it('an intent the processor does not know is the 404 page (HTML), for the GET and the POST alike', async () => {
    const browser = await signedIn(await makeUser({ business: true }));
    const page = await browser.get('/finance/web/simulator/authenticate/pi_x?client_secret=pi_x_secret_y');
    expect(page.status, page.html.slice(0, 300)).toBe(404);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(page.html).toContain('Page not found');
    const answered = await browser.post('/finance/web/simulator/authenticate/pi_x', {
      outcome: 'succeed',
      client_secret: 'pi_x_secret_y',
      return_to: '/account',
    });
    expect(answered.status, answered.html.slice(0, 300)).toBe(404);
    expect(answered.headers.get('Content-Type')).toMatch(/^text\/html/);
  });
});

describe('the simulated onboarding page (/finance/web/simulator/onboarding/{acct})', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A shifter with a payout account set up through the API (not onboarded), and the link the API gave. */
  async function shifterWithAccount() {
    const sh = await makeUser({ shifter: true });
    const res = await call('POST', '/v1/shifter/payout_account', { key: sh.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = new URL(res.body.url as string);
    expect(url.pathname).toBe(`/finance/web/simulator/onboarding/${res.body.account_id}`);
    return { sh, accountId: res.body.account_id as string, path: `${url.pathname}${url.search}` };
  }

  it('the link from the API opens the page for the account’s shifter; "Complete onboarding" (CSRF-protected) enables payouts and returns to the account page', async () => {
    const { sh, accountId, path } = await shifterWithAccount();
    const browser = await signedIn(sh);
    const page = await browser.get(path);
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    expect(mainText(page)).toContain('Complete onboarding');
    expect(mainText(page)).toContain(accountId);
    expect(page.html).toContain('name="_csrf"');

    // Without the token (or from another origin) nothing changes.
    expect((await browser.post(new URL(path, BASE).pathname, {}, { csrf: false })).status).toBe(403);
    expect((await browser.post(new URL(path, BASE).pathname, {}, { headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    expect((await call('GET', '/v1/shifter/payout_account', { key: sh.key })).body).toMatchObject({ payouts_enabled: false });

    const done = await browser.post(new URL(path, BASE).pathname, { return_to: hiddenValue(page.html, 'return_to')! });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/account');
    expect((await call('GET', '/v1/shifter/payout_account', { key: sh.key })).body).toMatchObject({
      account_id: accountId,
      details_submitted: true,
      payouts_enabled: true,
    });
    // Done: the page says so and offers no button.
    const again = await browser.get(path);
    expect(again.status).toBe(200);
    expect(mainText(again)).toContain('Onboarding is complete');
    expect(again.html).not.toContain('Complete onboarding</button>');
  });

  it('another user (the business, another shifter) gets the generic refusal and cannot complete it; signed out, sign-in first', async () => {
    const { sh, accountId, path } = await shifterWithAccount();
    const { biz } = await makePair();
    const other = await makeUser({ shifter: true });
    for (const who of [biz, other]) {
      const browser = await signedIn(who);
      const page = await browser.get(path);
      expect(page.status).toBe(403);
      expect(mainText(page)).toContain(REFUSAL);
      expect(page.html).not.toContain(accountId);
      expect((await browser.post(new URL(path, BASE).pathname, {})).status).toBe(403);
    }
    const unknown = await (await signedIn(sh)).get('/finance/web/simulator/onboarding/acct_doesnotexist');
    expect(unknown.status).toBe(403);
    expect((await call('GET', '/v1/shifter/payout_account', { key: sh.key })).body).toMatchObject({ payouts_enabled: false });

    const anonymous = await new Browser().get(path);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toContain('/login');
  });

  it('with real Stripe keys the page does not exist (404), and the processor is never asked', async () => {
    const { sh, path } = await shifterWithAccount();
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      throw new Error(`unexpected outbound request to ${String(input)}`);
    });
    const browser = await signedIn(sh, workerWith({ STRIPE_SECRET_KEY: 'sk_test_pages', STRIPE_PUBLISHABLE_KEY: 'pk_test_pages' }));
    expect((await browser.get(path)).status).toBe(404);
    expect((await browser.post(new URL(path, BASE).pathname, {})).status).toBe(404);
    expect(outbound).not.toHaveBeenCalled();
  });
});

describe('/finance/web/requires-action', () => {
  it('lists exactly the signed-in owner’s stuck invoices (not paid or other owners’ ones) with their authenticate address', async () => {
    const mine = await businessWithCard(ALWAYS_AUTHENTICATE);
    const a = await stuckInvoice(mine);
    const b = await stuckInvoice(mine);
    await workedInvoice(mine.biz, mine.sh, 30); // pending, never charged
    const paying = await businessWithCard(SUCCEEDS);
    const theirs = await stuckInvoice();

    const browser = await signedIn(mine.biz);
    const res = await browser.get('/finance/web/requires-action');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('application/json');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const body = JSON.parse(res.html) as { invoices: Array<Record<string, unknown>> };
    expect(body.invoices.map((i) => i.invoice_id).sort()).toEqual([a.invoice.id, b.invoice.id].sort());
    const first = body.invoices.find((i) => i.invoice_id === a.invoice.id)!;
    expect(first).toMatchObject({
      business_id: mine.biz.businessId,
      amount: 80,
      currency: 'USD',
      payment_intent_id: a.paymentIntentId,
      authenticate_url: `${BASE}/finance/web/authenticate/${a.invoice.id}`,
    });
    expect(new Date(first.requires_action_at as string).getTime()).toBe(a.invoice.requires_action_at);
    expect(JSON.stringify(body)).not.toContain(theirs.invoice.id);
    expect(JSON.stringify(body)).not.toContain('client_secret');

    // The other owners see only their own (the paying business has none).
    const other = JSON.parse((await (await signedIn(theirs.biz)).get('/finance/web/requires-action')).html);
    expect(other.invoices.map((i: { invoice_id: string }) => i.invoice_id)).toEqual([theirs.invoice.id]);
    expect(JSON.parse((await (await signedIn(paying.biz)).get('/finance/web/requires-action')).html)).toEqual({ invoices: [] });
  });

  it('without a session cookie it is 401 AUTH-REQ-ERR in the error envelope, not a redirect; an API key does not stand in for the cookie', async () => {
    const { biz } = await stuckInvoice();
    expectError(await call('GET', '/finance/web/requires-action'), 401, 'AUTH-REQ-ERR');
    expectError(await call('GET', '/finance/web/requires-action', { key: biz.key }), 401, 'AUTH-REQ-ERR');
    const status = await call('GET', '/finance/web/authenticate/in_x/status');
    expectError(status, 401, 'AUTH-REQ-ERR');
  });

  it('the result page and its status are the owner’s only: another user gets the generic 403 page and a 403 FORBIDDEN-ERR', async () => {
    const { invoice } = await stuckInvoice();
    const stranger = await signedIn(await makeUser({ business: true }));
    const page = await stranger.get(`/finance/web/authenticate/${invoice.id}/result`);
    expect(page.status).toBe(403);
    expect(mainText(page)).toContain(REFUSAL);
    expect(page.html).not.toContain(invoice.id);
    const status = await stranger.get(`/finance/web/authenticate/${invoice.id}/status`);
    expect(status.status).toBe(403);
    expect(JSON.parse(status.html).error.code).toBe('FORBIDDEN-ERR');
    expect(status.html).not.toContain('pending');
  });
});

describe('demo payments', () => {
  const seed = (force = false) =>
    call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: force ? 1 : undefined } });
  const demoBusiness = async (key: string) => {
    const owner = PEOPLE.find((p) => p.key === BUSINESSES.find((b) => b.key === key)!.owner)!;
    const [row] = await db()
      .select({ id: businesses.id })
      .from(businesses)
      .innerJoin(users, eq(users.id, businesses.user_id))
      .where(and(eq(users.email, demoEmail(owner)), eq(businesses.name, BUSINESSES.find((b) => b.key === key)!.name)));
    return row!.id;
  };
  const simObjectsOf = async (customerIds: string[]) =>
    (await db().select().from(paymentSimObjects)).filter(
      (o) => customerIds.includes(o.id) || customerIds.includes(String((o.data as { customer?: unknown }).customer)),
    );

  // One seed serves both tests below (a seed is the slowest step here): the first reads the demo's
  // payments, the second reseeds and checks that only the demo's simulator objects went.
  let demo: { bistro: string; events: string; coffee: string };
  beforeAll(async () => {
    const first = await seed(true);
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    const [bistro, events, coffee] = await Promise.all(['bistro', 'events', 'coffee'].map(demoBusiness));
    demo = { bistro: bistro!, events: events!, coffee: coffee! };
  });
  const demoCustomers = async () =>
    db()
      .select()
      .from(paymentCustomers)
      .where(inArray(paymentCustomers.business_id, [demo.bistro, demo.events]));
  const paidByCard = async () =>
    (await db().select().from(invoices).where(eq(invoices.business_id, demo.bistro))).filter((i) => i.payment_intent_id !== null);
  const waitingForAuthentication = async () =>
    (await db().select().from(invoices).where(eq(invoices.business_id, demo.events))).filter((i) => i.requires_action);

  it('saves cards through the simulator, pays, refunds and holds one invoice for 3D Secure (emailing the owner)', async () => {
    const { bistro, events, coffee } = demo;

    // Cards: the bistro one (4242), the events business two (3184, then 4242 as the default), the café none.
    const cards = await db()
      .select()
      .from(paymentMethods)
      .where(inArray(paymentMethods.business_id, [bistro, events, coffee]));
    expect(cards.filter((c) => c.business_id === bistro).map((c) => c.last4)).toEqual(['4242']);
    expect(
      cards
        .filter((c) => c.business_id === events)
        .map((c) => c.last4)
        .sort(),
    ).toEqual(['3184', '4242']);
    expect(cards.filter((c) => c.business_id === coffee)).toEqual([]);
    const customers = await demoCustomers();
    const eventsCustomer = customers.find((c) => c.business_id === events)!;
    expect(cards.find((c) => c.id === eventsCustomer.default_payment_method_id)?.last4).toBe('4242');
    const gateway = paymentGateway(contextAt(Date.now(), { userId: 'usr_x', keyId: 'key_x' }));
    for (const card of cards) expect((await gateway.retrievePaymentMethod(card.id)).last4).toBe(card.last4);

    // The bistro: two invoices paid by card through the simulator, the older one refunded in full.
    const charged = await db().select().from(invoices).where(eq(invoices.business_id, bistro));
    const byCard = await paidByCard();
    expect(byCard).toHaveLength(2);
    for (const inv of byCard) {
      expect(inv.status).toBe('paid');
      expect((await gateway.retrievePaymentIntent(inv.payment_intent_id!)).status).toBe('succeeded');
    }
    const refunded = await db()
      .select()
      .from(refunds)
      .where(
        inArray(
          refunds.invoice_id,
          byCard.map((i) => i.id),
        ),
      );
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ status: 'succeeded' });
    const refundedInvoice = byCard.find((i) => i.id === refunded[0]!.invoice_id)!;
    expect(refundedInvoice.refunded_minor).toBe(refundedInvoice.amount_minor);
    expect(charged.some((i) => i.status === 'pending')).toBe(true);

    // The events business: exactly one invoice waiting for authentication, on a real simulator intent.
    const stuck = await waitingForAuthentication();
    expect(stuck).toHaveLength(1);
    expect(stuck[0]).toMatchObject({ status: 'pending' });
    expect((await gateway.retrievePaymentIntent(stuck[0]!.payment_intent_id!)).status).toBe('requires_action');
    const notices = (await db().select().from(outboxEvents).where(eq(outboxEvents.topic, 'notifications')))
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.kind === 'payment_action_required');
    // Of the demo's invoices (this file's other tests hold their own), one asked the owner to authenticate.
    const demoInvoiceIds = (
      await db()
        .select({ id: invoices.id })
        .from(invoices)
        .where(inArray(invoices.business_id, [bistro, events, coffee]))
    ).map((r) => r.id);
    const demoNotices = notices.filter((b) => demoInvoiceIds.some((id) => JSON.stringify(b).includes(id)));
    expect(demoNotices).toHaveLength(1);
    expect(JSON.stringify(demoNotices[0])).toContain(`/finance/web/authenticate/${stuck[0]!.id}`);

    // The demo owner signs in with the demo password and finds it on the pages.
    const owner = new Browser();
    const landed = await owner.signIn(demoEmail(PEOPLE.find((p) => p.key === 'owner')!), 'shiftmarket-demo', '/account');
    expect(landed.status).toBe(303);
    const list = JSON.parse((await owner.get('/finance/web/requires-action')).html);
    expect(list.invoices.map((i: { invoice_id: string }) => i.invoice_id)).toEqual([stuck[0]!.id]);
    expect((await owner.get(`/finance/web/authenticate/${stuck[0]!.id}`)).status).toBe(200);
  });

  it('the reset removes the demo’s simulator objects and nothing else', async () => {
    const customers = (await demoCustomers()).map((c) => c.customer_id);
    const intents = [...(await paidByCard()), ...(await waitingForAuthentication())].map((i) => i.payment_intent_id!);
    expect(intents).toHaveLength(3);

    // A real business's simulator objects, to be left alone by the reset.
    const real = await businessWithCard(SUCCEEDS);
    const [realCustomer] = await db().select().from(paymentCustomers).where(eq(paymentCustomers.business_id, real.biz.businessId!));
    expect((await simObjectsOf(customers)).length).toBeGreaterThan(4);
    const realBefore = await simObjectsOf([realCustomer!.customer_id]);
    expect(realBefore.length).toBeGreaterThan(0);

    const again = await seed(true);
    expect(again.status).toBe(200);
    // The old demo's customers, cards, intents and charges are gone; so are their events.
    expect(await simObjectsOf(customers)).toEqual([]);
    for (const id of intents) {
      expect(await db().select().from(paymentSimObjects).where(eq(paymentSimObjects.id, id))).toEqual([]);
    }
    const leftEvents = await db().select().from(paymentSimEvents);
    for (const ev of leftEvents) expect(ev.payload).not.toContain(customers[0]!);
    expect((await simObjectsOf([realCustomer!.customer_id])).map((o) => o.id).sort()).toEqual(realBefore.map((o) => o.id).sort());
  });
});
