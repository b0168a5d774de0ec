// The worker's shift page on a 360 px phone with touch: a demo shifter opens a shift of Harbor Street
// Bistro from My schedule, sees where it is with the links to the phone's maps, then goes offline and
// opens it again: the service worker answers with the saved copy, which says when it was saved. The
// page is axe-clean in light and dark, online and from the saved copy, with screenshots (and one at
// 1280 px).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, ahead, apiCall, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertAccessibleInBothSchemes, launchBrowser } from './offline.mjs';

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const SCHEDULE = '/dashboard/shifter/schedule';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the service worker's cache holds the page at `path` (kept by the page's island or by the worker). */
async function waitUntilKept(page, path) {
  for (let i = 0; i < 100; i++) {
    const kept = await page.evaluate(async (p) => Boolean(await (await caches.open('shifter-pages-v1')).match(p)), path);
    if (kept) return;
    await sleep(100);
  }
  assert.fail(`${path} was not kept for offline use`);
}

describe('the worker’s shift page', { skip: NO_OWNER }, () => {
  it('opens from My schedule with its map links, and again offline from the saved copy', { timeout: 180_000 }, async () => {
    const browser = await launchBrowser();
    const screenshot = screenshots('shifter-shift');
    let shiftId = null;
    const boss = await browser.newContext({ serviceWorkers: 'block' });
    const bossPage = await boss.newPage();
    try {
      await signIn(bossPage, owner);
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'allow' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();

      // A short early-morning shift weeks ahead (a random day, so other tests' shifts do not meet it),
      // offered to the first demo crew member who is free then and accepted by them.
      const day = ahead(21 + Math.floor(Math.random() * 30));
      let person = null;
      for (const who of ['jordan', 'alex', 'taylor', 'chris'].map(account).filter(Boolean)) {
        await context.clearCookies();
        await signIn(page, who);
        const sid = (await apiCall(page, 'GET', '/v1/user/details')).body.shifter_id;
        if (!sid) continue;
        const sent = await apiCall(bossPage, 'POST', '/v1/shift_request/send_request', {
          shift_date: day,
          shift_in: '05:15',
          shift_out: '07:45',
          shiftrole_id: 1,
          hourly_rate: 21,
          is_broadcast: false,
          shifter_id: sid,
          note: 'Use the side door on Water Street',
        });
        if (sent.status === 409 || (sent.status === 422 && sent.body.error?.code === 'SHIFTER-PAUSED-ERR')) continue;
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        const ok = await apiCall(page, 'POST', `/v1/shift_request/${sent.body.id}/accept`, {});
        if (ok.status === 409) {
          await apiCall(bossPage, 'POST', `/v1/shift_request/${sent.body.id}/cancel`, {});
          continue;
        }
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        shiftId = sent.body.id;
        person = who;
        break;
      }
      assert.ok(person, 'a demo crew member of the bistro is free for the shift');
      const path = `/dashboard/shifter/shifts/${shiftId}`;

      // My schedule lists it; its "See the shift" opens the shift's page.
      await page.goto(`${ORIGIN}${SCHEDULE}`);
      const link = page.locator(`a[href="${path}"]`);
      await screenshot(page, 'schedule');
      await Promise.all([page.waitForURL((u) => u.pathname === path), link.tap()]);
      await page.getByRole('heading', { level: 1, name: /at Harbor Street Bistro$/ }).waitFor();
      // Where it is, with the links to the phone's maps (no map drawn, no other site's script).
      const where = page.locator('section[aria-labelledby="where-heading"]');
      await where.getByText('212 Harbor Street, New York, NY 10004').waitFor();
      const app = where.getByRole('link', { name: 'Open in my maps app' });
      assert.match(await app.getAttribute('href'), /^geo:40\.7033,-74\.017\?q=/);
      assert.match(
        await where.getByRole('link', { name: 'See it on OpenStreetMap' }).getAttribute('href'),
        /^https:\/\/www\.openstreetmap\.org\/\?mlat=40\.7033&mlon=-74\.017/,
      );
      assert.ok(await where.getByRole('link', { name: 'Directions in Google Maps' }).isVisible());
      assert.ok(await where.getByRole('link', { name: 'Directions in Apple Maps' }).isVisible());
      await page.getByText('Use the side door on Water Street').waitFor();
      await page.getByText('Clock in within 150 m of Harbor Street Bistro.').waitFor();
      // Each map link is a full-size target.
      for (const box of await where.getByRole('link').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) {
        assert.ok(box >= 44, `a map link is ${box} px tall`);
      }
      // Online, the saved-copy note stays hidden.
      assert.equal(await page.locator('[data-kept-note]').isVisible(), false);
      await page.locator('[data-island="shifter-page"][data-island-ready]').waitFor({ state: 'attached' });
      await assertAccessibleInBothSchemes(page, 'shift page, 360 px');
      await screenshot(page, 'online-360');
      await page.setViewportSize({ width: 1280, height: 900 });
      await assertAccessibleInBothSchemes(page, 'shift page, 1280 px');
      await screenshot(page, 'online-1280');
      await page.setViewportSize(PHONE.viewport);

      // Seen once: the page is kept, and opens again without network from the saved copy, saying when it was saved.
      await page.evaluate(() => navigator.serviceWorker.ready);
      await waitUntilKept(page, path);
      await page.goto(`${ORIGIN}${SCHEDULE}`);
      await context.setOffline(true);
      await page.goto(`${ORIGIN}${path}`);
      const note = page.locator('[data-kept-note]');
      await note.waitFor({ state: 'visible' });
      assert.match(await note.textContent(), /^Saved copy\. No network: this is the page as it was on \w{3} \d{1,2} \w{3}, \d\d:\d\d\./);
      assert.ok(await note.locator('time').getAttribute('datetime'));
      await page.getByRole('heading', { level: 1, name: /at Harbor Street Bistro$/ }).waitFor();
      assert.match(await page.getByRole('link', { name: 'Open in my maps app' }).getAttribute('href'), /^geo:40\.7033,-74\.017/);
      await assertAccessibleInBothSchemes(page, 'shift page from the saved copy, 360 px');
      await screenshot(page, 'offline-saved-copy');
      await context.close();
    } finally {
      if (shiftId) await apiCall(bossPage, 'POST', `/v1/shift_request/${shiftId}/cancel`, {}).catch(() => undefined);
      await boss.close();
      await browser.close();
    }
  });
});
