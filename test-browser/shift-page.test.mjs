// A shift's page in a real browser, as the demo owner: a shift opened from the schedule's calendar (a
// click on an accepted shift), its story, then cancelled after the confirmation; another opened
// from the calendar's list (its Details link) and its shifter taken off it, the same shift going out
// to the crew; a pending shift's "Move or resize" dialog leading to its page too. Every page is
// axe-clean in light and dark at 1280 and 360 px and fits 360 px without sideways scroll;
// screenshots go to the artifacts folder as shift-page-<n>-<step>.png. Run through
// `BROWSER_TESTS=shift-page npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, ahead, apiCall as api, checkEverywhere, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import {
  assertAccessibleInBothSchemes,
  assertNoForeignCode,
  assertStayedOffline,
  launchBrowser,
  openOffline,
  withEvidence,
} from './offline.mjs';

/** The bistro's crew members who take requests, in the order they are tried. */
const CREW = ['jordan', 'alex', 'taylor'].map(account).filter(Boolean);
const skip = NO_OWNER || (CREW.length < 1 && 'BROWSER_ACCOUNTS lists no demo crew: run `npm run test:browser`');
const screenshot = screenshots('shift-page');

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** A day far enough ahead that no demo shift is on it, and quarter hours no other test uses. */
const DATE = ahead(30 + Math.floor(Math.random() * 20));
const eventEl = (page, id) => page.locator(`.schedule-calendar [data-shift-id="${id}"]`);

async function openSchedule(page, query) {
  await page.goto(`${ORIGIN}/dashboard/schedule?${query}`);
  await page.locator('[data-island="schedule"][data-island-ready]').waitFor();
  await page.locator('.schedule-calendar [data-shift-id]').first().waitFor();
}

describe('a shift’s page: its story, cancel and unassign', { skip }, () => {
  /** Two targeted shifts on DATE, each accepted by a crew member: `cancel` and `unassign`; and a pending broadcast. */
  const setup = {};

  before(async () => {
    const session = await openOffline(browser, ORIGIN);
    const shifterSession = await openOffline(browser, ORIGIN);
    try {
      await signIn(session.page, owner, '/account');
      const crew = (await api(session.page, 'POST', '/v1/request_authorization/list_of_requests', {})).body.accepted;
      const slots = [
        { key: 'cancel', shift_in: '05:15', shift_out: '07:15' },
        { key: 'unassign', shift_in: '08:30', shift_out: '10:30' },
      ];
      for (const slot of slots) {
        for (const shifter of CREW) {
          if (setup[slot.key]) break;
          await shifterSession.context.clearCookies();
          await signIn(shifterSession.page, shifter, '/account');
          const me = (await api(shifterSession.page, 'GET', '/v1/shifter/of_user')).body;
          if (!crew.some((c) => c.shifter_id === me.id && c.business_name === 'Harbor Street Bistro')) continue;
          const sent = await api(session.page, 'POST', '/v1/shift_request/send_request', {
            shift_date: DATE,
            shift_in: slot.shift_in,
            shift_out: slot.shift_out,
            shiftrole_id: 1,
            hourly_rate: 22,
            shifter_id: me.id,
            note: 'Shift page test',
          });
          if (sent.status !== 201) continue; // paused: try the next one
          const accepted = await api(shifterSession.page, 'POST', `/v1/shift_request/${sent.body.id}/accept`, {});
          if (accepted.status !== 200) continue; // busy then
          setup[slot.key] = { id: sent.body.id, name: me.display_name };
        }
        assert.ok(setup[slot.key], `a crew member of the bistro takes the ${slot.key} shift`);
      }
      const open = await api(session.page, 'POST', '/v1/shift_request/send_request', {
        shift_date: DATE,
        shift_in: '12:45',
        shift_out: '15:45',
        shiftrole_id: 1,
        hourly_rate: 22,
        is_broadcast: true,
      });
      assert.equal(open.status, 201, JSON.stringify(open.body));
      setup.pending = { id: open.body.id };
    } finally {
      await session.context.close();
      await shifterSession.context.close();
    }
  });

  test('opens an accepted shift from the calendar, reads its story and cancels it after the confirmation', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'shift-page-cancel', async () => {
        await signIn(page, owner, '/dashboard');
        const { id, name } = setup.cancel;
        await openSchedule(page, `date=${DATE}&view=day`);
        // The calendar's click handler sends the browser there (window.location), so the wait is for the commit.
        await Promise.all([
          page.waitForURL((u) => u.pathname === `/dashboard/shifts/${id}`, { waitUntil: 'commit' }),
          eventEl(page, id).click(),
        ]);
        await page.getByRole('heading', { name: 'Its story' }).waitFor();
        const story = await page.locator('ol.story').textContent();
        assert.match(story, new RegExp(`Offered to ${name}`));
        assert.match(story, /Accepted/);
        assert.match(await page.locator('main').textContent(), /\$22\.00 an hour/);
        await checkEverywhere(page, screenshot, 'shift');

        await page.getByRole('link', { name: 'Cancel the shift' }).click();
        await page.getByRole('heading', { name: 'Cancel this shift?' }).waitFor();
        assert.match(await page.locator('main').textContent(), new RegExp(`${name} is told at once`));
        await page.fill('#field-reason', 'Private event booked the room');
        await checkEverywhere(page, screenshot, 'cancel-confirm');
        assert.equal(await page.inputValue('#field-reason'), 'Private event booked the room');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'cancelled'),
          page.getByRole('button', { name: 'Cancel the shift' }).click(),
        ]);
        await page.getByText('The shift is cancelled. The shifter is told.').waitFor();
        assert.equal((await api(page, 'GET', `/v1/shift_request/${id}`)).body.status, 'cancelled');
        assert.match(await page.locator('ol.story').textContent(), /Private event booked the room/);
        assert.equal(await page.getByRole('link', { name: 'Cancel the shift' }).count(), 0, 'a cancelled shift still offers cancel');
        await checkEverywhere(page, screenshot, 'cancelled');
        assertNoForeignCode(session);
        await assertStayedOffline(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('opens another from the calendar’s list and takes its shifter off it: the same shift goes out to the crew', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'shift-page-unassign', async () => {
        await signIn(page, owner, '/dashboard');
        const { id, name } = setup.unassign;
        await openSchedule(page, `date=${DATE}&view=list`);
        const row = eventEl(page, id);
        await row.getByRole('link', { name: /^Details/ }).waitFor();
        await assertAccessibleInBothSchemes(page, 'the schedule’s list with its Details links');
        await screenshot(page, 'schedule-list');
        await Promise.all([
          page.waitForURL((u) => u.pathname === `/dashboard/shifts/${id}`),
          row.getByRole('link', { name: /^Details/ }).click(),
        ]);
        await page.getByRole('link', { name: `Take ${name} off this shift` }).click();
        await page.getByRole('heading', { name: `Take ${name} off this shift?` }).waitFor();
        assert.match(await page.locator('main').textContent(), /goes out to your crew as an open shift/);
        await checkEverywhere(page, screenshot, 'unassign-confirm');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'unassigned'),
          page.getByRole('button', { name: `Take ${name} off` }).click(),
        ]);
        const broadcastId = new URL(page.url()).pathname.split('/').pop();
        assert.notEqual(broadcastId, id, 'the page is not the new broadcast’s');
        const broadcast = (await api(page, 'GET', `/v1/shift_request/${broadcastId}`)).body;
        assert.equal(broadcast.status, 'pending');
        assert.equal(broadcast.is_broadcast, 1);
        assert.equal(broadcast.parent_id, id);
        assert.equal((await api(page, 'GET', `/v1/shift_request/${id}`)).body.status, 'cancelled');
        assert.match(await page.locator('ol.story').textContent(), new RegExp(`Posted to the crew after ${name} was taken off it`));
        await checkEverywhere(page, screenshot, 'unassigned');

        // The earlier version, one link away, tells the other half.
        await page.locator('ol.story .story-other a').first().click();
        await page.waitForURL((u) => u.pathname === `/dashboard/shifts/${id}`);
        assert.match(await page.locator('ol.story').textContent(), new RegExp(`${name} taken off the shift and told`));
        assertNoForeignCode(session);
        await assertStayedOffline(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('a pending shift’s “Move or resize” dialog leads to its page too', async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'shift-page-dialog', async () => {
        await signIn(page, owner, '/dashboard');
        const { id } = setup.pending;
        await openSchedule(page, `date=${DATE}&view=day`);
        await eventEl(page, id).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: /^Move or resize/ });
        await dialog.waitFor();
        await assertAccessibleInBothSchemes(page, 'the Move or resize dialog with its link to the shift');
        await Promise.all([
          page.waitForURL((u) => u.pathname === `/dashboard/shifts/${id}`),
          dialog.getByRole('link', { name: /^Open the shift/ }).click(),
        ]);
        await page.getByRole('link', { name: 'Change the date or times' }).waitFor();
        await page.getByRole('link', { name: 'Cancel the shift' }).waitFor();
        await checkEverywhere(page, screenshot, 'pending');
      });
    } finally {
      await session.context.close();
    }
  });
});
