// The live updates of a business's pages in a real browser, as the demo owner: with Today, the
// schedule and the crew page open, a demo shifter claims a broadcast from their own browser and
// Today's board and the schedule show it within 5 s without a reload (focus kept where it was);
// the header's figures follow the claim's notification and a message from the claimer; the crew
// page shows a connection request from a shifter outside the crew. Every page is axe-clean in light and dark
// at 1280 and 360 px, after the updates too; screenshots go to the artifacts folder as
// live-<n>-<step>.png. Run through `npm run test:browser` (BROWSER_TESTS=live for this file alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, ahead, apiCall as api, checkEverywhere, NO_OWNER, ORIGIN, owner, queryD1, screenshots, signIn } from './app.mjs';
import { assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const CREW = ['jordan', 'alex', 'taylor', 'chris'].map(account).filter(Boolean);
/** A demo shifter outside the bistro's crew (Camden Lock Coffee's). */
const OUTSIDER = account('oliver');
const skip = NO_OWNER || ((CREW.length < 1 || !OUTSIDER) && 'BROWSER_ACCOUNTS lists no demo shifters: run `npm run test:browser`');
const screenshot = screenshots('live');
/** What "live" means here: someone else's change shows within this long. */
const WITHIN_MS = 5_000;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Waits until the page's live socket is open (the shell's `live` island says so). */
const followed = (page) => page.locator('[data-island="live"][data-live="open"]').waitFor({ state: 'attached', timeout: 10_000 });

/** The header figure of `href` (/inbox, /notifications) on the page; 0 without a badge. */
const figure = (page, href) =>
  page.evaluate((h) => {
    const text = document.querySelector(`.header-links a.count-link[href="${h}"] .count-badge`)?.firstChild?.textContent ?? '0';
    return text === '99+' ? 100 : Number(text);
  }, href);

/** Resolves with the milliseconds from `t0` once `check` holds on the page, within WITHIN_MS of `t0`. */
async function within(page, t0, check, arg, what) {
  await page.waitForFunction(check, arg, { timeout: Math.max(1, t0 + WITHIN_MS - Date.now()), polling: 100 }).catch(() => {
    throw new Error(`${what}: not shown within ${WITHIN_MS / 1000} s`);
  });
  return Date.now() - t0;
}

describe('live updates of a business’s pages', { skip }, () => {
  test('a claim, a message and a connection request show on Today, the schedule, the header and the crew without a reload', async () => {
    const session = await openOffline(browser, ORIGIN);
    const shifter = await openOffline(browser, ORIGIN);
    const outsider = await openOffline(browser, ORIGIN);
    const { page: today } = session;
    try {
      await withEvidence(session, 'live-updates', async () => {
        await signIn(today, owner, '/dashboard');
        await today.getByText('Harbor Street Bistro ·').first().waitFor();
        const [bistro] = queryD1("SELECT id FROM businesses WHERE name = 'Harbor Street Bistro' LIMIT 1");
        assert.ok(bistro, 'the demo world has Harbor Street Bistro');

        // A broadcast of the bistro, on a day the schedule opens at in its list.
        const date = ahead(12);
        const posted = await api(today, 'POST', '/v1/shift_request/send_request', {
          shift_date: date,
          shift_in: '06:00',
          shift_out: '09:30',
          shiftrole_id: 1,
          hourly_rate: 22,
          is_broadcast: true,
          business_id: bistro.id,
        });
        assert.equal(posted.status, 201, JSON.stringify(posted.body));
        const shiftId = posted.body.id;

        const schedule = await session.context.newPage();
        await schedule.goto(`${ORIGIN}/dashboard/schedule?business_id=${bistro.id}&date=${date}&view=list`);
        await schedule.locator(`[data-shift-id="${shiftId}"]`).first().waitFor();
        await Promise.all([followed(today), followed(schedule)]);
        await checkEverywhere(today, screenshot, 'today');
        await checkEverywhere(schedule, screenshot, 'schedule');

        // Focus on a link of Today's board, and a mark a reload would lose.
        await today.locator('[data-live-region="today"] a', { hasText: 'Clock board' }).focus();
        await today.evaluate(() => {
          window.liveMark = 'not reloaded';
        });
        const bellBefore = await figure(today, '/notifications');

        // The first of the bistro's demo crew free then claims it, from their own browser.
        let claimer = null;
        let t0 = 0;
        for (const person of CREW) {
          await shifter.context.clearCookies();
          await signIn(shifter.page, person, '/account');
          t0 = Date.now();
          const claim = await api(shifter.page, 'POST', `/v1/shift_request/${shiftId}/claim`, {});
          if (claim.status === 409 && claim.body.error?.code === 'SHFT-CONFLICT-ERR') continue;
          assert.equal(claim.status, 200, JSON.stringify(claim.body));
          claimer = (await api(shifter.page, 'GET', '/v1/user/details')).body;
          break;
        }
        assert.ok(claimer, 'a demo crew member of the bistro is free then');

        const [onToday, onSchedule] = await Promise.all([
          within(
            today,
            t0,
            ({ id, name }) => {
              const card = [...document.querySelectorAll('section.card')].find(
                (s) => s.querySelector('h2')?.textContent === 'Claimed broadcasts',
              );
              const line = card?.querySelector(`a[href*="/dashboard/shifts/${id}"]`)?.closest('li');
              return line?.textContent?.includes(name) ?? false;
            },
            { id: shiftId, name: claimer.display_name },
            'the claim on Today',
          ),
          within(
            schedule,
            t0,
            ({ id, name }) => document.querySelector(`[data-shift-id="${id}"]`)?.textContent?.includes(name) ?? false,
            { id: shiftId, name: claimer.display_name },
            'the claim on the schedule',
          ),
        ]);
        console.log(`claim shown on Today after ${onToday} ms, on the schedule after ${onSchedule} ms`);
        // The claim's notification of the business's people: the bell's figure follows.
        await within(
          today,
          t0,
          (before) => {
            const text = document.querySelector('.header-links a.count-link[href="/notifications"] .count-badge')?.firstChild?.textContent;
            return text === '99+' || Number(text ?? 0) > before;
          },
          bellBefore,
          'the claim’s notification in the header',
        );
        assert.equal(await today.evaluate(() => window.liveMark), 'not reloaded');
        assert.equal(await today.evaluate(() => document.activeElement?.textContent), 'Clock board', 'focus stayed on the board’s link');
        await today.locator('[data-live-announce]', { hasText: 'Updated:' }).waitFor({ state: 'attached' });
        await checkEverywhere(today, screenshot, 'today-claimed');
        await checkEverywhere(schedule, screenshot, 'schedule-claimed');

        // The claimer writes to the bistro: the inbox's figure follows. Their thread is read first
        // (a thread already unread would not change the figure), then the crew page opened.
        const hello = await api(shifter.page, 'POST', '/v1/messaging/messages', {
          to: { kind: 'business', id: bistro.id },
          body: 'Thanks for the morning shift.',
        });
        assert.equal(hello.status, 201, JSON.stringify(hello.body));
        const read = await api(today, 'POST', `/v1/messaging/threads/${hello.body.thread.id}/read`, {});
        assert.equal(read.status, 200, JSON.stringify(read.body));
        const crew = await session.context.newPage();
        await crew.goto(`${ORIGIN}/dashboard/crew?business_id=${bistro.id}`);
        await followed(crew);
        const inboxBefore = await figure(crew, '/inbox');
        t0 = Date.now();
        const wrote = await api(shifter.page, 'POST', '/v1/messaging/messages', {
          to: { kind: 'business', id: bistro.id },
          body: 'I will bring my own knives.',
        });
        assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
        await within(
          crew,
          t0,
          (before) => {
            const text = document.querySelector('.header-links a.count-link[href="/inbox"] .count-badge')?.firstChild?.textContent;
            return text === '99+' || Number(text ?? 0) > before;
          },
          inboxBefore,
          'the message in the header',
        );

        // A shifter outside the crew asks to join it (an earlier request of theirs is withdrawn first).
        await signIn(outsider.page, OUTSIDER, '/account');
        const theirs = (await api(outsider.page, 'POST', '/v1/request_authorization/list_of_requests', {})).body;
        for (const c of [...(theirs.incoming ?? []), ...(theirs.outgoing ?? []), ...(theirs.accepted ?? [])]) {
          if (c.business_id === bistro.id) await api(outsider.page, 'DELETE', `/v1/request_authorization/${c.id}`);
        }
        t0 = Date.now();
        const asked = await api(outsider.page, 'POST', '/v1/request_authorization/send', { business_id: bistro.id });
        assert.equal(asked.status, 201, JSON.stringify(asked.body));
        await within(
          crew,
          t0,
          (name) => {
            const card = [...document.querySelectorAll('section.card')].find((s) =>
              s.querySelector('h2')?.textContent?.startsWith('Asking to join'),
            );
            return card?.textContent?.includes(name) ?? false;
          },
          'Oliver Bennett',
          'the connection request on the crew page',
        );
        await checkEverywhere(crew, screenshot, 'crew-request');
        await crew.close();
        await schedule.close();
      });
      await assertStayedOffline(session);
    } finally {
      await outsider.context.close();
      await shifter.context.close();
      await session.context.close();
    }
  });
});
