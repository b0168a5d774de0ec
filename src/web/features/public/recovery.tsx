import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { enforceAuthIpLimit } from '@/http/middleware/auth';
import {
  codeStepEmail,
  confirmPasswordReset,
  confirmPasswordResetInput,
  requestPasswordResetInBrowser,
  requestPasswordResetInput,
} from '@/services/accounts';
import { CsrfField, NewPasswordFields, SubmitButton } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import {
  CodeField,
  checkCode,
  codeStepToken,
  EmailAndCodeFields,
  EmailField,
  forgetCodeStep,
  keepCodeStep,
  LocalMailboxHint,
  signInAfterCode,
} from './code-step';
import { PublicShell } from './shell';

/*
 * A forgotten password, by emailed code (the same services as POST /v1/auth/password_reset/request and
 * /confirm, with their per-email limits, and this address's like the API's sign-in routes):
 * /login/forgot asks for the email, /login/reset takes the code and the new password, then signs in.
 * The address stays on the server with this browser's code step (never in a URL); a browser without
 * the step types it again beside the code.
 */

function ForgotView({ csrfToken, email, error }: { csrfToken: string; email: string; error?: string | undefined }) {
  return (
    <PublicShell title="Reset your password">
      <p>Enter the email address of your account. We email you a 6-digit code to set a new password.</p>
      <form method="post" action="/login/forgot" class="stack card" novalidate>
        <CsrfField token={csrfToken} />
        <EmailField email={email} error={error} autofocus />
        <SubmitButton>Email me a code</SubmitButton>
      </form>
      <p>
        <a href="/login">Back to sign in</a>
      </p>
    </PublicShell>
  );
}

export async function renderForgot(c: Context<AppEnv>): Promise<Response> {
  // Asking again from the reset page: the address of this browser's step, never one from the URL.
  const email = (await codeStepEmail(serviceCtx(c), codeStepToken(c), 'password_reset')) ?? '';
  return renderPage(c, <ForgotView csrfToken={c.get('csrfToken')} email={email} />);
}

export async function postForgot(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const email = field('email', 320).trim();
  const parsed = requestPasswordResetInput.safeParse({ email });
  if (!parsed.success) {
    return renderPage(
      c,
      <ForgotView csrfToken={c.get('csrfToken')} email={email} error="Enter an email address, like sam@example.com." />,
      400,
    );
  }
  try {
    await enforceAuthIpLimit(c);
    keepCodeStep(c, await requestPasswordResetInBrowser(serviceCtx(c), parsed.data));
  } catch (err) {
    const problem = formProblem(c, err);
    return renderPage(c, <ForgotView csrfToken={c.get('csrfToken')} email={email} error={problem.message} />, problem.status);
  }
  return c.redirect('/login/reset?notice=sent', 303);
}

type ResetField = 'email' | 'code' | 'new_password' | 'new_password_again';
interface ResetViewProps {
  csrfToken: string;
  /** The address of this browser's step; null: the form asks for it. */
  stepEmail: string | null;
  email: string;
  localMailbox: boolean;
  sent: boolean;
  errors?: Partial<Record<ResetField, string>>;
  error?: string | undefined;
}

function ResetView({ csrfToken, stepEmail, email, localMailbox, sent, errors = {}, error }: ResetViewProps) {
  const first = (['email', 'code', 'new_password', 'new_password_again'] as const).find((f) => errors[f]);
  return (
    <PublicShell
      title="Set a new password"
      notice={
        sent && stepEmail ? `If ${stepEmail} belongs to an account, a code is on its way to it. It expires in 15 minutes.` : undefined
      }
      error={error}
    >
      {stepEmail && !sent ? (
        <p>
          Enter the code we emailed to <strong>{stepEmail}</strong> and choose a new password.
        </p>
      ) : null}
      <LocalMailboxHint show={localMailbox} />
      <form method="post" action="/login/reset" class="stack card" novalidate>
        <CsrfField token={csrfToken} />
        {stepEmail ? (
          <CodeField hint="6 digits, from the email." error={errors.code} autofocus={first === 'code' || !first} />
        ) : (
          <EmailAndCodeFields email={email} errors={errors} first={first} codeHint="6 digits, from the email." />
        )}
        <NewPasswordFields
          errors={errors}
          first={first}
          hint="At least 10 characters, and not a common password. A few unrelated words make a strong one."
        />
        <p class="hint" id="reset-consequences">
          Setting a new password signs out every session and replaces your API key: programs using it need the new one (Account, API key).
        </p>
        <SubmitButton>Set the password and sign in</SubmitButton>
      </form>
      <p>
        No code? <a href="/login/forgot">Ask for a new one</a>.
      </p>
    </PublicShell>
  );
}

export async function renderReset(c: Context<AppEnv>): Promise<Response> {
  const stepEmail = await codeStepEmail(serviceCtx(c), codeStepToken(c), 'password_reset');
  return renderPage(
    c,
    <ResetView
      csrfToken={c.get('csrfToken')}
      stepEmail={stepEmail}
      email=""
      localMailbox={c.get('settings').LOCAL_MAILBOX}
      sent={c.req.query('notice') === 'sent'}
    />,
  );
}

export async function postReset(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const stepEmail = await codeStepEmail(serviceCtx(c), codeStepToken(c), 'password_reset');
  const email = stepEmail ?? field('email', 320).trim();
  const newPassword = field('new_password', 300);
  const again = (status: ContentfulStatusCode, errors: Partial<Record<ResetField, string>>, error?: string) =>
    renderPage(
      c,
      <ResetView
        csrfToken={c.get('csrfToken')}
        stepEmail={stepEmail}
        email={email}
        localMailbox={c.get('settings').LOCAL_MAILBOX}
        sent={false}
        errors={errors}
        error={error}
      />,
      status,
    );

  const parsed = await confirmPasswordResetInput.safeParseAsync({ email, code: field('code', 20).trim(), new_password: newPassword });
  const errors: Partial<Record<ResetField, string>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const f = issue.path[0];
    if (f === 'email') errors.email ??= 'Enter the email address of your account.';
    if (f === 'code') errors.code ??= 'Enter the 6 digits of the code.';
    // A common or repetitive password: the policy's own words (written for people).
    if (f === 'new_password') errors.new_password ??= issue.code === 'custom' ? issue.message : 'Use 10 to 200 characters.';
  }
  if (!errors.new_password && newPassword !== field('new_password_again', 300)) {
    errors.new_password_again = 'The two passwords are not the same.';
  }
  if (!parsed.success || Object.keys(errors).length) return again(400, errors);
  const refused = await checkCode(c, () => confirmPasswordReset(serviceCtx(c), parsed.data));
  if (refused) return again(refused.status, refused.errors, refused.error);
  forgetCodeStep(c);
  return signInAfterCode(c, { email: parsed.data.email, password: newPassword }, '/dashboard', '/login?notice=password_reset');
}
