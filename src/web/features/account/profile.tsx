import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import {
  DISPLAY_NAME_MAX,
  getUserDetails,
  PHONE_MAX,
  updateAccountProfile,
  updateUserDetailsInput,
  type UserDetails,
} from '@/services/accounts';
import { Card, CsrfField, SubmitButton, TextField } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { AccountShell, noticeFrom, type PageBase, pageBase } from './shared';

const NOTICES = { saved: 'Your profile was saved.' } as const;

const FIELD_ERRORS = {
  display_name: `Enter a name of 1 to ${DISPLAY_NAME_MAX} characters.`,
  phone: `Enter a phone number (digits, spaces and + ( ) . -, at least four digits, at most ${PHONE_MAX} characters), or leave it empty.`,
} as const;
type ProfileField = keyof typeof FIELD_ERRORS;

interface ProfileViewProps {
  base: PageBase;
  details: UserDetails;
  /** What the form shows: the stored values, or what was just sent when it is shown again. */
  values: { display_name: string; phone: string };
  errors?: Partial<Record<ProfileField, string>>;
  notice?: string | undefined;
  error?: string | undefined;
}

function profilesOf(d: UserDetails): string {
  const names = [d.has_shifter_profile ? 'Shifter' : null, d.has_business_profile ? 'Business' : null].filter(Boolean);
  return names.length ? names.join(' and ') : 'None yet';
}

function ProfileView({ base, details, values, errors = {}, notice, error }: ProfileViewProps) {
  return (
    <AccountShell base={base} title="Profile" current="/account" notice={notice} error={error}>
      <Card title="Your account">
        <dl class="details">
          <dt>Email</dt>
          <dd>{details.email}</dd>
          <dt>Email verified</dt>
          <dd>{details.email_verified ? 'Yes' : 'No'}</dd>
          <dt>Profiles</dt>
          <dd>{profilesOf(details)}</dd>
          {details.teammate_of_business_ids.length ? (
            <>
              <dt>Teammate of</dt>
              <dd>{`${details.teammate_of_business_ids.length} business(es)`}</dd>
            </>
          ) : null}
          <dt>Two-factor</dt>
          <dd>
            {details.two_factor.enabled ? 'On' : 'Off'} (<a href="/account/security">change</a>)
          </dd>
        </dl>
        <p class="hint">Your email is how you sign in; it cannot be changed here.</p>
      </Card>
      <Card title="Name and phone">
        <form method="post" action="/account" class="stack">
          <CsrfField token={base.csrfToken} />
          <TextField
            label="Display name"
            name="display_name"
            value={values.display_name}
            autocomplete="name"
            required
            maxLength={DISPLAY_NAME_MAX}
            hint="Shown on your account and to the people you work with."
            error={errors.display_name}
            autofocus={!!errors.display_name}
          />
          <TextField
            label="Phone (optional)"
            name="phone"
            type="tel"
            value={values.phone}
            autocomplete="tel"
            inputMode="tel"
            maxLength={PHONE_MAX}
            hint="Leave it empty to remove your number."
            error={errors.phone}
            autofocus={!errors.display_name && !!errors.phone}
          />
          <SubmitButton>Save</SubmitButton>
        </form>
      </Card>
    </AccountShell>
  );
}

export const profilePage = new Hono<AppEnv>()
  .get('/', async (c) => {
    const details = await getUserDetails(serviceCtx(c));
    return renderPage(
      c,
      <ProfileView
        base={pageBase(c)}
        details={details}
        values={{ display_name: details.display_name, phone: details.phone ?? '' }}
        notice={noticeFrom(c, NOTICES)}
      />,
    );
  })
  .post('/', async (c) => {
    const field = await formFields(c);
    // Longer than the limits, so an over-long value is refused rather than cut short without a word.
    const sent = { display_name: field('display_name', 300), phone: field('phone', 100) };
    const again = async (status: ContentfulStatusCode, extra: Omit<ProfileViewProps, 'base' | 'details' | 'values'>) =>
      renderPage(c, <ProfileView base={pageBase(c)} details={await getUserDetails(serviceCtx(c))} values={sent} {...extra} />, status);

    const parsed = updateUserDetailsInput.safeParse(sent);
    if (!parsed.success) {
      const errors: Partial<Record<ProfileField, string>> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0];
        if (name === 'display_name' || name === 'phone') errors[name] = FIELD_ERRORS[name];
      }
      return again(400, { errors, error: 'Check the fields marked below.' });
    }
    try {
      await updateAccountProfile(serviceCtx(c), parsed.data);
    } catch (err) {
      const problem = formProblem(c, err);
      return again(problem.status, { error: problem.message });
    }
    return c.redirect('/account?notice=saved', 303);
  });
