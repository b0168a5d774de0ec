import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { beginTotpEnrolment, confirmTotpEnrolment, type TotpEnrolment } from '@/services/accounts';
import { Card, CsrfField, SubmitButton, TextField } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { AccountShell, type PageBase, pageBase } from './shared';
import { BackupCodesView, groupedSecret, QrCode, SECURITY_PATH } from './two-factor-views';

const SETUP_PATH = `${SECURITY_PATH}/setup`;

interface SetupViewProps {
  base: PageBase;
  enrolment: TotpEnrolment;
  error?: string | undefined;
  /** Which field the error is about. */
  errorFor?: 'code' | 'password' | undefined;
}

function SetupView({ base, enrolment, error, errorFor }: SetupViewProps) {
  return (
    <AccountShell base={base} title="Set up two-factor" current={SECURITY_PATH} error={error}>
      <Card title="1. Add Shiftmarket to your authenticator app">
        <p>
          Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…) and scan this code.
        </p>
        <QrCode size={enrolment.qr.size} path={enrolment.qr.path} />
        <p>Cannot scan it? Choose to enter a setup key in the app and type this key (time-based, 6 digits):</p>
        <p>
          <code id="totp-secret" class="secret" data-secret={enrolment.secret}>
            {groupedSecret(enrolment.secret)}
          </code>
        </p>
      </Card>
      <Card title="2. Enter the code the app shows">
        <form method="post" action={SETUP_PATH} class="stack">
          <CsrfField token={base.csrfToken} />
          <TextField
            label="6-digit code"
            name="code"
            autocomplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            required
            autofocus={errorFor === 'code'}
            hint="The code changes every 30 seconds; enter the one shown now."
            error={errorFor === 'code' ? 'Check the code and try again.' : undefined}
          />
          <TextField
            label="Your password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxLength={200}
            autofocus={errorFor === 'password'}
            hint="Needed to turn two-factor on."
            error={errorFor === 'password' ? 'Check your password and try again.' : undefined}
          />
          <SubmitButton>Turn on two-factor</SubmitButton>
        </form>
      </Card>
      <p>
        <a href={SECURITY_PATH}>Cancel: leave two-factor off</a>
      </p>
    </AccountShell>
  );
}

/**
 * The setup page for the account's pending secret (the same one for 30 minutes, so a reload shows
 * the same QR code), or a redirect to the settings when two-factor is already on.
 */
async function showSetup(
  c: Context<AppEnv>,
  error?: string,
  status: ContentfulStatusCode = 200,
  errorFor?: SetupViewProps['errorFor'],
): Promise<Response> {
  let enrolment: TotpEnrolment;
  try {
    enrolment = await beginTotpEnrolment(serviceCtx(c));
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT-ERR') return c.redirect(SECURITY_PATH, 303);
    throw err;
  }
  return renderPage(c, <SetupView base={pageBase(c)} enrolment={enrolment} error={error} errorFor={errorFor} />, status);
}

export const securitySetupPage = new Hono<AppEnv>()
  .get('/security/setup', (c) => showSetup(c))
  .post('/security/setup', async (c) => {
    const field = await formFields(c);
    let codes: string[];
    try {
      codes = (await confirmTotpEnrolment(serviceCtx(c), field('code', 16), field('password', 300))).backup_codes;
    } catch (err) {
      const problem = formProblem(c, err);
      const errorFor = err instanceof AppError && err.code === 'PASSWORD-WRONG-ERR' ? 'password' : 'code';
      return showSetup(c, problem.message, problem.status, errorFor);
    }
    return renderPage(
      c,
      <BackupCodesView
        base={pageBase(c)}
        title="Two-factor is on"
        intro="Two-factor authentication is on. From now on, signing in asks for a code from your authenticator app."
        codes={codes}
      />,
    );
  });
