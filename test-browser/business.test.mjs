// The business web application in a real browser, as the demo owner: the day at a glance, the
// assistant's link to the prefilled form, posting a broadcast and a targeted shift (the shifter's
// conflicts shown as soon as they are chosen, and again by the server before it is saved), bulk
// posting 12 rows of which 2 are refused by the service, fixed and sent again alone, switching
// business and seeing a claim arrive; the assistant's one-click actions (its model is the scripted
// stand-in of model-stand-in.mjs): the prefilled form, an invitation after confirmation, an in-app link. Every page is checked with axe-core in light and dark (at 1280
// and 360 px for the day and the form); screenshots of each step go to the artifacts folder as
// business-<n>-<step>.png. Run through `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, ahead, apiCall, NO_OWNER, ORIGIN, screenshots, signIn } from './app.mjs';
import {
  assertAccessible,
  assertAccessibleInBothSchemes,
  assertNoForeignCode,
  launchBrowser,
  openOffline,
  withEvidence,
} from './offline.mjs';

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

          // The assistant's open_shift_form link, as services/assistant/actions.ts builds it, opens the form prefilled.
          const postHref = await page.locator('a[href^="/dashboard/shifts/new"]').first().getAttribute('href');
          const businessId = new URL(postHref, ORIGIN).searchParams.get('business_id');
          assert.ok(businessId, 'the page links to the form without its business');
          const date = ahead(6);
          await page.goto(`${ORIGIN}/dashboard?openShift=1&date=${date}&in=10:00&out=15:30&business_id=${encodeURIComponent(businessId)}`);
          assert.equal(new URL(page.url()).pathname, '/dashboard/shifts/new');
          await page.locator('form[data-island-ready]').waitFor();
          assert.deepEqual(
            [
              await page.inputValue('#field-shift_date'),
              await page.inputValue('#field-shift_in'),
              await page.inputValue('#field-shift_out'),
            ],
            [date, '10:00', '15:30'],
          );
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

  // The Worker's language model is the scripted stand-in (test-browser/model-stand-in.mjs): asked to
  // post a shift, it proposes open_shift_form; to invite a shifter by id, invite_shifter; to open a path, open_url.
  test('the assistant’s one-click actions: the prefilled form, an invitation after confirmation, an in-app link', async () => {
    const noah = account('noah');
    assert.ok(noah, 'BROWSER_ACCOUNTS lists no demo shifter noah');
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const shifter = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    /** Sends a message from the assistant's box and waits for the page to show it again. */
    const ask = async (text) => {
      await page.fill('#field-message', text);
      await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/assistant'), page.click('form#ask button[type=submit]')]);
      await page.getByText(text).last().waitFor();
    };
    try {
      await withEvidence(session, 'business-assistant-actions', async () => {
        await signIn(page);
        await page.goto(`${ORIGIN}/dashboard/assistant`);
        const date = ahead(7);
        await ask(`Please post a shift on ${date} from 11:15 to 16:45`);
        const formButton = page.getByRole('link', { name: `Post a shift on ${date}, 11:15–16:45` }).last();
        await formButton.waitFor();
        await assertAccessibleInBothSchemes(page, 'assistant, an action proposed');
        await screenshot(page, 'assistant-proposes-a-shift');
        await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/shifts/new'), formButton.click()]);
        await page.locator('form[data-island-ready]').waitFor();
        assert.deepEqual(
          [await page.inputValue('#field-shift_date'), await page.inputValue('#field-shift_in'), await page.inputValue('#field-shift_out')],
          [date, '11:15', '16:45'],
        );
        await screenshot(page, 'assistant-form-prefilled');

        // Noah works in London, outside the bistro's crew: the assistant proposes inviting him.
        await signIn(shifter.page, noah);
        const noahId = (await apiCall(shifter.page, 'GET', '/v1/shifter/of_user')).body.id;
        assert.ok(noahId, 'no shifter id for noah');
        await page.goto(`${ORIGIN}/dashboard/assistant`);
        await ask(`Invite ${noahId} to the crew`);
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/dashboard/assistant/invite'),
          page.getByRole('link', { name: 'Invite Noah Patel' }).last().click(),
        ]);
        await page.getByText('Invite Noah Patel to work for Harbor Street Bistro?').waitFor();
        await assertAccessibleInBothSchemes(page, 'assistant, the invitation to confirm');
        await screenshot(page, 'assistant-invite-confirm');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'invited'),
          page.getByRole('button', { name: 'Invite Noah Patel' }).click(),
        ]);
        await page.getByText('The invitation was sent.').waitFor();
        const lists = await apiCall(shifter.page, 'POST', '/v1/request_authorization/list_of_requests', {});
        assert.equal(lists.status, 200, JSON.stringify(lists.body));
        assert.ok(
          lists.body.incoming.some((r) => r.business_name === 'Harbor Street Bistro'),
          'Noah has no request from the bistro to accept',
        );

        await ask('Open /dashboard/crew');
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/dashboard/crew'),
          page.getByRole('link', { name: 'Open', exact: true }).last().click(),
        ]);
        await screenshot(page, 'assistant-link-followed');
        assertNoForeignCode(session);
      });
    } finally {
      await shifter.context.close();
      await session.context.close();
    }
  });

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
        await assertAccessibleInBothSchemes(page, 'post a shift, posted');
        await screenshot(page, 'posted-one');
        assert.equal((await shiftsOn(page, date)).length, before + 1);

        // Twelve rows; two dated in the past pass the browser's checks and are refused by the service.
        await page.goto(`${ORIGIN}/dashboard/bulk`);
        await page.locator('[data-island="bulk"][data-island-ready]').waitFor();
        await assertAccessibleInBothSchemes(page, 'bulk posting, empty');
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
        await assertAccessibleInBothSchemes(page, 'bulk posting, two rows refused');

        // Fix the two dates; only those two are sent again.
        for (const n of [4, 9]) {
          await page.fill(`#row-${n}-date`, date);
          await page.locator(`#row-${n}-date`).dispatchEvent('change');
        }
        await page.getByRole('button', { name: 'Send the 2 row(s) not posted yet' }).click();
        await page.getByText('12 shift(s) posted.').waitFor({ timeout: 30_000 });
        await assertAccessibleInBothSchemes(page, 'bulk posting, all posted');
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

  test('posts a targeted shift from the form: the shifter’s conflicts shown when chosen, again before it is saved, then posted anyway', async () => {
    const jordan = account('jordan');
    assert.ok(jordan, 'BROWSER_ACCOUNTS lists no demo shifter jordan');
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const shifter = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    try {
      await withEvidence(session, 'business-targeted', async () => {
        // Jordan accepts a bistro shift at 03:00–05:00 on a Monday to Thursday (no demo plan works
        // those nights then), so a second one overlapping it is a conflict and a later one is not.
        let day = 16;
        while (![1, 2, 3, 4].includes(new Date(`${ahead(day)}T12:00:00Z`).getUTCDay())) day += 1;
        const date = ahead(day);
        await signIn(page);
        await signIn(shifter.page, jordan);
        const jordanId = (await apiCall(shifter.page, 'GET', '/v1/shifter/of_user')).body.id;
        const busy = await apiCall(page, 'POST', '/v1/shift_request/send_request', {
          shift_date: date,
          shift_in: '03:00',
          shift_out: '05:00',
          shiftrole_id: 1,
          hourly_rate: 22,
          shifter_id: jordanId,
        });
        assert.equal(busy.status, 201, JSON.stringify(busy.body));
        const accepted = await apiCall(shifter.page, 'POST', `/v1/shift_request/${busy.body.id}/accept`, {});
        assert.equal(accepted.status, 200, JSON.stringify(accepted.body));

        await page.goto(`${ORIGIN}/dashboard/shifts/new?date=${date}&in=05:15&out=06:45`);
        await page.locator('form[data-island-ready]').waitFor();
        const shifterField = page.locator('#field-shifter_id');
        assert.equal(await shifterField.isVisible(), false, 'the shifter field shows for a broadcast');
        // "Ask one shifter" by keyboard: the arrow keys move within the radio group.
        await page.focus('#mode-broadcast');
        await page.keyboard.press('ArrowDown');
        assert.equal(await page.isChecked('#mode-targeted'), true);
        await shifterField.waitFor();
        await page.selectOption('#field-shifter_id', jordanId);
        const live = page.locator('#conflicts-live');
        await live.getByText('No conflict for this shifter at that time.').waitFor();

        // An earlier start overlaps the accepted shift: said at once, before anything is sent.
        await page.fill('#field-shift_in', '04:00');
        await live.getByText(/^Heads up: this shifter already works a shift at that time/).waitFor();
        assert.match((await live.textContent()) ?? '', new RegExp(`${date} 03:00–05:00`));
        await assertAccessibleInBothSchemes(page, 'post a targeted shift, its conflict shown');
        await screenshot(page, 'targeted-conflict-shown');

        const note = `Targeted ${Math.random().toString(36).slice(2, 8)}`;
        await page.selectOption('#field-shiftrole_id', { index: 1 });
        await page.fill('#field-hourly_rate', '22');
        await page.fill('#field-note', note);
        await page.getByRole('button', { name: 'Post the shift' }).click();
        // The server checks again and asks first; nothing typed is lost.
        const warning = page.getByRole('alert').filter({ hasText: 'This shifter is already busy then:' });
        await warning.waitFor();
        assert.match((await warning.textContent()) ?? '', new RegExp(`${date} 03:00–05:00`));
        assert.equal(await page.isChecked('#mode-targeted'), true);
        assert.equal(await page.inputValue('#field-shifter_id'), jordanId);
        assert.equal(await page.inputValue('#field-shift_in'), '04:00');
        assert.equal(await page.inputValue('#field-note'), note);
        assert.equal((await shiftsOn(page, date)).filter((s) => s.note === note).length, 0, 'posted before the conflict was confirmed');
        await assertAccessibleInBothSchemes(page, 'post a targeted shift, conflict to confirm');
        await screenshot(page, 'targeted-confirm-conflict');

        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'posted'),
          page.getByRole('button', { name: 'Post anyway' }).click(),
        ]);
        await page.getByText('The shift was posted.').waitFor();
        await screenshot(page, 'targeted-posted');
        const posted = (await shiftsOn(page, date)).filter((s) => s.note === note);
        assert.equal(posted.length, 1, 'the targeted shift was not posted exactly once');
        assert.equal(posted[0].shifter_id, jordanId);
        assert.equal(posted[0].status, 'pending');
        assert.equal(Boolean(posted[0].is_broadcast), false);
        assert.equal(`${posted[0].shift_in}–${posted[0].shift_out}`, '04:00–06:45');
        assertNoForeignCode(session);
      });
    } finally {
      await shifter.context.close();
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
        await assertAccessibleInBothSchemes(page, 'today of the second business');
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
        // The first of the bistro's demo crew free then claims it (the demo schedule books them on
        // days that change with the date, so no one is assumed free).
        let claimer = null;
        for (const person of ['jordan', 'alex', 'taylor', 'chris'].map(account).filter(Boolean)) {
          await shifter.context.clearCookies();
          await signIn(shifter.page, person);
          const claim = await apiCall(shifter.page, 'POST', `/v1/shift_request/${posted.body.id}/claim`, {});
          if (claim.status === 409 && claim.body.error?.code === 'SHFT-CONFLICT-ERR') continue;
          assert.equal(claim.status, 200, JSON.stringify(claim.body));
          claimer = (await apiCall(shifter.page, 'GET', '/v1/user/details')).body;
          break;
        }
        assert.ok(claimer, 'a demo crew member of the bistro is free then');

        await page.reload();
        const claimed = page.locator('section.card', { has: page.getByRole('heading', { name: 'Claimed broadcasts' }) });
        await claimed.getByText(claimer.display_name).first().waitFor();
        await assertAccessibleInBothSchemes(page, 'today, a claim arrived');
        await screenshot(page, 'claim-arrived');
      });
    } finally {
      await shifter.context.close();
      await session.context.close();
    }
  });
});
