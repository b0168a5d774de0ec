// The shifter pages kept offline by the service worker belong to one session: a demo shifter's clock
// page opens without network, and after the session ends any other way than the sign-out form
// (cookies cleared, another person signing in on the same browser), the last person's page is gone.
// A connection that says it is online but carries nothing gets the kept page too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, NO_OWNER, ORIGIN, screenshots, signIn } from './app.mjs';
import { launchBrowser } from './offline.mjs';

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const CLOCK = '/dashboard/shifter/clock';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Loads the clock page until the service worker controls it and has kept it. */
async function keepClockPage(page) {
  await page.goto(`${ORIGIN}${CLOCK}`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The first load is not controlled by the worker yet; the second goes through it and is kept.
  await page.goto(`${ORIGIN}${CLOCK}`);
  for (let i = 0; i < 50; i++) {
    const kept = await page.evaluate(async (path) => Boolean(await (await caches.open('shifter-pages-v1')).match(path)), CLOCK);
    if (kept) return;
    await sleep(100);
  }
  assert.fail('the clock page was not kept');
}

/**
 * The clock page opened without network: its heading, or null when nothing was kept. The network is
 * cut by failing every request (the page's and the service worker's), since the browser's own offline
 * switch is not always lifted for the service worker when it is turned off again.
 */
async function offlineClock(context, page) {
  const cut = (route) => route.abort('internetdisconnected');
  await context.route('**/*', cut);
  try {
    await page.goto(`${ORIGIN}${CLOCK}`);
    return await page.locator('h1').textContent();
  } catch {
    return null;
  } finally {
    await context.unroute('**/*', cut);
  }
}

const first = account('jordan');
const second = account('alex');

describe('pages kept offline', { skip: NO_OWNER || (!first && 'no demo shifter') }, () => {
  it('open without network, for the session that loaded them only', { timeout: 120_000 }, async () => {
    const browser = await launchBrowser();
    const screenshot = screenshots('offline-pages');
    try {
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'allow' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await signIn(page, first);
      await keepClockPage(page);
      /** The sessions the kept pages belong to (X-Page-Session of each). */
      const keptSessions = () =>
        page.evaluate(async () => {
          const cache = await caches.open('shifter-pages-v1');
          return Promise.all((await cache.keys()).map(async (req) => (await cache.match(req))?.headers.get('X-Page-Session') ?? null));
        });
      const [firstSession] = await keptSessions();
      assert.ok(firstSession && firstSession !== 'none', 'the kept page names its session');

      // Without network, the kept page opens.
      // (Its stylesheet is not checked here: with every request failed, the browser's cache is not asked
      // either, where a phone without network has it; the clock page's own test checks it with axe.)
      assert.equal(await offlineClock(context, page), 'Clock in and out');
      await screenshot(page, 'clock-offline');

      // Online but silent: the navigation waits a few seconds, then the kept page answers.
      await page.goto(`${ORIGIN}/dashboard`);
      let delayed = 0;
      await context.route(`**${CLOCK}`, async (route) => {
        delayed++;
        await sleep(8_000);
        await route.continue().catch(() => undefined);
      });
      const started = Date.now();
      await page.goto(`${ORIGIN}${CLOCK}`);
      assert.equal(await page.locator('h1').textContent(), 'Clock in and out');
      assert.ok(delayed > 0, 'the page’s request went through the slow network');
      assert.ok(Date.now() - started < 7_500, `the kept page answered after ${Date.now() - started} ms`);
      await context.unroute(`**${CLOCK}`);

      // Cookies cleared and another person signs in on this browser: the first one's page is forgotten.
      await context.clearCookies();
      if (second) await signIn(page, second);
      else await page.goto(`${ORIGIN}/login`);
      const after = await offlineClock(context, page);
      assert.notEqual(after, 'Clock in and out', 'the previous session’s clock page still opened offline');
      // Signed in, /login leads the second person to their own side, whose home may be kept for them;
      // nothing of the first session is left.
      await page.goto(`${ORIGIN}/login`);
      const left = await keptSessions();
      assert.ok(!left.includes(firstSession), 'a page of the previous session is still kept');
      if (!second) assert.equal(left.length, 0);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
