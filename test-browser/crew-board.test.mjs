// Templates, crew and the clock board with its kiosk in a real browser, as the demo owner: two weeks of
// a template generated after its preview, with the first week seen as skipped; a shift ended early
// from the board; kiosk mode started on this browser and a shifter clocking in on it; the kiosk
// reaching no other page and ending with the owner's password. Every page is axe-clean in light and
// dark at 1280 and 360 px (the colour scheme switched on the same page), and screenshots of each go
// to the artifacts folder as crew-board-<n>-<step>.png. Run through `npm run test:browser`
// (BROWSER_TESTS=crew-board for this file alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, apiCall as api, checkEverywhere, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertAccessible, assertNoForeignCode, assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';

/** The bistro's crew members who take requests, in the order they are tried. */
// The bistro's whole crew: at some hours of the demo week most of them already work.
const CREW = ['jordan', 'alex', 'taylor', 'chris'].map(account).filter(Boolean);
const skip = NO_OWNER || (CREW.length < 2 && 'BROWSER_ACCOUNTS lists no demo crew: run `npm run test:browser`');
const TZ = 'America/New_York'; // the demo bistro's zone
const screenshot = screenshots('crew-board');

let browser;

/** A wall-clock date and time in the bistro's zone. */
function inZone(ms) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: TZ,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** ISO weekday (1 = Monday) of a date. */
const weekday = (date) => ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;

before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('templates, crew, clock board and kiosk', { skip }, () => {
  /** The two shifts of the board test: `early` is clocked in now (ended early later), `kiosk` waits for its shifter. */
  const setup = {};

  before(async () => {
    // Two targeted shifts starting in a few minutes, each accepted by a crew member who is free then;
    // the first one's shifter clocks in at once, so a minute has passed when the board ends it.
    const session = await openOffline(browser, ORIGIN);
    const shifterSession = await openOffline(browser, ORIGIN);
    try {
      await signIn(session.page, owner, '/account');
      const crew = (await api(session.page, 'POST', '/v1/request_authorization/list_of_requests', {})).body.accepted;
      const taken = [];
      for (const shifter of CREW) {
        if (taken.length === 2) break;
        await shifterSession.context.clearCookies();
        await signIn(shifterSession.page, shifter, '/account');
        const me = (await api(shifterSession.page, 'GET', '/v1/shifter/of_user')).body;
        if (!crew.some((c) => c.shifter_id === me.id && c.business_name === 'Harbor Street Bistro')) continue;
        // Half an hour, from a few minutes on, or later within the hour where they already work then
        // (other tests book the crew around now too): the clock-in is open on each from the start.
        for (const minutes of [3, 20, 40]) {
          const start = Math.ceil((Date.now() + minutes * 60_000) / 60_000) * 60_000;
          const from = inZone(start);
          const to = inZone(start + 30 * 60_000);
          const sent = await api(session.page, 'POST', '/v1/shift_request/send_request', {
            shift_date: from.date,
            shift_in: from.time,
            shift_out: to.time,
            shiftrole_id: 1,
            hourly_rate: 21,
            shifter_id: me.id,
            note: 'Clock board test',
          });
          // Not asked at all (one of the demo crew pauses requests): the next one.
          if (sent.status !== 201) break;
          const accepted = await api(shifterSession.page, 'POST', `/v1/shift_request/${sent.body.id}/accept`, {});
          if (accepted.status !== 200) {
            // Busy then: take the request back and try later in the hour.
            await api(session.page, 'POST', `/v1/shift_request/${sent.body.id}/cancel`, { reason: 'busy then' });
            continue;
          }
          if (taken.length === 0) {
            const clocked = await api(shifterSession.page, 'POST', `/v1/shift_request/${sent.body.id}/clock_in`, {});
            assert.equal(clocked.status, 200, JSON.stringify(clocked.body));
            setup.clockedAt = Date.now();
          }
          taken.push({ id: sent.body.id, name: me.display_name });
          break;
        }
      }
      assert.equal(taken.length, 2, 'two crew members of the bistro are free for half an hour within the next hour');
      [setup.early, setup.kiosk] = taken;
    } finally {
      await session.context.close();
      await shifterSession.context.close();
    }
  });

  test('generates two weeks of a template after its preview and sees the week already there skipped', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'crew-board-templates', async () => {
        await signIn(page, owner, '/dashboard/templates');
        await checkEverywhere(page, screenshot, 'templates');

        // A template on five weekdays, at an hour no demo shift has (generate starts next Monday).
        const today = inZone(Date.now()).date;
        const tomorrow = inZone(Date.now() + 86_400_000).date;
        const days = [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== weekday(today) && d !== weekday(tomorrow));
        const label = `Early prep ${Math.random().toString(36).slice(2, 7)}`;
        await page.fill('#field-label', label);
        for (let d = 1; d <= 7; d++) await page.setChecked(`#day-${d}`, days.includes(d));
        await page.fill('#field-shift_in', '06:15');
        await page.fill('#field-shift_out', '10:15');
        await page.selectOption('#field-shiftrole_id', { index: 1 });
        await page.fill('#field-hourly_rate', '19.50');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'created'),
          page.getByRole('button', { name: 'Save the template' }).click(),
        ]);
        const card = page.locator('li.template-card', { hasText: label });
        await card.waitFor();

        // One week first: five shifts.
        await card.getByLabel('Number of weeks').selectOption('1');
        await card.getByRole('button', { name: /^Preview shifts/ }).click();
        await page.getByRole('heading', { name: 'Will be created (5)' }).waitFor();
        await Promise.all([
          page.waitForURL((u) => u.pathname.endsWith('/generated')),
          page.getByRole('button', { name: 'Create 5 shifts' }).click(),
        ]);

        // Two weeks: the first week is shown as already there before anything is posted.
        await page.goto(`${ORIGIN}/dashboard/templates`);
        await card.getByLabel('Number of weeks').selectOption('2');
        await card.getByRole('button', { name: /^Preview shifts/ }).click();
        await page.getByRole('heading', { name: 'Will be created (5)' }).waitFor();
        await page.getByRole('heading', { name: 'Skipped, already there (5)' }).waitFor();
        await checkEverywhere(page, screenshot, 'template-preview');
        await Promise.all([
          page.waitForURL((u) => u.pathname.endsWith('/generated')),
          page.getByRole('button', { name: 'Create 5 shifts' }).click(),
        ]);
        await page.getByText('5 shifts were created').waitFor();
        await page.getByRole('heading', { name: 'Skipped, already there (5)' }).waitFor();
        assert.equal(await page.locator('ul[aria-label="Dates skipped as already there"] li').count(), 5);
        await checkEverywhere(page, screenshot, 'template-generated');
        assertNoForeignCode(session);
        await assertStayedOffline(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('the crew page and a shifter’s details are usable and axe-clean', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'crew-board-crew', async () => {
        await signIn(page, owner, '/dashboard/crew');
        await page.getByRole('heading', { name: /^Your crew, last/ }).waitFor();
        await checkEverywhere(page, screenshot, 'crew');
        await page.locator('table.crew-table th[scope=row] a').first().click();
        await page.getByRole('heading', { name: 'Public details' }).waitFor();
        await checkEverywhere(page, screenshot, 'crew-shifter');
        await assertStayedOffline(session);
        // Looking up a name nobody has: the field keeps it, with the reason beside it (a 404 answer,
        // which the browser logs as a failed load, so the offline check above comes first).
        await page.goto(`${ORIGIN}/dashboard/crew`);
        await page.fill('#field-shifter', 'nobody-by-this-name');
        await page.getByRole('button', { name: 'Find them' }).click();
        await page.getByText(/^No shifter has this public name or id/).waitFor();
        assert.equal(await page.inputValue('#field-shifter'), 'nobody-by-this-name');
        await assertAccessible(page, 'crew, unknown shifter');
        assert.deepEqual(session.record.pageErrors, []);
      });
    } finally {
      await session.context.close();
    }
  });

  test('ends a shift early from the board, then runs the kiosk on this browser: a shifter clocks in, nothing else is reachable', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'crew-board-board', async () => {
        await signIn(page, owner, '/dashboard/board');
        await checkEverywhere(page, screenshot, 'board');

        // The first shift's clock-in is a minute old at least (a manager's clock-out comes after that).
        const wait = setup.clockedAt + 62_000 - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await page.goto(`${ORIGIN}/dashboard/board`);
        const card = page.locator('li.board-card', { hasText: setup.early.name }).filter({ hasText: 'Clocked in' });
        await card.getByRole('link', { name: /^End the shift now/ }).click();
        await page.getByRole('heading', { name: 'End a shift now' }).waitFor();
        await checkEverywhere(page, screenshot, 'end-shift-confirm');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'ended'),
          page.getByRole('button', { name: `End ${setup.early.name}'s shift now` }).click(),
        ]);
        await page.getByText('The shift was ended now').waitFor();
        await page.locator('li.board-card', { hasText: setup.early.name }).filter({ hasText: 'before the scheduled end' }).waitFor();
        await screenshot(page, 'board-ended-early');

        // Kiosk mode on this browser.
        await page.getByRole('link', { name: 'Start kiosk mode on this device' }).click();
        await page.getByRole('heading', { name: 'Start kiosk mode' }).waitFor();
        await checkEverywhere(page, screenshot, 'kiosk-start');
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/kiosk'),
          page.getByRole('button', { name: 'Start kiosk mode' }).click(),
        ]);
        await page.getByRole('heading', { name: 'Clock in or out' }).waitFor();
        await checkEverywhere(page, screenshot, 'kiosk');

        await page.locator(`a[href="/kiosk/shifts/${setup.kiosk.id}"]`).click();
        await page.getByRole('heading', { name: `Clock in: ${setup.kiosk.name}` }).waitFor();
        await checkEverywhere(page, screenshot, 'kiosk-punch');
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/kiosk' && u.searchParams.has('done')),
          page.getByRole('button', { name: `Clock in as ${setup.kiosk.name}` }).click(),
        ]);
        await page.getByText(`${setup.kiosk.name}, you are clocked in`).waitFor();
        await checkEverywhere(page, screenshot, 'kiosk-clocked-in');

        await assertStayedOffline(session);

        // Nothing else: the dashboard, the account and the API answer the kiosk with the kiosk or a refusal
        // (the refusals are logged by the browser as failed loads, so the offline check above comes first).
        await page.goto(`${ORIGIN}/dashboard/board`);
        assert.equal(new URL(page.url()).pathname, '/kiosk');
        await page.goto(`${ORIGIN}/account`);
        assert.equal(new URL(page.url()).pathname, '/kiosk');
        const fromApi = await page.evaluate(async () => {
          const token = document.querySelector('meta[name="csrf-token"]')?.content ?? 'none';
          const res = await fetch('/v1/user/details', { headers: { 'X-CSRF-Token': token } });
          return res.status;
        });
        assert.ok(fromApi === 403 || fromApi === 401, `the API answered the kiosk ${fromApi}`);

        // Only the owner's password ends it.
        await page.getByRole('link', { name: 'End kiosk mode' }).click();
        await page.fill('#field-password', 'not the password');
        await page.getByRole('button', { name: 'End kiosk mode' }).click();
        await page.getByText('That is not the owner’s password.').waitFor();
        await checkEverywhere(page, screenshot, 'kiosk-end-refused');
        await page.fill('#field-password', owner.password);
        await Promise.all([page.waitForURL((u) => u.pathname === '/login'), page.getByRole('button', { name: 'End kiosk mode' }).click()]);
        await screenshot(page, 'kiosk-ended');
        assertNoForeignCode(session);
        assert.deepEqual(session.record.pageErrors, []);
      });
    } finally {
      await session.context.close();
    }
  });
});
