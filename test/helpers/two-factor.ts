import { env } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import type { AppError, ErrorCode } from '../../src/lib/errors';
import { beginTotpEnrolment, confirmTotpEnrolment, login, totpCodeAt } from '../../src/services/accounts';
import { type ApiResult, call } from './api';
import { authCall, randomIp } from './auth';
import { contextAt } from './clock';
import { type TestUser, TEST_PASSWORD } from './factory';

const STEP_MS = 30_000;

/**
 * Turns two-factor on for `user` as the settings page would, with the clock at `at`. API tests enrol
 * ten minutes in the past by default: the confirming code's step then lies well before the real
 * clock's, so the codes of "now" and of the next step are both still unused.
 */
export async function enableTwoFactor(user: TestUser, at = Date.now() - 10 * 60_000): Promise<{ secret: string; backupCodes: string[] }> {
  const ctx = contextAt(at, user);
  const { secret } = await beginTotpEnrolment(ctx);
  const { backup_codes } = await confirmTotpEnrolment(ctx, totpCodeAt(secret, at), TEST_PASSWORD);
  return { secret, backupCodes: backup_codes };
}

/** The code the app shows now (real clock, as the Worker reads it). */
export const codeNow = (secret: string) => totpCodeAt(secret, Date.now());

/** The code of the next 30-second step: still accepted (±1 step), and newer than the code of now. */
export const nextStepCode = (secret: string) => totpCodeAt(secret, Date.now() + STEP_MS);

/** A six-digit code that is none of the ones valid around `at` (so it is wrong, not merely early or late). */
export function wrongCodeFor(secret: string, at = Date.now(), n = 0): string {
  const t = at;
  const valid = new Set([-2, -1, 0, 1, 2].map((k) => totpCodeAt(secret, t + k * STEP_MS)));
  let candidate = (Number(totpCodeAt(secret, t)) + 1 + n) % 1_000_000;
  while (valid.has(String(candidate).padStart(6, '0'))) candidate = (candidate + 1) % 1_000_000;
  return String(candidate).padStart(6, '0');
}

/** `POST /v1/auth/login` for a two-factor account: asserts the answer is pending and returns it. */
export async function signInPending(email: string, ip = randomIp()): Promise<{ token: string; body: any }> {
  const res = await authCall('/v1/auth/login', { email, password: TEST_PASSWORD }, ip);
  if (res.status !== 200 || res.body.two_factor_required !== true) {
    throw new Error(`expected a pending sign-in, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { token: res.body.session_token as string, body: res.body };
}

/** `POST /v1/auth/login/two_factor` with a code or a backup code. */
export function completeSignIn(token: string, factor: { code: string } | { backup_code: string }, ip = randomIp()): Promise<ApiResult> {
  return authCall('/v1/auth/login/two_factor', { session_token: token, ...factor }, ip);
}

/** Whether a bearer token reaches the API, and as what: 200, or the error code it is refused with. */
export async function tokenReach(token: string): Promise<number | string> {
  const res = await call('GET', '/v1/user/details', { key: token });
  return res.status === 200 ? 200 : (res.body?.error?.code as string);
}

/** Signs in through the service with a fixed clock, optionally presenting a trusted-device cookie. */
export const loginAt = (at: number, user: TestUser, deviceCookie?: string) =>
  login(contextAt(at, user), { email: user.email, password: TEST_PASSWORD }, randomIp(), { deviceCookie });

/** Awaits a service call that must fail with this error code. */
export async function expectAppError(p: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  const err = await p.then(
    () => {
      throw new Error(`expected ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ name: 'AppError', code });
  return err as AppError;
}

/**
 * Holds the D1 batches whose first statement matches `first` until `count` of them have arrived,
 * `release()` is called, or `maxWaitMs` passed since the first one; then lets them all go. With
 * concurrent callers, every one has then read before any of them writes (the worst interleaving);
 * with one, the test can act while its write is in flight. The batches still run against the real
 * D1; undo with vi.restoreAllMocks(). Only for service calls made from the test itself: a request
 * through the Worker's fetch runs in a context of its own, which cannot be resumed from another.
 */
export function holdBatchesTogether(first: RegExp, count: number, maxWaitMs = 3000) {
  const real = env.DB.batch.bind(env.DB);
  const waiting: Array<() => void> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let open = false;
  const held = {
    count: 0,
    release() {
      open = true;
      clearTimeout(timer);
      for (const go of waiting.splice(0)) go();
    },
  };
  vi.spyOn(env.DB, 'batch').mockImplementation(async (statements) => {
    const sqlText = String((statements[0] as unknown as { statement?: string }).statement ?? '');
    if (!open && first.test(sqlText)) {
      held.count++;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length >= count) held.release();
        else timer ??= setTimeout(() => held.release(), maxWaitMs);
      });
    }
    return real(statements);
  });
  return held;
}

export { until } from './sockets';
