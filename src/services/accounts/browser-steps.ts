import { and, eq } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../kernel';
import { type CodeStepPurpose, consumeCodeStep, newCodeStep, readCodeStep, renewCodeStep } from './code-steps';
import { codeMatches, takeAttempt } from './codes';
import { requestPasswordReset } from './passwords';
import type { ShifterRowOptions } from './profiles';
import { markVerified, registerAccount, resendVerification } from './register';
import type { ApiKeyIssued, Registered, RegisterInput, RequestPasswordResetInput } from './schemas';
import { type LoginOptions, type LoginOutcome, openSession } from './sessions';

/*
 * The emailed-code steps as a browser takes them (the web's sign-up and password reset): the same
 * services as the API's, plus a code step (code-steps.ts) that keeps the address on the server, bound
 * to this browser's cookie, so no page carries it in its URL and the sign-up's confirmation asks
 * only for the code.
 */

/** What the browser keeps: the step's token (its cookie's value) and when the step ends. */
export interface CodeStepCookie {
  token: string;
  expires_at: number;
}

const STEP_CODE_REFUSED = 'The code is wrong or has expired, or too many attempts were made; ask for a new code.';
const STEP_GONE =
  'This confirmation was started in another browser or more than an hour ago: enter your email, the code and your password, or sign up again.';

/** Registers as POST /v1/auth/register does, and starts this browser's step for the code just mailed. */
export async function registerInBrowser(
  ctx: ServiceContext,
  input: RegisterInput,
  opts: ShifterRowOptions = {},
): Promise<{ registered: Registered; step: CodeStepCookie }> {
  const registered = await registerAccount(ctx, input, opts);
  const step = await newCodeStep(ctx, 'verify_email', registered.verification.sent_to, registered.user_id);
  await runBatch(ctx.db, [step.insert]);
  return { registered, step: { token: step.token, expires_at: step.expiresAt } };
}

/**
 * A new code for this browser's sign-up (as POST /v1/auth/resend_verification: silent when the
 * account is verified or was registered again since); the step lives another hour. False when the
 * browser has no live step (the page then asks for the email).
 */
export async function resendVerificationInBrowser(ctx: ServiceContext, token: string | undefined): Promise<boolean> {
  const step = await readCodeStep(ctx, token, 'verify_email');
  if (!step) return false;
  await resendVerification(ctx, { email: step.email });
  await runBatch(ctx.db, [renewCodeStep(ctx, step.id)]);
  return true;
}

/**
 * Confirms the sign-up this browser started with the emailed code alone, and signs the browser in:
 * the step proves this is the browser that chose the password (its token was set in the answer to
 * the registration), the code that it reads the mailbox. The code's attempts are taken and capped as
 * for POST /v1/auth/verify_email (per code and per address), and the step must name the account as
 * it is now (registering the address again elsewhere voids it). The code, the step and the key are
 * one guarded write; the session follows (two-factor cannot be on yet for an unverified account, but
 * the session obeys it as a sign-in does).
 */
export async function verifyEmailInBrowser(
  ctx: ServiceContext,
  input: { step_token: string | undefined; code: string },
  place: { ip: string; options?: LoginOptions },
): Promise<{ user_id: string; api_key: ApiKeyIssued; login: LoginOutcome }> {
  const refused = () => new AppError('VERIFY-CODE-ERR', STEP_CODE_REFUSED);
  const step = await readCodeStep(ctx, input.step_token, 'verify_email');
  if (!step?.userId) throw new AppError('VERIFY-CODE-ERR', STEP_GONE);
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, step.userId), eq(users.email, step.email)))
    .limit(1);
  if (!user || user.email_verified_at !== null) throw refused();
  const attempt = await takeAttempt(ctx, 'verify_email', step.email, user.id);
  if (!attempt || !(await codeMatches(attempt, input.code))) throw refused();
  const issued = await markVerified(ctx, user.id, attempt.id, (applied) => [consumeCodeStep(ctx, step.id, ctx.now(), applied)], refused);
  const login = await openSession(ctx, user, place.ip, place.options);
  return { user_id: issued.user_id, api_key: issued.api_key, login };
}

/** Asks for a reset code as POST /v1/auth/password_reset/request does, and starts this browser's step for it. */
export async function requestPasswordResetInBrowser(ctx: ServiceContext, input: RequestPasswordResetInput): Promise<CodeStepCookie> {
  await requestPasswordReset(ctx, input);
  // Made whether or not the address has an account, so the step tells nothing about it.
  const step = await newCodeStep(ctx, 'password_reset', input.email, null);
  await runBatch(ctx.db, [step.insert]);
  return { token: step.token, expires_at: step.expiresAt };
}

/** The address this browser's live step sent its code to; null without one. */
export async function codeStepEmail(ctx: ServiceContext, token: string | undefined, purpose: CodeStepPurpose): Promise<string | null> {
  return (await readCodeStep(ctx, token, purpose))?.email ?? null;
}
