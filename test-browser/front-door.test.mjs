// The front door as a new person meets it, in Chromium: a visitor opens /, creates a shifter account,
// reads the code from the local mailbox (the Worker's email_outbox, which `npm run dev` keeps readable
// and prints in its log), confirms it and lands signed in on the shifter side; signs out, resets the
// forgotten password by emailed code and lands signed in again; then the public profiles of a demo
// shifter and the demo business with their ratings. Every page axe-clean in light and dark at 360
// and 1280 px, never scrolling sideways; screenshots go to the artifacts folder as
// front-door-<n>-<step>.png. Run through `npm run test:browser` (BROWSER_TESTS=front-door alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ORIGIN, fromMailbox, queryD1, STATE_DIR, screenshots } from './app.mjs';
import { assertAccessible, assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = !STATE_DIR && 'no Worker state to read the local mailbox from: run `npm run test:browser`';

const PASSWORD = 'front door password 1';
const NEW_PASSWORD = 'front door password 2';

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The code of the newest `template` email to `to` in the local mailbox. */
async function mailedCode(to, template) {
  const code = await fromMailbox(to, template, /code is (\d{6})/);
  if (!code) throw new Error(`no ${template} code in the local mailbox for ${to}`);
  return code;
}

const screenshot = screenshots('front-door');

const scrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** axe-clean and no sideways scroll in both schemes at 360 and 1280 px; the page is left at `width`. */
async function checkPage(page, label, width = 360) {
  for (const w of [360, 1280]) {
    await page.setViewportSize({ width: w, height: 800 });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.equal(await scrollsSideways(page), false, `${label} scrolls sideways at ${w} px`);
      await assertAccessible(page, `${label}, ${scheme}, ${w} px`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width, height: 800 });
}

/** On a phone the header's account links and Sign out sit under Menu: open it (from 48rem they are inline). */
async function openHeaderMenu(page) {
  const menu = page.locator('.header-menu summary');
  if (await menu.isVisible()) await menu.click();
}

describe('the front door', { skip }, () => {
  test('a visitor creates a shifter account, confirms the emailed code, lands signed in, then resets a forgotten password', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    const email = `front-door-${Date.now()}@example.test`;
    try {
      await withEvidence(session, 'front-door-signup-failed', async () => {
        await page.goto(`${ORIGIN}/`);
        await page.getByRole('heading', { level: 1, name: 'Shift work, filled and worked' }).waitFor();
        for (const name of ['API documentation', 'Agent server (MCP)', 'Widgets', 'Sign in']) {
          assert.ok(await page.getByRole('link', { name, exact: true }).first().isVisible(), `the front door links ${name}`);
        }
        await checkPage(page, 'the front door', 1280);
        await screenshot(page, 'landing-1280');
        await page.setViewportSize({ width: 360, height: 800 });
        await page.emulateMedia({ colorScheme: 'dark' });
        await screenshot(page, 'landing-dark-360');
        await page.emulateMedia({ colorScheme: 'light' });

        // Sign-up: a refused form keeps what was typed (never the password) and says why beside the field.
        await page.getByRole('main').getByRole('link', { name: 'Create a shifter account' }).click();
        await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
        assert.equal(await page.getByLabel('Find shifts to work (a shifter account)').isChecked(), true);
        await page.getByLabel('Your name').fill('Casey Newcomer');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill('short');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByText('Use 10 to 200 characters.').waitFor();
        assert.equal(await page.getByLabel('Your name').inputValue(), 'Casey Newcomer');
        assert.equal(await page.getByLabel('Email').inputValue(), email);
        assert.equal(await page.getByLabel('Password').inputValue(), '');
        await checkPage(page, 'sign-up refused');
        await screenshot(page, 'signup-refused-360');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();

        // The code step: read the code from the local mailbox, as a developer would.
        await page.getByRole('heading', { level: 1, name: 'Confirm your email' }).waitFor();
        // The code step names the address and asks for the code only: the password was typed once.
        await page.locator('strong', { hasText: email }).waitFor();
        assert.equal(await page.getByLabel('Password').count(), 0, 'the code step asks for no password');
        assert.ok(!page.url().includes(encodeURIComponent(email)) && !page.url().includes(email), 'no address in the URL');
        await checkPage(page, 'the code step');
        await screenshot(page, 'verify-360');
        await page.getByLabel('Code').fill(await mailedCode(email, 'email_verification'));
        await page.getByRole('button', { name: 'Confirm and sign in' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard/shifter');
        await openHeaderMenu(page);
        assert.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible(), 'signed in: the header offers Sign out');
        await screenshot(page, 'signed-in-360');

        // Signed out, the password is forgotten: a code by email, a new password, signed in again.
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL((u) => u.pathname === '/login');
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
        await checkPage(page, 'forgotten password');
        await page.getByLabel('Email').fill(email);
        await page.getByRole('button', { name: 'Email me a code' }).click();
        await page.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();
        await page.getByLabel('Code').fill(await mailedCode(email, 'password_reset'));
        await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
        await page.getByLabel('New password again').fill('not the same password');
        await page.getByRole('button', { name: 'Set the password and sign in' }).click();
        await page.getByText('The two passwords are not the same.').waitFor();
        await page.locator('strong', { hasText: email }).waitFor();
        await checkPage(page, 'new password refused');
        await screenshot(page, 'reset-refused-360');
        await page.getByLabel('Code').fill(await mailedCode(email, 'password_reset'));
        await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
        await page.getByLabel('New password again').fill(NEW_PASSWORD);
        await page.getByRole('button', { name: 'Set the password and sign in' }).click();
        await page.waitForURL((u) => u.pathname.startsWith('/dashboard'));
        await openHeaderMenu(page);
        assert.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible(), 'signed in with the new password');
        assertNoForeignCode(session);
      });
    } finally {
      await session.close();
    }
  });

  test('public profiles of a demo shifter and the demo business, with their ratings, for a visitor', async () => {
    const [shifter] = queryD1("SELECT slug FROM shifters WHERE display_name = 'Jordan Rivera' LIMIT 1");
    const [business] = queryD1("SELECT slug FROM businesses WHERE name = 'Harbor Street Bistro' LIMIT 1");
    assert.ok(shifter && business, 'the demo world has Jordan Rivera and Harbor Street Bistro');
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'front-door-profiles-failed', async () => {
        await page.goto(`${ORIGIN}/s/${shifter.slug}`);
        await page.getByRole('heading', { level: 1, name: 'Jordan Rivera' }).waitFor();
        await page.getByRole('heading', { name: 'Ratings and reviews' }).waitFor();
        assert.match(await page.locator('.rating-summary').textContent(), /\d\.\d\d out of 5, from \d+ reviews?/);
        assert.ok(await page.getByRole('link', { name: 'Sign in' }).last().isVisible(), 'a visitor is asked to sign in to connect');
        await checkPage(page, 'a shifter’s public profile', 1280);
        await screenshot(page, 'shifter-profile-1280');

        await page.goto(`${ORIGIN}/b/${business.slug}`);
        await page.getByRole('heading', { level: 1, name: 'Harbor Street Bistro' }).waitFor();
        await page.getByRole('heading', { name: 'Open shifts' }).waitFor();
        assert.match(await page.locator('.rating-summary').textContent(), /\d\.\d\d out of 5, from \d+ reviews?/);
        await checkPage(page, 'a business’s public profile');
        await screenshot(page, 'business-profile-360');

        const missing = await page.goto(`${ORIGIN}/s/nobody-here`);
        assert.equal(missing?.status(), 404);
        assertNoForeignCode(session);
      });
    } finally {
      await session.close();
    }
  });
});
