import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, trustedDevices } from '../../src/db/schema';
import { beginTotpEnrolment, confirmTotpEnrolment, disableTwoFactor, LIMITS, totpCodeAt } from '../../src/services/accounts';
import { call, expectError } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { contextAt } from '../helpers/clock';
import { db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { WebClient } from '../helpers/web';

const STEP = 30_000;

/** A user with two-factor on; returns the secret so the test can act as the authenticator app. */
async function withTwoFactor(u: TestUser): Promise<{ secret: string; backupCodes: string[] }> {
  // Enrolled two steps back, so codes of the current and next steps are still unused.
  const at = Date.now() - 2 * STEP;
  const { secret } = await beginTotpEnrolment(contextAt(at, u));
  const { backup_codes } = await confirmTotpEnrolment(contextAt(at, u), totpCodeAt(secret, at), TEST_PASSWORD);
  return { secret, backupCodes: backup_codes };
}

const browser = () => new WebClient('https://app.example.com', { 'CF-Connecting-IP': randomIp() });

function setCookieLine(res: { headers: Headers }, prefix: string): string {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(prefix));
  if (!line) throw new Error(`no ${prefix} cookie in ${res.headers.getSetCookie().join(' | ')}`);
  return line;
}

describe('web sign-in', () => {
  it('signs in into a cookie session with safe attributes and lands on next', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    const page = await b.get('/login');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    const res = await b.post('/login', { email: u.email, password: TEST_PASSWORD, next: '/account/sessions' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/account/sessions');
    const line = setCookieLine(res, '__Host-sm_session=');
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Secure/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    // The session is a real one: the same token works on the API as a Bearer session.
    expect((await call('GET', '/v1/user/details', { key: b.session! })).body.id).toBe(u.userId);
    expect((await b.get('/account')).status).toBe(200);
  });

  it('on plain HTTP (local development) the cookie is not Secure and has no __Host- prefix', async () => {
    const u = await makeUser({ shifter: true });
    const b = new WebClient('http://localhost:8787', { 'CF-Connecting-IP': randomIp() });
    const res = await b.signIn(u.email, TEST_PASSWORD);
    const line = setCookieLine(res, 'sm_session=');
    expect(line).not.toMatch(/Secure/i);
    expect(line).toMatch(/HttpOnly/i);
  });

  it('refuses a sign-in form posted without the CSRF token (and signs nobody in)', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    await b.get('/login');
    const res = await b.post('/login', { email: u.email, password: TEST_PASSWORD }, { csrf: false });
    expect(res.status).toBe(403);
    expect(b.session).toBeUndefined();
    const wrong = await b.post('/login', { _csrf: 'x'.repeat(43), email: u.email, password: TEST_PASSWORD });
    expect(wrong.status).toBe(403);
    const foreign = await b.post('/login', { email: u.email, password: TEST_PASSWORD }, { headers: { Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(b.session).toBeUndefined();
  });

  it('the page middleware runs once a request: a first visit gets exactly one CSRF cookie, whose token is the form’s', async () => {
    const paths = ['/login', '/signup', '/', '/login/forgot', '/signup/verify', '/help', '/account', '/dashboard', '/inbox'];
    paths.push('/notifications', '/reviews', '/admin', '/kiosk');
    for (const path of paths) {
      const res = await browser().get(path);
      const lines = res.headers.getSetCookie().filter((l) => l.startsWith('__Host-sm_csrf='));
      expect(lines, `${path}: ${res.headers.getSetCookie().join(' | ')}`).toHaveLength(1);
      const token = /name="_csrf" value="([^"]+)"/.exec(res.html)?.[1];
      if (token) expect(lines[0]!.startsWith(`__Host-sm_csrf=${token};`), path).toBe(true);
    }
  });

  it('a new session id on every sign-in: the earlier session of this browser ends', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    await b.signIn(u.email, TEST_PASSWORD);
    const first = b.session!;
    // The sign-in form is posted again from this browser (GET /login now redirects to the account).
    expect((await b.get('/login')).location).toBe('/dashboard');
    await b.post('/login', { email: u.email, password: TEST_PASSWORD });
    const second = b.session!;
    expect(second).not.toBe(first);
    expectError(await call('GET', '/v1/user/details', { key: first }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: second })).status).toBe(200);
  });

  it('never redirects elsewhere after sign-in (next is a local path only)', async () => {
    const u = await makeUser({ shifter: true });
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const b = browser();
      const res = await b.signIn(u.email, TEST_PASSWORD, next);
      expect(res.location, next).toBe('/dashboard');
    }
  });

  it('a wrong password re-renders the form with the email escaped and a 401', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    await b.get('/login');
    const res = await b.post('/login', { email: `"><script>alert(1)</script>${u.email}`, password: 'not the password' });
    expect(res.status).toBe(400); // not an email address at all
    expect(res.html).not.toContain('<script>alert(1)</script>');
    const wrong = await b.post('/login', { email: u.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('The email or password is not right.');
    expect(b.session).toBeUndefined();
  });

  it('failed attempts are limited as on the API (429 with Retry-After), per address', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    await b.get('/login');
    for (let i = 0; i < LIMITS.loginFailuresPerEmailAndIp.limit; i++) {
      expect((await b.post('/login', { email: u.email, password: 'wrong password!' })).status).toBe(401);
    }
    const limited = await b.post('/login', { email: u.email, password: TEST_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(b.session).toBeUndefined();
    // Another address is not held back by these failures.
    expect((await browser().signIn(u.email, TEST_PASSWORD)).status).toBe(303);
  });

  it('signs out with a POST; the session ends', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    await b.signIn(u.email, TEST_PASSWORD);
    const token = b.session!;
    await b.get('/account');
    const res = await b.post('/logout');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?notice=signed_out');
    expect(b.session).toBeUndefined();
    expectError(await call('GET', '/v1/user/details', { key: token }), 401, 'AUTH-REQ-ERR');
    // GET /logout signs nobody out: it only asks (a link on another site cannot sign anyone out).
    const again = browser();
    await again.signIn(u.email, TEST_PASSWORD);
    const ask = await again.get('/logout');
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('action="/logout"');
    expect((await call('GET', '/v1/user/details', { key: again.session! })).status).toBe(200);
  });
});

describe('web sign-in with two-factor', () => {
  it('parks the session as pending: no page and no API until a code promotes it', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await withTwoFactor(u);
    const b = browser();
    const res = await b.signIn(u.email, TEST_PASSWORD, '/account/sessions');
    expect(res.location).toBe('/login/2fa?next=%2Faccount%2Fsessions');
    const pending = b.session!;
    // No page…
    const account = await b.get('/account');
    expect(account.status).toBe(303);
    expect(account.location).toMatch(/^\/login\/2fa/);
    // …and no API.
    expectError(await call('GET', '/v1/user/details', { key: pending }), 401, 'TWO-FACTOR-REQ-ERR');

    const challenge = await b.get('/login/2fa?next=%2Faccount%2Fsessions');
    expect(challenge.status).toBe(200);
    expect(challenge.html).toContain('autocomplete="one-time-code"');
    const done = await b.post('/login/2fa', { code: totpCodeAt(secret, Date.now()), next: '/account/sessions' });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/account/sessions');
    expect(b.session).toBe(pending);
    expect((await call('GET', '/v1/user/details', { key: pending })).status).toBe(200);
    expect((await b.get('/account')).status).toBe(200);
  });

  it('refuses a code used once already, and a form without the CSRF token', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await withTwoFactor(u);
    const code = totpCodeAt(secret, Date.now());
    const first = browser();
    await first.signIn(u.email, TEST_PASSWORD);
    await first.get('/login/2fa');
    expect((await first.post('/login/2fa', { code }, { csrf: false })).status).toBe(403);
    expect((await first.post('/login/2fa', { code })).status).toBe(303);

    const second = browser();
    await second.signIn(u.email, TEST_PASSWORD);
    await second.get('/login/2fa');
    const replay = await second.post('/login/2fa', { code });
    expect(replay.status).toBe(401);
    expect(replay.html).toContain('used already');
    expect((await second.get('/account')).location).toMatch(/^\/login\/2fa/);
  });

  it('a backup code works once', async () => {
    const u = await makeUser({ shifter: true });
    const { backupCodes } = await withTwoFactor(u);
    const a = browser();
    await a.signIn(u.email, TEST_PASSWORD);
    await a.get('/login/2fa');
    expect((await a.post('/login/2fa', { backup_code: backupCodes[3]!.toUpperCase() })).status).toBe(303);
    const b = browser();
    await b.signIn(u.email, TEST_PASSWORD);
    await b.get('/login/2fa');
    expect((await b.post('/login/2fa', { backup_code: backupCodes[3]! })).status).toBe(401);
    expect((await call('GET', '/v1/user/details', { key: u.key })).body.two_factor.backup_codes_left).toBe(9);
  });

  it('cancelling signs out: the pending session ends and a right code no longer helps', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await withTwoFactor(u);
    const b = browser();
    await b.signIn(u.email, TEST_PASSWORD);
    const pending = b.session!;
    await b.get('/login/2fa');
    const res = await b.post('/login/2fa/cancel');
    expect(res.location).toBe('/login?notice=signed_out');
    expect(b.session).toBeUndefined();
    const [row] = await db().select().from(sessions).where(eq(sessions.user_id, u.userId));
    expect(row?.revoked_at).not.toBeNull();
    // The token, replayed, cannot be completed.
    const api = await call('POST', '/v1/auth/login/two_factor', { body: { session_token: pending, code: totpCodeAt(secret, Date.now()) } });
    expectError(api, 401, 'AUTH-REQ-ERR');
  });

  it('a trusted browser skips the code; its cookie rotates on each use and dies with two-factor off', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await withTwoFactor(u);
    const b = browser();
    await b.signIn(u.email, TEST_PASSWORD);
    await b.get('/login/2fa');
    const done = await b.post('/login/2fa', { code: totpCodeAt(secret, Date.now()), trust_device: 'on' });
    const line = setCookieLine(done, '__Host-sm_device=');
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Secure/i);
    expect(line).toMatch(/SameSite=Lax/i);
    const cookie1 = b.deviceCookie()!;
    expect(cookie1).toMatch(/^dev_[0-9A-Za-z]{20}\.[0-9A-Za-z]{40}$/);
    const [row] = await db().select().from(trustedDevices).where(eq(trustedDevices.user_id, u.userId));
    expect(row!.token_hash).not.toContain(cookie1.split('.')[1]!);

    // Next sign-in: no challenge, and a new device token with the expiry rolled forward.
    await b.post('/logout');
    const again = await b.signIn(u.email, TEST_PASSWORD);
    expect(again.location).toBe('/dashboard');
    const cookie2 = b.deviceCookie()!;
    expect(cookie2).not.toBe(cookie1);
    expect(cookie2.split('.')[0]).toBe(cookie1.split('.')[0]);
    const [rolled] = await db().select().from(trustedDevices).where(eq(trustedDevices.id, row!.id));
    expect(rolled!.expires_at).toBeGreaterThanOrEqual(row!.expires_at);

    // The old cookie (a copy) is worth nothing now.
    const thief = browser();
    thief.cookies.set('__Host-sm_device', cookie1);
    expect((await thief.signIn(u.email, TEST_PASSWORD)).location).toMatch(/^\/login\/2fa/);

    // Turning two-factor off revokes every trusted device: on again, this browser is asked again.
    await disableTwoFactor(contextAt(Date.now(), u), TEST_PASSWORD);
    await withTwoFactor(u);
    await b.post('/logout');
    expect((await b.signIn(u.email, TEST_PASSWORD)).location).toMatch(/^\/login\/2fa/);
  });
});
