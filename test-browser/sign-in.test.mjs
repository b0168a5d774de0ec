// Signing in on the web pages, in a real browser, by keyboard alone, in light and dark: password,
// turning on two-factor, the second step with a code, a trusted browser that skips it next time.
// Run through `npm run test:browser` (starts the Worker with demo data and the development key for
// two-factor secrets, then this file with DOCS_BASE_URL and BROWSER_ACCOUNTS set). Each color scheme
// uses its own demo account, since turning on two-factor changes it. Screenshots of every step go to
// the artifacts folder (test-browser/artifacts/ under the runner) as sign-in-<scheme>-<n>-<step>.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { artifactsDir, assertNoForeignCode, assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const ORIGIN = process.env.DOCS_BASE_URL ? new URL(process.env.DOCS_BASE_URL).origin : undefined;
if (!ORIGIN) throw new Error('DOCS_BASE_URL is not set: run `npm run test:browser`');

/** Demo accounts from the runner's seed ({ role, email, password }); none when run against another server. */
const ACCOUNTS = JSON.parse(process.env.BROWSER_ACCOUNTS || '[]');
const SCHEMES = ['light', 'dark'];
/** Shifters: plain accounts (the demo admin and owners are left to other tests and to people trying the demo). */
const shifters = ACCOUNTS.filter((a) => a.role === 'shifter');
const skip = shifters.length < SCHEMES.length && 'BROWSER_ACCOUNTS lists no two demo shifters: run `npm run test:browser`';

const STEP_MS = 30_000;
const BACKUP_CODE = /\b[a-z0-9]{5}-[a-z0-9]{5}\b/g;
const TRUST_LABEL = /Trust this browser for 30 days/;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The authenticator app: the code of a given 30-second step of the secret shown on the setup page. */
function authenticator(secretBase32) {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: STEP_MS / 1000, secret: Secret.fromBase32(secretBase32) });
  return { codeOfStep: (step) => totp.generate({ timestamp: step * STEP_MS }) };
}
const currentStep = () => Math.floor(Date.now() / STEP_MS);

/** The focused element and its outline as drawn (the page's :focus-visible rule, if any). */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const s = getComputedStyle(el);
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent?.trim() : undefined;
    return {
      what: `${el.tagName.toLowerCase()}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''} "${label ?? el.textContent?.trim() ?? ''}"`,
      outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`,
      visible: s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) >= 2,
    };
  });
}

/**
 * Moves the focus with Tab (at most `max` presses) until the element matching `selector` has it, or
 * takes it where it already is (autofocus); then asserts the focus ring is visible on it.
 */
async function tabTo(page, selector, max = 20) {
  const isFocused = () => page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector);
  let presses = 0;
  while (!(await isFocused())) {
    assert.ok(presses < max, `Tab never reached ${selector} in ${max} presses`);
    await page.keyboard.press('Tab');
    presses++;
  }
  const el = await focused(page);
  assert.ok(el?.visible, `no visible focus ring on ${el?.what ?? selector}: outline ${el?.outline}`);
  return el;
}

/** The page's background luminance (0 black to 1 white): light pages are bright, dark pages dark. */
async function backgroundLuminance(page) {
  const color = await page.evaluate(() => {
    const body = getComputedStyle(document.body).backgroundColor;
    return body === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : body;
  });
  const [r, g, b, alpha = 1] = color.match(/\d+(\.\d+)?/g).map(Number);
  assert.ok(alpha > 0, 'the page has no background of its own (is the stylesheet loaded?)');
  return { color, luminance: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 };
}

/** One color scheme's run: a session on which no other host is reachable, with its own checks. */
function flow(session, scheme, account) {
  const { page, context } = session;
  let shot = 0;
  return {
    /**
     * Every page: from this origin only, `lang="en"`, in the scheme asked for, clean (no error, no CSP
     * violation). A page answered with an error `status` (a refused code) must have that status; the
     * console line Chromium logs for it is then expected and dropped from the record.
     */
    async checkPage(what, { status = 200 } = {}) {
      await page.waitForLoadState('load');
      assertNoForeignCode(session);
      const doc = session.record.responses.findLast((r) => r.type === 'document');
      assert.equal(doc?.status, status, `${what}: the page answered ${doc?.status}`);
      if (status !== 200) {
        const expected = `the server responded with a status of ${status}`;
        session.record.consoleErrors = session.record.consoleErrors.filter((e) => !e.includes(expected));
      }
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', `${what}: <html lang> is not "en"`);
      const bg = await backgroundLuminance(page);
      if (scheme === 'dark') assert.ok(bg.luminance < 0.3, `${what}: a dark page has the background ${bg.color}`);
      else assert.ok(bg.luminance > 0.7, `${what}: a light page has the background ${bg.color}`);
      await assertStayedOffline(session);
    },
    async screenshot(step) {
      shot++;
      const path = join(artifactsDir(), `sign-in-${scheme}-${shot}-${step}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    /**
     * /login by keyboard: the email field (autofocus), Tab to the password, Enter to submit. Returns
     * every path the sign-in went through, redirects included. `onForm` runs on the empty form.
     */
    async signIn(onForm) {
      await page.goto(`${ORIGIN}/login`);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await this.checkPage('/login');
      await onForm?.();
      await tabTo(page, 'input[name=email]');
      await page.keyboard.type(account.email);
      await tabTo(page, 'input[name=password]', 1);
      await page.keyboard.type(account.password);
      const from = session.record.responses.length;
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname !== '/login');
      await page.waitForLoadState('load');
      return session.record.responses.slice(from).map((r) => new URL(r.url).pathname);
    },
    /** The header's Sign out button, reached with Tab and pressed with Enter. */
    async signOut() {
      await tabTo(page, 'form[action="/logout"] button[type=submit]', 30);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('notice') === 'signed_out');
      await page.getByText('You are signed out.').waitFor();
      await this.checkPage('signed out');
    },
    async deviceCookie() {
      return (await context.cookies(ORIGIN)).find((c) => /(^|-)sm_device$/.test(c.name));
    },
  };
}

describe('web sign-in with two-factor and a trusted browser', { skip }, () => {
  const backgrounds = {};

  for (const [i, scheme] of SCHEMES.entries()) {
    test(`${scheme}: sign in, turn on two-factor, sign out, sign in with a code and trust the browser, then skip the code`, async (t) => {
      const account = shifters[i];
      const session = await openOffline(browser, ORIGIN, { colorScheme: scheme });
      const { page } = session;
      const f = flow(session, scheme, account);
      try {
        await withEvidence(session, `sign-in-${scheme}-failed`, async () => {
          // 1. Password sign-in by keyboard lands on the dashboard: a shifter's side.
          let path = await f.signIn(async () => {
            await f.screenshot('login');
            backgrounds[scheme] = (await backgroundLuminance(page)).color;
          });
          assert.equal(new URL(page.url()).pathname, '/dashboard/shifter', `the first sign-in went through ${path.join(' → ')}`);
          assert.ok(!path.includes('/login/2fa'), 'two-factor was asked before it was turned on');
          await f.checkPage('/dashboard/shifter');

          // 2. Turn on two-factor: the QR code and the secret, the current code, then 10 backup codes.
          await page.goto(`${ORIGIN}/account/security/setup`);
          const secretEl = page.locator('#totp-secret');
          await secretEl.waitFor();
          const secret = ((await secretEl.getAttribute('data-secret')) ?? (await secretEl.textContent()) ?? '').replace(/\s+/g, '');
          assert.match(secret, /^[A-Z2-7]{16,}=*$/, `the secret on the page is not base32: ${secret}`);
          const qr = page.locator('main svg').first();
          await qr.waitFor();
          const box = await qr.boundingBox();
          assert.ok(box && box.width >= 100 && box.height >= 100, `the QR code is too small to scan: ${JSON.stringify(box)}`);
          await f.checkPage('/account/security/setup');
          await f.screenshot('setup-qr');
          const app = authenticator(secret);
          const setupStep = currentStep();
          await tabTo(page, 'input[name=code]');
          await page.keyboard.type(app.codeOfStep(setupStep));
          // Turning two-factor on also needs the account's password.
          await tabTo(page, 'input[name=password]', 1);
          await page.keyboard.type(account.password);
          await page.keyboard.press('Enter');
          await page.waitForFunction((re) => {
            // Text node by text node: adjacent list items have no space between them in textContent.
            const walk = document.createTreeWalker(document.querySelector('main') ?? document.body, NodeFilter.SHOW_TEXT);
            const found = new Set();
            while (walk.nextNode()) for (const m of walk.currentNode.data.matchAll(new RegExp(re, 'g'))) found.add(m[0]);
            window.__backupCodes = [...found];
            return found.size >= 10;
          }, BACKUP_CODE.source);
          const backupCodes = await page.evaluate(() => window.__backupCodes);
          assert.equal(backupCodes.length, 10, 'the page does not show 10 backup codes');
          for (const code of backupCodes) await page.getByText(code, { exact: true }).first().waitFor({ timeout: 2_000 });
          await f.checkPage('backup codes');
          await f.screenshot('backup-codes');

          // 3. Sign out with the header's button.
          await f.signOut();

          // 4. The password alone now leads to the second step, and a pending session reaches no page.
          path = await f.signIn();
          assert.equal(new URL(page.url()).pathname, '/login/2fa', `the sign-in with two-factor on went through ${path.join(' → ')}`);
          await page.getByRole('heading', { level: 1, name: 'Two-factor check' }).waitFor();
          await f.checkPage('/login/2fa');
          await f.screenshot('2fa-challenge');
          // /account last: the challenge then carries next=/account, where the code leads.
          for (const p of ['/account/security', '/account']) {
            await page.goto(`${ORIGIN}${p}`);
            assert.equal(new URL(page.url()).pathname, '/login/2fa', `a session waiting for its code reached ${p}`);
          }
          assert.equal(await f.deviceCookie(), undefined, 'a device cookie before any browser was trusted');

          // The code that confirmed the setup is used up.
          await tabTo(page, 'input[name=code]');
          await page.keyboard.type(app.codeOfStep(setupStep));
          await page.keyboard.press('Enter');
          await page.getByText('Check the code and try again.').waitFor();
          assert.equal(new URL(page.url()).pathname, '/login/2fa', 'a replayed code was taken');
          await f.checkPage('/login/2fa after a replayed code', { status: 401 });

          // A fresh code: the next step's (accepted within ±1 step), or the current one if time has moved on.
          // "Trust this browser" ticked with Space, Verify pressed with Enter.
          await tabTo(page, 'input[name=code]');
          await page.keyboard.type(app.codeOfStep(Math.max(setupStep + 1, currentStep())));
          await tabTo(page, '#trust-code', 1);
          await page.keyboard.press('Space');
          assert.ok(await page.getByRole('checkbox', { name: TRUST_LABEL }).first().isChecked(), 'Space did not tick "Trust this browser"');
          await tabTo(page, 'form:has(input[name=code]) button[type=submit]', 1);
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.pathname === '/account');
          await f.checkPage('/account after the code');
          await f.screenshot('account');
          const device = await f.deviceCookie();
          assert.ok(device, 'no device cookie after "Trust this browser"');
          assert.equal(device.httpOnly, true, 'the device cookie is readable by script');
          assert.equal(device.sameSite, 'Lax', 'the device cookie is not SameSite=Lax');
          assert.equal(device.path, '/');
          assert.ok(device.expires > Date.now() / 1000 + 29 * 86_400, 'the device cookie does not last 30 days');
          const [deviceId, deviceToken] = device.value.split('.');
          assert.ok(deviceId && deviceToken, `the device cookie is not <id>.<token>: ${device.value}`);

          // 5. Signed out and in again: the trusted browser skips the code, and its cookie's token is new.
          await f.signOut();
          assert.ok(await f.deviceCookie(), 'signing out dropped the device cookie');
          path = await f.signIn();
          assert.equal(
            new URL(page.url()).pathname,
            '/dashboard/shifter',
            `the sign-in on the trusted browser went through ${path.join(' → ')}`,
          );
          assert.ok(!path.includes('/login/2fa'), 'a trusted browser was asked for the code');
          await f.checkPage('/account on the trusted browser');
          const rotated = await f.deviceCookie();
          assert.ok(rotated, 'the device cookie is gone after its use');
          assert.equal(rotated.value.split('.')[0], deviceId, 'using the device cookie replaced the device');
          assert.notEqual(rotated.value.split('.')[1], deviceToken, 'the device token did not rotate on use');
          assert.equal(rotated.httpOnly, true);
          assert.equal(rotated.sameSite, 'Lax');

          // 6. The trusted browser is listed on the security page.
          await page.goto(`${ORIGIN}/account/security`);
          await page.waitForLoadState('load');
          await f.checkPage('/account/security');
          const listed = page
            .locator('main')
            .getByText(/Chrome( \d+)? on Linux/)
            .first();
          await listed.waitFor({ timeout: 5_000 }).catch(() => assert.fail('the trusted browser is not listed on /account/security'));
          await f.screenshot('trusted-devices');

          // A copy of the cookie from before the rotation no longer skips the code.
          const thief = await openOffline(browser, ORIGIN, { colorScheme: scheme });
          try {
            await thief.context.addCookies([{ ...device, value: `${deviceId}.${deviceToken}` }]);
            const stolen = await flow(thief, scheme, account).signIn();
            assert.equal(new URL(thief.page.url()).pathname, '/login/2fa', `a used device cookie skipped the code: ${stolen.join(' → ')}`);
          } finally {
            await thief.close();
          }

          t.diagnostic(`${scheme}: ${account.email}, background ${backgrounds[scheme]}, screenshots in ${artifactsDir()}`);
        });
      } finally {
        await session.close();
      }
    });
  }

  // On a phone (360 px wide): every account page fits the screen, with no sideways scrolling.
  test('readable on a phone: the sign-in and account pages fit 360 px', async () => {
    const account = ACCOUNTS.find((a) => a.role === 'business') ?? shifters[SCHEMES.length] ?? shifters[0];
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    await page.setViewportSize({ width: 360, height: 740 });
    const f = flow(session, 'phone', account);
    try {
      await withEvidence(session, 'sign-in-phone-failed', async () => {
        await f.signIn(() => f.screenshot('login'));
        for (const path of ['/account', '/account/api-key', '/account/password', '/account/sessions', '/account/security']) {
          await page.goto(`${ORIGIN}${path}`);
          await f.checkPage(path);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 360, `${path} is ${width} px wide on a 360 px screen`);
          await f.screenshot(path.slice(1).replaceAll('/', '-'));
        }
      });
    } finally {
      await session.close();
    }
  });

  test('the light and dark pages differ', () => {
    assert.ok(backgrounds.light && backgrounds.dark, 'a color scheme did not run');
    assert.notEqual(backgrounds.light, backgrounds.dark);
  });
});
