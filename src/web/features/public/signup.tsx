import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { enforceAuthIpLimit } from '@/http/middleware/auth';
import { registerInBrowser, registerInput } from '@/services/accounts';
import { AppError } from '@/lib/errors';
import { WEB_ENTRIES } from '@generated/web/assets';
import { CsrfField, SubmitButton, TextField } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { keepCodeStep } from './code-step';
import { joinPath } from './join';
import { type CarriedInvite, carriedInvite, InviteLine } from './join-signup';
import { PublicShell, signedInViewer } from './shell';

/** Which profiles a new account gets: the sign-up form's first choice. */
const KINDS = [
  { value: 'shifter', label: 'Find shifts to work (a shifter account)' },
  { value: 'business', label: 'Post shifts for my business (a business account)' },
  { value: 'both', label: 'Both' },
] as const;
export type Kind = (typeof KINDS)[number]['value'];
export const kindOf = (v: string | undefined): Kind => (v === 'business' || v === 'both' ? v : 'shifter');

/** Where a new account lands once signed in: the shifter side, or the business's dashboard. */
export const landingFor = (kind: Kind) => (kind === 'shifter' ? '/dashboard/shifter' : '/dashboard');

type SignupField = 'display_name' | 'email' | 'password' | 'business_name' | 'timezone' | 'shifter_timezone';
interface SignupValues {
  kind: Kind;
  display_name: string;
  email: string;
  business_name: string;
  timezone: string;
  /** The shifter's own zone: the browser's (filled by the browser-zone island), '' without script. */
  shifter_timezone: string;
}

/** The form's words for a refused field (the schema's own messages are written for programs). */
const FIELD_MESSAGES: Record<SignupField, string> = {
  display_name: 'Enter your name (at most 100 characters).',
  email: 'Enter an email address, like sam@example.com.',
  password: 'Use 10 to 200 characters.',
  business_name: 'Enter the business’s name (at most 120 characters).',
  timezone: 'Enter a time zone as the IANA database writes it, e.g. America/New_York or Europe/Lisbon.',
  shifter_timezone:
    'This device gave a time zone we do not know. Enter yours as the IANA database writes it, e.g. America/New_York or Europe/Lisbon.',
};

/** The registration's field a schema issue concerns (its path in RegisterInput). */
function fieldOfIssue(path: readonly PropertyKey[]): SignupField | null {
  const [head, sub] = path;
  if (head === 'business') return sub === 'timezone' ? 'timezone' : 'business_name';
  if (head === 'shifter') return sub === 'timezone' ? 'shifter_timezone' : null;
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
  const first = (['display_name', 'email', 'password', 'shifter_timezone', 'business_name', 'timezone'] as const).find((f) => errors[f]);
  const token = invite?.token ?? null;
  return (
    <PublicShell title="Create an account" current="/signup" error={error} scripts={[WEB_ENTRIES.islands['browser-zone'].js]}>
      <InviteLine invite={invite} />
      <p>
        One account can work shifts, run a business, or both; you can add the other side later. Already have an account?{' '}
        <a href={token ? `/login?${new URLSearchParams({ next: joinPath(token) })}` : '/login'}>Sign in</a>.
      </p>
      <form method="post" action="/signup" class="stack card" novalidate data-island="browser-zone">
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
        {errors.shifter_timezone ? (
          <TextField
            label="Your time zone"
            name="shifter_timezone"
            value={values.shifter_timezone}
            maxLength={64}
            hint="Your shift times and earnings are shown in it."
            error={errors.shifter_timezone}
            autofocus={first === 'shifter_timezone'}
          />
        ) : (
          // Filled with this device's zone by the browser-zone island; without script the server places you.
          <input type="hidden" name="shifter_timezone" value={values.shifter_timezone} data-browser-zone />
        )}
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
    shifter_timezone: '',
  };
  return renderPage(c, <SignupView csrfToken={c.get('csrfToken')} values={values} invite={invite} />);
}

/**
 * Registers the account with the same service as POST /v1/auth/register (its per-email limit, and
 * this address's like the API's sign-up routes), then sends the browser to the code step, which
 * knows the address from this browser's step (signup-verify.tsx).
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
    shifter_timezone: field('shifter_timezone', 100).trim(),
  };
  const again = (status: ContentfulStatusCode, errors: Partial<Record<SignupField, string>>, error?: string) =>
    renderPage(c, <SignupView csrfToken={c.get('csrfToken')} values={values} invite={invite} errors={errors} error={error} />, status);

  const parsed = await registerInput.safeParseAsync({
    email: values.email,
    password: field('password', 300),
    display_name: values.display_name,
    // The shifter's zone: this device's when its script said it, else where the server places the visitor (or UTC).
    shifter: values.kind === 'business' ? undefined : { timezone: values.shifter_timezone || visitorZone(c) },
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
    // A zone the device did not give is a guess: the shifter pages ask the person to set it while it is UTC.
    const { step } = await registerInBrowser(serviceCtx(c), parsed.data, { zoneGuessed: !values.shifter_timezone });
    // The address stays on the server with this browser's step: never in the URL.
    keepCodeStep(c, step);
    const q = new URLSearchParams({ as: values.kind });
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
