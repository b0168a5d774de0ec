import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { changePassword, changePasswordInput } from '@/services/accounts';
import { Card, CsrfField, NewPasswordFields, TextField } from '@/web/components';
import { rotateCsrfToken } from '@/web/csrf';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { clearSessionCookie } from '@/web/session';
import { AccountShell, DescribedSubmit, type PageBase, pageBase } from './shared';

const NEW_MIN = 10;
const NEW_MAX = 200;

type PasswordField = 'current_password' | 'new_password' | 'new_password_again';

interface PasswordViewProps {
  base: PageBase;
  errors?: Partial<Record<PasswordField, string>>;
  error?: string | undefined;
}

function PasswordView({ base, errors = {}, error }: PasswordViewProps) {
  const first = (['current_password', 'new_password', 'new_password_again'] as const).find((f) => errors[f]);
  return (
    <AccountShell base={base} title="Password" current="/account/password" error={error}>
      <Card title="Change your password">
        <p id="password-effect">
          Changing your password signs out every session, this browser included: you sign in again with the new password. Your API key keeps
          working.
        </p>
        <form method="post" action="/account/password" class="stack">
          <CsrfField token={base.csrfToken} />
          {/* A hidden username lets password managers file the new password under the right account. */}
          <input type="hidden" name="username" autocomplete="username" value={base.user.email} />
          <TextField
            label="Current password"
            name="current_password"
            type="password"
            autocomplete="current-password"
            required
            maxLength={NEW_MAX}
            error={errors.current_password}
            autofocus={!first || first === 'current_password'}
          />
          <NewPasswordFields
            errors={errors}
            first={first}
            hint={`At least ${NEW_MIN} characters, and not a common password. A few unrelated words make a strong one.`}
          />
          <DescribedSubmit describedBy="password-effect">Change password</DescribedSubmit>
        </form>
      </Card>
    </AccountShell>
  );
}

export const passwordPage = new Hono<AppEnv>()
  .get('/password', (c) => renderPage(c, <PasswordView base={pageBase(c)} />))
  .post('/password', async (c) => {
    const field = await formFields(c);
    const current = field('current_password', 300);
    const next = field('new_password', 300);
    const again = (status: ContentfulStatusCode, props: Omit<PasswordViewProps, 'base'>) =>
      renderPage(c, <PasswordView base={pageBase(c)} {...props} />, status);

    if (!current) return again(400, { errors: { current_password: 'Enter your current password.' } });
    if (next.length < NEW_MIN || next.length > NEW_MAX) {
      return again(400, { errors: { new_password: `Use ${NEW_MIN} to ${NEW_MAX} characters.` } });
    }
    if (field('new_password_again', 300) !== next) {
      return again(400, { errors: { new_password_again: 'The two new passwords are not the same.' } });
    }
    const parsed = await changePasswordInput.safeParseAsync({ current_password: current, new_password: next });
    if (!parsed.success) {
      // A common or repetitive password: the policy's own words (written for people), beside the field.
      const weak = parsed.error.issues.find((i) => i.path[0] === 'new_password' && i.code === 'custom');
      return again(400, weak ? { errors: { new_password: weak.message } } : { error: 'Check the passwords and try again.' });
    }
    try {
      await changePassword(serviceCtx(c), parsed.data);
    } catch (err) {
      const problem = formProblem(c, err);
      const wrong = err instanceof AppError && err.code === 'PASSWORD-WRONG-ERR';
      return again(problem.status, wrong ? { errors: { current_password: problem.message } } : { error: problem.message });
    }
    // Every session ended, this one included: the cookie goes, and sign-in says why.
    clearSessionCookie(c);
    rotateCsrfToken(c);
    return c.redirect('/login?notice=password_changed', 303);
  });
