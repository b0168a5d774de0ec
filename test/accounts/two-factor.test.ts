// inside: services/accounts
import { and, eq, isNull } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessions, trustedDevices, twoFactor, twoFactorBackupCodes } from '../../src/db/schema';
import { ConfigError, type Settings, settingsSchema } from '../../src/env';
import { sha256Hex } from '../../src/lib/crypto';
import { MAX_LIVE_SESSIONS, MAX_PENDING_SESSIONS } from '../../src/services/accounts/limits';
import {
  beginTotpEnrolment,
  cancelTwoFactorLogin,
  completeTwoFactorLogin,
  confirmTotpEnrolment,
  disableTwoFactor,
  listTrustedDevices,
  regenerateBackupCodes,
  revokeTrustedDevice,
  totpCodeAt,
  trustDevice,
} from '../../src/services/accounts';
import { openSecret, sealSecret } from '../../src/services/accounts/two-factor/secret-box';
import { TRUSTED_DEVICE_TTL_MS } from '../../src/services/accounts/two-factor/trusted-devices';
import { call, expectError } from '../helpers/api';
import { authCall, randomIp } from '../helpers/auth';
import { contextAt } from '../helpers/clock';
import { db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import {
  codeNow,
  completeSignIn,
  enableTwoFactor,
  expectAppError,
  holdBatchesTogether,
  loginAt,
  nextStepCode,
  signInPending,
  tokenReach,
  until,
  wrongCodeFor,
} from '../helpers/two-factor';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const BACKUP_CODE = /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/;

async function twoFactorRow(userId: string) {
  const [row] = await db().select().from(twoFactor).where(eq(twoFactor.user_id, userId));
  if (!row) throw new Error(`no two_factor row for ${userId}`);
  return row;
}

async function details(user: TestUser) {
  const res = await call('GET', '/v1/user/details', { key: user.key });
  expect(res.status).toBe(200);
  return res.body as { two_factor_enabled: boolean; two_factor: { enabled: boolean; methods: string[]; backup_codes_left: number } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** 'ok', or the error code a service call failed with. */
const outcome = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ok',
    (e: unknown) => (e as { code?: string }).code ?? String(e),
  );

const deviceId = (cookie: string) => cookie.split('.')[0]!;

async function deviceRow(cookie: string) {
  const [row] = await db()
    .select()
    .from(trustedDevices)
    .where(eq(trustedDevices.id, deviceId(cookie)));
  if (!row) throw new Error(`no trusted_devices row for ${deviceId(cookie)}`);
  return row;
}

describe('two-factor enrolment', () => {
  it('keeps the secret only sealed, bound to its account (AES-GCM additional data)', async () => {
    const u = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const t = Date.now();
    const ctx = contextAt(t, u);
    const { secret, uri, qr } = await beginTotpEnrolment(ctx);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(qr.size).toBeGreaterThan(20);
    expect(qr.path.length).toBeGreaterThan(0);

    const pending = await twoFactorRow(u.userId);
    expect(pending.pending_secret_enc).toMatch(/^v1\./);
    expect(JSON.stringify(pending)).not.toContain(secret);

    await confirmTotpEnrolment(ctx, totpCodeAt(secret, t), TEST_PASSWORD);
    const row = await twoFactorRow(u.userId);
    expect(row.pending_secret_enc).toBeNull();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row).toLowerCase()).not.toContain(secret.toLowerCase());
    // It is the secret, sealed: it opens for its own account only.
    expect(await openSecret(ctx.settings, u.userId, row.totp_secret_enc!)).toBe(secret);
    await expect(openSecret(ctx.settings, other.userId, row.totp_secret_enc!)).rejects.toThrow();
  });

  it('a wrong confirming code leaves two-factor off; a right one turns it on with 10 backup codes, shown in the details', async () => {
    const u = await makeUser({ shifter: true });
    const off = await details(u);
    expect(off.two_factor_enabled).toBe(false);
    expect(off.two_factor).toEqual({ enabled: false, methods: [], backup_codes_left: 0 });

    const t = Date.now();
    const ctx = contextAt(t, u);
    const { secret } = await beginTotpEnrolment(ctx);
    await expectAppError(confirmTotpEnrolment(ctx, wrongCodeFor(secret, t), TEST_PASSWORD), 'TWO-FACTOR-CODE-ERR');
    await expectAppError(confirmTotpEnrolment(ctx, 'abcdef', TEST_PASSWORD), 'TWO-FACTOR-CODE-ERR');
    // A right code with a wrong password (a stolen session): still off.
    await expectAppError(confirmTotpEnrolment(ctx, totpCodeAt(secret, t), 'not the password'), 'PASSWORD-WRONG-ERR');
    expect((await details(u)).two_factor).toEqual({ enabled: false, methods: [], backup_codes_left: 0 });
    const plain = await authCall('/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
    expect(plain.status).toBe(200);
    expect(plain.body.two_factor_required).toBe(false);
    expect(await tokenReach(plain.body.session_token)).toBe(200);

    const { backup_codes } = await confirmTotpEnrolment(ctx, totpCodeAt(secret, t), TEST_PASSWORD);
    expect(backup_codes).toHaveLength(10);
    for (const c of backup_codes) expect(c).toMatch(BACKUP_CODE);
    expect(new Set(backup_codes).size).toBe(10);
    const on = await details(u);
    expect(on.two_factor_enabled).toBe(true);
    expect(on.two_factor).toEqual({ enabled: true, methods: ['totp'], backup_codes_left: 10 });
    // Only hashes of the backup codes are kept.
    const stored = await db().select().from(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.user_id, u.userId));
    expect(stored).toHaveLength(10);
    for (const c of backup_codes) {
      expect(JSON.stringify(stored)).not.toContain(c);
      expect(JSON.stringify(stored)).not.toContain(c.replace('-', ''));
    }
    const { body } = await signInPending(u.email);
    expect(body.two_factor_methods).toEqual(['totp']);
  });

  it('reloading the setup within 30 minutes shows the same secret; later a new one, which the old app cannot confirm', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const first = await beginTotpEnrolment(contextAt(t, u));
    const reload = await beginTotpEnrolment(contextAt(t + 29 * MINUTE, u));
    expect(reload.secret).toBe(first.secret);
    expect(reload.uri).toBe(first.uri);

    const late = t + 31 * MINUTE;
    await expectAppError(confirmTotpEnrolment(contextAt(late, u), totpCodeAt(first.secret, late), TEST_PASSWORD), 'CONFLICT-ERR');
    const fresh = await beginTotpEnrolment(contextAt(late, u));
    expect(fresh.secret).not.toBe(first.secret);
    await expectAppError(confirmTotpEnrolment(contextAt(late, u), totpCodeAt(first.secret, late), TEST_PASSWORD), 'TWO-FACTOR-CODE-ERR');
    await confirmTotpEnrolment(contextAt(late, u), totpCodeAt(fresh.secret, late), TEST_PASSWORD);
    expect((await details(u)).two_factor_enabled).toBe(true);
  });

  it('beginning or confirming again while two-factor is on is CONFLICT-ERR and keeps the secret', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const { secret } = await enableTwoFactor(u, t);
    const before = await twoFactorRow(u.userId);
    await expectAppError(beginTotpEnrolment(contextAt(t + MINUTE, u)), 'CONFLICT-ERR');
    await expectAppError(confirmTotpEnrolment(contextAt(t + MINUTE, u), totpCodeAt(secret, t + MINUTE), TEST_PASSWORD), 'CONFLICT-ERR');
    const after = await twoFactorRow(u.userId);
    expect(after.totp_secret_enc).toBe(before.totp_secret_enc);
    expect(after.pending_secret_enc).toBeNull();
  });
});

describe('signing in with two-factor on (JSON API)', () => {
  it('login answers two_factor_required with a pending token that expires in ten minutes', async () => {
    const u = await makeUser({ shifter: true });
    await enableTwoFactor(u);
    const before = Date.now();
    const { body } = await signInPending(u.email);
    const after = Date.now();
    expect(body).toEqual({
      user_id: u.userId,
      session_token: expect.stringMatching(/^sms_/),
      expires_at: expect.any(String),
      two_factor_required: true,
      two_factor_methods: ['totp'],
    });
    const expires = Date.parse(body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 10 * MINUTE - 1000);
    expect(expires).toBeLessThanOrEqual(after + 10 * MINUTE + 1000);
  });

  it('a pending token reaches no API route: 401 TWO-FACTOR-REQ-ERR, and the account is untouched (attack)', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const full = await signInPending(u.email);
    expect((await completeSignIn(full.token, { code: codeNow(secret) })).status).toBe(200);

    const { token } = await signInPending(u.email);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/v1/user/details'],
      ['GET', '/v1/user/sessions'],
      ['GET', '/v1/user/api_key'],
      ['POST', '/v1/user/api_key/regenerate', {}],
      ['POST', '/v1/user/sessions/revoke_others', {}],
      ['POST', '/v1/user/password', { current_password: TEST_PASSWORD, new_password: 'an entirely new password' }],
      ['POST', '/v1/auth/logout', {}],
    ];
    for (const [method, path, body] of attempts) {
      expectError(await call(method, path, { key: token, body }), 401, 'TWO-FACTOR-REQ-ERR');
    }
    // Nothing of that happened: the key and the full session still work, the password is unchanged.
    expect((await call('GET', '/v1/user/details', { key: u.key })).status).toBe(200);
    expect(await tokenReach(full.token)).toBe(200);
    expect((await authCall('/v1/auth/login', { email: u.email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('a right code promotes the same token to a full 30-day session, once', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const { token } = await signInPending(u.email);
    expect(await tokenReach(token)).toBe('TWO-FACTOR-REQ-ERR');

    const res = await completeSignIn(token, { code: codeNow(secret) });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.body).toEqual({
      user_id: u.userId,
      session_token: token,
      expires_at: expect.any(String),
      two_factor_required: false,
      two_factor_methods: [],
    });
    expect(Date.parse(res.body.expires_at)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(await tokenReach(token)).toBe(200);
    const list = await call('GET', '/v1/user/sessions', { key: token });
    const current = list.body.data.find((s: { current: boolean }) => s.current);
    expect(Date.parse(current.expires_at)).toBeGreaterThan(Date.now() + 29 * DAY);
    // The promoted token is no longer a pending sign-in.
    expectError(await completeSignIn(token, { code: nextStepCode(secret) }), 401, 'AUTH-REQ-ERR');
    expect(await tokenReach(token)).toBe(200);
  });

  it('an account without two-factor gets two_factor_required false and a working token at once', async () => {
    const u = await makeUser({ shifter: true });
    const res = await authCall('/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.two_factor_required).toBe(false);
    expect(res.body.two_factor_methods).toEqual([]);
    expect(Date.parse(res.body.expires_at)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(await tokenReach(res.body.session_token)).toBe(200);
    // Such a token is no pending sign-in either.
    expectError(await completeSignIn(res.body.session_token, { code: '123456' }), 401, 'AUTH-REQ-ERR');
  });

  it('another account’s code or backup code does not promote a pending sign-in (attack)', async () => {
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const { secret: secretA } = await enableTwoFactor(a);
    const { secret: secretB, backupCodes: backupB } = await enableTwoFactor(b);
    const { token } = await signInPending(a.email);
    expectError(await completeSignIn(token, { code: codeNow(secretB) }), 401, 'TWO-FACTOR-CODE-ERR');
    expectError(await completeSignIn(token, { backup_code: backupB[0]! }), 401, 'TWO-FACTOR-CODE-ERR');
    expect(await tokenReach(token)).toBe('TWO-FACTOR-REQ-ERR');
    expect((await details(b)).two_factor.backup_codes_left).toBe(10);
    expect((await completeSignIn(token, { code: codeNow(secretA) })).status).toBe(200);
    // B's code was not used up by the attempt either.
    const pb = await signInPending(b.email);
    expect((await completeSignIn(pb.token, { code: codeNow(secretB) })).status).toBe(200);
  });

  it('the second step takes exactly one factor', async () => {
    const u = await makeUser({ shifter: true });
    const { secret, backupCodes } = await enableTwoFactor(u);
    const { token } = await signInPending(u.email);
    const ip = randomIp();
    expectError(await authCall('/v1/auth/login/two_factor', { session_token: token }, ip), 400, 'VALIDATION-ERR');
    expectError(
      await authCall('/v1/auth/login/two_factor', { session_token: token, code: codeNow(secret), backup_code: backupCodes[0] }, ip),
      400,
      'VALIDATION-ERR',
    );
    expect(await tokenReach(token)).toBe('TWO-FACTOR-REQ-ERR');
  });
});

describe('code replay', () => {
  it('a code that promoted one sign-in is refused for a second', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const first = await signInPending(u.email);
    const second = await signInPending(u.email);
    const code = codeNow(secret);
    expect((await completeSignIn(first.token, { code })).status).toBe(200);
    expectError(await completeSignIn(second.token, { code }), 401, 'TWO-FACTOR-CODE-ERR');
    expectError(await completeSignIn(second.token, { code: code.replace(/^(\d{3})/, '$1 ') }), 401, 'TWO-FACTOR-CODE-ERR');
    expect(await tokenReach(second.token)).toBe('TWO-FACTOR-REQ-ERR');
    // A fresh code still promotes it: the refusal was the replay, not the session.
    expect((await completeSignIn(second.token, { code: nextStepCode(secret) })).status).toBe(200);
  });

  it('an older step’s code is refused once a newer one was used', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const older = codeNow(secret);
    const newer = nextStepCode(secret);
    const first = await signInPending(u.email);
    const second = await signInPending(u.email);
    expect((await completeSignIn(first.token, { code: newer })).status).toBe(200);
    expectError(await completeSignIn(second.token, { code: older }), 401, 'TWO-FACTOR-CODE-ERR');
    expect(await tokenReach(second.token)).toBe('TWO-FACTOR-REQ-ERR');
  });

  it('of 10 pending sign-ins racing with one code, exactly one is promoted', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const { secret } = await enableTwoFactor(u, t - 10 * MINUTE);
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push((await loginAt(t, u)).view.session_token);
    const code = totpCodeAt(secret, t);
    const ctx = contextAt(t, u);
    // The writes wait for one another, so every racer has checked the code before any of them commits.
    const held = holdBatchesTogether(/^update "two_factor" set "totp_last_step"/i, 5);
    const outcomes = await Promise.all(tokens.map((session_token) => outcome(completeTwoFactorLogin(ctx, { session_token, code }))));
    vi.restoreAllMocks();
    // Five failures fit the per-account budget: five racers reached the write, the rest got 429 first.
    expect(held.count).toBe(5);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'TWO-FACTOR-CODE-ERR')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'RATE-LIMIT-ERR')).toHaveLength(5);
    const reach = await Promise.all(tokens.map(tokenReach));
    expect(reach[outcomes.indexOf('ok')]).toBe(200);
    expect(reach.filter((r) => r === 'TWO-FACTOR-REQ-ERR')).toHaveLength(9);
  });

  it('the code that confirmed enrolment cannot sign in', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const ctx = contextAt(t, u);
    const { secret } = await beginTotpEnrolment(ctx);
    await confirmTotpEnrolment(ctx, totpCodeAt(secret, t), TEST_PASSWORD);
    const { view } = await loginAt(t, u);
    expect(view.two_factor_required).toBe(true);
    const session_token = view.session_token;
    await expectAppError(completeTwoFactorLogin(ctx, { session_token, code: totpCodeAt(secret, t) }), 'TWO-FACTOR-CODE-ERR');
    await expectAppError(completeTwoFactorLogin(ctx, { session_token, code: totpCodeAt(secret, t - 30_000) }), 'TWO-FACTOR-CODE-ERR');
    const done = await completeTwoFactorLogin(ctx, { session_token, code: totpCodeAt(secret, t + 30_000) });
    expect(done.two_factor_required).toBe(false);
    expect(await tokenReach(session_token)).toBe(200);
  });
});

describe('backup codes', () => {
  it('a backup code works once: a used one promotes no other sign-in, and backup_codes_left goes down', async () => {
    const u = await makeUser({ shifter: true });
    const { backupCodes } = await enableTwoFactor(u);
    const first = await signInPending(u.email);
    const res = await completeSignIn(first.token, { backup_code: backupCodes[0]! });
    expect(res.status).toBe(200);
    expect(res.body.two_factor_required).toBe(false);
    expect(await tokenReach(first.token)).toBe(200);
    expect((await details(u)).two_factor.backup_codes_left).toBe(9);

    const second = await signInPending(u.email);
    expectError(await completeSignIn(second.token, { backup_code: backupCodes[0]! }), 401, 'TWO-FACTOR-CODE-ERR');
    // Written another way it is still the same, used, code.
    expectError(
      await completeSignIn(second.token, { backup_code: backupCodes[0]!.toUpperCase().replace('-', '') }),
      401,
      'TWO-FACTOR-CODE-ERR',
    );
    expect(await tokenReach(second.token)).toBe('TWO-FACTOR-REQ-ERR');
    // An unused one, typed in capitals with a space, works.
    const typed = backupCodes[1]!.toUpperCase().replace('-', ' ');
    expect((await completeSignIn(second.token, { backup_code: typed })).status).toBe(200);
    expect((await details(u)).two_factor.backup_codes_left).toBe(8);
  });

  it('of 5 pending sign-ins racing with one backup code, exactly one wins', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const { backupCodes } = await enableTwoFactor(u, t - 10 * MINUTE);
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) tokens.push((await loginAt(t, u)).view.session_token);
    const ctx = contextAt(t, u);
    // The writes wait for one another, so every racer has found the code unused before any of them commits.
    const held = holdBatchesTogether(/^update "two_factor_backup_codes" set "used_at"/i, 5);
    const outcomes = await Promise.all(
      tokens.map((session_token) => outcome(completeTwoFactorLogin(ctx, { session_token, backup_code: backupCodes[3]! }))),
    );
    vi.restoreAllMocks();
    expect(held.count).toBe(5);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'TWO-FACTOR-CODE-ERR')).toHaveLength(4);
    const reach = await Promise.all(tokens.map(tokenReach));
    expect(reach[outcomes.indexOf('ok')]).toBe(200);
    expect(reach.filter((r) => r === 'TWO-FACTOR-REQ-ERR')).toHaveLength(4);
    expect((await details(u)).two_factor.backup_codes_left).toBe(9);
  });

  it('regenerating needs the password and retires the whole old set', async () => {
    const u = await makeUser({ shifter: true });
    const { backupCodes: old } = await enableTwoFactor(u);
    const ctx = contextAt(Date.now(), u);
    await expectAppError(regenerateBackupCodes(ctx, 'not the password at all'), 'PASSWORD-WRONG-ERR');
    const p1 = await signInPending(u.email);
    expect((await completeSignIn(p1.token, { backup_code: old[0]! })).status).toBe(200);

    const { backup_codes: fresh } = await regenerateBackupCodes(ctx, TEST_PASSWORD);
    expect(fresh).toHaveLength(10);
    for (const c of fresh) expect(c).toMatch(BACKUP_CODE);
    expect(fresh.some((c) => old.includes(c))).toBe(false);
    expect((await details(u)).two_factor.backup_codes_left).toBe(10);

    const p2 = await signInPending(u.email);
    for (const c of old.slice(1, 4)) expectError(await completeSignIn(p2.token, { backup_code: c }), 401, 'TWO-FACTOR-CODE-ERR');
    expect((await completeSignIn(p2.token, { backup_code: fresh[0]! })).status).toBe(200);
    expect((await details(u)).two_factor.backup_codes_left).toBe(9);
  });
});

describe('cancelling the second step', () => {
  it('ends the pending sign-in: a right code no longer completes it', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const { token } = await signInPending(u.email);
    const res = await authCall('/v1/auth/login/two_factor/cancel', { session_token: token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'signed_out' });
    expectError(await completeSignIn(token, { code: codeNow(secret) }), 401, 'AUTH-REQ-ERR');
    expect(await tokenReach(token)).toBe('AUTH-REQ-ERR');
    const [row] = await db()
      .select({ revoked_at: sessions.revoked_at })
      .from(sessions)
      .where(eq(sessions.token_hash, await sha256Hex(token)));
    expect(row?.revoked_at).not.toBeNull();
    // Cancelling again, or an unknown token, answers the same.
    expect((await authCall('/v1/auth/login/two_factor/cancel', { session_token: token })).body).toEqual({ status: 'signed_out' });
    expect((await authCall('/v1/auth/login/two_factor/cancel', { session_token: `sms_${'A'.repeat(40)}` })).status).toBe(200);
  });

  it('a sign-in cancelled while its code is being checked is not promoted', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const { secret } = await enableTwoFactor(u, t - 10 * MINUTE);
    const token = (await loginAt(t, u)).view.session_token;
    const ctx = contextAt(t, u);
    const held = holdBatchesTogether(/^update "two_factor" set "totp_last_step"/i, Number.POSITIVE_INFINITY, 10_000);
    const completing = outcome(completeTwoFactorLogin(ctx, { session_token: token, code: totpCodeAt(secret, t) }));
    await until(() => held.count === 1);
    await cancelTwoFactorLogin(ctx, token);
    held.release();
    expect(await completing).toBe('AUTH-REQ-ERR');
    vi.restoreAllMocks();
    expect(await tokenReach(token)).toBe('AUTH-REQ-ERR');
  });
});

describe('limits on wrong codes', () => {
  it('allows 5 wrong codes per account in 15 minutes, then 429 with Retry-After, from any sign-in and address (attack)', async () => {
    const u = await makeUser({ shifter: true });
    const { secret, backupCodes } = await enableTwoFactor(u);
    const { token } = await signInPending(u.email);
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expectError(await completeSignIn(token, { code: wrongCodeFor(secret, Date.now(), i) }, ip), 401, 'TWO-FACTOR-CODE-ERR');
    }
    const limited = await completeSignIn(token, { code: wrongCodeFor(secret, Date.now(), 9) }, ip);
    expectError(limited, 429, 'RATE-LIMIT-ERR');
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);

    // A new sign-in from another address has no fresh budget; even a right factor waits.
    const again = await signInPending(u.email);
    expectError(await completeSignIn(again.token, { code: wrongCodeFor(secret) }), 429, 'RATE-LIMIT-ERR');
    expectError(await completeSignIn(again.token, { code: codeNow(secret) }), 429, 'RATE-LIMIT-ERR');
    expectError(await completeSignIn(again.token, { backup_code: backupCodes[0]! }), 429, 'RATE-LIMIT-ERR');
    expect(await tokenReach(again.token)).toBe('TWO-FACTOR-REQ-ERR');
    expect((await details(u)).two_factor.backup_codes_left).toBe(10);
  });

  it('charges only failures: after 4 wrong and 1 right, one more wrong code is still answered before the cap', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const first = await signInPending(u.email);
    for (let i = 0; i < 4; i++) {
      expectError(await completeSignIn(first.token, { code: wrongCodeFor(secret, Date.now(), i) }), 401, 'TWO-FACTOR-CODE-ERR');
    }
    expect((await completeSignIn(first.token, { code: codeNow(secret) })).status).toBe(200);
    const second = await signInPending(u.email);
    expectError(await completeSignIn(second.token, { code: wrongCodeFor(secret, Date.now(), 5) }), 401, 'TWO-FACTOR-CODE-ERR');
    expectError(await completeSignIn(second.token, { code: wrongCodeFor(secret, Date.now(), 6) }), 429, 'RATE-LIMIT-ERR');
  });
});

describe('pending sign-in expiry', () => {
  it('a pending sign-in older than ten minutes cannot be completed', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const { token } = await signInPending(u.email);
    await db()
      .update(sessions)
      .set({ expires_at: Date.now() - 1000 })
      .where(eq(sessions.token_hash, await sha256Hex(token)));
    expectError(await completeSignIn(token, { code: codeNow(secret) }), 401, 'AUTH-REQ-ERR');
    expect(await tokenReach(token)).toBe('AUTH-REQ-ERR');
  });

  it('ten minutes is the bound: completed at 9:59 it works, at 10:01 it does not', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const { secret } = await enableTwoFactor(u, t - 10 * MINUTE);
    const late = (await loginAt(t, u)).view.session_token;
    const inTime = (await loginAt(t, u)).view.session_token;
    const lateAt = t + 10 * MINUTE + 1000;
    await expectAppError(
      completeTwoFactorLogin(contextAt(lateAt, u), { session_token: late, code: totpCodeAt(secret, lateAt) }),
      'AUTH-REQ-ERR',
    );
    const okAt = t + 10 * MINUTE - 1000;
    const done = await completeTwoFactorLogin(contextAt(okAt, u), { session_token: inTime, code: totpCodeAt(secret, okAt) });
    expect(done.two_factor_required).toBe(false);
  });

  it('a sign-in that expires while its code is being checked is not promoted', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    const { backupCodes } = await enableTwoFactor(u, t - 10 * MINUTE);
    const token = (await loginAt(t, u)).view.session_token;
    const ctx = contextAt(t, u);
    const held = holdBatchesTogether(/^update "two_factor_backup_codes" set "used_at"/i, Number.POSITIVE_INFINITY, 10_000);
    const completing = outcome(completeTwoFactorLogin(ctx, { session_token: token, backup_code: backupCodes[0]! }));
    await until(() => held.count === 1);
    await db()
      .update(sessions)
      .set({ expires_at: t - 1 })
      .where(eq(sessions.token_hash, await sha256Hex(token)));
    held.release();
    expect(await completing).toBe('AUTH-REQ-ERR');
    vi.restoreAllMocks();
    const [row] = await db()
      .select({ pending: sessions.pending_two_factor })
      .from(sessions)
      .where(eq(sessions.token_hash, await sha256Hex(token)));
    expect(row?.pending).toBe(true);
  });
});

describe('trusted devices', () => {
  it('a trusted cookie skips the second factor and comes back rotated, same device, expiry rolled forward', async () => {
    const u = await makeUser({ shifter: true });
    const t0 = Date.now();
    await enableTwoFactor(u, t0);
    const c0 = await trustDevice(contextAt(t0, u), u.userId, 'Firefox on Linux');
    expect(c0.value).toMatch(/^dev_[0-9A-Za-z]{20}\.[0-9A-Za-z]{40}$/);
    expect(c0.expiresAt).toBe(t0 + TRUSTED_DEVICE_TTL_MS);
    const id = deviceId(c0.value);

    const day20 = t0 + 20 * DAY;
    const first = await loginAt(day20, u, c0.value);
    expect(first.view.two_factor_required).toBe(false);
    expect(first.view.two_factor_methods).toEqual([]);
    expect(first.device).not.toBeNull();
    const c1 = first.device!;
    expect(c1.value).not.toBe(c0.value);
    expect(deviceId(c1.value)).toBe(id);
    expect(c1.expiresAt).toBe(day20 + TRUSTED_DEVICE_TTL_MS);
    const rows = await db().select().from(trustedDevices).where(eq(trustedDevices.user_id, u.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, last_used_at: day20, expires_at: day20 + TRUSTED_DEVICE_TTL_MS, revoked_at: null });
    expect(await tokenReach(first.view.session_token)).toBe(200);

    // Day 40: past the first expiry (day 30), the rolled-forward cookie still works.
    const second = await loginAt(t0 + 40 * DAY, u, c1.value);
    expect(second.view.two_factor_required).toBe(false);
    expect(deviceId(second.device!.value)).toBe(id);
    // A device left unused for more than 30 days no longer skips.
    const idle = await trustDevice(contextAt(t0, u), u.userId, 'Safari on iOS');
    const late = await loginAt(t0 + 31 * DAY, u, idle.value);
    expect(late.view.two_factor_required).toBe(true);
    expect(late.device).toBeNull();
  });

  it('the old cookie value no longer works once rotated: a copied cookie works once (attack)', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(u, t);
    const cookie = await trustDevice(contextAt(t, u), u.userId, 'Chrome on macOS');
    const owner = await loginAt(t + DAY, u, cookie.value);
    expect(owner.view.two_factor_required).toBe(false);

    const copy = await loginAt(t + DAY + MINUTE, u, cookie.value);
    expect(copy.view.two_factor_required).toBe(true);
    expect(copy.device).toBeNull();
    expect(await tokenReach(copy.view.session_token)).toBe('TWO-FACTOR-REQ-ERR');
    // The owner's rotated cookie keeps working.
    const next = await loginAt(t + 2 * DAY, u, owner.device!.value);
    expect(next.view.two_factor_required).toBe(false);
  });

  it('a device cookie of another user, or a forged one, does not skip the second factor (attack)', async () => {
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(a, t);
    await enableTwoFactor(b, t);
    const mine = await trustDevice(contextAt(t, a), a.userId, 'Chrome on Linux');
    const theirs = await trustDevice(contextAt(t, b), b.userId, 'Chrome on Linux');

    const forged = [
      theirs.value,
      `${deviceId(mine.value)}.${'A'.repeat(40)}`,
      `${deviceId(mine.value)}.${theirs.value.split('.')[1]}`,
      'garbage',
      `${mine.value}x`,
    ];
    for (const cookie of forged) {
      const r = await loginAt(t + MINUTE, a, cookie);
      expect(r.view.two_factor_required).toBe(true);
      expect(r.device).toBeNull();
    }
    // Neither device was spent by those attempts.
    expect((await loginAt(t + 2 * MINUTE, b, theirs.value)).view.two_factor_required).toBe(false);
    expect((await loginAt(t + 2 * MINUTE, a, mine.value)).view.two_factor_required).toBe(false);
  });

  it('concurrent sign-ins with one cookie skip the second factor at most once', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(u, t);
    const cookie = await trustDevice(contextAt(t, u), u.userId, 'Firefox on Windows');
    const results = await Promise.all(Array.from({ length: 10 }, () => loginAt(t + MINUTE, u, cookie.value)));
    const skipped = results.filter((r) => r.device !== null);
    expect(skipped).toHaveLength(1);
    expect(results.filter((r) => r.view.two_factor_required)).toHaveLength(9);
    const row = await deviceRow(cookie.value);
    expect(row.token_hash).toBe(await sha256Hex(skipped[0]!.device!.value.split('.')[1]!));
  });

  it('disabling two-factor revokes every trusted device', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(u, t);
    const ctx = contextAt(t, u);
    await trustDevice(ctx, u.userId, 'Chrome on Linux');
    await trustDevice(ctx, u.userId, 'Safari on iOS');
    expect(await listTrustedDevices(ctx)).toHaveLength(2);
    await expectAppError(disableTwoFactor(ctx, 'not the password at all'), 'PASSWORD-WRONG-ERR');
    expect(await listTrustedDevices(ctx)).toHaveLength(2);

    await disableTwoFactor(ctx, TEST_PASSWORD);
    expect(await listTrustedDevices(ctx)).toEqual([]);
    const rows = await db().select().from(trustedDevices).where(eq(trustedDevices.user_id, u.userId));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.revoked_at).toBe(t);
  });

  it('regenerating backup codes revokes every trusted device; a wrong password changes nothing', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(u, t);
    const ctx = contextAt(t, u);
    const one = await trustDevice(ctx, u.userId, 'Chrome on Linux');
    const two = await trustDevice(ctx, u.userId, 'Safari on iOS');
    await expectAppError(regenerateBackupCodes(ctx, 'not the password at all'), 'PASSWORD-WRONG-ERR');
    const kept = await loginAt(t + MINUTE, u, one.value);
    expect(kept.view.two_factor_required).toBe(false);

    await regenerateBackupCodes(contextAt(t + 2 * MINUTE, u), TEST_PASSWORD);
    expect(await listTrustedDevices(contextAt(t + 2 * MINUTE, u))).toEqual([]);
    for (const cookie of [kept.device!.value, two.value]) {
      const r = await loginAt(t + 3 * MINUTE, u, cookie);
      expect(r.view.two_factor_required).toBe(true);
      expect(r.device).toBeNull();
    }
  });

  it('revokes one device by id; another user’s device id is NOT-FOUND-ERR and keeps working (attack)', async () => {
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(a, t);
    await enableTwoFactor(b, t);
    const ctxA = contextAt(t, a);
    const a1 = await trustDevice(ctxA, a.userId, 'Chrome on Linux');
    const a2 = await trustDevice(contextAt(t + 1000, a), a.userId, 'Safari on iOS');
    const b1 = await trustDevice(contextAt(t, b), b.userId, 'Firefox on Windows');

    const list = await listTrustedDevices(ctxA);
    expect(list.map((d) => d.id).sort()).toEqual([deviceId(a1.value), deviceId(a2.value)].sort());
    expect(list.find((d) => d.id === deviceId(a2.value))).toMatchObject({ label: 'Safari on iOS', expires_at: expect.any(String) });
    expect(JSON.stringify(list)).not.toContain(a1.value.split('.')[1]);

    await expectAppError(revokeTrustedDevice(ctxA, deviceId(b1.value)), 'NOT-FOUND-ERR');
    await expectAppError(revokeTrustedDevice(ctxA, 'dev_AAAAAAAAAAAAAAAAAAAA'), 'NOT-FOUND-ERR');
    expect((await loginAt(t + MINUTE, b, b1.value)).view.two_factor_required).toBe(false);

    await revokeTrustedDevice(ctxA, deviceId(a1.value));
    expect((await listTrustedDevices(ctxA)).map((d) => d.id)).toEqual([deviceId(a2.value)]);
    expect((await loginAt(t + MINUTE, a, a1.value)).view.two_factor_required).toBe(true);
    expect((await loginAt(t + MINUTE, a, a2.value)).view.two_factor_required).toBe(false);
    await expectAppError(revokeTrustedDevice(ctxA, deviceId(a1.value)), 'NOT-FOUND-ERR');
  });

  it('keeps only a hash of the device token, before and after rotation', async () => {
    const u = await makeUser({ shifter: true });
    const t = Date.now();
    await enableTwoFactor(u, t);
    const cookie = await trustDevice(contextAt(t, u), u.userId, 'Chrome on Linux');
    const token = cookie.value.split('.')[1]!;
    let row = await deviceRow(cookie.value);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.token_hash).toBe(await sha256Hex(token));

    const rotated = (await loginAt(t + MINUTE, u, cookie.value)).device!;
    const newToken = rotated.value.split('.')[1]!;
    row = await deviceRow(cookie.value);
    expect(JSON.stringify(row)).not.toContain(newToken);
    expect(row.token_hash).toBe(await sha256Hex(newToken));
  });
});

describe('disabling two-factor', () => {
  it('needs the right password; then sign-in needs no code, the backup codes are gone and the details show it off', async () => {
    const u = await makeUser({ shifter: true });
    const { backupCodes } = await enableTwoFactor(u);
    const ctx = contextAt(Date.now(), u);
    await expectAppError(disableTwoFactor(ctx, 'not the password at all'), 'PASSWORD-WRONG-ERR');
    expect((await details(u)).two_factor.enabled).toBe(true);
    await signInPending(u.email);

    await disableTwoFactor(ctx, TEST_PASSWORD);
    const res = await authCall('/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
    expect(res.body.two_factor_required).toBe(false);
    expect(await tokenReach(res.body.session_token)).toBe(200);
    const d = await details(u);
    expect(d.two_factor_enabled).toBe(false);
    expect(d.two_factor).toEqual({ enabled: false, methods: [], backup_codes_left: 0 });
    expect(await db().select().from(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.user_id, u.userId))).toEqual([]);
    expect((await twoFactorRow(u.userId)).totp_secret_enc).toBeNull();
    await expectAppError(disableTwoFactor(ctx, TEST_PASSWORD), 'CONFLICT-ERR');

    // Turned on again, none of the old backup codes comes back.
    const { secret } = await enableTwoFactor(u);
    const p = await signInPending(u.email);
    expectError(await completeSignIn(p.token, { backup_code: backupCodes[2]! }), 401, 'TWO-FACTOR-CODE-ERR');
    expect((await completeSignIn(p.token, { code: codeNow(secret) })).status).toBe(200);
  });

  it('a pending sign-in from before the disable cannot be completed; its token stays useless', async () => {
    const u = await makeUser({ shifter: true });
    const { secret, backupCodes } = await enableTwoFactor(u);
    const byCode = await signInPending(u.email);
    const byBackup = await signInPending(u.email);
    await disableTwoFactor(contextAt(Date.now(), u), TEST_PASSWORD);
    // Disabling promoted nothing.
    expect(await tokenReach(byCode.token)).toBe('TWO-FACTOR-REQ-ERR');

    expectError(await completeSignIn(byCode.token, { code: codeNow(secret) }), 401, 'AUTH-REQ-ERR');
    expectError(await completeSignIn(byBackup.token, { backup_code: backupCodes[0]! }), 401, 'AUTH-REQ-ERR');
    for (const t of [byCode.token, byBackup.token]) {
      expect(await tokenReach(t)).toBe('AUTH-REQ-ERR');
      expectError(await completeSignIn(t, { code: nextStepCode(secret) }), 401, 'AUTH-REQ-ERR');
    }
    // A fresh sign-in is the way in.
    const fresh = await authCall('/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
    expect(fresh.body.two_factor_required).toBe(false);
    expect(await tokenReach(fresh.body.session_token)).toBe(200);
  });
});

describe('secret box', () => {
  const settingsWith = (vars: Record<string, string>): Settings => ({ ...settingsSchema.parse(vars), corsOrigins: [] });
  const local = settingsWith({ LOCAL_DEFAULT_SECRETS: 'true' });
  const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('seals and opens a secret; each seal has its own IV', async () => {
    const sealed = await sealSecret(local, 'usr_a', SECRET);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(await openSecret(local, 'usr_a', sealed)).toBe(SECRET);
    const again = await sealSecret(local, 'usr_a', SECRET);
    expect(again).not.toBe(sealed);
    expect(await openSecret(local, 'usr_a', again)).toBe(SECRET);
  });

  it('refuses a tampered ciphertext, a changed IV, another account or an unknown version', async () => {
    const sealed = await sealSecret(local, 'usr_a', SECRET);
    const [version, iv, body] = sealed.split('.') as [string, string, string];
    const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
    const mid = Math.floor(body.length / 2);
    await expect(openSecret(local, 'usr_a', `${version}.${iv}.${flip(body, mid)}`)).rejects.toThrow();
    await expect(openSecret(local, 'usr_a', `${version}.${iv}.${flip(body, 0)}`)).rejects.toThrow();
    await expect(openSecret(local, 'usr_a', `${version}.${flip(iv, 3)}.${body}`)).rejects.toThrow();
    await expect(openSecret(local, 'usr_b', sealed)).rejects.toThrow();
    await expect(openSecret(local, 'usr_a', `v2.${iv}.${body}`)).rejects.toThrow();
    await expect(openSecret(local, 'usr_a', `${version}.${iv}`)).rejects.toThrow();
  });

  it('without a key and without local defaults, sealing and opening are a ConfigError; a configured key is used instead of the default', async () => {
    const sealedLocally = await sealSecret(local, 'usr_a', SECRET);
    for (const off of [settingsWith({ LOCAL_DEFAULT_SECRETS: 'false' }), settingsWith({})]) {
      await expect(sealSecret(off, 'usr_a', SECRET)).rejects.toBeInstanceOf(ConfigError);
      await expect(openSecret(off, 'usr_a', sealedLocally)).rejects.toBeInstanceOf(ConfigError);
    }
    const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    const configured = settingsWith({ LOCAL_DEFAULT_SECRETS: 'false', TWO_FACTOR_ENCRYPTION_KEY: key });
    const sealed = await sealSecret(configured, 'usr_a', SECRET);
    expect(await openSecret(configured, 'usr_a', sealed)).toBe(SECRET);
    // Its own key, not the published development one: neither opens the other's values.
    await expect(openSecret(configured, 'usr_a', sealedLocally)).rejects.toThrow();
    await expect(openSecret(local, 'usr_a', sealed)).rejects.toThrow();
    const short = settingsWith({ LOCAL_DEFAULT_SECRETS: 'true', TWO_FACTOR_ENCRYPTION_KEY: btoa('sixteen byte key') });
    await expect(sealSecret(short, 'usr_a', SECRET)).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('pending sign-ins and the live-session cap', () => {
  // Pending sign-ins have a cap of their own (MAX_PENDING_SESSIONS): they never push full sessions out.
  it('sign-ins that only passed the password do not end the owner’s full sessions (attack)', async () => {
    const u = await makeUser({ shifter: true });
    const { secret } = await enableTwoFactor(u);
    const owner = await signInPending(u.email);
    expect((await completeSignIn(owner.token, { code: codeNow(secret) })).status).toBe(200);
    const ip = randomIp();
    const attempts = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) attempts.push(await signInPending(u.email, ip));
    expect(await tokenReach(owner.token)).toBe(200);
    // Only the newest MAX_PENDING_SESSIONS pending sign-ins are kept; the rest ended.
    const live = await db()
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.user_id, u.userId), isNull(sessions.revoked_at), eq(sessions.pending_two_factor, true)));
    expect(live).toHaveLength(MAX_PENDING_SESSIONS);
    // The sessions list shows the full session only.
    const listed = await call('GET', '/v1/user/sessions', { key: owner.token });
    expect(listed.body.data).toHaveLength(1);
    expect(attempts).toHaveLength(MAX_LIVE_SESSIONS);
  });
});
