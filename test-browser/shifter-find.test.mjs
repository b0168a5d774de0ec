// The shifter finding work on a 360 px phone with touch, as the demo shifter Jordan (crew of Harbor
// Street Bistro and Harbor Street Events): opens the home; finds a broadcast the bistro just posted, with its score and
// reason, through the date filter, and claims it; accepts a targeted request; sees both on the
// schedule, makes the calendar feed and finds the shifts in the .ics it serves; pauses requests in
// the profile and sees Paused on the public profile, then takes requests again (the demo stays as it
// was). Every page axe-clean in light and dark at 360 and 1280 px, with screenshots as
// shifter-find-<n>-<step>.png. Run through `npm run test:browser` (BROWSER_TESTS=shifter-find alone).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { account, ahead, apiCall, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertAccessible, CHROMIUM, CHROMIUM_ARGS } from './offline.mjs';

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const jordan = account('jordan');
const skip = NO_OWNER || (!jordan && 'BROWSER_ACCOUNTS lists no demo shifter jordan');

/** The page in both schemes at 360 and 1280 px: axe-clean, no sideways scroll, a screenshot of each. */
async function checkEverywhere(page, screenshot, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await assertAccessible(page, `${name}, ${scheme}, ${width} px`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(wide, false, `${name} scrolls sideways at ${width} px (${scheme})`);
      await screenshot(page, `${name}-${scheme}-${width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(PHONE.viewport);
}

describe('shifter: find shifts, requests, schedule and profile', { skip }, () => {
  it('works on a phone', { timeout: 240_000 }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
    const screenshot = screenshots('shifter-find');
    try {
      // The bistro posts an early-morning broadcast and sends Jordan a request, weeks ahead (clear of his shifts).
      const boss = await browser.newContext({ serviceWorkers: 'block' });
      const bossPage = await boss.newPage();
      await signIn(bossPage, owner);
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await signIn(page, jordan);
      const me = (await apiCall(page, 'GET', '/v1/user/details')).body;
      const post = async (body) => {
        const r = await apiCall(bossPage, 'POST', '/v1/shift_request/send_request', { shiftrole_id: 3, hourly_rate: 31, ...body });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        return r.body;
      };
      const openDate = ahead(24);
      const open = await post({ shift_date: openDate, shift_in: '04:00', shift_out: '06:30', is_broadcast: true });
      const asked = await post({
        shift_date: ahead(25),
        shift_in: '04:00',
        shift_out: '06:30',
        is_broadcast: false,
        shifter_id: me.shifter_id,
      });
      await boss.close();

      // Home: what is next, the requests waiting and the best open shifts.
      await page.goto(`${ORIGIN}/dashboard/shifter`);
      await checkEverywhere(page, screenshot, 'home');

      // Find shifts: the filters (a GET form) narrow to the day; the broadcast shows its score and reason.
      await page.goto(`${ORIGIN}/dashboard/shifter/find`);
      await checkEverywhere(page, screenshot, 'find');
      await page.locator('.sf-filters > summary').tap();
      await page.fill('#field-date', openDate);
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('date') === openDate),
        page.getByRole('button', { name: 'Show shifts' }).tap(),
      ]);
      const card = page.locator('.sf-shift', { has: page.locator(`form[action$="/${open.id}/claim"]`) });
      assert.match(await card.locator('.sf-reason').textContent(), /\d+\s*\/100\s+\S/, 'a score and a reason');
      await screenshot(page, 'find-filtered');
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'claimed'),
        card.getByRole('button', { name: /^Claim/ }).tap(),
      ]);
      assert.match(await page.locator('.notice').textContent(), /The shift is yours/);

      // The targeted request: accepted from its card.
      const request = page.locator('.sf-shift', { has: page.locator(`form[action$="/requests/${asked.id}/accept"]`) });
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'accepted'),
        request.getByRole('button', { name: /^Accept/ }).tap(),
      ]);
      await screenshot(page, 'find-accepted');

      // My schedule: both shifts, then the calendar feed made and read.
      await page.goto(`${ORIGIN}/dashboard/shifter/schedule`);
      for (const id of [open.id, asked.id])
        assert.equal(await page.locator(`a[href$="/schedule/${id}/cancel"]`).count(), 1, `shift ${id} on the schedule`);
      await checkEverywhere(page, screenshot, 'schedule');
      await Promise.all([page.waitForLoadState('load'), page.locator('form[action$="/schedule/feed"] button').tap()]);
      const feedUrl = await page.locator('#feed-url').inputValue();
      assert.match(feedUrl, /\/cal\/[A-Za-z0-9_-]{43}\.ics$/);
      await checkEverywhere(page, screenshot, 'schedule-feed');
      const ics = await page.request.get(feedUrl);
      assert.equal(ics.status(), 200);
      const text = await ics.text();
      for (const id of [open.id, asked.id]) assert.ok(text.includes(`UID:${id}@shiftmarket`), `the feed holds ${id}`);

      // The cancel confirmation says what happens to the shift.
      await page.goto(`${ORIGIN}/dashboard/shifter/schedule/${asked.id}/cancel`);
      assert.match(await page.locator('.confirm').textContent(), /refills cancelled shifts|not offered to anyone else automatically/);
      await checkEverywhere(page, screenshot, 'cancel-confirm');

      // Profile: pause requests; the public profile shows Paused; then take requests again.
      await page.goto(`${ORIGIN}/dashboard/shifter/profile`);
      await checkEverywhere(page, screenshot, 'profile');
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'paused'),
        page.getByRole('button', { name: 'Pause requests' }).tap(),
      ]);
      assert.equal(await page.locator('.sf-preview .badge-warn').textContent(), 'Paused');
      await checkEverywhere(page, screenshot, 'profile-paused');
      const publicHref = await page.getByRole('link', { name: 'Open my public profile' }).getAttribute('href');
      const pub = await page.goto(`${ORIGIN}${publicHref}`);
      if (pub.status() === 200) {
        assert.match(await page.locator('body').textContent(), /Paused/);
        await screenshot(page, 'public-profile-paused');
      }
      await page.goto(`${ORIGIN}/dashboard/shifter/profile`);
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'resumed'),
        page.getByRole('button', { name: 'Take requests again' }).tap(),
      ]);
      // The shifts go back to the bistro, so the demo stays as it was for the other walks.
      for (const id of [open.id, asked.id])
        await apiCall(page, 'POST', `/v1/shift_request/${id}/cancel`, { as: 'shifter', reason: 'Browser test done' });
    } finally {
      await browser.close();
    }
  });
});
