import { exports } from 'cloudflare:workers';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, auditLog, sessions, trustedDevices, twoFactor, twoFactorBackupCodes, users } from '../../src/db/schema';
import { beginTotpEnrolment, confirmTotpEnrolment, totpCodeAt, trustDevice } from '../../src/services/accounts';
import { BASE, call, expectError } from '../helpers/api';
import { authCall, randomIp } from '../helpers/auth';
import { contextAt } from '../helpers/clock';
import { db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { type Page, WebClient } from '../helpers/web';

// ── A browser: the shared WebClient on the plain-HTTP test origin, from its own address ──

class Browser extends WebClient {
  constructor() {
    super(BASE, { 'CF-Connecting-IP': randomIp(), 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' });
  }
}

/** Signs in through the real pages: GET /login for the CSRF cookie and token, then the form. */
async function signIn(user: TestUser, password = TEST_PASSWORD, browser = new Browser()): Promise<{ browser: Browser; landed: Page }> {
  const form = await browser.get('/login');
  expect(form.status).toBe(200);
  expect(browser.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(browser.cookies.get('sm_csrf')).toBe(browser.token);
  const landed = await browser.post('/login', { email: user.email, password, next: '/account' });
  expect(landed.status, landed.html.slice(0, 300)).toBe(303);
  expect(browser.session).toBeTruthy();
  return { browser, landed };
}

async function signedIn(user?: TestUser): Promise<{ user: TestUser; browser: Browser }> {
  const u = user ?? (await makeUser({ shifter: true }));
  const { browser, landed } = await signIn(u);
  expect(landed.location).toBe('/account');
  return { user: u, browser };
}

/** Turns two-factor on through the services, ten minutes ago, so the codes around now are unused. */
async function enableTwoFactor(user: TestUser): Promise<string> {
  const at = Date.now() - 10 * 60_000;
  const ctx = contextAt(at, user);
  const { secret } = await beginTotpEnrolment(ctx);
  await confirmTotpEnrolment(ctx, totpCodeAt(secret, at), TEST_PASSWORD);
  return secret;
}

/** Everything of the account a form could change, minus the "last used" stamps reads refresh. */
async function accountState(userId: string) {
  const d = db();
  const [user] = await d.select().from(users).where(eq(users.id, userId));
  const keys = await d.select({ id: apiKeys.id, revoked: apiKeys.revoked_at }).from(apiKeys).where(eq(apiKeys.user_id, userId));
  const live = await d.select({ id: sessions.id, revoked: sessions.revoked_at }).from(sessions).where(eq(sessions.user_id, userId));
  const tf = await d.select().from(twoFactor).where(eq(twoFactor.user_id, userId));
  const codes = await d.select().from(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.user_id, userId));
  const devices = await d
    .select({ id: trustedDevices.id, revoked: trustedDevices.revoked_at })
    .from(trustedDevices)
    .where(eq(trustedDevices.user_id, userId));
  const sort = <T extends { id: string }>(rows: T[]) => rows.sort((a, b) => a.id.localeCompare(b.id));
  return { user, keys: sort(keys), sessions: sort(live), tf, codes: codes.map((c) => c.code_hash).sort(), devices: sort(devices) };
}

const liveDevices = (userId: string) =>
  db()
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.user_id, userId), isNull(trustedDevices.revoked_at)));

/** The `session_id` posted by the row marked "This browser" on the sessions page. */
function ownSessionId(html: string): string {
  const row = html.split('<li class="session-item">').find((r) => r.includes('(This browser)'));
  const id = row && /name="session_id" value="([^"]+)"/.exec(row)?.[1];
  if (!id) throw new Error('no row marked This browser');
  return id;
}

const PAGES = [
  ['/account', 'Profile'],
  ['/account/api-key', 'API key'],
  ['/account/password', 'Password'],
  ['/account/sessions', 'Sessions'],
  ['/account/security', 'Two-factor authentication'],
  ['/account/security/setup', 'Set up two-factor'],
] as const;

const POSTS = [
  '/account',
  '/account/api-key/regenerate',
  '/account/password',
  '/account/sessions/revoke',
  '/account/sessions/revoke-others',
  '/account/security/setup',
  '/account/security/backup-codes',
  '/account/security/disable',
  '/account/security/devices/revoke',
];

describe('account pages: who reaches them', () => {
  it('every page answers 200 signed in (no-store, the page CSP, its nav entry current) and 303 to sign-in when not', async () => {
    const { browser } = await signedIn();
    for (const [path, title] of PAGES) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('Cache-Control'), path).toBe('no-store');
      expect(page.headers.get('Content-Security-Policy'), path).toContain("script-src 'self'");
      expect(page.html, path).toContain(`<h1>${title}</h1>`);
      const nav = path === '/account/security/setup' ? '/account/security' : path;
      expect(page.html, path).toMatch(new RegExp(`<a href="${nav}" aria-current="page">`));
      // Nothing inline for the CSP to block.
      expect(page.html, path).not.toMatch(/<script(?![^>]*\bsrc=)|\sstyle=/);

      const stranger = await new Browser().get(path);
      expect(stranger.status, path).toBe(303);
      expect(stranger.location, path).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    const missing = await browser.get('/account/nothing-here');
    expect(missing.status).toBe(404);
  });

  it('a session waiting for its second factor reaches no account page and no form (redirected to /login/2fa)', async () => {
    const user = await makeUser({ shifter: true, name: 'Pending Person' });
    await enableTwoFactor(user);
    const { browser, landed } = await signIn(user);
    expect(landed.location).toBe('/login/2fa?next=%2Faccount');
    for (const [path] of PAGES) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(303);
      expect(page.location, path).toMatch(/^\/login\/2fa\?next=/);
      expect(page.html, path).not.toContain('Pending Person');
    }
    // The challenge page is the one form such a session gets; its token does not open the others.
    expect((await browser.get('/login/2fa')).status).toBe(200);
    const before = await accountState(user.userId);
    for (const path of POSTS) {
      const res = await browser.post(path, { display_name: 'Changed', password: TEST_PASSWORD, code: '123456' });
      expect(res.status, path).toBe(303);
      expect(res.location, path).toMatch(/^\/login\/2fa\?next=/);
    }
    expect(await accountState(user.userId)).toEqual(before);
  });

  it('every form posted without the CSRF token is refused 403 and changes nothing (attack)', async () => {
    const { user, browser } = await signedIn();
    const other = await signIn(user);
    const otherId = ownSessionId((await other.browser.get('/account/sessions')).html);
    const secret = await enableTwoFactor(user);
    const device = await trustDevice(contextAt(Date.now(), user), user.userId, 'Firefox on Linux');
    await browser.get('/account');
    const fields = {
      display_name: 'Forged name',
      phone: '+1 555 0100',
      current_password: TEST_PASSWORD,
      new_password: 'a brand new password',
      new_password_again: 'a brand new password',
      password: TEST_PASSWORD,
      session_id: otherId,
      device_id: device.value.split('.')[0]!,
      code: totpCodeAt(secret, Date.now()),
    };
    const before = await accountState(user.userId);
    for (const path of POSTS) {
      const missing = await browser.post(path, fields, { csrf: false });
      expect(missing.status, path).toBe(403);
      expect(missing.html, path).toContain('Form not accepted');
      const wrong = await browser.post(path, { ...fields, _csrf: 'A'.repeat(43) });
      expect(wrong.status, path).toBe(403);
      const foreign = await exports.default.fetch(
        new Request(new URL(path, BASE), {
          method: 'POST',
          redirect: 'manual',
          headers: {
            Cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            Origin: 'https://evil.example',
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ ...fields, _csrf: browser.token }),
        }),
      );
      expect(foreign.status, path).toBe(403);
    }
    expect(await accountState(user.userId)).toEqual(before);
    expect((await browser.get('/account')).status).toBe(200);
    expect((await other.browser.get('/account')).status).toBe(200);
  });
});

describe('profile', () => {
  it('saves name and phone (post/redirect/get) and shows user text escaped on the page and in the header', async () => {
    const { user, browser } = await signedIn(await makeUser({ shifter: true, business: true }));
    const first = await browser.get('/account');
    expect(first.html).toContain(user.email);
    expect(first.html).toContain('Shifter and Business');
    expect(first.html).toMatch(/autocomplete="name"/);
    expect(first.html).toMatch(/autocomplete="tel"/);
    expect(first.html).toContain('aria-describedby="field-display_name-hint"');

    const hostile = '<script>alert(1)</script>';
    const saved = await browser.post('/account', { display_name: hostile, phone: '+1 (212) 555-0100' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/account?notice=saved');
    const page = await browser.get('/account?notice=saved');
    expect(page.html).not.toContain(hostile);
    expect(page.html).toContain('Your profile was saved.');
    // The app shell's header names the person (its link to the account), and the form's value, both escaped.
    expect(page.html).toContain('<a href="/account">&lt;script&gt;alert(1)&lt;/script&gt;</a>');
    expect(page.html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page.html).toContain('value="+1 (212) 555-0100"');
    const [row] = await db().select().from(users).where(eq(users.id, user.userId));
    expect(row).toMatchObject({ display_name: hostile, phone: '+1 (212) 555-0100' });
    const audits = await db().select().from(auditLog).where(eq(auditLog.subject_id, user.userId));
    const audit = audits.find((a) => a.action === 'user.profile_update');
    expect(audit?.actor_user_id).toBe(user.userId);
    expect(audit?.data).toBe(JSON.stringify({ fields: ['display_name', 'phone'] }));

    // A notice is only ever one of the page's own sentences, never text from the URL.
    expect((await browser.get(`/account?notice=${encodeURIComponent(hostile)}`)).html).not.toContain(hostile);
  });

  it('refuses a bad name or phone with a message by the field and changes nothing', async () => {
    const { user, browser } = await signedIn();
    await browser.get('/account');
    const before = await accountState(user.userId);
    const blank = await browser.post('/account', { display_name: '   ', phone: '' });
    expect(blank.status).toBe(400);
    expect(blank.html).toContain('id="field-display_name-error"');
    expect(blank.html).toContain('aria-invalid="true"');
    const phone = await browser.post('/account', { display_name: 'Fine Name', phone: 'call me <maybe>' });
    expect(phone.status).toBe(400);
    expect(phone.html).toContain('id="field-phone-error"');
    // What was sent is shown again, escaped.
    expect(phone.html).toContain('value="call me &lt;maybe&gt;"');
    const long = await browser.post('/account', { display_name: 'x'.repeat(101), phone: '' });
    expect(long.status).toBe(400);
    expect(await accountState(user.userId)).toEqual(before);

    // An empty phone removes it.
    await browser.post('/account', { display_name: 'Fine Name', phone: '020 7946 0000' });
    expect((await accountState(user.userId)).user?.phone).toBe('020 7946 0000');
    expect((await browser.post('/account', { display_name: 'Fine Name', phone: '' })).status).toBe(303);
    expect((await accountState(user.userId)).user?.phone).toBeNull();
  });
});

describe('API key page', () => {
  it('shows the prefix; regenerate shows a new working key once, and the old key is refused', async () => {
    const { user, browser } = await signedIn();
    const page = await browser.get('/account/api-key');
    expect(page.html).toContain(`<code>${user.key.slice(0, 12)}…</code>`);
    expect(page.html).not.toContain(user.key);
    expect(page.html).toContain('stops working at once');

    const shown = await browser.post('/account/api-key/regenerate', { confirm: 'yes' });
    expect(shown.status).toBe(200);
    expect(shown.headers.get('Cache-Control')).toBe('no-store');
    const key = /<input id="new-api-key" type="text" value="([^"]+)"/.exec(shown.html)?.[1];
    expect(key).toMatch(/^smk_/);
    expect(shown.html).toContain('will not be shown again');

    expect((await call('GET', '/v1/user/details', { key })).status).toBe(200);
    expectError(await call('GET', '/v1/user/details', { key: user.key }), 401, 'AUTH-REQ-ERR');

    // Shown once: the page afterwards has the new prefix only.
    const after = await browser.get('/account/api-key');
    expect(after.html).toContain(`<code>${key!.slice(0, 12)}…</code>`);
    expect(after.html).not.toContain(key!);
  });
});

describe('password page', () => {
  it('needs the current password; a change signs out every session, the cookie’s included', async () => {
    const { user, browser } = await signedIn();
    const page = await browser.get('/account/password');
    expect(page.html).toContain('autocomplete="current-password"');
    expect(page.html.match(/autocomplete="new-password"/g)).toHaveLength(2);
    const cookieSession = browser.session!;
    const before = await accountState(user.userId);

    const wrong = await browser.post('/account/password', {
      current_password: 'not my password',
      new_password: 'a brand new password',
      new_password_again: 'a brand new password',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.html).toContain('id="field-current_password-error"');
    const mismatch = await browser.post('/account/password', {
      current_password: TEST_PASSWORD,
      new_password: 'a brand new password',
      new_password_again: 'another new password',
    });
    expect(mismatch.status).toBe(400);
    const short = await browser.post('/account/password', {
      current_password: TEST_PASSWORD,
      new_password: 'short',
      new_password_again: 'short',
    });
    expect(short.status).toBe(400);
    const common = await browser.post('/account/password', {
      current_password: TEST_PASSWORD,
      new_password: 'password12',
      new_password_again: 'password12',
    });
    expect(common.status).toBe(400);
    expect(common.html).toMatch(
      /id="field-new_password-error">This password is one of the most common ones[^<]*a few unrelated words make a strong one\.</,
    );
    expect(await accountState(user.userId)).toEqual(before);

    const done = await browser.post('/account/password', {
      current_password: TEST_PASSWORD,
      new_password: 'a brand new password',
      new_password_again: 'a brand new password',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/login?notice=password_changed');
    expect(browser.session).toBeUndefined();
    expect((await browser.get('/login?notice=password_changed')).html).toContain('Your password was changed');

    // The old cookie's session is refused everywhere: by the pages and, as a token, by the API.
    const replay = new Browser();
    replay.cookies.set('sm_session', cookieSession);
    expect((await replay.get('/account')).status).toBe(303);
    expectError(await call('GET', '/v1/user/details', { key: cookieSession }), 401, 'AUTH-REQ-ERR');
    // The API key stays; the new password signs in.
    expect((await call('GET', '/v1/user/details', { key: user.key })).status).toBe(200);
    const again = await signIn(user, 'a brand new password');
    expect(again.landed.location).toBe('/account');
  });
});

describe('sessions page', () => {
  it('lists sessions with this browser marked, revokes one, signs out everywhere else, and signs this browser out', async () => {
    const { user, browser } = await signedIn();
    const { browser: second } = await signIn(user);
    const apiLogin = await authCall('/v1/auth/login', { email: user.email, password: TEST_PASSWORD });
    const apiToken = apiLogin.body.session_token as string;
    const stranger = await signedIn();
    const strangerId = ownSessionId((await stranger.browser.get('/account/sessions')).html);

    const page = await browser.get('/account/sessions');
    expect(page.html.match(/\(This browser\)/g)).toHaveLength(1);
    expect(page.html.match(/name="session_id"/g)).toHaveLength(3);
    const secondId = ownSessionId((await second.get('/account/sessions')).html);
    const mine = ownSessionId(page.html);
    expect(secondId).not.toBe(mine);

    // Another account's session: refused as unknown, and it keeps working (attack).
    const foreign = await browser.post('/account/sessions/revoke', { session_id: strangerId });
    expect(foreign.status).toBe(404);
    expect(foreign.html).toContain('That session had already ended.');
    expect((await stranger.browser.get('/account')).status).toBe(200);

    const revoked = await browser.post('/account/sessions/revoke', { session_id: secondId });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/account/sessions?notice=revoked');
    const gone = await second.get('/account');
    expect(gone.status).toBe(303);
    expect(gone.location).toBe('/login?next=%2Faccount');
    expect((await call('GET', '/v1/user/details', { key: apiToken })).status).toBe(200);

    const others = await browser.post('/account/sessions/revoke-others');
    expect(others.status).toBe(303);
    expect(others.location).toBe('/account/sessions?notice=others_revoked');
    expectError(await call('GET', '/v1/user/details', { key: apiToken }), 401, 'AUTH-REQ-ERR');
    const left = await browser.get('/account/sessions?notice=others_revoked');
    expect(left.html).toContain('Every other session is signed out.');
    expect(left.html.match(/name="session_id"/g)).toHaveLength(1);

    // Revoking this browser's own session signs it out.
    const cookie = browser.session!;
    const self = await browser.post('/account/sessions/revoke', { session_id: mine });
    expect(self.status).toBe(303);
    expect(self.location).toBe('/login?notice=signed_out');
    expect(browser.session).toBeUndefined();
    expectError(await call('GET', '/v1/user/details', { key: cookie }), 401, 'AUTH-REQ-ERR');
    expect((await stranger.browser.get('/account')).status).toBe(200);
  });
});

describe('two-factor pages', () => {
  it('sets up two-factor through the pages: QR code and secret, a wrong code refused, the right one shows 10 backup codes once', async () => {
    const { user, browser } = await signedIn();
    const off = await browser.get('/account/security');
    expect(off.html).toContain('Two-factor is off');
    expect(off.html).toContain('href="/account/security/setup"');

    const setup = await browser.get('/account/security/setup');
    expect(setup.status).toBe(200);
    expect(setup.html).toMatch(/<svg class="qr"[^>]*viewBox="-4 -4 \d+ \d+" role="img" aria-label="QR code for your authenticator app">/);
    expect(setup.html).toMatch(/<rect x="-4" y="-4" width="\d+" height="\d+" fill="#fff"><\/rect><path d="M[^"]+" fill="#000"/);
    const secret = /<code id="totp-secret" class="secret" data-secret="([A-Z2-7]+)"[^>]*>([^<]+)<\/code>/.exec(setup.html);
    expect(secret).not.toBeNull();
    expect(secret![2]!.replaceAll(' ', '')).toBe(secret![1]);
    expect(setup.html).toContain('autocomplete="one-time-code"');
    // Reloading shows the same secret (one pending setup, not a new one per view).
    expect((await browser.get('/account/security/setup')).html).toContain(`data-secret="${secret![1]}"`);

    const now = Date.now();
    const code = totpCodeAt(secret![1]!, now);
    // A code none of the accepted steps (±1) shows.
    const accepted = new Set([-1, 0, 1].map((k) => totpCodeAt(secret![1]!, now + k * 30_000)));
    let wrongCode = code;
    for (let n = 1; accepted.has(wrongCode); n++) wrongCode = String((Number(code) + n * 7919) % 1_000_000).padStart(6, '0');
    // The right code without the account's password does not turn it on (a stolen session cannot).
    const noPassword = await browser.post('/account/security/setup', { code, password: 'not the password' });
    expect(noPassword.status).toBe(403);
    expect(noPassword.html).toContain('id="field-password-error"');
    expect((await call('GET', '/v1/user/details', { key: user.key })).body.two_factor.enabled).toBe(false);

    const refused = await browser.post('/account/security/setup', { code: wrongCode, password: TEST_PASSWORD });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain('id="field-code-error"');
    expect(refused.html).toContain(`data-secret="${secret![1]}"`);
    expect((await call('GET', '/v1/user/details', { key: user.key })).body.two_factor.enabled).toBe(false);

    const on = await browser.post('/account/security/setup', { code, password: TEST_PASSWORD });
    expect(on.status).toBe(200);
    expect(on.headers.get('Cache-Control')).toBe('no-store');
    const codes = [...on.html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(on.html).toContain(`<input id="backup-codes" type="text" value="${codes.join(' ')}"`);
    expect(on.html).toContain('will not be shown again');
    expect(on.html).toContain('href="/account/security"');

    const status = await browser.get('/account/security');
    expect(status.html).toContain('Two-factor is on');
    expect(status.html).toContain('10 backup codes left.');
    expect(status.html).not.toContain(codes[0]!);
    const details = await call('GET', '/v1/user/details', { key: user.key });
    expect(details.body.two_factor).toMatchObject({ enabled: true, backup_codes_left: 10 });
    // Set up already: the setup page sends back to the settings.
    const again = await browser.get('/account/security/setup');
    expect(again.status).toBe(303);
    expect(again.location).toBe('/account/security');
  });

  it('revokes a trusted device; new backup codes and turning off need the password and revoke every device', async () => {
    const { user, browser } = await signedIn();
    await enableTwoFactor(user);
    const oldCodes = (await accountState(user.userId)).codes;
    const ctx = contextAt(Date.now(), user);
    const here = await trustDevice(ctx, user.userId, 'Chrome on <Linux>');
    const elsewhere = await trustDevice(ctx, user.userId, 'Safari on iOS');
    browser.cookies.set('sm_device', here.value);

    const page = await browser.get('/account/security');
    expect(page.html).toContain('Chrome on &lt;Linux&gt; <strong>(This browser)</strong>');
    expect(page.html).toContain('Safari on iOS');
    expect(page.html.match(/name="device_id"/g)).toHaveLength(2);
    expect(page.html.match(/autocomplete="current-password"/g)).toHaveLength(2);
    expect(page.html).toContain('aria-describedby="field-password-backup-hint"');

    // Revoking this browser's device also drops its cookie.
    const hereId = here.value.split('.')[0]!;
    const revoked = await browser.post('/account/security/devices/revoke', { device_id: hereId });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/account/security?notice=device_revoked');
    expect(browser.cookies.has('sm_device')).toBe(false);
    expect(await liveDevices(user.userId)).toEqual([{ id: elsewhere.value.split('.')[0] }]);
    expect((await browser.post('/account/security/devices/revoke', { device_id: hereId })).status).toBe(404);

    // New backup codes: a wrong password changes nothing.
    const wrong = await browser.post('/account/security/backup-codes', { password: 'not my password' });
    expect(wrong.status).toBe(403);
    expect(wrong.html).toContain('id="field-password-backup-error"');
    expect((await accountState(user.userId)).codes).toEqual(oldCodes);
    expect(await liveDevices(user.userId)).toHaveLength(1);

    const fresh = await browser.post('/account/security/backup-codes', { password: TEST_PASSWORD });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('Cache-Control')).toBe('no-store');
    expect([...fresh.html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)]).toHaveLength(10);
    expect((await accountState(user.userId)).codes).not.toEqual(oldCodes);
    expect(await liveDevices(user.userId)).toEqual([]);

    // Turning off: a wrong password changes nothing; the right one turns it off.
    const keep = await browser.post('/account/security/disable', { password: 'not my password' });
    expect(keep.status).toBe(403);
    expect(keep.html).toContain('id="field-password-disable-error"');
    expect((await call('GET', '/v1/user/details', { key: user.key })).body.two_factor.enabled).toBe(true);

    const offRes = await browser.post('/account/security/disable', { password: TEST_PASSWORD });
    expect(offRes.status).toBe(303);
    expect(offRes.location).toBe('/account/security?notice=off');
    expect((await browser.get('/account/security?notice=off')).html).toContain('Two-factor is off');
    expect((await call('GET', '/v1/user/details', { key: user.key })).body.two_factor).toMatchObject({
      enabled: false,
      backup_codes_left: 0,
    });
    // Off already: refused with words, not an error page.
    const twice = await browser.post('/account/security/disable', { password: TEST_PASSWORD });
    expect(twice.status).toBe(409);
    expect(twice.html).toContain('Two-factor authentication is not on.');
  });
});

describe('PATCH /v1/user/details', () => {
  it('changes name and phone with a key and answers like GET; refuses bad input and anonymous callers', async () => {
    const user = await makeUser({ shifter: true });
    const get = await call('GET', '/v1/user/details', { key: user.key });
    const res = await call('PATCH', '/v1/user/details', {
      key: user.key,
      body: { display_name: '  Sam Rivera ', phone: '+44 20 7946 0000' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(get.body).sort());
    expect(res.body).toEqual({ ...get.body, display_name: 'Sam Rivera', phone: '+44 20 7946 0000' });
    expect((await call('GET', '/v1/user/details', { key: user.key })).body).toEqual(res.body);

    const phoneOnly = await call('PATCH', '/v1/user/details', { key: user.key, body: { phone: null } });
    expect(phoneOnly.body).toMatchObject({ display_name: 'Sam Rivera', phone: null });

    for (const body of [
      {},
      { display_name: '' },
      { display_name: 'x'.repeat(101) },
      { phone: 'not a phone' },
      { email: 'new@example.test' },
    ]) {
      expectError(await call('PATCH', '/v1/user/details', { key: user.key, body }), 400, 'VALIDATION-ERR');
    }
    expectError(await call('PATCH', '/v1/user/details', { body: { display_name: 'Nobody' } }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: user.key })).body).toMatchObject({ display_name: 'Sam Rivera', phone: null });
  });

  it('keeps the phone while it receives SMS sign-in codes (a stolen session cannot redirect them)', async () => {
    const user = await makeUser({ shifter: true });
    await call('PATCH', '/v1/user/details', { key: user.key, body: { phone: '+1 212 555 0100' } });
    await enableTwoFactor(user);
    await db().update(twoFactor).set({ sms_enabled_at: Date.now() }).where(eq(twoFactor.user_id, user.userId));

    expectError(await call('PATCH', '/v1/user/details', { key: user.key, body: { phone: '+1 646 555 0199' } }), 409, 'CONFLICT-ERR');
    expectError(await call('PATCH', '/v1/user/details', { key: user.key, body: { phone: null } }), 409, 'CONFLICT-ERR');
    // The same number again, or the name alone, is fine.
    const same = await call('PATCH', '/v1/user/details', { key: user.key, body: { display_name: 'Still Me', phone: '+1 212 555 0100' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ display_name: 'Still Me', phone: '+1 212 555 0100' });
  });
});
