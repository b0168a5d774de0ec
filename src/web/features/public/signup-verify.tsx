import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { clientIp, enforceAuthIpLimit } from '@/http/middleware/auth';
import { readAppCookie } from '@/http/cookies';
import {
  codeStepEmail,
  resendVerification,
  resendVerificationInBrowser,
  resendVerificationInput,
  verifyEmail,
  verifyEmailInBrowser,
  verifyEmailInput,
} from '@/services/accounts';
import { CsrfField, SubmitButton, TextField } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { beginWebSession } from '../sign-in/login';
import { CodeField, checkCode, codeStepToken, EmailAndCodeFields, forgetCodeStep, LocalMailboxHint, signInAfterCode } from './code-step';
import { inviteToken, joinAfterVerify } from './join-signup';
import { type Kind, kindOf, landingFor } from './signup';
import { PublicShell } from './shell';

/*
 * The sign-up's code step (/signup/verify). The browser that signed up holds the step's cookie and
 * the server the address (services/accounts/code-steps.ts): the page names the address and asks for
 * the code only, then signs the browser in. The address never sits in a URL. A browser without the
 * step (another device, or over an hour later) gets the API's three fields: email, code, password.
 */

const VERIFY_NOTICES = {
  sent: 'We emailed you a 6-digit code. It expires in 15 minutes.',
  resent: 'If this account still waits for its code, a new one is on its way; earlier codes no longer work.',
} as const;

type VerifyField = 'email' | 'code' | 'password';
interface VerifyViewProps {
  csrfToken: string;
  /** The address of this browser's step; null: the browser has none, so the form asks for it. */
  stepEmail: string | null;
  /** What the three-field form shows in its email field. */
  email: string;
  kind: Kind;
  /** The crew invitation's token the account joins once confirmed ('' for none). */
  invite: string;
  localMailbox: boolean;
  notice?: string | undefined;
  errors?: Partial<Record<VerifyField, string>>;
  error?: string | undefined;
}

function VerifyView({ csrfToken, stepEmail, email, kind, invite, localMailbox, notice, errors = {}, error }: VerifyViewProps) {
  const first = (['email', 'code', 'password'] as const).find((f) => errors[f]);
  const again = `/signup?${new URLSearchParams({ as: kind, ...(invite ? { invite } : {}) })}`;
  const carried = (
    <>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="as" value={kind} />
      {invite ? <input type="hidden" name="invite" value={invite} /> : null}
    </>
  );
  return (
    <PublicShell title="Confirm your email" notice={notice} error={error}>
      {stepEmail ? (
        <p>
          Enter the code we emailed to <strong>{stepEmail}</strong> to finish and sign in.
          {invite ? ' Then you are in the crew that invited you.' : ''}
        </p>
      ) : (
        <p>
          Enter the email you signed up with, the code we emailed to it and the password you chose, to finish and sign in.
          {invite ? ' Then you are in the crew that invited you.' : ''}
        </p>
      )}
      <LocalMailboxHint show={localMailbox} />
      <form method="post" action="/signup/verify" class="stack card" novalidate>
        {carried}
        {stepEmail ? (
          <CodeField hint="6 digits." error={errors.code} autofocus />
        ) : (
          <>
            <EmailAndCodeFields email={email} errors={errors} first={first} codeHint="6 digits." />
            <TextField
              label="Password"
              name="password"
              type="password"
              autocomplete="current-password"
              required
              maxLength={200}
              error={errors.password}
              autofocus={first === 'password'}
            />
          </>
        )}
        <SubmitButton>Confirm and sign in</SubmitButton>
      </form>
      <form method="post" action="/signup/resend" class="inline-form">
        {carried}
        {stepEmail ? null : <input type="hidden" name="email" value={email} />}
        <p>
          No code, or it expired?{' '}
          <button type="submit" class="button-link">
            Send a new code
          </button>
        </p>
      </form>
      {stepEmail ? (
        <p>
          Not your address? <a href={again}>Sign up again</a>.
        </p>
      ) : null}
    </PublicShell>
  );
}

type Shown = Omit<VerifyViewProps, 'csrfToken' | 'localMailbox'>;
const show = (c: Context<AppEnv>, props: Shown, status: ContentfulStatusCode = 200) =>
  renderPage(c, <VerifyView csrfToken={c.get('csrfToken')} localMailbox={c.get('settings').LOCAL_MAILBOX} {...props} />, status);

export async function renderVerify(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.query('notice') ?? 'sent';
  const stepEmail = await codeStepEmail(serviceCtx(c), codeStepToken(c), 'verify_email');
  const notice = stepEmail && Object.hasOwn(VERIFY_NOTICES, key) ? VERIFY_NOTICES[key as keyof typeof VERIFY_NOTICES] : undefined;
  return show(c, { stepEmail, email: '', kind: kindOf(c.req.query('as')), invite: inviteToken(c.req.query('invite')), notice });
}

/**
 * Confirms the email with the same rules as POST /v1/auth/verify_email (attempts capped per code
 * and per address, and this address's like the API's sign-in routes), then signs the browser in:
 * with this browser's step, from the code alone; without it, from the email, the code and the
 * password, as the API does.
 */
export async function postVerify(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const kind = kindOf(field('as', 16));
  const invite = inviteToken(field('invite', 64));
  const token = codeStepToken(c);
  const stepEmail = await codeStepEmail(serviceCtx(c), token, 'verify_email');
  const email = stepEmail ? '' : field('email', 320).trim();
  const again = (status: ContentfulStatusCode, errors: Partial<Record<VerifyField, string>>, error?: string) =>
    show(c, { stepEmail, email, kind, invite, errors, error }, status);
  const code = field('code', 20).trim();

  if (stepEmail) {
    if (!/^[0-9]{6}$/.test(code)) return again(400, { code: 'Enter the 6 digits of the code.' });
    let done: Awaited<ReturnType<typeof verifyEmailInBrowser>> | undefined;
    const refused = await checkCode(c, async () => {
      done = await verifyEmailInBrowser(
        serviceCtx(c),
        { step_token: token, code },
        { ip: clientIp(c), options: { deviceCookie: readAppCookie(c, 'device'), userAgent: c.req.header('User-Agent') } },
      );
    });
    if (refused || !done) return again(refused?.status ?? 400, refused?.errors ?? {}, refused?.error);
    const verified = done;
    forgetCodeStep(c);
    const landing = invite ? await joinAfterVerify(c, invite, verified.api_key.key) : landingFor(kind);
    return c.redirect(await beginWebSession(c, async () => verified.login, landing), 303);
  }

  const password = field('password', 300);
  const parsed = verifyEmailInput.safeParse({ email, code, password });
  if (!parsed.success) {
    const errors: Partial<Record<VerifyField, string>> = {};
    for (const issue of parsed.error.issues) {
      const f = issue.path[0];
      if (f === 'email') errors.email ??= 'Enter the email address you signed up with.';
      if (f === 'code') errors.code ??= 'Enter the 6 digits of the code.';
      if (f === 'password') errors.password ??= 'Enter the password you chose.';
    }
    return again(400, errors);
  }
  let apiKey: string | undefined;
  const refused = await checkCode(c, async () => {
    apiKey = (await verifyEmail(serviceCtx(c), parsed.data)).api_key.key;
  });
  if (refused) return again(refused.status, refused.errors, refused.error);
  // Invited to a crew: the confirmed account joins it first, and lands on the join page saying so.
  const landing = invite && apiKey ? await joinAfterVerify(c, invite, apiKey) : landingFor(kind);
  return signInAfterCode(
    c,
    { email: parsed.data.email, password },
    landing,
    `/login?${new URLSearchParams({ next: landing, notice: 'verified' })}`,
  );
}

/** A new code (the same service as POST /v1/auth/resend_verification: silent for unknown emails), to this browser's step's address or the one typed. */
export async function postResend(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const kind = kindOf(field('as', 16));
  const invite = inviteToken(field('invite', 64));
  const next = `/signup/verify?${new URLSearchParams({ as: kind, notice: 'resent', ...(invite ? { invite } : {}) })}`;
  try {
    await enforceAuthIpLimit(c);
    if (await resendVerificationInBrowser(serviceCtx(c), codeStepToken(c))) return c.redirect(next, 303);
  } catch (err) {
    const problem = formProblem(c, err);
    const stepEmail = await codeStepEmail(serviceCtx(c), codeStepToken(c), 'verify_email');
    return show(c, { stepEmail, email: '', kind, invite, error: problem.message }, problem.status);
  }
  const email = field('email', 320).trim();
  const parsed = resendVerificationInput.safeParse({ email });
  if (!parsed.success)
    return show(c, { stepEmail: null, email, kind, invite, errors: { email: 'Enter the email address you signed up with.' } }, 400);
  try {
    await resendVerification(serviceCtx(c), parsed.data);
  } catch (err) {
    const problem = formProblem(c, err);
    return show(c, { stepEmail: null, email, kind, invite, error: problem.message }, problem.status);
  }
  return c.redirect(next, 303);
}
