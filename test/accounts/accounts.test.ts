// inside: services/accounts
import { env } from 'cloudflare:workers';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, authCodes, businesses, emailOutbox, sessions, shifters, users } from '../../src/db/schema';
import { CODE_MAX_ATTEMPTS, CODE_MAX_ATTEMPTS_PER_EMAIL } from '../../src/services/accounts/codes';
import { type ApiResult, call, expectError } from '../helpers/api';
import {
  attemptsOf,
  authCall,
  lastCode,
  PASSWORD,
  randomIp,
  registerShifter,
  registerVerified,
  uniqueEmail,
  wrongCode,
} from '../helpers/auth';
import { db, makeUser, TEST_PASSWORD } from '../helpers/factory';

const verify = (email: string, code: string, password: string, ip?: string) =>
  authCall('/v1/auth/verify_email', { email, code, password }, ip);
const login = (email: string, password: string, ip?: string) => authCall('/v1/auth/login', { email, password }, ip);

describe('registration and verification', () => {
  it('registers a dual-profile account, mails a code, and issues the key once on verification', async () => {
    const email = uniqueEmail('dual');
    const reg = await authCall('/v1/auth/register', {
      email: email.toUpperCase(),
      password: PASSWORD,
      display_name: 'Dana Dual',
      shifter: { headline: 'Barista' },
      business: { name: 'Dana Cafe', timezone: 'Europe/London', city_id: 10 },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.shifter_id).toMatch(/^shf_/);
    expect(reg.body.business_id).toMatch(/^biz_/);
    expect(reg.body.verification).toEqual({ sent_to: email, expires_in_seconds: 900 });

    const code = await lastCode(email);
    const res = await verify(email, code, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const key: string = res.body.api_key.key;
    expect(key).toMatch(/^smk_[0-9A-Za-z]{32}$/);
    expect(res.body.api_key.prefix).toBe(key.slice(0, 12));

    // Only a hash is stored.
    const rows = await db().select().from(apiKeys).where(eq(apiKeys.user_id, reg.body.user_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).not.toContain(key.slice(4));

    const details = await call('GET', '/v1/user/details', { key });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ id: reg.body.user_id, email, email_verified: true, is_dual_profile: true });
    const biz = await call('GET', '/v1/business/of_user', { key });
    expect(biz.body.data[0]).toMatchObject({ name: 'Dana Cafe', is_default: true, timezone: 'Europe/London', currency: 'GBP' });

    // The full key is never shown again, and the code cannot be used twice.
    const info = await call('GET', '/v1/user/api_key', { key });
    expect(info.body).toEqual({ prefix: key.slice(0, 12), created_at: expect.any(String), last_used_at: expect.anything() });
    expectError(await verify(email, code, PASSWORD), 400, 'VERIFY-CODE-ERR');
  });

  it('refuses a verified email (409), and an empty profile set', async () => {
    const email = uniqueEmail('dup');
    await registerVerified(email);
    expectError(
      await authCall('/v1/auth/register', { email, password: PASSWORD, display_name: 'Sam', shifter: {} }),
      409,
      'EMAIL-TAKEN-ERR',
    );
    const none = await authCall('/v1/auth/register', { email: uniqueEmail('none'), password: PASSWORD, display_name: 'Sam' });
    expectError(none, 400, 'VALIDATION-ERR');
  });

  it('validates fields with details', async () => {
    const res = await authCall('/v1/auth/register', {
      email: 'not-an-email',
      password: 'short',
      display_name: '',
      business: { name: 'X', timezone: 'Mars/Olympus' },
    });
    const err = expectError(res, 400, 'VALIDATION-ERR');
    const fields = (err.details as Array<{ field: string }>).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['json.email', 'json.password', 'json.display_name', 'json.business.timezone']));
    expectError(await verify(uniqueEmail('v'), '12345', PASSWORD), 400, 'VALIDATION-ERR');
  });

  it('stores the password as PBKDF2-SHA256 at 100,000 iterations (the most the Workers runtime allows), a 16-byte salt and a 32-byte hash', async () => {
    const email = uniqueEmail('hash');
    await registerShifter(email);
    const [row] = await db().select({ hash: users.password_hash }).from(users).where(eq(users.email, email));
    const [algo, iterations, salt, hash] = row!.hash.split('$');
    expect([algo, iterations]).toEqual(['pbkdf2_sha256', '100000']);
    expect(atob(salt!)).toHaveLength(16);
    expect(atob(hash!)).toHaveLength(32);
  });

  it('refuses common, repetitive and sequential passwords in people’s words, naming the field, on sign-up, change and reset', async () => {
    const refusedPassword = async (res: ApiResult, field: string) => {
      const err = expectError(res, 400, 'VALIDATION-ERR');
      const detail = (err.details as Array<{ field: string; message: string }>).find((d) => d.field === field);
      expect(detail, JSON.stringify(err.details)).toBeDefined();
      return detail!.message;
    };
    const register = (password: string) =>
      authCall('/v1/auth/register', { email: uniqueEmail('weak'), password, display_name: 'Sam', shifter: {} });
    const common = 'This password is one of the most common ones, which are tried first when accounts are attacked.';
    const repeated = 'This password repeats a few characters (like aaaaaaaaaa or abcabcabc), which makes it easy to guess.';
    const run =
      'This password is a run of letters, digits or keys in order (like abcdefghij, 9876543210 or qwertyuiop), which makes it easy to guess.';
    const cases: Array<[string, string]> = [
      ['1234567890', run],
      ['password12', common],
      ['aaaaaaaaaa', repeated],
      ['qwertyuiop', run],
      ['Password123!', common], // a common password with digits and a sign added
      ['iloveyou2024', common],
      ['p@ssw0rd99', common], // letters swapped for look-alike digits and signs
      ['FOOTBALL10', common],
      ['abcabcabcabc', repeated],
      ['passwordpassword', repeated],
      ['1111122222', repeated],
      ['9876543210', run],
      ['abcdefghijklm', run],
      ['qwertyuiopasdf', run],
      ['5678901234', run],
    ];
    for (const [password, words] of cases) {
      const message = await refusedPassword(await register(password), 'json.password');
      expect(message, password).toBe(`${words} Choose one that is harder to guess: a few unrelated words make a strong one.`);
    }
    // Long, uncommon passwords pass, whatever characters they use.
    for (const password of [PASSWORD, 'correct horse battery', 'Tr0ub4dor&3-staple', 'zq8#Lm2!vR']) {
      expect((await register(password)).status, password).toBe(201);
    }

    // The password change and the reset refuse them the same way, before anything else is checked.
    const u = await makeUser({ shifter: true });
    const change = await call('POST', '/v1/user/password', {
      key: u.key,
      body: { current_password: TEST_PASSWORD, new_password: 'aaaaaaaaaa' },
    });
    expect(await refusedPassword(change, 'json.new_password')).toMatch(/^This password repeats a few characters/);
    const ip = randomIp();
    await authCall('/v1/auth/password_reset/request', { email: u.email }, ip);
    const code = await lastCode(u.email, 'password_reset');
    const reset = await authCall('/v1/auth/password_reset/confirm', { email: u.email, code, new_password: 'password12' }, ip);
    expect(await refusedPassword(reset, 'json.new_password')).toMatch(/^This password is one of the most common ones/);
    // The refusal used no attempt: the code still sets a good password.
    expect(
      (await authCall('/v1/auth/password_reset/confirm', { email: u.email, code, new_password: 'my new password 1' }, ip)).status,
    ).toBe(200);
  });

  it('defaults a new shifter’s time zone from the city; an explicit zone wins', async () => {
    const london = uniqueEmail('london');
    await registerShifter(london, PASSWORD, randomIp(), { shifter: { city_id: 10 } });
    const chicago = uniqueEmail('chicago');
    await registerShifter(chicago, PASSWORD, randomIp(), { shifter: { city_id: 10, timezone: 'America/Chicago' } });
    const nowhere = uniqueEmail('nowhere');
    await registerShifter(nowhere);
    const zoneOf = async (email: string) =>
      (
        await db()
          .select({ tz: shifters.timezone })
          .from(shifters)
          .innerJoin(users, eq(users.id, shifters.user_id))
          .where(eq(users.email, email))
      )[0]?.tz;
    expect(await zoneOf(london)).toBe('Europe/London');
    expect(await zoneOf(chicago)).toBe('America/Chicago');
    expect(await zoneOf(nowhere)).toBe('UTC');
  });
});

describe('squatting an unverified email (attack)', () => {
  it('lets the owner register again: the squatter’s password and code stop working, the owner’s verify', async () => {
    const email = uniqueEmail('victim');
    const squatterPassword = 'squatter password 1';
    const squatterIp = randomIp();
    const first = await authCall(
      '/v1/auth/register',
      { email, password: squatterPassword, display_name: 'Squatter', shifter: { headline: 'mine' } },
      squatterIp,
    );
    expect(first.status).toBe(201);
    const squatterCode = await lastCode(email);

    // The owner starts over with their own password and a business profile.
    const ownerPassword = 'the real owner password';
    const second = await authCall('/v1/auth/register', {
      email,
      password: ownerPassword,
      display_name: 'Owner',
      business: { name: 'Owner Bakery', timezone: 'America/New_York', city_id: 1 },
    });
    // Same answer as a first registration: nothing about the earlier one shows (not even its user id).
    expect(second.status).toBe(201);
    expect(Object.keys(second.body).sort()).toEqual(Object.keys(first.body).sort());
    expect(second.body.user_id).not.toBe(first.body.user_id);
    const ownerCode = await lastCode(email);

    // The earlier registration is gone with its profile; its code died.
    expect(await db().select().from(users).where(eq(users.id, first.body.user_id))).toHaveLength(0);
    expect(await db().select().from(shifters).where(eq(shifters.id, first.body.shifter_id))).toHaveLength(0);
    expect(await db().select().from(businesses).where(eq(businesses.id, second.body.business_id))).toHaveLength(1);
    if (squatterCode !== ownerCode) expectError(await verify(email, squatterCode, squatterPassword, squatterIp), 400, 'VERIFY-CODE-ERR');
    // Even with the owner's code (were it leaked), the squatter's password is refused.
    expectError(await verify(email, ownerCode, squatterPassword, squatterIp), 400, 'VERIFY-CODE-ERR');
    expectError(await login(email, squatterPassword, squatterIp), 401, 'LOGIN-FAILED-ERR');

    const ok = await verify(email, ownerCode, ownerPassword);
    expect(ok.status).toBe(200);
    expect(ok.body.user_id).toBe(second.body.user_id);
    expectError(await login(email, squatterPassword, squatterIp), 401, 'LOGIN-FAILED-ERR');
    expect((await login(email, ownerPassword)).status).toBe(200);
    // Verified: now the email is taken.
    expectError(
      await authCall('/v1/auth/register', { email, password: squatterPassword, display_name: 'Squatter', shifter: {} }, squatterIp),
      409,
      'EMAIL-TAKEN-ERR',
    );
  });

  it('does not let a fresh code sent by resend verify without the registration password', async () => {
    const email = uniqueEmail('resend');
    await registerShifter(email, 'squatter password 2');
    // The real owner asks for a code and has the inbox, but not the squatter's password.
    expect((await authCall('/v1/auth/resend_verification', { email })).status).toBe(202);
    const code = await lastCode(email);
    expectError(await verify(email, code, 'the owners own password'), 400, 'VERIFY-CODE-ERR');
    // The wrong password cost an attempt, like a wrong code.
    expect(await attemptsOf(email)).toBe(1);
    const [u] = await db().select().from(users).where(eq(users.email, email));
    expect(u!.email_verified_at).toBeNull();
  });
});

describe('verification codes (attempts are taken atomically)', () => {
  it('counts 30 concurrent wrong guesses against the cap, then refuses the right code', async () => {
    const email = uniqueEmail('burst');
    await registerShifter(email);
    const code = await lastCode(email);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => verify(email, wrongCode(code, i), PASSWORD)));
    for (const r of results) expectError(r, 400, 'VERIFY-CODE-ERR');
    expect(await attemptsOf(email)).toBe(CODE_MAX_ATTEMPTS);
    // Locked: the right code and password are refused too.
    expectError(await verify(email, code, PASSWORD), 400, 'VERIFY-CODE-ERR');
    expect(await attemptsOf(email)).toBe(CODE_MAX_ATTEMPTS);
    const [u] = await db().select().from(users).where(eq(users.email, email));
    expect(u!.email_verified_at).toBeNull();
  });

  it('gives a resent code only what is left of the email’s cap', async () => {
    const email = uniqueEmail('cap');
    await registerShifter(email);
    for (let round = 0; round * CODE_MAX_ATTEMPTS < CODE_MAX_ATTEMPTS_PER_EMAIL; round++) {
      const code = await lastCode(email);
      for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) expectError(await verify(email, wrongCode(code, i), PASSWORD), 400, 'VERIFY-CODE-ERR');
      expect((await authCall('/v1/auth/resend_verification', { email })).status).toBe(202);
    }
    expect(await attemptsOf(email)).toBe(CODE_MAX_ATTEMPTS_PER_EMAIL);
    // A new code, but the email's attempts are spent: right code and password refused, nothing counted.
    expectError(await verify(email, await lastCode(email), PASSWORD), 400, 'VERIFY-CODE-ERR');
    expect(await attemptsOf(email)).toBe(CODE_MAX_ATTEMPTS_PER_EMAIL);
    // Registering the address again does not reset it either.
    await registerShifter(email);
    expectError(await verify(email, await lastCode(email), PASSWORD), 400, 'VERIFY-CODE-ERR');
  });

  it('accepts a code inside its cap, and refuses an expired one', async () => {
    const email = uniqueEmail('expiry');
    await registerShifter(email);
    const code = await lastCode(email);
    for (let i = 0; i < CODE_MAX_ATTEMPTS - 1; i++) expectError(await verify(email, wrongCode(code, i), PASSWORD), 400, 'VERIFY-CODE-ERR');
    await db()
      .update(authCodes)
      .set({ expires_at: Date.now() - 1 })
      .where(eq(authCodes.email, email));
    expectError(await verify(email, code, PASSWORD), 400, 'VERIFY-CODE-ERR');
    expect((await authCall('/v1/auth/resend_verification', { email })).status).toBe(202);
    // The fifth attempt of the window, on the new code: right code and password verify.
    expect((await verify(email, await lastCode(email), PASSWORD)).status).toBe(200);
  });

  it('answers an unknown email like a wrong code, and resend stays silent', async () => {
    const email = uniqueEmail('ghost');
    expectError(await verify(email, '123456', PASSWORD), 400, 'VERIFY-CODE-ERR');
    const res = await authCall('/v1/auth/resend_verification', { email });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'sent_if_pending' });
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email))).toHaveLength(0);
  });

  it('marks code emails sensitive', async () => {
    const email = uniqueEmail('sensitive');
    await registerShifter(email);
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email));
    expect(mail!.sensitive).toBe(true);
  });
});

describe('password change', () => {
  it('needs the current password, ends every session and keeps the API key', async () => {
    const u = await makeUser({ shifter: true });
    const s1 = await login(u.email, TEST_PASSWORD);
    const s2 = await login(u.email, TEST_PASSWORD);
    const token = s1.body.session_token as string;
    expectError(
      await call('POST', '/v1/user/password', {
        key: token,
        body: { current_password: 'not my password', new_password: 'brand new password' },
      }),
      403,
      'PASSWORD-WRONG-ERR',
    );
    expect((await call('GET', '/v1/user/details', { key: token })).status).toBe(200);

    const res = await call('POST', '/v1/user/password', {
      key: token,
      body: { current_password: TEST_PASSWORD, new_password: 'brand new password' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'password_changed', sessions_revoked: true, api_key_revoked: false });
    for (const t of [token, s2.body.session_token]) expectError(await call('GET', '/v1/user/details', { key: t }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: u.key })).status).toBe(200);
    expectError(await login(u.email, TEST_PASSWORD), 401, 'LOGIN-FAILED-ERR');
    expect((await login(u.email, 'brand new password')).status).toBe(200);
  });

  it('limits wrong current passwords per account', async () => {
    const u = await makeUser({ shifter: true });
    const wrong = () =>
      call('POST', '/v1/user/password', { key: u.key, body: { current_password: 'not my password', new_password: 'brand new password' } });
    const results = await Promise.all(Array.from({ length: 15 }, wrong));
    expect(results.filter((r) => r.status === 403)).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 403)) expectError(r, 429, 'RATE-LIMIT-ERR');
  });
});

describe('password reset by emailed code', () => {
  it('is silent for unknown emails and sets a new password, ending sessions and replacing the key', async () => {
    const ip = randomIp();
    const ghost = uniqueEmail('ghost');
    const silent = await authCall('/v1/auth/password_reset/request', { email: ghost }, ip);
    expect(silent.status).toBe(202);
    expect(silent.body).toEqual({ status: 'sent_if_account' });
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, ghost))).toHaveLength(0);

    const u = await makeUser({ shifter: true });
    const session = (await login(u.email, TEST_PASSWORD)).body.session_token as string;
    const asked = await authCall('/v1/auth/password_reset/request', { email: u.email }, ip);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual(silent.body);
    const code = await lastCode(u.email, 'password_reset');
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to_address, u.email), eq(emailOutbox.template, 'password_reset')));
    expect(mail!.sensitive).toBe(true);

    expectError(
      await authCall('/v1/auth/password_reset/confirm', { email: u.email, code: wrongCode(code), new_password: 'my new password 1' }, ip),
      400,
      'VERIFY-CODE-ERR',
    );
    const done = await authCall('/v1/auth/password_reset/confirm', { email: u.email, code, new_password: 'my new password 1' }, ip);
    expect(done.status).toBe(200);
    expect(done.headers.get('Cache-Control')).toBe('no-store');
    expect(done.body.user_id).toBe(u.userId);
    const newKey: string = done.body.api_key.key;
    expect(newKey).toMatch(/^smk_/);

    expectError(await call('GET', '/v1/user/details', { key: session }), 401, 'AUTH-REQ-ERR');
    expectError(await call('GET', '/v1/user/details', { key: u.key }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: newKey })).status).toBe(200);
    expect(
      await db()
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.user_id, u.userId), isNull(apiKeys.revoked_at))),
    ).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(and(eq(sessions.user_id, u.userId), isNull(sessions.revoked_at))),
    ).toHaveLength(0);
    expectError(await login(u.email, TEST_PASSWORD), 401, 'LOGIN-FAILED-ERR');
    expect((await login(u.email, 'my new password 1')).status).toBe(200);
    // The code is used up.
    expectError(
      await authCall('/v1/auth/password_reset/confirm', { email: u.email, code, new_password: 'my new password 2' }, ip),
      400,
      'VERIFY-CODE-ERR',
    );
  });

  it('counts 30 concurrent wrong reset codes against the cap, then refuses the right one', async () => {
    const u = await makeUser({ shifter: true });
    await authCall('/v1/auth/password_reset/request', { email: u.email });
    const code = await lastCode(u.email, 'password_reset');
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        authCall('/v1/auth/password_reset/confirm', { email: u.email, code: wrongCode(code, i), new_password: 'attacker password' }),
      ),
    );
    for (const r of results) expectError(r, 400, 'VERIFY-CODE-ERR');
    expect(await attemptsOf(u.email, 'password_reset')).toBe(CODE_MAX_ATTEMPTS);
    expectError(
      await authCall('/v1/auth/password_reset/confirm', { email: u.email, code, new_password: 'attacker password' }),
      400,
      'VERIFY-CODE-ERR',
    );
    expect((await login(u.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('does not reset an unverified account (it registers again instead)', async () => {
    const email = uniqueEmail('unverified');
    await registerShifter(email);
    expect((await authCall('/v1/auth/password_reset/request', { email })).status).toBe(202);
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to_address, email), eq(emailOutbox.template, 'password_reset'))),
    ).toHaveLength(0);
  });
});

describe('personal API keys', () => {
  it('regenerating revokes the old key at once and shows the new one once', async () => {
    const u = await makeUser({ shifter: true });
    const regen = await call('POST', '/v1/user/api_key/regenerate', { key: u.key });
    expect(regen.status).toBe(201);
    expect(regen.body.key).not.toBe(u.key);
    expectError(await call('GET', '/v1/user/details', { key: u.key }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: regen.body.key })).status).toBe(200);
    const live = await db().select().from(apiKeys).where(eq(apiKeys.user_id, u.userId));
    expect(live.filter((k) => k.revoked_at === null)).toHaveLength(1);
  });

  it('resolves to the owner with exactly the owner’s permissions', async () => {
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const mine = await call('GET', '/v1/user/details', { key: a.key });
    expect(mine.body.id).toBe(a.userId);
    expectError(await call('GET', '/v1/user/details', { key: a.key, query: { user_id: b.userId } }), 403, 'FORBIDDEN-ERR');
    expect(env.DB).toBeDefined();
  });
});
