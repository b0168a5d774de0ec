import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { enforceAuthIpLimit } from '@/http/middleware/auth';
import {
  registerAccount,
  registerInput,
  resendVerification,
  resendVerificationInput,
  verifyEmail,
  verifyEmailInput,
} from '@/services/accounts';
import { AppError } from '@/lib/errors';
import { CsrfField, SubmitButton, TextField } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { checkCode, EmailAndCodeFields, LocalMailboxHint, signInAfterCode } from './code-step';
import { joinPath } from './join';
import { type CarriedInvite, carriedInvite, InviteLine, inviteToken, joinAfterVerify } from './join-signup';
import { PublicShell, signedInViewer } from './shell';

/** Which profiles a new account gets: the sign-up form's first choice. */
const KINDS = [
  { value: 'shifter', label: 'Find shifts to work (a shifter account)' },
  { value: 'business', label: 'Post shifts for my business (a business account)' },
  { value: 'both', label: 'Both' },
] as const;
type Kind = (typeof KINDS)[number]['value'];
const kindOf = (v: string | undefined): Kind => (v === 'business' || v === 'both' ? v : 'shifter');

/** Where a new account lands once signed in: the shifter side, or the business's dashboard. */
const landingFor = (kind: Kind) => (kind === 'shifter' ? '/dashboard/shifter' : '/dashboard');

type SignupField = 'display_name' | 'email' | 'password' | 'business_name' | 'timezone';
interface SignupValues {
  kind: Kind;
  display_name: string;
  email: string;
  business_name: string;
  timezone: string;
}

/** The form's words for a refused field (the schema's own messages are written for programs). */
const FIELD_MESSAGES: Record<SignupField, string> = {
  display_name: 'Enter your name (at most 100 characters).',
  email: 'Enter an email address, like sam@example.com.',
  password: 'Use 10 to 200 characters.',
  business_name: 'Enter the business’s name (at most 120 characters).',
  timezone: 'Enter a time zone as the IANA database writes it, e.g. America/New_York or Europe/Lisbon.',
};

/** The registration's field a schema issue concerns (its path in RegisterInput). */
function fieldOfIssue(path: readonly PropertyKey[]): SignupField | null {
  const [head, sub] = path;
  if (head === 'business') return sub === 'timezone' ? 'timezone' : 'business_name';
  if (head === 'display_name' || head === 'email' || head === 'password') return head;
  return null;
}

interface SignupViewProps {
  csrfToken: string;
  values: SignupValues;
  /** The crew invitation the new account joins (/signup?invite=…): no business-only account then. */
  invite?: CarriedInvite;
  errors?: Partial<Record<SignupField, string>>;
  error?: string | undefined;
}

function SignupView({ csrfToken, values, invite = null, errors = {}, error }: SignupViewProps) {
  const first = (['display_name', 'email', 'password', 'business_name', 'timezone'] as const).find((f) => errors[f]);
  const token = invite?.token ?? null;
  return (
    <PublicShell title="Create an account" current="/signup" error={error}>
      <InviteLine invite={invite} />
      <p>
        One account can work shifts, run a business, or both; you can add the other side later. Already have an account?{' '}
        <a href={token ? `/login?${new URLSearchParams({ next: joinPath(token) })}` : '/login'}>Sign in</a>.
      </p>
      <form method="post" action="/signup" class="stack card" novalidate>
        <CsrfField token={csrfToken} />
        {token ? <input type="hidden" name="invite" value={token} /> : null}
        <fieldset>
          <legend>I want to</legend>
          {(token ? KINDS.filter((k) => k.value !== 'business') : KINDS).map((k) => (
            <div class="choice">
              <input type="radio" id={`kind-${k.value}`} name="kind" value={k.value} checked={values.kind === k.value} />
              <label for={`kind-${k.value}`}>{k.label}</label>
            </div>
          ))}
        </fieldset>
        <TextField
          label="Your name"
          name="display_name"
          value={values.display_name}
          autocomplete="name"
          required
          maxLength={100}
          error={errors.display_name}
          autofocus={first === 'display_name' || !first}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={values.email}
          autocomplete="email"
          required
          maxLength={254}
          hint="We email you a code to confirm it."
          error={errors.email}
          autofocus={first === 'email'}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          maxLength={200}
          hint="At least 10 characters, and not a common password. A few unrelated words make a strong one."
          error={errors.password}
          autofocus={first === 'password'}
        />
        <fieldset>
          <legend>Your business</legend>
          <p class="hint">Only for a business account (or both).</p>
          <TextField
            label="Business name"
            name="business_name"
            value={values.business_name}
            maxLength={120}
            error={errors.business_name}
            autofocus={first === 'business_name'}
          />
          <TextField
            label="Business time zone"
            name="timezone"
            value={values.timezone}
            maxLength={64}
            hint="Shift times are in this zone, e.g. America/New_York."
            error={errors.timezone}
            autofocus={first === 'timezone'}
          />
        </fieldset>
        <SubmitButton>Create account</SubmitButton>
      </form>
    </PublicShell>
  );
}

/** The visitor's time zone as Cloudflare places them (absent in tests), a good default for a business. */
function visitorZone(c: Context<AppEnv>): string {
  const cf = c.req.raw.cf as { timezone?: unknown } | undefined;
  return typeof cf?.timezone === 'string' && cf.timezone ? cf.timezone : 'UTC';
}

export async function renderSignup(c: Context<AppEnv>): Promise<Response> {
  const invite = await carriedInvite(c, c.req.query('invite'));
  if (await signedInViewer(c)) return c.redirect(invite?.token ? joinPath(invite.token) : '/dashboard', 303);
  const asked = kindOf(c.req.query('as'));
  const values: SignupValues = {
    kind: invite?.token && asked === 'business' ? 'shifter' : asked,
    display_name: '',
    email: '',
    business_name: '',
    timezone: visitorZone(c),
  };
  return renderPage(c, <SignupView csrfToken={c.get('csrfToken')} values={values} invite={invite} />);
}

/**
 * Registers the account with the same service as POST /v1/auth/register (its per-email limit, and
 * this address's like the API's sign-up routes), then sends the browser to the code step.
 */
export async function postSignup(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const invite = await carriedInvite(c, field('invite', 64));
  const kind = kindOf(field('kind', 16));
  const values: SignupValues = {
    kind: invite?.token && kind === 'business' ? 'shifter' : kind,
    display_name: field('display_name', 200),
    email: field('email', 320).trim(),
    business_name: field('business_name', 200),
    timezone: field('timezone', 100).trim(),
  };
  const again = (status: ContentfulStatusCode, errors: Partial<Record<SignupField, string>>, error?: string) =>
    renderPage(c, <SignupView csrfToken={c.get('csrfToken')} values={values} invite={invite} errors={errors} error={error} />, status);

  const parsed = await registerInput.safeParseAsync({
    email: values.email,
    password: field('password', 300),
    display_name: values.display_name,
    shifter: values.kind === 'business' ? undefined : {},
    business: values.kind === 'shifter' ? undefined : { name: values.business_name, timezone: values.timezone },
  });
  if (!parsed.success) {
    const errors: Partial<Record<SignupField, string>> = {};
    for (const issue of parsed.error.issues) {
      const f = fieldOfIssue(issue.path);
      // A common or repetitive password: the policy's own words (written for people), beside the field.
      if (f) errors[f] ??= f === 'password' && issue.code === 'custom' ? issue.message : FIELD_MESSAGES[f];
    }
    return again(400, errors, Object.keys(errors).length ? undefined : 'Check the form and try again.');
  }
  try {
    await enforceAuthIpLimit(c);
    const registered = await registerAccount(serviceCtx(c), parsed.data);
    const q = new URLSearchParams({ email: registered.verification.sent_to, as: values.kind });
    if (invite?.token) q.set('invite', invite.token);
    return c.redirect(`/signup/verify?${q}`, 303);
  } catch (err) {
    if (err instanceof AppError && err.code === 'EMAIL-TAKEN-ERR') {
      return again(409, { email: 'An account with this email exists already. Sign in, or reset its password from the sign-in page.' });
    }
    const problem = formProblem(c, err);
    return again(problem.status, {}, problem.message);
  }
}

// ── The code step ────────────────────────────────────────────────────────────────────────────────

const VERIFY_NOTICES = {
  sent: 'We emailed you a 6-digit code. It expires in 15 minutes.',
  resent: 'If this account still waits for its code, a new one is on its way; earlier codes no longer work.',
} as const;

type VerifyField = 'email' | 'code' | 'password';
interface VerifyViewProps {
  csrfToken: string;
  email: string;
  kind: Kind;
  /** The crew invitation's token the account joins once confirmed ('' for none). */
  invite: string;
  localMailbox: boolean;
  notice?: string | undefined;
  errors?: Partial<Record<VerifyField, string>>;
  error?: string | undefined;
}

function VerifyView({ csrfToken, email, kind, invite, localMailbox, notice, errors = {}, error }: VerifyViewProps) {
  const first = (['email', 'code', 'password'] as const).find((f) => errors[f]);
  return (
    <PublicShell title="Confirm your email" notice={notice} error={error}>
      <p>
        Enter the code we emailed to <strong>{email || 'your address'}</strong>, and the password you chose, to finish and sign in.
        {invite ? ' Then you are in the crew that invited you.' : ''}
      </p>
      <LocalMailboxHint show={localMailbox} />
      <form method="post" action="/signup/verify" class="stack card" novalidate>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="as" value={kind} />
        {invite ? <input type="hidden" name="invite" value={invite} /> : null}
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
        <SubmitButton>Confirm and sign in</SubmitButton>
      </form>
      <form method="post" action="/signup/resend" class="inline-form">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="as" value={kind} />
        {invite ? <input type="hidden" name="invite" value={invite} /> : null}
        <p>
          No code, or it expired?{' '}
          <button type="submit" class="button-link">
            Send a new code
          </button>
        </p>
      </form>
    </PublicShell>
  );
}

function verifyProps(c: Context<AppEnv>, email: string, kind: Kind, invite: string) {
  return { csrfToken: c.get('csrfToken'), email, kind, invite, localMailbox: c.get('settings').LOCAL_MAILBOX };
}

export async function renderVerify(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.query('notice') ?? 'sent';
  const notice = Object.hasOwn(VERIFY_NOTICES, key) ? VERIFY_NOTICES[key as keyof typeof VERIFY_NOTICES] : undefined;
  const email = (c.req.query('email') ?? '').slice(0, 254);
  const invite = inviteToken(c.req.query('invite'));
  return renderPage(c, <VerifyView {...verifyProps(c, email, kindOf(c.req.query('as')), invite)} notice={email ? notice : undefined} />);
}

/**
 * Verifies the email with the same service as POST /v1/auth/verify_email (attempts capped per code
 * and per email), then signs the browser in with the password just proven.
 */
export async function postVerify(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const email = field('email', 320).trim();
  const kind = kindOf(field('as', 16));
  const invite = inviteToken(field('invite', 64));
  const password = field('password', 300);
  const again = (status: ContentfulStatusCode, errors: Partial<Record<VerifyField, string>>, error?: string) =>
    renderPage(c, <VerifyView {...verifyProps(c, email, kind, invite)} errors={errors} error={error} />, status);

  const parsed = verifyEmailInput.safeParse({ email, code: field('code', 20).trim(), password });
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

/** A new code (the same service as POST /v1/auth/resend_verification: silent for unknown emails). */
export async function postResend(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const email = field('email', 320).trim();
  const kind = kindOf(field('as', 16));
  const invite = inviteToken(field('invite', 64));
  const parsed = resendVerificationInput.safeParse({ email });
  if (!parsed.success) {
    return renderPage(
      c,
      <VerifyView {...verifyProps(c, email, kind, invite)} errors={{ email: 'Enter the email address you signed up with.' }} />,
      400,
    );
  }
  try {
    await enforceAuthIpLimit(c);
    await resendVerification(serviceCtx(c), parsed.data);
  } catch (err) {
    const problem = formProblem(c, err);
    return renderPage(c, <VerifyView {...verifyProps(c, email, kind, invite)} error={problem.message} />, problem.status);
  }
  const q = new URLSearchParams({ email, as: kind, notice: 'resent' });
  if (invite) q.set('invite', invite);
  return c.redirect(`/signup/verify?${q}`, 303);
}
