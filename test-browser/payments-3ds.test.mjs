// The 3D Secure path in a real browser, by keyboard alone, with the local payment simulator: the demo
// business owner opens the link of the emailed "confirm a payment" message (read from the Worker's
// local mailbox, email_outbox), signs in, reaches the authentication page, goes through the
// simulated issuer page and sees the invoice paid. Run through `npm run test:browser` (the Worker
// with demo data, whose events business holds one invoice for 3D Secure; BROWSER_STATE_DIR is the
// Worker's local state). The demo has one such invoice, so the dark run looks at the pages (the
// authentication page and the issuer page) and leaves it waiting, and the light run completes it.
// Screenshots: payments-3ds-<scheme>-<n>-<step>.png in the artifacts folder.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ACCOUNTS, fromMailbox, ORIGIN, queryD1, STATE_DIR } from './app.mjs';
import { artifactsDir, assertNoForeignCode, assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';

/** The demo owner of the bistro and the events business (the cast's only 'business' account). */
const owner = ACCOUNTS.find((a) => a.role === 'business');
const skip = (!owner || !STATE_DIR) && 'no demo business owner or Worker state: run `npm run test:browser`';
const AUTH_LINK = /https?:\/\/[^\s"<>]+(\/finance\/web\/authenticate\/in_[A-Za-z0-9]+)/;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The authentication link of the newest "confirm a payment" email to `to`, waiting for the mail to be written. */
async function emailedLink(to) {
  const link = await fromMailbox(to, 'notification:payment_action_required', AUTH_LINK);
  if (!link) throw new Error(`no payment_action_required email with an authentication link reached ${to}`);
  return link;
}

/** Tab until `selector` has the focus (at most `max` presses), then check its focus ring is drawn. */
async function tabTo(page, selector, max = 25) {
  for (let presses = 0; !(await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)); presses++) {
    assert.ok(presses < max, `Tab never reached ${selector} in ${max} presses`);
    await page.keyboard.press('Tab');
  }
  const ring = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
  });
  assert.ok(ring.style !== 'none' && ring.width >= 2, `no visible focus ring on ${selector}`);
}

async function luminance(page) {
  const color = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = color.match(/\d+(\.\d+)?/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

describe('3D Secure with the payment simulator, from the emailed link to a paid invoice', { skip }, () => {
  let link;
  before(async () => {
    if (!skip) link = await emailedLink(owner.email);
  });

  for (const scheme of ['dark', 'light']) {
    const completes = scheme === 'light';
    test(`${scheme}: the emailed link, sign-in, the authentication page and the issuer page${completes ? ', completed by keyboard: paid' : ''}`, async () => {
      const session = await openOffline(browser, ORIGIN, { colorScheme: scheme });
      const { page } = session;
      let shot = 0;
      const screenshot = (step) =>
        page.screenshot({ path: join(artifactsDir(), `payments-3ds-${scheme}-${++shot}-${step}.png`), fullPage: true });
      const check = async (what) => {
        await page.waitForLoadState('load');
        assertNoForeignCode(session);
        const l = await luminance(page);
        assert.ok(scheme === 'dark' ? l < 0.3 : l > 0.7, `${what}: the ${scheme} page has luminance ${l.toFixed(2)}`);
        await assertStayedOffline(session);
      };
      try {
        await withEvidence(session, `payments-3ds-${scheme}-failed`, async () => {
          // The link, signed out: sign-in first, then back to it.
          await page.goto(`${ORIGIN}${link}`);
          assert.equal(new URL(page.url()).pathname, '/login', 'the signed-out link did not ask to sign in');
          await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
          await tabTo(page, 'input[name=email]');
          await page.keyboard.type(owner.email);
          await tabTo(page, 'input[name=password]', 1);
          await page.keyboard.type(owner.password);
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.pathname === link);

          // The authentication page: the amount, and the button the script shows.
          await page.getByRole('heading', { level: 1, name: 'Confirm a payment' }).waitFor();
          const start = page.getByRole('button', { name: 'Confirm with your bank' });
          await start.waitFor({ state: 'visible' });
          await check('authentication page');
          await screenshot('authenticate');
          await tabTo(page, '#payment-auth-start');
          await page.keyboard.press('Enter');

          // handleNextAction (the simulator's) takes the browser to the simulated issuer page.
          await page.waitForURL((url) => url.pathname.startsWith('/finance/web/simulator/authenticate/pi_'));
          await page.getByRole('heading', { level: 1, name: "Your bank's check (simulated)" }).waitFor();
          await check('issuer page');
          await screenshot('issuer');
          if (!completes) return;

          await tabTo(page, 'button[value=succeed]');
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.pathname === `${link}/result`);
          // Paid: at once when the event landed before the redirect, else after the page's short poll.
          await page.locator('#payment-result[data-state=paid]').waitFor({ timeout: 30_000 });
          await page.getByText(/is paid/).waitFor();
          await check('result page');
          await screenshot('paid');

          // Paid now: the link no longer leads to a payment step.
          const again = await page.goto(`${ORIGIN}${link}`);
          assert.equal(again.status(), 403, 'the paid invoice still offered the authentication step');
          const invoiceId = link.split('/').pop();
          const [row] = queryD1(`SELECT status, requires_action FROM invoices WHERE id = '${invoiceId}'`);
          assert.deepEqual(row, { status: 'paid', requires_action: 0 });
        });
      } finally {
        await session.close();
      }
    });
  }
});
