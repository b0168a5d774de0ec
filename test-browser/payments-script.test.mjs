// The authenticate page's script (src/web/finance-script.ts) in a real browser, on a page that
// carries the same `#payment-auth` attributes the Worker renders, with a recording stand-in for
// Stripe.js: the button makes `handleNextAction({ clientSecret })` for an intent in requires_action
// and `confirmCardPayment(clientSecret, { payment_method })` with the saved card for Stripe's shape of
// an off-session 3DS demand (requires_payment_method after authentication_required); the simulator's
// stand-in takes either call to the simulated issuer page. Needs no Worker (runs under
// `npm run test:browser`, or alone: `node --test test-browser/payments-script.test.mjs`).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FINANCE_SCRIPT } from '../src/web/finance-script.ts';
import { launchBrowser } from './offline.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const attrValue = (v) => String(v).replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/** A page with the authenticate page's root and button, a recording window.Stripe, and the script. */
function pageHtml(attrs) {
  const data = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` data-${k}="${attrValue(v)}"`)
    .join('');
  return `<!doctype html><html><body>
<div id="payment-auth"${data}>
  <button type="button" id="payment-auth-start" hidden>Confirm with your bank</button>
  <p id="payment-auth-status"></p>
  <p id="payment-auth-noscript">no script</p>
</div>
<script>
  window.__calls = [];
  window.Stripe = function (pk) {
    return {
      handleNextAction: function (o) { window.__calls.push({ call: 'handleNextAction', pk: pk, args: [o] }); return Promise.resolve({}); },
      confirmCardPayment: function (s, d) { window.__calls.push({ call: 'confirmCardPayment', pk: pk, args: [s, d] }); return Promise.resolve({}); }
    };
  };
</script>
<script>${FINANCE_SCRIPT}</script>
</body></html>`;
}

async function clickAndSettle(attrs, expectedHash) {
  const page = await browser.newPage();
  try {
    await page.setContent(pageHtml(attrs));
    await page.getByRole('button', { name: 'Confirm with your bank' }).click();
    await page.waitForFunction((h) => window.location.hash === h, expectedHash);
    return await page.evaluate(() => window.__calls);
  } finally {
    await page.close();
  }
}

const SECRET = 'pi_3Test_secret_abc';
const common = { 'publishable-key': 'pk_test_x', 'client-secret': SECRET, 'payment-intent': 'pi_3Test', 'result-url': '#result' };

describe('the authenticate page script makes the call the intent needs', () => {
  test('Stripe, requires_action: handleNextAction({ clientSecret }) on Stripe(pk), then the result page', async () => {
    const calls = await clickAndSettle({ ...common, mode: 'stripe', 'next-step': 'handle_next_action' }, '#result');
    assert.deepEqual(calls, [{ call: 'handleNextAction', pk: 'pk_test_x', args: [{ clientSecret: SECRET }] }]);
  });

  test('Stripe, requires_payment_method after authentication_required: confirmCardPayment(clientSecret, { payment_method }) with the saved card', async () => {
    const calls = await clickAndSettle(
      { ...common, mode: 'stripe', 'next-step': 'confirm_card_payment', 'payment-method': 'pm_Saved3ds' },
      '#result',
    );
    assert.deepEqual(calls, [{ call: 'confirmCardPayment', pk: 'pk_test_x', args: [SECRET, { payment_method: 'pm_Saved3ds' }] }]);
  });

  for (const step of ['handle_next_action', 'confirm_card_payment']) {
    test(`simulator, ${step}: the stand-in takes the browser to the simulated issuer page; Stripe.js is not used`, async () => {
      const calls = await clickAndSettle(
        { ...common, mode: 'simulator', 'next-step': step, 'payment-method': 'pm_sim', 'simulator-url': '#issuer' },
        '#issuer',
      );
      assert.deepEqual(calls, []);
    });
  }
});
