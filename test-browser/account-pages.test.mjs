// The account pages a person checks their own safety on, in a real browser as the demo owner signed in
// from a phone: the sessions list names the device and gives times in the business's zone, and fits
// 360 px without sideways scrolling; the API key's regenerate step asks first; the site's icon loads.
// axe-core in light and dark at 360 and 1280 px; screenshots go to the artifacts folder as
// account-<n>-<step>.png. Run through `npm run test:browser` (BROWSER_TESTS=account-pages alone).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { artifactsDir, assertAccessible, assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const ORIGIN = process.env.DOCS_BASE_URL ? new URL(process.env.DOCS_BASE_URL).origin : undefined;
if (!ORIGIN) throw new Error('DOCS_BASE_URL is not set: run `npm run test:browser`');
const ACCOUNTS = JSON.parse(process.env.BROWSER_ACCOUNTS || '[]');
const owner = ACCOUNTS.find((a) => a.email.startsWith('owner@'));
const skip = !owner && 'BROWSER_ACCOUNTS lists no demo owner: run `npm run test:browser`';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

let shot = 0;
async function screenshot(page, step) {
  shot += 1;
  await page.screenshot({ path: join(artifactsDir(), `account-${String(shot).padStart(2, '0')}-${step}.png`), fullPage: true });
}

const scrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('account pages', { skip }, () => {
  for (const [scheme, width] of [
    ['light', 360],
    ['dark', 360],
    ['light', 1280],
  ]) {
    test(`sessions name the device in the business's time zone, fit the width, and the key asks first (${scheme}, ${width} px)`, async () => {
      const session = await openOffline(browser, ORIGIN, { colorScheme: scheme });
      const { page } = session;
      await page.setViewportSize({ width, height: 800 });
      // Signed in "from a phone": the sign-in keeps this User-Agent with the session.
      await page.setExtraHTTPHeaders({ 'User-Agent': PHONE_UA });
      try {
        await withEvidence(session, `account-${scheme}-${width}`, async () => {
          await page.goto(`${ORIGIN}/login`);
          await page.fill('input[name=email]', owner.email);
          await page.fill('input[name=password]', owner.password);
          await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard'), page.press('input[name=password]', 'Enter')]);

          await page.goto(`${ORIGIN}/account/sessions`);
          const mine = page.locator('li.session-item', { hasText: '(This browser)' });
          await mine.waitFor();
          assert.match(await mine.textContent(), /iPhone: Safari 17 on iOS/);
          // The demo owner has no shifter profile: times are in the bistro's zone, named on each time.
          const note = (await page.locator('main p.hint').first().textContent()).replace(/\s+/g, ' ');
          assert.match(note, /Times are in [A-Za-z_]+\/[A-Za-z_]+, your business’s time zone\./);
          assert.match(await mine.locator('time').first().textContent(), /\d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+/);
          assert.equal(await scrollsSideways(page), false, 'the sessions page scrolls sideways');
          await assertAccessible(page, `sessions, ${scheme}, ${width} px`);
          await screenshot(page, `sessions-${scheme}-${width}`);

          await page.goto(`${ORIGIN}/account/api-key`);
          await page.getByRole('link', { name: 'Regenerate key…' }).click();
          await page.getByRole('heading', { name: 'Regenerate your API key?' }).waitFor();
          assert.match(await page.locator('main').textContent(), /Every program using your current key stops working at once/);
          assert.equal(await scrollsSideways(page), false, 'the confirm step scrolls sideways');
          await assertAccessible(page, `regenerate the API key, ${scheme}, ${width} px`);
          await screenshot(page, `api-key-confirm-${scheme}-${width}`);
          // Cancel keeps the key: back on the key page, nothing regenerated.
          await Promise.all([
            page.waitForURL((u) => u.pathname === '/account/api-key'),
            page.getByRole('link', { name: /Cancel/ }).click(),
          ]);

          const icon = await page.evaluate(async () => {
            const href = document.querySelector('link[rel="icon"]')?.getAttribute('href');
            const res = href ? await fetch(href) : null;
            return { href, status: res?.status, type: res?.headers.get('Content-Type') };
          });
          assert.match(icon.href ?? '', /^\/assets\/favicon\.[0-9a-f]{8}\.svg$/);
          assert.deepEqual([icon.status, icon.type], [200, 'image/svg+xml']);
          assertNoForeignCode(session);
        });
      } finally {
        await session.close();
      }
    });
  }
});
