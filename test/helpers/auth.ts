import { and, desc, eq } from 'drizzle-orm';
import { authCodes, emailOutbox } from '../../src/db/schema';
import { type ApiResult, call } from './api';
import { db } from './factory';

/** A fresh client address, so each test has its own per-IP budgets on the public auth routes. */
export function randomIp(): string {
  const b = crypto.getRandomValues(new Uint8Array(4));
  return `10.${b[0]}.${b[1]}.${(b[2]! % 250) + 1}`;
}

export const fromIp = (ip: string) => ({ 'CF-Connecting-IP': ip });

/** A POST to a public auth route from `ip`. */
export function authCall(path: string, body: unknown, ip: string = randomIp()): Promise<ApiResult> {
  return call('POST', path, { body, headers: fromIp(ip) });
}

export const uniqueEmail = (tag: string) => `${tag}-${crypto.randomUUID()}@example.test`;

/** The code in the newest email of `template` to `email` (the test mailbox keeps bodies readable). */
export async function lastCode(email: string, template: 'email_verification' | 'password_reset' = 'email_verification'): Promise<string> {
  const [mail] = await db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to_address, email), eq(emailOutbox.template, template)))
    .orderBy(desc(emailOutbox.created_at), desc(emailOutbox.id))
    .limit(1);
  const code = /code is (\d{6})/.exec(mail?.text_body ?? '')?.[1];
  if (!code) throw new Error(`no ${template} code mailed to ${email}`);
  return code;
}

/** A six-digit code other than `code`. */
export const wrongCode = (code: string, n = 0) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');

/** Attempts taken on the codes of an email (all codes, all purposes asked). */
export async function attemptsOf(email: string, purpose: 'verify_email' | 'password_reset' = 'verify_email') {
  const rows = await db()
    .select({ attempts: authCodes.attempts })
    .from(authCodes)
    .where(and(eq(authCodes.email, email), eq(authCodes.purpose, purpose)));
  return rows.reduce((n, r) => n + r.attempts, 0);
}

export const PASSWORD = 'a long enough password';

/** Registers a shifter account from `ip` and returns its user id. */
export async function registerShifter(email: string, password = PASSWORD, ip = randomIp(), extra: Record<string, unknown> = {}) {
  const res = await authCall('/v1/auth/register', { email, password, display_name: 'Test Person', shifter: {}, ...extra }, ip);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.user_id as string;
}

/** Registers and verifies an account; returns its API key and user id. */
export async function registerVerified(email: string, password = PASSWORD, extra: Record<string, unknown> = {}) {
  const ip = randomIp();
  const userId = await registerShifter(email, password, ip, extra);
  const res = await authCall('/v1/auth/verify_email', { email, code: await lastCode(email), password }, ip);
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { userId, key: res.body.api_key.key as string };
}
