import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, invoices, paymentMethods, refunds } from '../../src/db/schema';
import { BASE, workerWith, type WorkerFetch } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { CARD, saveCard, workedInvoice as invoiceWithCard } from '../helpers/charges';
import { addTeammate, db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { workedShiftInvoice } from '../helpers/invoices';
import { payInvoice, testCtx, workedInvoice } from '../helpers/refund-world';
import { signedIn as signedInOn } from '../helpers/signed-in';
import { WebClient } from '../helpers/web';

/*
 * /dashboard/money: invoices (filters, CSV export), charging and refunding an invoice through their
 * confirmation steps, cards, labor costs with the budget, as the owner; an active teammate is told
 * that money is the owner's.
 */

/** The pages with the simulator's events held: nothing settles behind a test's back. */
const worker: WorkerFetch = workerWith({ PAYMENT_SIMULATOR_DELIVERY: 'held' });

const signedIn = (u: TestUser) => signedInOn(u, worker);

const invoiceRow = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
/** The hidden fields of the first form posting to `action` on a page (what a browser would send back). */
function hiddenFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  expect(start, `a form posting to ${action}`).toBeGreaterThan(-1);
  const form = html.slice(start, html.indexOf('</form>', start));
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) out[m[1]!] = m[2]!.replace(/&amp;/g, '&');
  return out;
}

describe('/dashboard/money for the owner and a teammate', () => {
  it('shows the owner every section, and tells an active teammate money is the owner’s on every money page', async () => {
    const owner = await makeUser({ business: true, name: 'Money Owner' });
    const mate = await makeUser({ name: 'Money Mate' });
    await addTeammate(owner.businessId!, mate.userId);
    const { invoice } = await workedShiftInvoice(owner, (await makeUser({ shifter: true })) as TestUser);

    const b = await signedIn(owner);
    const page = await b.get('/dashboard/money');
    expect(page.status).toBe(200);
    for (const heading of ['Labor costs', 'Invoices', 'Saved cards', 'Going rate']) expect(page.html).toContain(`>${heading}</h2>`);
    expect(page.html).toContain('data-island="labor-chart"');
    expect(page.html).toContain('aria-labelledby="labor-chart-caption"');
    expect(page.html).toContain(`/dashboard/money/invoices/${invoice.id}`);
    expect(page.html).toContain('No card saved');
    expect(page.html).not.toMatch(/ style="/);

    const t = await signedIn(mate);
    for (const path of [
      `/dashboard/money?business_id=${owner.businessId}`,
      `/dashboard/money/invoices.csv?business_id=${owner.businessId}`,
      `/dashboard/money/invoices/${invoice.id}?business_id=${owner.businessId}`,
    ]) {
      const res = await t.get(path);
      expect(res.status, path).toBe(403);
      expect(res.html).toContain('Money is the owner&#39;s');
      expect(res.html).not.toContain(invoice.id);
    }
    const refused = await t.post(`/dashboard/money/budget?business_id=${owner.businessId}`, {
      _idem: crypto.randomUUID(),
      weekly_labor_budget: '10',
    });
    expect(refused.status).toBe(403);
    expect((await db().select().from(businesses).where(eq(businesses.id, owner.businessId!)))[0]!.weekly_labor_budget_minor).toBeNull();
  });
});

describe('invoices: filters and the CSV export', () => {
  it('lists by status and exports the same rows as CSV with the cookie session', async () => {
    const { biz, sh, invoice: paid } = await workedInvoice();
    const { ctx } = testCtx(biz);
    await payInvoice(ctx, paid.id);
    const { invoice: open1 } = await workedShiftInvoice(biz, sh, { hoursAgo: 30 });
    const { invoice: open2 } = await workedShiftInvoice(biz, sh, { hoursAgo: 54 });
    const b = await signedIn(biz);

    const onlyPaid = await b.get('/dashboard/money?status=paid');
    expect(onlyPaid.html).toContain(`/dashboard/money/invoices/${paid.id}`);
    expect(onlyPaid.html).not.toContain(`/dashboard/money/invoices/${open1.id}`);
    expect(onlyPaid.html).toMatch(/aria-current="page"[^>]*>Paid</);
    expect(onlyPaid.html).toContain('invoices.csv?business_id=');

    const csv = await b.get('/dashboard/money/invoices.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('Content-Disposition')).toMatch(/^attachment; filename="invoices-[a-z0-9-]+-all\.csv"$/);
    const lines = csv.html.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'invoice_id,shift_request_id,shift_date,shift_in,shift_out,shifter_id,shifter_name,amount,currency,conversion_amount,conversion_currency,status,paid_at',
    );
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([paid.id, open1.id, open2.id].sort());
    expect(lines.find((l) => l.startsWith(paid.id))).toContain(',80,USD,,,paid,');

    const pendingCsv = await b.get('/dashboard/money/invoices.csv?status=pending');
    const pendingIds = pendingCsv.html
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(pendingIds.sort()).toEqual([open1.id, open2.id].sort());
  });
});

describe('refunds from the invoice page', () => {
  it('refunds part, then the rest, each after a confirmation step, once even when sent twice', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx } = testCtx(biz);
    await payInvoice(ctx, invoice.id);
    const b = await signedIn(biz);
    const page = await b.get(`/dashboard/money/invoices/${invoice.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Up to $80.00. Empty: everything left.');
    const action = `/dashboard/money/invoices/${invoice.id}/refund?business_id=${biz.businessId}`;
    const first = hiddenFields(page.html, action.replace(/&/g, '&amp;'));
    expect(first._idem).toBeTruthy();

    // The first post only asks: nothing is refunded yet.
    const ask = await b.post(action, { _idem: first._idem!, amount: '30', reason: 'Left early' });
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('Confirm the refund');
    expect(ask.html).toContain('Refund $30.00');
    expect(await db().select().from(refunds).where(eq(refunds.invoice_id, invoice.id))).toHaveLength(0);
    const confirm = hiddenFields(ask.html, action.replace(/&/g, '&amp;'));
    expect(confirm).toMatchObject({ _idem: first._idem, amount: '30', reason: 'Left early', confirm: '1' });

    const done = await b.post(action, confirm);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/dashboard/money/invoices/${invoice.id}?business_id=${biz.businessId}&notice=refunded`);
    const again = await b.post(action, confirm);
    expect(again.location).toBe(done.location);
    expect((await invoiceRow(invoice.id)).refunded_minor).toBe(3000);
    const after = await b.get(done.location!);
    expect(after.html).toContain('The refund was made');
    expect(after.html).toContain('Paid, partly refunded');
    expect(after.html).toContain('Up to $50.00.');

    // Empty amount: everything left.
    const rest = hiddenFields(after.html, action.replace(/&/g, '&amp;'));
    const askAll = await b.post(action, { _idem: rest._idem!, amount: '', reason: '' });
    expect(askAll.html).toContain('Refund $50.00');
    expect((await b.post(action, { _idem: rest._idem!, amount: '', reason: '', confirm: '1' })).status).toBe(303);
    const rows = await db().select().from(refunds).where(eq(refunds.invoice_id, invoice.id));
    expect(rows.map((r) => r.amount_minor).sort((x, y) => x - y)).toEqual([3000, 5000]);
    expect(rows.find((r) => r.amount_minor === 3000)?.reason).toBe('Left early');
    expect((await invoiceRow(invoice.id)).refunded_minor).toBe(8000);
    const full = await b.get(`/dashboard/money/invoices/${invoice.id}`);
    expect(full.html).toContain('>Refunded</span>');
    expect(full.html).toContain('This invoice is refunded in full.');
    expect(full.html).not.toContain('name="amount"');
  });

  it('keeps a refused amount in the field with the service’s message beside it', async () => {
    const { biz, invoice } = await workedInvoice();
    const { ctx } = testCtx(biz);
    await payInvoice(ctx, invoice.id);
    const b = await signedIn(biz);
    await b.get(`/dashboard/money/invoices/${invoice.id}`);
    const action = `/dashboard/money/invoices/${invoice.id}/refund`;

    const tooMuch = await b.post(action, { _idem: crypto.randomUUID(), amount: '95.5', reason: 'Overcharged', confirm: '1' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.html).toContain('name="amount" type="text" value="95.5"');
    expect(tooMuch.html).toMatch(/id="field-amount-error">At most 80 USD is left to refund on this invoice \(asked: 95.5\)\./);
    expect(tooMuch.html).toContain('aria-invalid="true"');
    expect(tooMuch.html).toContain('>Overcharged</textarea>');

    // Asked before the confirmation step too: $99,999 of an $80 charge never reaches "Confirm the refund".
    const huge = await b.post(action, { _idem: crypto.randomUUID(), amount: '99999', reason: 'Oops' });
    expect(huge.status).toBe(422);
    expect(huge.html).not.toContain('Confirm the refund');
    expect(huge.html).toMatch(/id="field-amount-error">At most 80 USD is left to refund on this invoice \(asked: 99999\)\./);
    expect(huge.html).toContain('value="99999"');
    const fine = await b.post(action, { _idem: crypto.randomUUID(), amount: '80', reason: '' });
    expect(fine.html).toContain('Confirm the refund');

    const cents = await b.post(action, { _idem: crypto.randomUUID(), amount: '10.005', reason: '', confirm: '1' });
    expect(cents.status).toBe(400);
    expect(cents.html).toContain('value="10.005"');
    expect(cents.html).toMatch(/id="field-amount-error">10.005 has more decimals than USD allows/);

    const words = await b.post(action, { _idem: crypto.randomUUID(), amount: 'ten', reason: '' });
    expect(words.status).toBe(400);
    expect(words.html).toContain('value="ten"');
    expect(words.html).toMatch(/id="field-amount-error">Enter the amount as a number/);
    expect(await db().select().from(refunds).where(eq(refunds.invoice_id, invoice.id))).toHaveLength(0);
  });
});

describe('charging from the invoice page', () => {
  it('charges after the confirmation step, and sends a 3-D Secure demand to the confirmation page', async () => {
    const made = await invoiceWithCard();
    const b = await signedIn(made.biz);
    const page = await b.get(`/dashboard/money/invoices/${made.invoice.id}`);
    expect(page.html).toContain('Visa ending in 4242');
    const action = `/dashboard/money/invoices/${made.invoice.id}/charge`;
    const ask = await b.post(action, { _idem: crypto.randomUUID() });
    expect(ask.html).toContain('Confirm the charge');
    expect(ask.html).toContain('Charge $80.00');
    expect((await invoiceRow(made.invoice.id)).status).toBe('pending');
    const confirm = hiddenFields(ask.html, `${action}?business_id=${made.biz.businessId}`);
    const done = await b.post(`${action}?business_id=${made.biz.businessId}`, confirm);
    expect(done.status).toBe(303);
    expect(done.location).toContain('notice=charged');
    expect((await invoiceRow(made.invoice.id)).status).toBe('paid');

    const held = await invoiceWithCard({ card: CARD.threeDs });
    const h = await signedIn(held.biz);
    const charged = await h.post(`/dashboard/money/invoices/${held.invoice.id}/charge`, { _idem: crypto.randomUUID(), confirm: '1' });
    expect(charged.location).toContain('notice=authenticate');
    const waiting = await h.get(charged.location!);
    expect(waiting.html).toContain(`href="/finance/web/authenticate/${held.invoice.id}"`);
    expect(waiting.html).toContain('Waiting for 3-D Secure');
    const money = await h.get('/dashboard/money');
    expect(money.html).toContain('Payments waiting for 3-D Secure');
    expect(money.html).toContain(`href="/finance/web/authenticate/${held.invoice.id}"`);
  });
});

describe('cards', () => {
  it('adds a card through the simulator’s form, keeps a declined number, makes one default and deletes after confirming', async () => {
    const owner = await makeUser({ business: true });
    const bid = owner.businessId!;
    const b = await signedIn(owner);
    const form = await b.get('/dashboard/money/cards/new');
    expect(form.status).toBe(200);
    expect(form.html).toContain('4242 4242 4242 4242');
    expect(form.headers.get('Content-Security-Policy')).not.toContain('stripe.com');

    const declined = await b.post('/dashboard/money/cards/new', { _idem: crypto.randomUUID(), card_number: '4111 1111 1111 1111' });
    expect(declined.status).toBe(422);
    expect(declined.html).toContain('value="4111 1111 1111 1111"');
    expect(declined.html).toMatch(/id="field-card_number-error">This card was declined/);

    const added = await b.post('/dashboard/money/cards/new', { _idem: crypto.randomUUID(), card_number: '4242 4242 4242 4242' });
    expect(added.status).toBe(303);
    expect(added.location).toContain('notice=card-added');
    const second = await saveCard(owner, bid, CARD.threeDs);
    const cards = await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, bid));
    expect(cards).toHaveLength(2);

    const list = await b.get('/dashboard/money');
    expect(list.html).toContain('Make the Visa ending in 3184 the default');
    const made = await b.post(`/dashboard/money/cards/${second.payment_method_id}/default`, { _idem: crypto.randomUUID() });
    expect(made.location).toContain('notice=card-default');
    expect((await b.get('/dashboard/money')).html).toContain('Make the Visa ending in 4242 the default');

    const ask = await b.post(`/dashboard/money/cards/${second.payment_method_id}/delete`, { _idem: crypto.randomUUID() });
    expect(ask.html).toContain('It is the default card: the Visa ending in 4242 becomes the default.');
    expect(await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, bid))).toHaveLength(2);
    const gone = await b.post(`/dashboard/money/cards/${second.payment_method_id}/delete`, { _idem: crypto.randomUUID(), confirm: '1' });
    expect(gone.location).toContain('notice=card-deleted');
    const left = await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, bid));
    expect(left.map((c) => c.last4)).toEqual(['4242']);
  });
});

describe('adding a card with real Stripe keys', () => {
  it('gives Stripe’s card element, with Stripe.js allowed on that page alone', async () => {
    const owner = await makeUser({ business: true });
    const stripe = workerWith({ STRIPE_SECRET_KEY: 'sk_test_pages', STRIPE_PUBLISHABLE_KEY: 'pk_test_pages' });
    const b = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() }, stripe);
    expect((await b.signIn(owner.email, TEST_PASSWORD)).status).toBe(303);
    const page = await b.get('/dashboard/money/cards/new');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<script src="https://js.stripe.com/v3" defer="">');
    expect(page.html).toContain('data-island="card-form"');
    expect(page.html).toContain('&quot;publishableKey&quot;:&quot;pk_test_pages&quot;');
    expect(page.html).not.toContain('name="card_number"');
    const csp = page.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp.match(/connect-src/g)).toHaveLength(1);
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    // The card never reaches this server: the simulator's post is not taken.
    const posted = await b.post('/dashboard/money/cards/new', { _idem: crypto.randomUUID(), card_number: '4242424242424242' });
    expect(posted.status).toBe(303);
    expect(await db().select().from(paymentMethods).where(eq(paymentMethods.business_id, owner.businessId!))).toHaveLength(0);
    // Every other money page keeps the self-only policy.
    const money = await b.get('/dashboard/money');
    expect(money.headers.get('Content-Security-Policy')).not.toContain('stripe.com');
  });
});

describe('labor costs and the weekly budget', () => {
  it('saves the budget from the page, and the chart and table say the new one', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const before = await b.get('/dashboard/money');
    expect(before.html).toContain('No weekly budget set.');
    expect(before.html).toContain('&quot;budget&quot;:null');

    const saved = await b.post('/dashboard/money/budget', { _idem: crypto.randomUUID(), weekly_labor_budget: '1234.50', week: '' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard/money?business_id=${owner.businessId}&notice=budget#labor`);
    const [row] = await db().select().from(businesses).where(eq(businesses.id, owner.businessId!));
    expect(row!.weekly_labor_budget_minor).toBe(123450);
    const after = await b.get(saved.location!);
    expect(after.html).toContain('The weekly budget was saved.');
    expect(after.html).toContain('Weekly budget: $1,234.50.');
    expect(after.html).toContain('&quot;budget&quot;:1234.5');
    expect(after.html).toContain('of $1,234.50 budget: $1,234.50 under.');

    const refused = await b.post('/dashboard/money/budget', { _idem: crypto.randomUUID(), weekly_labor_budget: '99.999', week: '' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('name="weekly_labor_budget" type="text" value="99.999"');
    expect(refused.html).toMatch(/id="field-weekly_labor_budget-error">99.999 has more decimals than USD allows/);
    const negative = await b.post('/dashboard/money/budget', { _idem: crypto.randomUUID(), weekly_labor_budget: '-5', week: '' });
    expect(negative.status).toBe(400);
    expect(negative.html).toMatch(/id="field-weekly_labor_budget-error">Enter the budget as an amount of 0 or more/);
    expect((await db().select().from(businesses).where(eq(businesses.id, owner.businessId!)))[0]!.weekly_labor_budget_minor).toBe(123450);

    // ?week= picks the week; a date that is not one is said beside the field.
    const week = await b.get('/dashboard/money?week=2026-03-04');
    expect(week.html).toContain('Week of Mon 2 Mar to Sun 8 Mar');
    const bad = await b.get('/dashboard/money?week=2026-13-40');
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/id="field-week-error">Enter a date as YYYY-MM-DD\./);
  });
});
