// Copy last week in a real browser, as the demo owner: from the schedule's toolbar to the copy page,
// the weeks chosen with the keyboard, the preview of what will be made and what is skipped (a
// cancelled shift, one already there) with the service's words, the copy itself, and a second run
// that makes nothing. The weeks used are eight weeks ahead, which the demo world leaves empty, so
// what is made is known. axe-clean and no sideways scroll in light and dark at 1280 and 360 px.
// Screenshots go to the artifacts folder as copy-week-<n>-<step>.png. Run through
// `BROWSER_TESTS=copy-week npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiCall, checkEverywhere, NO_OWNER, ORIGIN, screenshots, signIn } from './app.mjs';
import { assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = NO_OWNER;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('copy-week');
const addDays = (date, n) => new Date(Date.parse(`${date}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Posts a shift of the demo business (role 1, $20/h, open to the crew) and returns it. */
async function post(page, businessId, date, shiftIn, shiftOut) {
  const res = await apiCall(page, 'POST', '/v1/shift_request/send_request', {
    business_id: businessId,
    shift_date: date,
    shift_in: shiftIn,
    shift_out: shiftOut,
    shiftrole_id: 1,
    hourly_rate: 20,
    is_broadcast: true,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('copy last week', { skip }, () => {
  test('the preview says what will be made and what is skipped; the copy makes it; a second run makes nothing', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'copy-week', async () => {
        await signIn(page);
        await page.goto(`${ORIGIN}/dashboard/schedule`);
        const link = page.getByRole('link', { name: 'Copy last week' });
        const businessId = new URL(await link.getAttribute('href'), ORIGIN).searchParams.get('business_id');
        assert.ok(businessId, 'the toolbar link names no business');
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/schedule/copy-week'), link.click()]);
        await page.getByRole('heading', { level: 1, name: 'Copy last week' }).waitFor();

        // The furthest week offered to fill, and the week before it to copy: empty in the demo world.
        const target = await page.locator('select[name=target_week] option').last().getAttribute('value');
        const source = addDays(target, -7);
        await post(page, businessId, addDays(source, 1), '10:00', '14:00');
        const cancelled = await post(page, businessId, addDays(source, 2), '18:00', '22:00');
        const c = await apiCall(page, 'POST', `/v1/shift_request/${cancelled.id}/cancel`, { reason: 'Not needed' });
        assert.equal(c.status, 200, JSON.stringify(c.body));
        await post(page, businessId, addDays(source, 3), '09:00', '13:00');
        await post(page, businessId, addDays(target, 3), '09:00', '13:00');

        // The weeks by keyboard: focus each list and choose its week, then Preview.
        await page.locator('select[name=source_week]').focus();
        await page.keyboard.press('Home');
        await page.selectOption('select[name=source_week]', source);
        await page.selectOption('select[name=target_week]', target);
        await page.getByRole('button', { name: 'Preview' }).focus();
        await Promise.all([page.waitForURL((u) => u.searchParams.get('target_week') === target), page.keyboard.press('Enter')]);

        await page.getByRole('heading', { name: 'Will be made (1)' }).waitFor();
        const made = page.getByRole('table', { name: 'Shifts that will be made' });
        assert.match(await made.textContent(), /10:00–14:00[\s\S]*Open to the crew/);
        const skipped = await page.getByRole('table', { name: 'Shifts that will be skipped, with why' }).textContent();
        assert.match(skipped, /18:00–22:00[\s\S]*It was cancelled, so it is not copied\./);
        assert.match(skipped, /09:00–13:00[\s\S]*Already on the schedule: an open shift at that time for the same role\./);
        await checkEverywhere(page, screenshot, 'preview');

        await Promise.all([
          page.waitForURL((u) => u.pathname === '/dashboard/schedule/copy-week'),
          page.getByRole('button', { name: 'Copy 1 shift' }).click(),
        ]);
        await page.getByText('1 shift was made in the week of').waitFor();
        const back = page.getByRole('link', { name: /^See the week of .* on the schedule$/ });
        assert.equal(new URL(await back.getAttribute('href'), ORIGIN).searchParams.get('date'), target);
        await checkEverywhere(page, screenshot, 'done');

        // Run again: nothing new to make, everything skipped as already there.
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('source_week') === source),
          page.getByRole('link', { name: 'Copy again' }).click(),
        ]);
        await page.getByRole('heading', { name: 'Will be made (0)' }).waitFor();
        await page.getByText('Nothing new to make').waitFor();
        assert.equal(await page.getByRole('button', { name: /^Copy \d+ shifts?$/ }).count(), 0, 'a copy is still offered');
        await screenshot(page, 'again');

        const week = await apiCall(page, 'POST', '/v1/shift_request/list_of_requests', {
          as: 'business',
          business_id: businessId,
          date_from: target,
          date_to: addDays(target, 6),
          limit: 200,
        });
        const times = week.body.data.filter((s) => s.status !== 'cancelled').map((s) => `${s.shift_date} ${s.shift_in}`);
        assert.deepEqual(times.sort(), [`${addDays(target, 1)} 10:00`, `${addDays(target, 3)} 09:00`]);
        assertNoForeignCode(session);
      });
    } finally {
      await session.context.close();
    }
  });
});
