// A new shifter finds a crew, on a 360 px phone with touch: signs up through the real pages (the code
// from the local mailbox) and lands on a home that says they are in no crew yet and where to go; the
// demo owner invites them to Harbor Street Events; the invitation reaches their notifications with its
// link, which opens their businesses page, where they accept it; then they find Camden Lock Coffee by
// name and ask to connect, and see the request under Requests you sent. Every page axe-clean in light
// and dark at 360 and 1280 px, never scrolling sideways, with screenshots as
// shifter-connections-<n>-<step>.png. Run through `npm run test:browser` (BROWSER_TESTS=shifter-connections).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { apiCall, fromMailbox, NO_OWNER, ORIGIN, owner, queryD1, STATE_DIR, screenshots, signIn } from './app.mjs';
import { assertAccessible, CHROMIUM, CHROMIUM_ARGS } from './offline.mjs';

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const skip = NO_OWNER || (!STATE_DIR && 'no Worker state to read the local mailbox from: run `npm run test:browser`');

/** The page in both schemes at 360 and 1280 px: axe-clean, no sideways scroll, a screenshot of each; left at 360 px, light. */
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

/** Every target of the page's main part at least 44 px tall (the phone's thumb). */
async function assertTargets(page, name) {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('main a, main button, main input:not([type=hidden])')]
      .filter((el) => el.getClientRects().length && el.getBoundingClientRect().height < 44)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('name') || '').trim().slice(0, 40)}"`),
  );
  assert.deepEqual(small, [], `${name}: targets under 44 px`);
}

describe('shifter: connections with businesses', { skip }, () => {
  it('a new shifter accepts an invitation from the notification and asks another business', { timeout: 300_000 }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
    const screenshot = screenshots('shifter-connections');
    try {
      const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();

      // Sign-up through the pages, as anyone would: the emailed code, then signed in on the shifter side.
      const email = `new-shifter-${Date.now()}@example.test`;
      const password = 'a new shifter password';
      await page.goto(`${ORIGIN}/signup`);
      await page.getByLabel('Your name').fill('Robin Newcomer');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).tap();
      await page.getByRole('heading', { level: 1, name: 'Confirm your email' }).waitFor();
      const code = await fromMailbox(email, 'email_verification', /code is (\d{6})/);
      assert.ok(code, `a verification code reached ${email}`);
      await page.getByLabel('Code').fill(code);
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/dashboard/shifter'),
        page.getByRole('button', { name: 'Confirm and sign in' }).tap(),
      ]);

      // Home: no crew yet, and the way to one.
      await page.getByRole('heading', { level: 2, name: 'You are not in a crew yet' }).waitFor();
      assert.ok(await page.getByRole('link', { name: 'Find a business' }).isVisible());
      assert.ok(await page.getByRole('link', { name: 'See invitations' }).isVisible());
      await checkEverywhere(page, screenshot, 'home-no-crew');
      const me = (await apiCall(page, 'GET', '/v1/user/details')).body;
      assert.ok(me.shifter_id, 'the new account has a shifter profile');

      // The demo owner invites them to Harbor Street Events.
      const [events] = queryD1("SELECT id FROM businesses WHERE name = 'Harbor Street Events' LIMIT 1");
      assert.ok(events, 'the demo world has Harbor Street Events');
      const boss = await browser.newContext({ serviceWorkers: 'block' });
      const bossPage = await boss.newPage();
      await signIn(bossPage, owner);
      const sent = await apiCall(bossPage, 'POST', '/v1/request_authorization/send', { business_id: events.id, shifter_id: me.shifter_id });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      await boss.close();

      // The notification arrives (through the queue): its text carries the page's link.
      const title = 'Harbor Street Events wants to add you to their crew';
      const deadline = Date.now() + 60_000;
      for (;;) {
        await page.goto(`${ORIGIN}/notifications`);
        if (await page.getByRole('heading', { name: title }).count()) break;
        assert.ok(Date.now() < deadline, 'the invitation reached the notifications within a minute');
        await page.waitForTimeout(1_000);
      }
      const note = page.locator('.notification-list > li', { has: page.getByRole('heading', { name: title }) });
      const text = await note.locator('.notification-text p').first().textContent();
      const link = /^Accept or decline it in your connections: https?:\/\/[^\s"<>]+?(\/dashboard\/shifter\/connections)$/.exec(text ?? '');
      assert.ok(link, `the notification gives the address of the connections page: ${text}`);
      await screenshot(page, 'notification');

      // Opened from the notification (its address on this test server): the invitation, accepted with a tap.
      await page.goto(`${ORIGIN}${link[1]}`);
      const invitation = page.locator(`#invitation-${sent.body.id}`);
      await invitation.waitFor();
      assert.match(await invitation.textContent(), /Harbor Street Events[\s\S]*Wants to add you to their crew/);
      await checkEverywhere(page, screenshot, 'invitation');
      await assertTargets(page, 'the invitation');
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'accepted'),
        invitation.getByRole('button', { name: 'Accept: Harbor Street Events' }).tap(),
      ]);
      assert.match(await page.locator('.notice').textContent(), /You are in their crew now/);
      const crews = page.locator('#crews');
      assert.ok(
        await crews.getByRole('link', { name: 'Harbor Street Events', exact: true }).isVisible(),
        'Harbor Street Events is under My businesses',
      );
      assert.match(await crews.getByRole('link', { name: 'Harbor Street Events', exact: true }).getAttribute('href'), /^\/b\/[a-z0-9-]+$/);
      await checkEverywhere(page, screenshot, 'accepted');

      // Find another business by name, and ask to connect.
      await page.getByLabel('Business name').fill('camden');
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('name') === 'camden'),
        page.locator('#find').getByRole('button', { name: 'Search' }).tap(),
      ]);
      const found = page.locator('#find .sc-item', { has: page.getByRole('link', { name: 'Camden Lock Coffee', exact: true }) });
      await found.waitFor();
      assert.match(await found.textContent(), /London · on Shiftmarket since/);
      assert.equal(await page.getByLabel('Business name').inputValue(), 'camden', 'the search keeps what was typed');
      await checkEverywhere(page, screenshot, 'found');
      await assertTargets(page, 'the search results');
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get('notice') === 'asked'),
        found.getByRole('button', { name: 'Ask to connect: Camden Lock Coffee' }).tap(),
      ]);
      assert.ok(
        await page.locator('#sent').getByRole('link', { name: 'Camden Lock Coffee', exact: true }).isVisible(),
        'the request is under Requests you sent',
      );
      assert.ok(await page.locator('#sent').getByRole('link', { name: 'Withdraw: Camden Lock Coffee' }).isVisible());
      assert.match(await found.textContent(), /Request sent/);
      await checkEverywhere(page, screenshot, 'asked');

      // Back home: in a crew now.
      await page.goto(`${ORIGIN}/dashboard/shifter`);
      assert.equal(await page.getByRole('heading', { name: 'You are not in a crew yet' }).count(), 0);
    } finally {
      await browser.close();
    }
  });
});
