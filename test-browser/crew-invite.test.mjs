// A crew built without anyone's slug, in Chromium: the demo owner invites an email address from the
// crew page and makes the crew's join link (its QR code, the printable poster); the emailed link, read
// from the local mailbox, opens in a second browser (a 360 px phone) for someone with no account, who
// signs up through it, confirms the emailed code and lands in the crew; after a reload the owner's crew
// page shows them. Every page axe-clean in light and dark at 360 and 1280 px, never scrolling sideways,
// with screenshots as crew-invite-<n>-<step>.png. Run through `npm run test:browser`
// (BROWSER_TESTS=crew-invite alone).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkEverywhere, fromMailbox, NO_OWNER, ORIGIN, owner, STATE_DIR, screenshots, signIn } from './app.mjs';
import { assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = NO_OWNER || (!STATE_DIR && 'no Worker state to read the local mailbox from: run `npm run test:browser`');
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const screenshot = screenshots('crew-invite');

/** Every target in the page's main part at least 44 px tall (a thumb's). */
async function assertTargets(page, name) {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('main a, main button, main input:not([type=hidden])')]
      .filter((el) => el.getClientRects().length && el.getBoundingClientRect().height < 44)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('name') || '').trim().slice(0, 40)}"`),
  );
  assert.deepEqual(small, [], `${name}: targets under 44 px`);
}

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('crew invitations', { skip }, () => {
  it('the owner invites an email address; the person signs up through the link and lands in the crew', { timeout: 300_000 }, async () => {
    const boss = await openOffline(browser, ORIGIN);
    const bossPage = boss.page;
    const email = `crew-invite-${Date.now()}@example.test`;
    const name = `Ines Invited ${Date.now().toString().slice(-5)}`;
    try {
      await withEvidence(boss, 'crew-invite-owner-failed', async () => {
        await signIn(bossPage, owner);
        await bossPage.goto(`${ORIGIN}/dashboard/crew`);
        await bossPage.getByRole('heading', { level: 1, name: 'Crew' }).waitFor();

        // Invite by email: the invitation is listed with its address masked.
        await bossPage.getByLabel('Their email address or mobile number').fill(email);
        await bossPage.getByLabel('Their name (optional)').fill(name);
        await Promise.all([
          bossPage.waitForURL((u) => u.searchParams.get('notice') === 'invite_emailed'),
          bossPage.getByRole('button', { name: 'Send the invitation' }).click(),
        ]);
        const listed = bossPage.locator('.crew-invites li', { hasText: name });
        await listed.waitFor();
        assert.match(await listed.textContent(), /c•••@example\.test[\s\S]*Email[\s\S]*Sent .+, the link works until/);
        assert.equal(await bossPage.getByText(email).count(), 0, 'the full address is not shown');
        await checkEverywhere(bossPage, screenshot, 'crew-invited');

        // The crew's join link: made once, with its QR code and the poster to print.
        const make = bossPage.getByRole('button', { name: 'Make a join link' });
        if (await make.count()) {
          await Promise.all([bossPage.waitForURL((u) => u.searchParams.get('notice') === 'link_made'), make.click()]);
        }
        await bossPage.getByRole('img', { name: 'QR code of the crew’s join link' }).first().waitFor();
        const link = await bossPage.locator('#join-link-url').inputValue();
        assert.match(link, /\/join\/[0-9A-Za-z]{22}$/);
        await bossPage.getByRole('link', { name: 'Print the poster' }).click();
        await bossPage.getByRole('heading', { level: 1, name: /^Join the crew of / }).waitFor();
        assert.equal(await bossPage.locator('.poster-url').textContent(), link);
        await checkEverywhere(bossPage, screenshot, 'poster');
        await assertTargets(bossPage, 'the poster');
        await bossPage.emulateMedia({ media: 'print' });
        assert.equal(await bossPage.locator('.poster-toolbar').isVisible(), false, 'the toolbar is left off the paper');
        await screenshot(bossPage, 'poster-print');
        await bossPage.emulateMedia({ media: 'screen' });
        assertNoForeignCode(boss);
      });

      // The emailed link, opened on a phone by someone with no account.
      const path = await fromMailbox(email, 'crew_invitation', /(\/join\/[0-9A-Za-z]{22})\b/);
      assert.ok(path, `a crew invitation with its link reached ${email}`);
      const phone = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
      phone.setDefaultTimeout(20_000);
      const page = await phone.newPage();
      try {
        await page.goto(`${ORIGIN}${path}`);
        const heading = page.getByRole('heading', { level: 1, name: /^Join the crew of / });
        await heading.waitFor();
        const business = (await heading.textContent()).replace('Join the crew of ', '');
        assert.match(await page.locator('main').textContent(), new RegExp(`invites ${name} to join their crew`));
        await checkEverywhere(page, screenshot, 'join-visitor');
        await page.setViewportSize(PHONE.viewport);
        await assertTargets(page, 'the join page');

        await page.getByRole('link', { name: 'Create an account and join' }).tap();
        await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
        assert.ok(await page.getByText(`You are joining the crew of ${business}`).isVisible());
        assert.equal(await page.getByLabel('Post shifts for my business (a business account)').count(), 0);
        await checkEverywhere(page, screenshot, 'signup-invited');
        await page.setViewportSize(PHONE.viewport);
        const password = 'an invited shifter password';
        await page.getByLabel('Your name').fill(name);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Create account' }).tap();
        await page.getByRole('heading', { level: 1, name: 'Confirm your email' }).waitFor();
        const code = await fromMailbox(email, 'email_verification', /code is (\d{6})/);
        assert.ok(code, `a verification code reached ${email}`);
        await page.getByLabel('Code').fill(code);
        await Promise.all([
          page.waitForURL((u) => u.pathname === path && u.searchParams.get('notice') === 'joined'),
          page.getByRole('button', { name: 'Confirm and sign in' }).tap(),
        ]);
        await page.getByText(`You are in the crew of ${business}.`).waitFor();
        await checkEverywhere(page, screenshot, 'joined');
        await page.setViewportSize(PHONE.viewport);
        await assertTargets(page, 'the joined page');

        // The owner's crew page, reloaded, shows them.
        await bossPage.goto(`${ORIGIN}/dashboard/crew`);
        await bossPage.reload();
        const row = bossPage.locator('.crew-table tbody tr', { hasText: name });
        await row.waitFor();
        assert.equal(await bossPage.locator('.crew-invites li', { hasText: name }).count(), 0, 'the invitation is used');
        await checkEverywhere(bossPage, screenshot, 'crew-joined');
      } finally {
        await phone.close();
      }
    } finally {
      await boss.close();
    }
  });
});
