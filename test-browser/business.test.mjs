// The business web application in a real browser, as the demo owner: the day at a glance, posting
// one shift, and bulk posting 12 rows of which 2 are refused by the service, fixed and sent again
// alone. Every page is checked with axe-core in light and dark, at 1280 and 360 px; screenshots of
// each step go to the artifacts folder as business-<n>-<step>.png. Run through `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, ahead, apiCall, NO_OWNER, ORIGIN, screenshots, signIn } from './app.mjs';
import { assertAccessible, assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = NO_OWNER;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('business');

/** The shifts of the business on a date, read through the API with the page's session (as the page's scripts do). */
function shiftsOn(page, date) {
  return page.evaluate(async (d) => {
    const token = document.querySelector('meta[name="csrf-token"]').content;
    const res = await fetch('/v1/shift_request/list_of_requests', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
      body: JSON.stringify({ as: 'business', date_from: d, date_to: d, limit: 200 }),
    });
    return (await res.json()).data;
  }, date);
}

describe('business web application', { skip }, () => {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 360],
  ]) {
    test(`today and post a shift are usable and axe-clean (${scheme}, ${width} px)`, async () => {
      const session = await openOffline(browser, ORIGIN, { colorScheme: scheme });
      const { page } = session;
      await page.setViewportSize({ width, height: 900 });
      try {
        await withEvidence(session, `business-${scheme}-pages`, async () => {
          await signIn(page);
          await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
          await assertAccessible(page, `today, ${scheme}, ${width} px`);
          await screenshot(page, `today-${scheme}-${width}`);
          const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
          assert.equal(scrolls, false, 'the dashboard scrolls sideways');

          await page.goto(`${ORIGIN}/dashboard/shifts/new?date=${ahead(6)}&in=10:00&out=15:30`);
          await page.locator('form[data-island-ready]').waitFor();
          await assertAccessible(page, `post a shift, ${scheme}, ${width} px`);
          await screenshot(page, `post-${scheme}-${width}`);

          await page.goto(`${ORIGIN}/dashboard/assistant`);
          await page.fill('#field-message', 'Who can cover Friday night?');
          await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/assistant'), page.click('form#ask button[type=submit]')]);
          await page.getByText('Who can cover Friday night?').first().waitFor();
          await assertAccessible(page, `assistant, ${scheme}, ${width} px`);
          await screenshot(page, `assistant-${scheme}-${width}`);
          assertNoForeignCode(session);
        });
      } finally {
        await session.context.close();
      }
    });
  }

  test('posts a broadcast with the keyboard, and bulk-posts 12 rows: 2 refused, fixed and sent again alone', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    try {
      await withEvidence(session, 'business-bulk', async () => {
        await signIn(page);
        const date = ahead(9);
        const before = (await shiftsOn(page, date)).length;

        // One broadcast from the form, filled and sent from the keyboard.
        await page.goto(`${ORIGIN}/dashboard/shifts/new?date=${date}&in=06:00&out=10:00`);
        await page.locator('form[data-island-ready]').waitFor();
        await page.focus('#field-shiftrole_id');
        await page.keyboard.press('ArrowDown');
        await page.focus('#field-hourly_rate');
        await page.keyboard.type('19.25');
        await page.keyboard.press('Enter');
        await page.waitForURL((u) => u.searchParams.get('notice') === 'posted');
        await page.getByText('The shift was posted.').waitFor();
        await screenshot(page, 'posted-one');
        assert.equal((await shiftsOn(page, date)).length, before + 1);

        // Twelve rows; two dated in the past pass the browser's checks and are refused by the service.
        await page.goto(`${ORIGIN}/dashboard/bulk`);
        await page.locator('[data-island="bulk"][data-island-ready]').waitFor();
        await assertAccessible(page, 'bulk posting, empty');
        const run = Math.random().toString(36).slice(2, 8);
        const lines = [];
        for (let i = 0; i < 12; i++) {
          const day = i === 3 ? '2020-01-06' : i === 8 ? '2020-01-07' : date;
          const hour = String(7 + i).padStart(2, '0');
          lines.push(`${day}, ${hour}:00, ${hour}:30, Server, 18.50, broadcast, Bulk ${run} row ${i + 1}`);
        }
        await page.fill('#bulk-text', lines.join('\n'));
        await page.getByRole('button', { name: 'Check rows' }).click();
        await page.getByText('12 row(s) read, all ready to send.').waitFor();
        await page.getByRole('button', { name: 'Send 12 row(s)' }).click();
        await page.getByText('10 posted, 2 refused').waitFor({ timeout: 30_000 });
        await screenshot(page, 'bulk-refused');
        const refused = page.locator('tr[data-state="failed"]');
        assert.equal(await refused.count(), 2);
        assert.match((await refused.first().textContent()) ?? '', /the shift must start in the future/);
        await assertAccessible(page, 'bulk posting, two rows refused');

        // Fix the two dates; only those two are sent again.
        for (const n of [4, 9]) {
          await page.fill(`#row-${n}-date`, date);
          await page.locator(`#row-${n}-date`).dispatchEvent('change');
        }
        await page.getByRole('button', { name: 'Send the 2 row(s) not posted yet' }).click();
        await page.getByText('12 shift(s) posted.').waitFor({ timeout: 30_000 });
        await screenshot(page, 'bulk-all-posted');
        const after = await shiftsOn(page, date);
        const notes = after.map((s) => s.note).filter((n) => n?.startsWith(`Bulk ${run} row `));
        assert.equal(notes.length, 12, 'each row posted exactly once');
        assert.equal(new Set(notes).size, 12);
        assertNoForeignCode(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('switches business from the header, and sees a claim of a broadcast arrive', async () => {
    const jordan = account('jordan');
    assert.ok(jordan, 'BROWSER_ACCOUNTS lists no demo shifter jordan');
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'dark' });
    const shifter = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    try {
      await withEvidence(session, 'business-switch-claim', async () => {
        await signIn(page);
        // The switcher works without script: a GET form; by keyboard here.
        await page.focus('#switch-business');
        await page.selectOption('#switch-business', { label: 'Harbor Street Events' });
        // Enter on a select does not send its form: Tab to the Switch button, then Enter.
        await page.keyboard.press('Tab');
        await Promise.all([page.waitForURL((u) => u.searchParams.has('business_id')), page.keyboard.press('Enter')]);
        await page.getByText('Harbor Street Events ·').first().waitFor();
        await assertAccessible(page, 'today of the second business, dark');
        await screenshot(page, 'switched');
        await page.selectOption('#switch-business', { label: 'Harbor Street Bistro' });
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard'), page.click('.switcher button[type=submit]')]);
        await page.getByText('Harbor Street Bistro ·').first().waitFor();

        // A broadcast of the bistro, claimed by a crew member from their own browser.
        const date = ahead(11);
        const posted = await apiCall(page, 'POST', '/v1/shift_request/send_request', {
          shift_date: date,
          shift_in: '12:00',
          shift_out: '16:00',
          shiftrole_id: 1,
          hourly_rate: 21,
          is_broadcast: true,
        });
        assert.equal(posted.status, 201, JSON.stringify(posted.body));
        await signIn(shifter.page, jordan);
        const claim = await apiCall(shifter.page, 'POST', `/v1/shift_request/${posted.body.id}/claim`, {});
        assert.equal(claim.status, 200, JSON.stringify(claim.body));

        await page.reload();
        const claimed = page.locator('section.card', { has: page.getByRole('heading', { name: 'Claimed broadcasts' }) });
        await claimed.getByText('Jordan Rivera').first().waitFor();
        await screenshot(page, 'claim-arrived');
      });
    } finally {
      await shifter.context.close();
      await session.context.close();
    }
  });
});
