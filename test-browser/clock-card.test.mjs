// The shifter's clock card on a 360 px phone with touch, the bistro's location and the phone in
// another zone than the business (Tokyo): the card has its padding and a `hidden` element stays
// hidden (the "I'm here" choice); the photo is taken with the camera button and previewed; a clock-in
// made offline shows on its card as "Clocked in at HH:MM · waiting to send" (on the bistro's clock),
// also on the copy of the page the service worker shows offline, and the recorded state once it is
// sent. Then every target of the header and the bottom bar (Menu and More open too) measures at least
// 44 × 44 px on the shifter's and the business's pages, at 360 and 1280 px, light and dark. The clock's
// states are axe-clean in both schemes, with screenshots.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { account, apiCall, measureTargets, NO_OWNER, nyAt, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertAccessibleInBothSchemes, CHROMIUM, CHROMIUM_ARGS } from './offline.mjs';

const BISTRO = { latitude: 40.7033, longitude: -74.017 };
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const MIN_TARGET = 44;

/** HH:MM of an instant on New York's clock (the bistro's zone). */
const nyTime = (iso) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hour12: false }).format(
    new Date(iso),
  );

/**
 * Every target of the header and the section navigation at least 44 × 44 px on `paths`, at 360 and
 * 1280 px in light and dark, with the header's Menu and the bottom bar's More open where they are
 * shown (a phone). Returns how many targets were measured.
 */
async function assertTargets(page, paths, side, screenshot) {
  let measured = 0;
  for (const path of paths) {
    await page.goto(`${ORIGIN}${path}`);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        const where = `${side} ${path}, ${scheme}, ${width} px`;
        const closed = await measureTargets(page);
        assert.deepEqual(closed.small, [], `targets under 44 × 44 px on ${where}`);
        assert.ok(closed.header >= 3, `${where}: the header's targets are measured (${closed.header})`);
        measured += closed.header + closed.nav;
        for (const disclosure of ['.header-menu', '.app-nav-shifter .nav-more details']) {
          const d = page.locator(disclosure);
          if (!(await d.count()) || !(await d.locator('summary').isVisible())) continue;
          await d.locator('summary').click();
          const open = await measureTargets(page);
          assert.deepEqual(open.small, [], `targets under 44 × 44 px on ${where} with ${disclosure} open`);
          assert.ok(open.header + open.nav > closed.header + closed.nav, `${where}: ${disclosure} shows its links`);
          measured += open.header + open.nav - closed.header - closed.nav;
          if (path === paths[0] && scheme === 'light')
            await screenshot(page, `${side}-${disclosure.includes('menu') ? 'menu' : 'more'}-open`);
          await d.locator('summary').click();
        }
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(PHONE.viewport);
  return measured;
}

describe('the clock card, and the shell’s targets', { skip: NO_OWNER }, () => {
  it('pads the card, hides what is hidden, takes a photo, shows a punch made offline, and every header and bar target is 44 px', {
    timeout: 300_000,
  }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
    const screenshot = screenshots('clock-card');
    try {
      const boss = await browser.newContext({ serviceWorkers: 'block' });
      boss.setDefaultTimeout(20_000);
      const bossPage = await boss.newPage();
      await signIn(bossPage, owner);
      // One short shift 45 minutes from now: its clock-in is open already (an hour before the start),
      // and it keeps clear of the shifts the other clock tests post for the next half hour.
      const made = { shift_date: nyAt(45).date, shift_in: nyAt(45).time, shift_out: nyAt(55).time };
      const context = await browser.newContext({ ...PHONE, geolocation: BISTRO, permissions: ['geolocation'], timezoneId: 'Asia/Tokyo' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      // The first of the bistro's demo crew free then takes it (other tests keep some of them busy).
      let shiftId = null;
      for (const person of ['alex', 'taylor', 'chris', 'jordan'].map(account).filter(Boolean)) {
        await context.clearCookies();
        await signIn(page, person);
        const sid = (await apiCall(page, 'GET', '/v1/user/details')).body.shifter_id;
        if (!sid) continue;
        const sent = await apiCall(bossPage, 'POST', '/v1/shift_request/send_request', {
          ...made,
          shiftrole_id: 1,
          hourly_rate: 20,
          is_broadcast: false,
          shifter_id: sid,
        });
        if (
          (sent.status === 409 && sent.body.error?.code === 'SHFT-CONFLICT-ERR') ||
          (sent.status === 422 && sent.body.error?.code === 'SHIFTER-PAUSED-ERR')
        )
          continue;
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        const ok = await apiCall(page, 'POST', `/v1/shift_request/${sent.body.id}/accept`, {});
        if (ok.status === 409 && ok.body.error?.code === 'SHFT-CONFLICT-ERR') {
          await apiCall(bossPage, 'POST', `/v1/shift_request/${sent.body.id}/cancel`, {});
          continue;
        }
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        shiftId = sent.body.id;
        break;
      }
      assert.ok(shiftId, 'a demo crew member of the bistro is free 45 minutes from now');

      await page.goto(`${ORIGIN}/dashboard/shifter/clock`);
      const card = page.locator(`li[data-shift="${shiftId}"]`);
      await card.locator('form[data-island="clock"][data-island-ready]').waitFor();

      // The card's own padding (a list rule used to set it to 0.5rem 0) and its whole border.
      const box = await card.evaluate((el) => {
        const s = getComputedStyle(el);
        return { top: s.paddingTop, left: s.paddingLeft, right: s.paddingRight, bottom: s.borderBottomWidth };
      });
      assert.deepEqual(box, { top: '16px', left: '16px', right: '16px', bottom: '1px' }, 'the card is padded and bordered');
      // `hidden` hides whatever the class sets: the "I'm here" choice (a flex row) waits unseen.
      const choice = card.locator('.choice.punch-override');
      assert.equal(await choice.getAttribute('hidden'), '');
      assert.equal(await choice.evaluate((el) => getComputedStyle(el).display), 'none');
      assert.equal(await choice.isVisible(), false);
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll('[hidden]')]
          .filter((el) => getComputedStyle(el).display !== 'none')
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(shown, [], 'every hidden element is undrawn');

      // The camera button: the phone's camera behind a labelled button of at least 44 px.
      const camera = card.locator('input[type=file]');
      assert.equal(await camera.getAttribute('accept'), 'image/*');
      assert.equal(await camera.getAttribute('capture'), 'environment');
      const button = card.locator('label.camera-button');
      await button.waitFor();
      const size = await button.boundingBox();
      assert.ok(size.height >= MIN_TARGET && size.width >= MIN_TARGET, `camera button ${size.width}×${size.height}`);
      assert.equal(await card.getByLabel('Take a photo').evaluate((el) => el.type), 'file');
      const preview = card.locator('[data-photo-preview]');
      assert.equal(await preview.isVisible(), false);
      await assertAccessibleInBothSchemes(page, 'clock card, 360 px');
      await screenshot(page, 'card');
      await camera.setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: PNG });
      const img = preview.locator('img');
      await img.waitFor();
      assert.match(await img.getAttribute('src'), /^data:image\/png;base64,/);
      assert.ok(await img.evaluate((el) => el.complete && el.naturalWidth > 0), 'the preview is drawn');
      assert.match(await img.getAttribute('alt'), /photo for your clock-in at Harbor Street Bistro/);
      await button.getByText('Take another photo').waitFor();
      await assertAccessibleInBothSchemes(page, 'clock card with its photo, 360 px');
      await screenshot(page, 'photo-preview');
      // Removed, and taken again for the punch.
      await card.getByRole('button', { name: 'Remove the photo' }).tap();
      await preview.waitFor({ state: 'hidden' });
      assert.equal(await camera.evaluate((el) => el.files.length), 0);
      await camera.setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: PNG });
      await img.waitFor();

      // The service worker keeps this page for offline use: wait until it controls the page and holds the copy.
      const kept = () =>
        page.evaluate(async () => {
          if (!navigator.serviceWorker?.controller) return false;
          const cache = await caches.open('shifter-pages-v1');
          return Boolean(await cache.match('/dashboard/shifter/clock'));
        });
      for (let tries = 0; !(await kept()); tries++) {
        assert.ok(tries < 100, 'the service worker controls the page and keeps its copy');
        await page.waitForTimeout(200);
      }

      // Offline: the clock-in is kept on the phone, and the card says so on the bistro's clock.
      await context.setOffline(true);
      const before = nyTime(new Date().toISOString());
      await card.getByRole('button', { name: 'Clock in' }).tap();
      const waiting = card.locator('[data-waiting="in"]');
      await waiting.waitFor();
      const after = nyTime(new Date().toISOString());
      const line = (await waiting.locator('.punched').textContent()).replace(/\s+/g, ' ').trim();
      const madeAt = /^Clocked in at (\d\d:\d\d) · waiting to send$/.exec(line)?.[1];
      assert.ok(madeAt, `the card says the punch waits: "${line}"`);
      assert.ok([before, after].includes(madeAt), `${madeAt} is the tap's time in New York (${before}–${after}), not Tokyo's`);
      await waiting.getByText('No network').waitFor();
      assert.equal(await card.getByRole('button', { name: 'Clock in' }).isVisible(), false, 'no second Clock in while it waits');
      await page.getByText('One punch is saved on this phone').waitFor();
      await assertAccessibleInBothSchemes(page, 'clock card, punch waiting to send, 360 px');
      await screenshot(page, 'waiting-to-send');

      // The copy of the page the service worker shows offline says the same.
      await page.reload();
      await card.locator('[data-waiting="in"]').waitFor();
      assert.equal((await waiting.locator('time').textContent()).trim(), madeAt);
      assert.equal(await card.getByRole('button', { name: 'Clock in' }).isVisible(), false);
      await screenshot(page, 'waiting-offline-copy');

      // Back online: sent once, and the card says the recorded punch.
      // The copy opened by the service worker says it is online (the browser's offline switch does not
      // reach it), so no `online` event comes: the page tries the queue again while it waits.
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'sent_in', { timeout: 40_000 }),
        context.setOffline(false),
      ]);
      const row = await apiCall(page, 'GET', `/v1/shift_request/${shiftId}`);
      assert.ok(row.body.shift_start_at, 'clocked in');
      assert.equal(row.body.clock_in_offline, true);
      assert.ok(row.body.clock_in_photo_url, 'with the photo taken offline');
      assert.equal(nyTime(row.body.shift_start_at), madeAt, 'recorded at the time the card said');
      await card.getByText(`Clocked in at ${madeAt}`).waitFor();
      await card.getByText('Made offline').waitFor();
      assert.equal(await card.locator('[data-waiting]:not([hidden])').count(), 0, 'nothing waits any more');
      await page.getByText(`Sent: your clock-in made offline at ${madeAt}`).waitFor();
      await assertAccessibleInBothSchemes(page, 'clock card, punch sent, 360 px');
      await screenshot(page, 'sent');

      // The shell's targets: the shifter's side (the bottom bar and its More) and a shared page.
      const shifterPaths = ['/dashboard/shifter/clock', '/dashboard/shifter', '/dashboard/shifter/records', '/inbox'];
      const onShifter = await assertTargets(page, shifterPaths, 'shifter', screenshot);
      assert.ok(onShifter > 40, `shifter side: ${onShifter} targets measured`);
      await context.close();

      // The business's side, as its owner on a phone (the section row, the switcher, Menu) and a desk.
      const desk = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
      desk.setDefaultTimeout(20_000);
      const ownerPage = await desk.newPage();
      await signIn(ownerPage, owner);
      const businessPaths = ['/dashboard', '/dashboard/schedule', '/dashboard/board', '/notifications'];
      const onBusiness = await assertTargets(ownerPage, businessPaths, 'business', screenshot);
      assert.ok(onBusiness > 40, `business side: ${onBusiness} targets measured`);
      await desk.close();
      await boss.close();
    } finally {
      await browser.close();
    }
  });
});
