// The shifter's day on a 360 px phone with touch, its position about 4.2 km north of Harbor Street
// Bistro (the bistro asks for clock-ins within 150 m; soft mode, the default): a demo crew member of the
// bistro sees a request overlapping a shift they accepted marked before Accept (and no Accept on it),
// declines another request once, with a reason, in the page's dialog; sees on the clock card, before
// the tap, how far the venue is and that the bistro will see the clock-in as outside its radius, clocks
// in and reads the same after it; turns a group of notification switches off and on again (saved);
// every target of the header and the bottom bar measures at least 44 × 44 px; and with the network off
// opens Find shifts as the saved list with its time (no claim or answer offered), the home and My
// schedule. Pages axe-clean in both schemes at 1280 and 360 px, with screenshots shifter-day-<n>-<step>.png.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import {
  account,
  ahead,
  apiCall,
  checkEverywhere,
  measureTargets,
  NO_OWNER,
  nyAt,
  ORIGIN,
  owner,
  queryD1,
  screenshots,
  signIn,
} from './app.mjs';
import { assertAccessible, CHROMIUM, CHROMIUM_ARGS } from './offline.mjs';

const FAR = { latitude: 40.7033 + 0.0378, longitude: -74.017 };
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const MIN_TARGET = 44;
const BUSINESS = 'Harbor Street Bistro';

/** The header's and the section navigation's drawn targets: how many, and those under 44 × 44 px. */
const smallTargets = (page) => measureTargets(page).then((t) => ({ measured: t.header + t.nav, small: t.small }));

/** Every header and bottom-bar target of `path` at 360 and 1280 px, with Menu and More opened where shown. */
async function assertTargets(page, path) {
  await page.goto(`${ORIGIN}${path}`);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    const closed = await smallTargets(page);
    assert.deepEqual(closed.small, [], `targets under 44 × 44 px on ${path} at ${width} px`);
    assert.ok(closed.measured >= 4, `${path} at ${width} px: ${closed.measured} targets measured`);
    for (const disclosure of ['.header-menu', '.app-nav-shifter .nav-more details']) {
      const summary = page.locator(`${disclosure} > summary`);
      if (!(await summary.count()) || !(await summary.isVisible())) continue;
      await summary.click();
      const open = await smallTargets(page);
      assert.deepEqual(open.small, [], `targets under 44 × 44 px on ${path} at ${width} px with ${disclosure} open`);
      assert.ok(open.measured > closed.measured, `${disclosure} shows its links`);
      await summary.click();
    }
  }
  await page.setViewportSize(PHONE.viewport);
}

describe('the shifter’s first day', { skip: NO_OWNER }, () => {
  it('a far clock-in said before and after, Decline once with a reason, an overlap marked, switches saved, Find shifts offline', {
    timeout: 300_000,
  }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
    const screenshot = screenshots('shifter-day');
    const made = [];
    let bossPage = null;
    try {
      const boss = await browser.newContext({ serviceWorkers: 'block' });
      bossPage = await boss.newPage();
      await signIn(bossPage, owner);
      const send = (body) =>
        apiCall(bossPage, 'POST', '/v1/shift_request/send_request', { shiftrole_id: 1, hourly_rate: 22, is_broadcast: false, ...body });
      const context = await browser.newContext({ ...PHONE, geolocation: FAR, permissions: ['geolocation'], serviceWorkers: 'allow' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();

      // A short shift whose clock-in is open now, taken by the first of the bistro's crew free then
      // (other browser tests keep some of them busy; one may have paused requests).
      const now = { shift_date: nyAt(56).date, shift_in: nyAt(56).time, shift_out: nyAt(59).time };
      let person = null;
      let shiftId = null;
      for (const p of ['taylor', 'chris', 'alex', 'jordan'].map(account).filter(Boolean)) {
        await context.clearCookies();
        await signIn(page, p);
        const sid = (await apiCall(page, 'GET', '/v1/user/details')).body.shifter_id;
        if (!sid) continue;
        const sent = await send({ ...now, shifter_id: sid });
        if (sent.status !== 201) continue;
        const ok = await apiCall(page, 'POST', `/v1/shift_request/${sent.body.id}/accept`, {});
        if (ok.status !== 200) {
          await apiCall(bossPage, 'POST', `/v1/shift_request/${sent.body.id}/cancel`, {});
          continue;
        }
        person = { ...p, shifterId: sid };
        shiftId = sent.body.id;
        break;
      }
      assert.ok(shiftId, 'a demo crew member of the bistro is free in the next hour');

      // Weeks ahead, at an hour no other test uses: an accepted shift, a request overlapping it, and one that does not.
      const day = ahead(33);
      const kept = await send({ shift_date: day, shift_in: '02:00', shift_out: '04:00', shifter_id: person.shifterId });
      assert.equal(kept.status, 201, JSON.stringify(kept.body));
      made.push(kept.body.id);
      assert.equal((await apiCall(page, 'POST', `/v1/shift_request/${kept.body.id}/accept`, {})).status, 200);
      const clash = await send({ shift_date: day, shift_in: '03:00', shift_out: '05:00', shifter_id: person.shifterId });
      assert.equal(clash.status, 201, JSON.stringify(clash.body));
      made.push(clash.body.id);
      const other = await send({ shift_date: ahead(34), shift_in: '02:00', shift_out: '04:00', shifter_id: person.shifterId });
      assert.equal(other.status, 201, JSON.stringify(other.body));
      made.push(other.body.id);

      // Home first: its island registers the service worker and keeps the page.
      await page.goto(`${ORIGIN}/dashboard/shifter`);
      await page.locator('[data-island="shifter-page"][data-island-ready]').waitFor({ state: 'attached' });
      await page.evaluate(() => navigator.serviceWorker.ready);

      // Find shifts: the overlapping request is marked, and Accept is not offered on it.
      await page.goto(`${ORIGIN}/dashboard/shifter/find`);
      const clashCard = page.locator(`li[data-shift="${clash.body.id}"]`);
      await clashCard.getByText(`Overlaps your 02:00–04:00 at ${BUSINESS}`).waitFor();
      await clashCard.getByText('It cannot be accepted while that shift stands').waitFor();
      assert.equal(await clashCard.getByRole('button', { name: /^Accept/ }).count(), 0, 'no Accept on an overlapping request');
      const otherCard = page.locator(`li[data-shift="${other.body.id}"]`);
      assert.equal(await otherCard.getByRole('button', { name: /^Accept/ }).count(), 1, 'Accept on the request that overlaps nothing');
      await clashCard.scrollIntoViewIfNeeded();
      await screenshot(page, 'overlap-marked');
      await checkEverywhere(page, screenshot, 'find');
      await page.setViewportSize(PHONE.viewport);

      // Decline asks once: a dialog with an optional reason, then the list again, declined.
      await page.locator('[data-island="shifter-page"][data-island-ready]').waitFor({ state: 'attached' });
      await otherCard.getByRole('link', { name: /^Decline/ }).tap();
      const dialog = page.locator('dialog[data-decline-dialog]');
      await dialog.waitFor({ state: 'visible' });
      assert.match(await dialog.locator('[data-decline-what]').textContent(), /at Harbor Street Bistro/);
      await dialog.getByLabel('Why (optional)').fill('I am away that week.');
      for (const b of await dialog.locator('.button').all()) {
        const box = await b.boundingBox();
        assert.ok(box.height >= MIN_TARGET && box.width >= MIN_TARGET, `a dialog button is ${box.width}×${box.height}`);
      }
      await assertAccessible(page, 'Decline dialog, 360 px');
      await screenshot(page, 'decline-dialog');
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/dashboard/shifter/find' && u.searchParams.get('notice') === 'declined'),
        dialog.getByRole('button', { name: 'Decline the request' }).tap(),
      ]);
      await page.getByText('Request declined.').waitFor();
      const [row] = queryD1(`SELECT request_status, cancel_reason FROM shift_requests WHERE id = '${other.body.id}'`);
      assert.deepEqual(row, { request_status: 3, cancel_reason: 'I am away that week.' });

      // The clock: before the tap the card says the distance and that the bistro sees it as outside.
      await page.goto(`${ORIGIN}/dashboard/shifter/clock`);
      const card = page.locator(`li[data-shift="${shiftId}"]`);
      await card.locator('form[data-island="clock"][data-island-ready]').waitFor();
      const where = card.locator('[data-where]');
      await where.getByText(/^You are 4\.2 km from Harbor Street Bistro/).waitFor();
      assert.match(
        await where.textContent(),
        /^You are 4\.2 km from Harbor Street Bistro \(accuracy ±\d+ m\), farther than the 150 m it asks for\. You can still clock in: Harbor Street Bistro will see it was made 4\.2 km away\.$/,
      );
      assert.ok(await where.evaluate((el) => el.classList.contains('punch-where-far')), 'said as a warning');
      await checkEverywhere(page, screenshot, 'clock-before');
      await page.setViewportSize(PHONE.viewport);
      // After the tap: the confirmation and the card say what the bistro sees.
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'clocked_in'),
        card.getByRole('button', { name: 'Clock in' }).tap(),
      ]);
      await page
        .getByText(/Clocked in at \d\d:\d\d · Harbor Street Bistro, 4\.2 km from the venue — the business will see this\./)
        .waitFor();
      await card.getByText(', 4.2 km from the venue — the business will see this.').waitFor();
      const punched = await apiCall(page, 'GET', `/v1/shift_request/${shiftId}`);
      assert.ok(
        punched.body.clock_in_distance_m > 4100 && punched.body.clock_in_distance_m < 4300,
        `${punched.body.clock_in_distance_m} m`,
      );
      await screenshot(page, 'clock-after');

      // Notification preferences: a group's switch (at least 44 px) turns its kinds with it, saved in one go.
      const before = (await apiCall(page, 'GET', '/v1/notifications/preferences')).body;
      await page.goto(`${ORIGIN}/notifications/preferences`);
      await page.locator('[data-island="prefs"][data-island-ready]').waitFor({ state: 'attached' });
      const group = page.locator('fieldset[data-pref-group="shift_offers"]');
      const email = group.getByRole('switch', { name: 'Shifts offered to you: Email' });
      const box = await email.boundingBox();
      assert.ok(box.height >= MIN_TARGET && box.width >= MIN_TARGET, `a switch is ${box.width}×${box.height}`);
      const was = await email.isChecked();
      await email.tap();
      await group.locator('summary').tap();
      for (const kind of await group.locator('[data-kind-switch="email"]').all()) assert.equal(await kind.isChecked(), !was);
      await checkEverywhere(page, screenshot, 'preferences');
      await Promise.all([page.waitForURL(/notice=saved/), page.getByRole('button', { name: 'Save preferences' }).click()]);
      await page.getByText('Preferences saved.').waitFor();
      const saved = await apiCall(page, 'GET', '/v1/notifications/preferences');
      for (const k of saved.body.kinds.filter((k) => k.group === 'shift_offers')) assert.equal(k.channels.email, !was, k.kind);
      // And back as it was, choices and defaults alike (the demo stays as it was).
      const restore = before.kinds
        .filter((k) => k.group === 'shift_offers')
        .map((k) => ({
          kind: k.kind,
          channel: 'email',
          enabled: before.overrides.find((o) => o.kind === k.kind && o.channel === 'email')?.enabled ?? null,
        }));
      assert.equal((await apiCall(page, 'PUT', '/v1/notifications/preferences', { channels: restore })).status, 200);

      // Every target of the header and the bottom bar is at least 44 × 44 px on the shifter side.
      for (const path of ['/dashboard/shifter', '/dashboard/shifter/find', '/dashboard/shifter/clock', '/notifications/preferences']) {
        await assertTargets(page, path);
      }

      // Offline: Find shifts opens as the saved list, with its time on the worker's clock, offering no claim or answer.
      await page.goto(`${ORIGIN}/dashboard/shifter/schedule`);
      await page.goto(`${ORIGIN}/dashboard/shifter/find`);
      const keptPaths = ['/dashboard/shifter', '/dashboard/shifter/find', '/dashboard/shifter/schedule'];
      for (let tries = 0; ; tries++) {
        const have = await page.evaluate(async (paths) => {
          const cache = await caches.open('shifter-pages-v1');
          return (await Promise.all(paths.map((p) => cache.match(p)))).every(Boolean);
        }, keptPaths);
        if (have) break;
        assert.ok(tries < 100, 'home, Find shifts and My schedule are kept after one visit');
        await page.waitForTimeout(200);
      }
      const [{ timezone }] = queryD1(`SELECT timezone FROM shifters WHERE id = '${person.shifterId}'`);
      await context.setOffline(true);
      await page.goto(`${ORIGIN}/dashboard/shifter/find`);
      const note = page.locator('[data-kept-note]');
      await note.waitFor({ state: 'visible' });
      const text = (await note.textContent()).replace(/\s+/g, ' ');
      const at = await note.locator('time').getAttribute('datetime');
      const hhmm = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hour12: false }).format(
        new Date(at),
      );
      assert.match(
        text,
        new RegExp(`^Saved list from ${hhmm} — you’re offline\\. Saved on .+\\. Claiming a shift and answering a request need the network`),
      );
      assert.equal(await page.getByRole('button', { name: /^(Claim|Accept)/ }).count(), 0, 'no claim or answer offered offline');
      assert.equal(await page.getByRole('link', { name: /^Decline/ }).count(), 0, 'no decline offered offline');
      await page.getByRole('heading', { level: 1, name: 'Find shifts' }).waitFor();
      await screenshot(page, 'find-offline');
      for (const [path, heading] of [
        ['/dashboard/shifter', 'Your shifts'],
        ['/dashboard/shifter/schedule', 'My schedule'],
      ]) {
        await page.goto(`${ORIGIN}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.locator('[data-kept-note]').waitFor({ state: 'visible' });
        await screenshot(page, `${path.split('/').pop()}-offline`);
      }
      await context.close();
    } finally {
      for (const id of made) await apiCall(bossPage, 'POST', `/v1/shift_request/${id}/cancel`, {}).catch(() => undefined);
      await browser.close();
    }
  });
});
