import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { enforceAuthIpLimit } from '@/http/middleware/auth';
import { clearAppCookie, readAppCookie, setAppCookie } from '@/http/cookies';
import { AppError } from '@/lib/errors';
import type { CodeStepCookie } from '@/services/accounts';
import { TextField } from '@/web/components';
import { formProblem } from '@/web/forms';
import { startWebSession } from '../sign-in/login';

/*
 * The emailed-code step that sign-up (/signup/verify) and a forgotten password (/login/reset) share:
 * the local-mailbox hint, the email and code fields, the check of the code, and the sign-in after it.
 */

/**
 * This browser's code step (services/accounts/code-steps.ts): the cookie names the step, the server
 * keeps the address it is for, so no page of the step carries the address in its URL.
 */
export const codeStepToken = (c: Context<AppEnv>) => readAppCookie(c, 'code_step');

export function keepCodeStep(c: Context<AppEnv>, step: CodeStepCookie): void {
  setAppCookie(c, 'code_step', step.token, { maxAgeSeconds: Math.max(0, Math.floor((step.expires_at - Date.now()) / 1000)) });
}

export const forgetCodeStep = (c: Context<AppEnv>) => clearAppCookie(c, 'code_step');

/** The code field alone (a step whose address the server keeps). */
export function CodeField({ error, hint, autofocus }: { error: string | undefined; hint: string; autofocus: boolean }) {
  return (
    <TextField
      label="Code"
      name="code"
      inputMode="numeric"
      pattern="[0-9]{6}"
      maxLength={6}
      autocomplete="one-time-code"
      required
      hint={hint}
      error={error}
      autofocus={autofocus}
    />
  );
}

/** Where the code is when no email is sent (local development). */
export function LocalMailboxHint({ show }: { show: boolean }) {
  return show ? (
    <p class="hint">
      Local development: emails are not sent. The code is in the local mailbox: the <code>npm run dev</code> log prints it under{' '}
      <code>email (local mailbox)</code>, and the <code>email_outbox</code> table keeps it.
    </p>
  ) : null;
}

interface EmailAndCodeFieldsProps {
  email: string;
  errors: { email?: string | undefined; code?: string | undefined };
  /** The form's first field with an error; with none, the focus goes to the email if it is empty, else to the code. */
  first: string | undefined;
  codeHint: string;
}

/** The account's email: the field that asks for a code, and the one beside the code. */
export function EmailField({ email, error, autofocus }: { email: string; error: string | undefined; autofocus: boolean }) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      value={email}
      autocomplete="email"
      required
      maxLength={254}
      error={error}
      autofocus={autofocus}
    />
  );
}

/** The email the code went to, and the 6-digit code. */
export function EmailAndCodeFields({ email, errors, first, codeHint }: EmailAndCodeFieldsProps) {
  return (
    <>
      <EmailField email={email} error={errors.email} autofocus={first === 'email' || (!first && !email)} />
      <CodeField hint={codeHint} error={errors.code} autofocus={first === 'code' || (!first && !!email)} />
    </>
  );
}

/** A refused code step as its form shows it: a wrong code under the code field, anything else above the form. */
export interface CodeRefusal {
  status: ContentfulStatusCode;
  errors: { code?: string };
  error?: string;
}

/**
 * Counts the request against this address (like the API's sign-in routes), then runs the step's
 * service; null when it went through.
 */
export async function checkCode(c: Context<AppEnv>, run: () => Promise<unknown>): Promise<CodeRefusal | null> {
  try {
    await enforceAuthIpLimit(c);
    await run();
    return null;
  } catch (err) {
    if (err instanceof AppError && err.code === 'VERIFY-CODE-ERR') return { status: 400, errors: { code: err.message } };
    const problem = formProblem(c, err);
    return { status: problem.status, errors: {}, error: problem.message };
  }
}

/**
 * Signs the browser in with the password the step just proved, on to `landing`. The step is done
 * whatever happens here: if the sign-in itself is refused (a limit), the sign-in page at `fallback`
 * finishes it.
 */
export async function signInAfterCode(
  c: Context<AppEnv>,
  input: { email: string; password: string },
  landing: string,
  fallback: string,
): Promise<Response> {
  try {
    return c.redirect(await startWebSession(c, input, landing), 303);
  } catch (err) {
    formProblem(c, err);
    return c.redirect(fallback, 303);
  }
}
