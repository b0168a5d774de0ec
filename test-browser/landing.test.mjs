// Where a person lands, in Chromium at 360 px: a new shifter signs up, signs out and signs in again
// and lands on the shifter side (never the business Welcome); then, from the side switch, creates a
// business on the Welcome page (its name and the time zone this browser is in, which the page's island
// chooses) and lands on its Today; with both sides, the next sign-in opens the side used last. Every
// page axe-clean in light and dark at 360 and 1280 px, never scrolling sideways; screenshots go to the
// artifacts folder as landing-<n>-<step>.png. Run through `npm run test:browser` (BROWSER_TESTS=landing alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkEverywhere, fromMailbox, ORIGIN, queryD1, STATE_DIR, screenshots } from './app.mjs';
import { assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = !STATE_DIR && 'no Worker state to read the local mailbox from: run `npm run test:browser`';

const PASSWORD = 'landing test password 1';
/** The browser's own zone for this test: one the server's list names by its older name (Asia/Calcutta). */
const BROWSER_ZONE = 'Asia/Kolkata';

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('landing');

/** On a phone the header's account links and Sign out sit under Menu: open it (from 48rem they are inline). */
async function openHeaderMenu(page) {
  const menu = page.locator('.header-menu summary');
  if (await menu.isVisible()) await menu.click();
}

async function signOut(page) {
  await openHeaderMenu(page);
  await Promise.all([page.waitForURL((u) => u.pathname === '/login'), page.getByRole('button', { name: 'Sign out' }).first().click()]);
}

/** Signs in through /login without `next` and returns the path it lands on. */
async function signInPlain(page, email) {
  await page.goto(`${ORIGIN}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname !== '/login'), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.waitForLoadState('load');
  return new URL(page.url()).pathname;
}

describe('where a person lands', { skip }, () => {
  test('a new shifter lands on the shifter side, creates a business from Welcome, then lands on the side used last', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    const email = `landing-${Date.now()}@example.test`;
    // The browser's clock is in India: the Welcome page's island chooses that zone.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: BROWSER_ZONE });
    await page.setViewportSize({ width: 360, height: 800 });
    try {
      await withEvidence(session, 'landing-failed', async () => {
        // Sign-up as a shifter, at 360 px.
        await page.goto(`${ORIGIN}/signup`);
        assert.equal(await page.getByLabel('Find shifts to work (a shifter account)').isChecked(), true);
        await page.getByLabel('Your name').fill('Robin Landing');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByRole('heading', { level: 1, name: 'Confirm your email' }).waitFor();
        const code = await fromMailbox(email, 'email_verification', /code is (\d{6})/);
        assert.ok(code, 'the sign-up code is in the local mailbox');
        await page.getByLabel('Code').fill(code);
        await page.getByRole('button', { name: 'Confirm and sign in' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard/shifter');

        // Signed out and in again with no address asked for: the shifter side, not the business Welcome.
        await signOut(page);
        assert.equal(await signInPlain(page, email), '/dashboard/shifter');
        await page.getByRole('heading', { level: 1, name: 'Your shifts' }).waitFor();
        await screenshot(page, 'shifter-signed-in-360');
        await checkEverywhere(page, screenshot, 'shifter side');
        // Opening /dashboard, as a bookmark of the old home would, lands there too.
        await page.goto(`${ORIGIN}/dashboard`);
        assert.equal(new URL(page.url()).pathname, '/dashboard/shifter');

        // The side switch leads to the Welcome page, which offers to create a business: no API address on it.
        await page.setViewportSize({ width: 360, height: 800 });
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard'), page.getByRole('link', { name: 'Business side' }).click()]);
        await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
        await page.locator('[data-island="time-zone"][data-island-ready="true"]').waitFor();
        assert.doesNotMatch(await page.locator('main').textContent(), /\/v1\/|POST /);
        const chosen = await page.getByLabel('Time zone').inputValue();
        const sameZone = await page.evaluate(
          ([zone]) =>
            new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone ===
            Intl.DateTimeFormat().resolvedOptions().timeZone,
          [chosen],
        );
        assert.ok(chosen !== 'UTC' && sameZone, `the island chose this browser's zone (${BROWSER_ZONE}), not ${chosen}`);
        await screenshot(page, 'welcome-360');
        await checkEverywhere(page, screenshot, 'Welcome');

        // Created by keyboard: the name typed, Enter on the button; it lands on the business's Today.
        await page.setViewportSize({ width: 360, height: 800 });
        await page.getByLabel('Business name').fill('Robin’s Noodle Bar');
        await page.getByRole('button', { name: 'Create the business' }).focus();
        await Promise.all([page.waitForURL((u) => u.searchParams.get('notice') === 'business_created'), page.keyboard.press('Enter')]);
        await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
        await page.getByText('Your business is ready.').waitFor();
        const [row] = queryD1("SELECT timezone FROM businesses WHERE name = 'Robin’s Noodle Bar' LIMIT 1");
        assert.equal(row?.timezone, chosen, 'the business is in the zone the page chose');
        await screenshot(page, 'today-360');
        await checkEverywhere(page, screenshot, 'the new business’s Today');

        // Both sides now: the shifter side used last opens at the next sign-in, then the business side.
        await page.setViewportSize({ width: 360, height: 800 });
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/dashboard/shifter'),
          page.getByRole('link', { name: 'Shifter side' }).first().click(),
        ]);
        await signOut(page);
        assert.equal(await signInPlain(page, email), '/dashboard/shifter');
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard'), page.locator('.switcher button[type=submit]').click()]);
        await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
        await signOut(page);
        assert.equal(await signInPlain(page, email), '/dashboard');
        await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
        assertNoForeignCode(session);
      });
    } finally {
      await session.close();
    }
  });
});
