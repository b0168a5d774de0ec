// inside: services/accounts
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/db/schema';
import { type AppBindings, getSettings } from '../../src/env';
import type { LogFields, Logger } from '../../src/lib/log';
import {
  beginTotpEnrolment,
  completeSecondFactor,
  confirmTotpEnrolment,
  login,
  sendSignInSms,
  setSmsMethod,
  totpCodeAt,
  twoFactorStatus,
} from '../../src/services/accounts';
import type { ServiceContext } from '../../src/services/kernel';
import { SMS_CODE_SENDS } from '../../src/services/accounts/two-factor/sms';
import { randomIp } from '../helpers/auth';
import { contextAt } from '../helpers/clock';
import { db, makeUser, TEST_PASSWORD, type TestUser } from '../helpers/factory';
import { workerWith } from '../helpers/api';
import { WebClient } from '../helpers/web';

/** A logger that keeps what it is told, so a test can read the local stand-in's text message. */
function recordingLogger(lines: Array<{ msg: string; fields?: LogFields | undefined }>): Logger {
  const log: Logger = {
    info: (msg, fields) => lines.push({ msg, fields }),
    warn: (msg, fields) => lines.push({ msg, fields }),
    error: (msg, fields) => lines.push({ msg, fields }),
    child: () => log,
  };
  return log;
}

/** A context acting as `u` with operator settings changed (a fresh env object, so settings are parsed anew). */
function ctxWith(u: TestUser, vars: Record<string, string>, log?: Logger): ServiceContext {
  const bindings = { ...(env as AppBindings), ...vars } as AppBindings;
  const base = contextAt(Date.now(), u);
  return { ...base, env: bindings, settings: getSettings(bindings), now: () => Date.now(), ...(log ? { log } : {}) };
}

const secrets = new Map<string, string>();
const secretOf = async (u: TestUser) => secrets.get(u.userId)!;

async function twoFactorUserWithPhone(): Promise<TestUser> {
  const u = await makeUser({ shifter: true });
  await db().update(users).set({ phone: '+15551234567' }).where(eq(users.id, u.userId));
  const at = Date.now() - 60_000;
  const { secret } = await beginTotpEnrolment(contextAt(at, u));
  await confirmTotpEnrolment(contextAt(at, u), totpCodeAt(secret, at), TEST_PASSWORD);
  secrets.set(u.userId, secret);
  return u;
}

async function pendingSignIn(ctx: ServiceContext, u: TestUser) {
  const out = await login(ctx, { email: u.email, password: TEST_PASSWORD }, randomIp());
  expect(out.view.two_factor_required).toBe(true);
  return { sessionId: out.sessionId, userId: u.userId };
}

const SMS_ON = { TWO_FACTOR_SMS_ENABLED: 'true' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('two-factor by text message', () => {
  it('is off by default: not offered, cannot be turned on, no code is sent', async () => {
    const u = await twoFactorUserWithPhone();
    const ctx = ctxWith(u, {});
    await expect(setSmsMethod(ctx, true)).rejects.toMatchObject({ code: 'CONFLICT-ERR' });
    // Even a row that says SMS is on is not offered while the operator setting is off.
    await setSmsMethod(ctxWith(u, SMS_ON), true);
    expect((await twoFactorStatus(ctx, u.userId)).methods).toEqual(['totp']);
    await expect(sendSignInSms(ctx, await pendingSignIn(ctx, u))).rejects.toMatchObject({ code: 'CONFLICT-ERR' });
  });

  it('when offered and turned on, a texted code signs in once (local stand-in)', async () => {
    const u = await twoFactorUserWithPhone();
    const lines: Array<{ msg: string; fields?: LogFields | undefined }> = [];
    const ctx = ctxWith(u, SMS_ON, recordingLogger(lines));
    await setSmsMethod(ctx, true);
    expect((await twoFactorStatus(ctx, u.userId)).methods).toEqual(['totp', 'sms']);

    const pending = await pendingSignIn(ctx, u);
    expect(await sendSignInSms(ctx, pending)).toEqual({ sent_to: '•••• 67' });
    const sms = lines.find((l) => l.msg.startsWith('sms'));
    expect(sms?.fields?.to).toBe('+15551234567');
    const code = /code is (\d{6})/.exec(String(sms?.fields?.text))?.[1];
    expect(code).toMatch(/^\d{6}$/);

    await completeSecondFactor(ctx, pending, { code: code! });
    // The same code cannot promote a second sign-in.
    const other = await pendingSignIn(ctx, u);
    await expect(completeSecondFactor(ctx, other, { code: code! })).rejects.toMatchObject({ code: 'TWO-FACTOR-CODE-ERR' });
  });

  it('sends through Twilio when configured (outbound HTTP intercepted; anything else fails)', async () => {
    const u = await twoFactorUserWithPhone();
    const ctx = ctxWith(u, { ...SMS_ON, TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'tok', SMS_FROM: '+15550000000' });
    await setSmsMethod(ctx, true);
    const seen: Request[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init);
      if (!req.url.startsWith('https://api.twilio.com/')) throw new Error(`unexpected outbound call to ${req.url}`);
      seen.push(req);
      return new Response('{"sid":"SM1"}', { status: 201 });
    });
    const pending = await pendingSignIn(ctx, u);
    await sendSignInSms(ctx, pending);
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.url).toBe('https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json');
    expect(req.headers.get('Authorization')).toBe(`Basic ${btoa('AC123:tok')}`);
    const form = new URLSearchParams(await req.text());
    expect(form.get('To')).toBe('+15551234567');
    expect(form.get('From')).toBe('+15550000000');
    const code = /code is (\d{6})/.exec(form.get('Body') ?? '')?.[1];
    await completeSecondFactor(ctx, pending, { code: code! });

    // A provider failure is an error, not a silent success.
    vi.mocked(globalThis.fetch).mockResolvedValueOnce(new Response('nope', { status: 500 }));
    await expect(sendSignInSms(ctx, await pendingSignIn(ctx, u))).rejects.toThrow(/sms provider answered 500/);
  });

  it('limits the codes texted per account', async () => {
    const u = await twoFactorUserWithPhone();
    const ctx = ctxWith(u, SMS_ON, recordingLogger([]));
    await setSmsMethod(ctx, true);
    const pending = await pendingSignIn(ctx, u);
    for (let i = 0; i < SMS_CODE_SENDS.limit; i++) await sendSignInSms(ctx, pending);
    await expect(sendSignInSms(ctx, pending)).rejects.toMatchObject({ code: 'RATE-LIMIT-ERR' });
  });

  it('turning two-factor on needs the app first; SMS cannot be turned on without a phone', async () => {
    const u = await makeUser({ shifter: true });
    await expect(setSmsMethod(ctxWith(u, SMS_ON), true)).rejects.toMatchObject({ code: 'CONFLICT-ERR' });
    const withApp = await twoFactorUserWithPhone();
    await db().update(users).set({ phone: null }).where(eq(users.id, withApp.userId));
    await expect(setSmsMethod(ctxWith(withApp, SMS_ON), true)).rejects.toMatchObject({ code: 'CONFLICT-ERR' });
  });
});

describe('two-factor by text message, through the pages', () => {
  it('is turned on on /account/security and offered as "Text me a code" at sign-in', async () => {
    const u = await twoFactorUserWithPhone();
    const worker = workerWith({ ...SMS_ON, LOG_LEVEL: 'info' });
    // Signed in with the app's code of the next step (the setup used an earlier one).
    const b = new WebClient('https://app.example.com', { 'CF-Connecting-IP': randomIp() }, worker);
    await b.signIn(u.email, TEST_PASSWORD);
    await b.get('/login/2fa');
    const secret = await secretOf(u);
    expect((await b.post('/login/2fa', { code: totpCodeAt(secret, Date.now() + 30_000) })).status).toBe(303);

    const security = await b.get('/account/security');
    expect(security.html).toContain('Codes by text message');
    const on = await b.post('/account/security/sms', { on: '1' });
    expect(on.location).toBe('/account/security?notice=sms_on');
    await b.post('/logout');

    await b.signIn(u.email, TEST_PASSWORD);
    const challenge = await b.get('/login/2fa');
    expect(challenge.html).toContain('action="/login/2fa/sms"');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      printed.push(String(line));
    });
    const sent = await b.post('/login/2fa/sms');
    expect(sent.status).toBe(200);
    expect(sent.html).toContain('We texted a code to •••• 67.');
    const code = printed.map((l) => /code is (\d{6})/.exec(l)?.[1]).find(Boolean);
    expect(code).toMatch(/^\d{6}$/);
    expect((await b.post('/login/2fa', { code: code! })).location).toBe('/dashboard');

    // Without the operator setting, neither the card nor the button is there.
    const plain = new WebClient('https://app.example.com', { 'CF-Connecting-IP': randomIp() });
    await plain.signIn(u.email, TEST_PASSWORD);
    expect((await plain.get('/login/2fa')).html).not.toContain('/login/2fa/sms');
  });
});
