import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, shifters, users } from '../../src/db/schema';
import { BASE, call } from '../helpers/api';
import { lastCode, randomIp, uniqueEmail, wrongCode } from '../helpers/auth';
import { db, makeUser, TEST_PASSWORD } from '../helpers/factory';
import { WebClient } from '../helpers/web';

const browser = () => new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
const NEW_PASSWORD = 'a fresh long password';

/** The value an input of the page shows (its `value` attribute), or null when it has none. */
const shownValue = (html: string, name: string) => {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';
  return /value="([^"]*)"/.exec(tag)?.[1] ?? null;
};
/** The message printed beside a field (TextField's `field-<name>-error`). */
const errorOf = (html: string, name: string) => new RegExp(`id="field-${name}-error">([^<]*)<`).exec(html)?.[1] ?? null;

describe('the front door (/)', () => {
  it('tells a visitor what the service is and links sign-in, sign-up, the API docs, the agent server and the widgets', async () => {
    const page = await browser().get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toContain('text/html');
    expect(page.headers.get('Content-Security-Policy')).toContain("script-src 'self'");
    for (const href of [
      '/login',
      '/signup',
      '/signup?as=business',
      '/signup?as=shifter',
      '/v1/docs',
      '/embed/examples',
      '/account/agents',
    ]) {
      expect(page.html, href).toContain(`href="${href}"`);
    }
    expect(page.html).toContain(`${BASE}/v1/mcp/`);
    expect(page.html).not.toContain('Go to your dashboard');
  });

  it('leads a signed-in person to their dashboard', async () => {
    const owner = await makeUser({ business: true });
    const b = browser();
    await b.signIn(owner.email, TEST_PASSWORD);
    const page = await b.get('/');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<a class="button button-primary" href="\/dashboard">Go to your dashboard<\/a>/);
    expect(page.html).not.toContain('>Create an account<');
  });

  it('keeps the service index for programs at /v1 (the API paths are unchanged)', async () => {
    const res = await call('GET', '/v1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ service: 'shiftmarket', docs: '/v1/docs', openapi: '/v1/openapi.json' });
    expect((await call('GET', '/v1/openapi.json')).status).toBe(200);
  });

  it('sign-in links to creating an account and to a forgotten password', async () => {
    const page = await browser().get('/login');
    expect(page.html).toContain('href="/signup"');
    expect(page.html).toContain('href="/login/forgot"');
  });
});

describe('sign-up', () => {
  it('creates a shifter account, keeps what was typed on a refusal (never the password), verifies with the code and signs in', async () => {
    const b = browser();
    const email = uniqueEmail('web-signup');
    const form = await b.get('/signup?as=shifter');
    expect(form.status).toBe(200);
    expect(form.html).toMatch(/id="kind-shifter" name="kind" value="shifter" checked/);

    const short = await b.post('/signup', { kind: 'shifter', display_name: 'Robin Web', email, password: 'short' });
    expect(short.status).toBe(400);
    expect(errorOf(short.html, 'password')).toBe('Use 10 to 200 characters.');
    expect(shownValue(short.html, 'display_name')).toBe('Robin Web');
    expect(shownValue(short.html, 'email')).toBe(email);
    expect(shownValue(short.html, 'password')).toBeNull();
    // A common or repetitive password: the server's own words beside the field.
    for (const [password, words] of [
      ['password12', /^This password is one of the most common ones/],
      ['1234567890', /^This password is a run of letters, digits or keys in order/],
      ['aaaaaaaaaa', /^This password repeats a few characters/],
    ] as const) {
      const weak = await b.post('/signup', { kind: 'shifter', display_name: 'Robin Web', email, password });
      expect(weak.status, password).toBe(400);
      expect(errorOf(weak.html, 'password'), password).toMatch(words);
      expect(errorOf(weak.html, 'password'), password).toMatch(/a few unrelated words make a strong one\.$/);
      expect(shownValue(weak.html, 'email')).toBe(email);
    }

    const made = await b.post('/signup', { kind: 'shifter', display_name: 'Robin Web', email, password: NEW_PASSWORD });
    expect(made.status).toBe(303);
    // The address stays with this browser's code step on the server, never in the URL.
    expect(made.location).toBe('/signup/verify?as=shifter');
    const verify = await b.get(made.location!);
    expect(verify.html).toContain('We emailed you a 6-digit code');
    // The code step names the address and asks for the code only: the password was typed once.
    expect(verify.html).toContain(`<strong>${email}</strong>`);
    expect(verify.html).not.toContain('name="password"');
    // The tests run with LOCAL_MAILBOX on, as `npm run dev` does: the page says where the code is.
    expect(verify.html).toContain('email_outbox');

    const code = await lastCode(email);
    const wrong = await b.post('/signup/verify', { code: wrongCode(code), as: 'shifter' });
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong.html, 'code')).toMatch(/^The code is wrong or has expired/);
    expect(wrong.html).toContain(`<strong>${email}</strong>`);
    expect(b.session).toBeUndefined();

    const done = await b.post('/signup/verify', { code, as: 'shifter' });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/dashboard/shifter');
    expect(b.session).toBeTruthy();
    const [row] = await db().select().from(users).where(eq(users.email, email));
    expect(row?.email_verified_at).not.toBeNull();
    expect((await b.get('/dashboard/shifter')).status).toBe(200);
  });

  it('creates a business account (its name and zone beside their fields), refuses a taken email, and resends a code', async () => {
    const b = browser();
    const taken = await makeUser();
    await b.get('/signup?as=business');
    const refused = await b.post('/signup', {
      kind: 'business',
      display_name: 'Kim',
      email: taken.email,
      password: NEW_PASSWORD,
      business_name: 'Kim’s',
      timezone: 'UTC',
    });
    expect(refused.status).toBe(409);
    expect(errorOf(refused.html, 'email')).toMatch(/exists already/);

    const email = uniqueEmail('web-business');
    const missing = await b.post('/signup', {
      kind: 'both',
      display_name: 'Kim',
      email,
      password: NEW_PASSWORD,
      business_name: '',
      timezone: 'Mars/Base',
    });
    expect(missing.status).toBe(400);
    expect(errorOf(missing.html, 'business_name')).toMatch(/business’s name/);
    expect(errorOf(missing.html, 'timezone')).toMatch(/IANA/);
    expect(missing.html).toMatch(/id="kind-both" name="kind" value="both" checked/);

    const made = await b.post('/signup', {
      kind: 'both',
      display_name: 'Kim',
      email,
      password: NEW_PASSWORD,
      business_name: 'Kim Kitchen',
      timezone: 'Europe/Lisbon',
    });
    expect(made.status).toBe(303);
    const first = await lastCode(email);
    const resent = await b.post('/signup/resend', { email, as: 'both' });
    expect(resent.status).toBe(303);
    expect(resent.location).toContain('notice=resent');
    const second = await lastCode(email);
    // The first code died with the resend.
    if (first !== second)
      expect((await b.post('/signup/verify', { email, code: first, password: NEW_PASSWORD, as: 'both' })).status).toBe(400);
    const done = await b.post('/signup/verify', { email, code: second, password: NEW_PASSWORD, as: 'both' });
    expect(done.location).toBe('/dashboard');
    expect(b.session).toBeTruthy();
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    const owned = await db().select().from(businesses).where(eq(businesses.user_id, row!.id));
    expect(owned.map((x) => [x.name, x.timezone])).toEqual([['Kim Kitchen', 'Europe/Lisbon']]);
    expect(await db().select().from(shifters).where(eq(shifters.user_id, row!.id))).toHaveLength(1);
  });

  it('sends a signed-in person from /signup to their dashboard', async () => {
    const u = await makeUser({ shifter: true });
    const b = browser();
    await b.signIn(u.email, TEST_PASSWORD);
    const res = await b.get('/signup');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
  });
});

describe('a forgotten password', () => {
  it('sets a new password with the emailed code, then signs in; the old password stops working', async () => {
    const u = await makeUser();
    const b = browser();
    expect((await b.get('/login/forgot')).status).toBe(200);
    const bad = await b.post('/login/forgot', { email: 'not an email' });
    expect(bad.status).toBe(400);
    expect(shownValue(bad.html, 'email')).toBe('not an email');

    const asked = await b.post('/login/forgot', { email: u.email });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe('/login/reset?notice=sent');
    const page = await b.get(asked.location!);
    expect(page.html).toContain('a code is on its way');

    const code = await lastCode(u.email, 'password_reset');
    const mismatch = await b.post('/login/reset', {
      email: u.email,
      code,
      new_password: NEW_PASSWORD,
      new_password_again: 'something else',
    });
    expect(mismatch.status).toBe(400);
    expect(errorOf(mismatch.html, 'new_password_again')).toBe('The two passwords are not the same.');
    expect(shownValue(mismatch.html, 'new_password')).toBeNull();
    const wrong = await b.post('/login/reset', {
      email: u.email,
      code: wrongCode(code),
      new_password: NEW_PASSWORD,
      new_password_again: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong.html, 'code')).toMatch(/wrong or has expired/);
    const weak = await b.post('/login/reset', { email: u.email, code, new_password: 'aaaaaaaaaa', new_password_again: 'aaaaaaaaaa' });
    expect(weak.status).toBe(400);
    expect(errorOf(weak.html, 'new_password')).toMatch(
      /^This password repeats a few characters .* a few unrelated words make a strong one\.$/,
    );

    const done = await b.post('/login/reset', { email: u.email, code, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/dashboard');
    expect(b.session).toBeTruthy();

    const old = await browser().signIn(u.email, TEST_PASSWORD);
    expect(old.status).toBe(401);
    expect((await browser().signIn(u.email, NEW_PASSWORD)).status).toBe(303);
  });

  it('answers the same for an unknown email (no enumeration)', async () => {
    const b = browser();
    await b.get('/login/forgot');
    const res = await b.post('/login/forgot', { email: uniqueEmail('nobody') });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login/reset?notice=sent');
  });
});
