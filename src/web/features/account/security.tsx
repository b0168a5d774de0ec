import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { ID_MAX_LENGTH } from '@/lib/ids';
import {
  disableTwoFactor,
  listTrustedDevices,
  regenerateBackupCodes,
  revokeTrustedDevice,
  setSmsMethod,
  type TrustedDeviceView,
  type TwoFactorStatus,
  twoFactorStatus,
} from '@/services/accounts';
import { Card, CsrfField, TextField } from '@/web/components';
import { clearAppCookie, readAppCookie } from '@/http/cookies';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { AccountShell, DescribedSubmit, formatInstant, noticeFrom, type PageBase, pageBase, RowAction, ThisBrowser, When } from './shared';
import { BackupCodesView, SECURITY_PATH, SECURITY_TITLE } from './two-factor-views';

const NOTICES = {
  off: 'Two-factor authentication is off. Signing in needs only your password now.',
  device_revoked: 'That device will be asked for a code at its next sign-in.',
  sms_on: 'Sign-in can now also use a code sent by text message.',
  sms_off: 'Codes by text message are off.',
} as const;

/** Which form of the page an error belongs to. */
type Section = 'backup' | 'disable' | 'devices' | 'sms';

interface SecurityViewProps {
  base: PageBase;
  status: TwoFactorStatus;
  devices: TrustedDeviceView[];
  /** The trusted device this browser carries, if any. */
  thisDevice: string | null;
  /** The operator offers codes by text message (TWO_FACTOR_SMS_ENABLED). */
  smsOffered: boolean;
  notice?: string | undefined;
  error?: string | undefined;
  errorFor?: Section | undefined;
}

/** A password field confirming a change; each form has its own id. */
function PasswordConfirm({ id, hint, error }: { id: string; hint: string; error?: string | undefined }) {
  return (
    <TextField
      id={id}
      label="Your password"
      name="password"
      type="password"
      autocomplete="current-password"
      required
      maxLength={200}
      hint={hint}
      error={error}
      autofocus={!!error}
    />
  );
}

function OffView() {
  return (
    <Card title="Two-factor is off">
      <p>
        With two-factor on, signing in needs your password and a 6-digit code from an authenticator app on your phone (such as Google
        Authenticator, Microsoft Authenticator, 1Password or Aegis). Someone who learns your password still cannot sign in.
      </p>
      <p>
        <a class="button button-primary" href={`${SECURITY_PATH}/setup`}>
          Set up two-factor
        </a>
      </p>
    </Card>
  );
}

function DevicesCard({ base, devices, thisDevice }: { base: PageBase; devices: TrustedDeviceView[]; thisDevice: string | null }) {
  return (
    <Card title="Trusted devices">
      <p>
        A browser you marked as trusted when signing in skips the code for 30 days after its last use. Revoke one to ask it for a code
        again.
      </p>
      {devices.length === 0 ? (
        <p>No trusted devices.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Your trusted devices, most recently used first</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Last used</th>
              <th scope="col">Trusted until</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {devices.map((d) => (
              <tr>
                <td>
                  <ThisBrowser here={d.id === thisDevice}>{d.label}</ThisBrowser>
                </td>
                <td>
                  <When iso={d.last_used_at} />
                </td>
                <td>
                  <When iso={d.expires_at} />
                </td>
                <td>
                  <RowAction
                    action={`${SECURITY_PATH}/devices/revoke`}
                    csrfToken={base.csrfToken}
                    field="device_id"
                    value={d.id}
                    label="Revoke"
                    context={`${d.label}, trusted since ${formatInstant(d.created_at)}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** Codes by text message: an extra way to get a code, never instead of the app. */
function SmsCard({ base, on, error }: { base: PageBase; on: boolean; error?: string | undefined }) {
  return (
    <Card title="Codes by text message">
      <p id="sms-effect">
        {on
          ? 'At sign-in you can ask for a code sent to the phone number in your profile, instead of opening the app.'
          : 'Also accept a code sent by text message to the phone number in your profile. Text messages are less safe than the app: use it only as a fallback.'}
      </p>
      {error ? <p class="field-error">{error}</p> : null}
      <form method="post" action={`${SECURITY_PATH}/sms`}>
        <CsrfField token={base.csrfToken} />
        <input type="hidden" name="on" value={on ? '0' : '1'} />
        <DescribedSubmit describedBy="sms-effect" variant="secondary">
          {on ? 'Turn off text-message codes' : 'Turn on text-message codes'}
        </DescribedSubmit>
      </form>
    </Card>
  );
}

function OnView({ base, status, devices, thisDevice, smsOffered, error, errorFor }: SecurityViewProps) {
  const left = status.backup_codes_left;
  return (
    <>
      <Card title="Two-factor is on">
        <p>Signing in needs your password and a code from your authenticator app (or a backup code).</p>
        <p>
          <strong>{`${left} backup code${left === 1 ? '' : 's'} left.`}</strong>
          {left <= 3 ? ' Make a new set soon, before you run out.' : null}
        </p>
      </Card>
      <Card title="New backup codes">
        <p id="backup-effect">
          Makes 10 new backup codes and shows them once. The codes you have now stop working, and every trusted device will be asked for a
          code at its next sign-in.
        </p>
        <form method="post" action={`${SECURITY_PATH}/backup-codes`} class="stack">
          <CsrfField token={base.csrfToken} />
          <PasswordConfirm id="field-password-backup" hint="Needed to make new codes." error={errorFor === 'backup' ? error : undefined} />
          <DescribedSubmit describedBy="backup-effect">Make new backup codes</DescribedSubmit>
        </form>
      </Card>
      {smsOffered ? <SmsCard base={base} on={status.methods.includes('sms')} error={errorFor === 'sms' ? error : undefined} /> : null}
      <DevicesCard base={base} devices={devices} thisDevice={thisDevice} />
      <Card title="Turn off two-factor">
        <p id="disable-effect">
          Signing in will need only your password. Your authenticator app's codes, your backup codes and your trusted devices stop working.
        </p>
        <form method="post" action={`${SECURITY_PATH}/disable`} class="stack">
          <CsrfField token={base.csrfToken} />
          <PasswordConfirm
            id="field-password-disable"
            hint="Needed to turn two-factor off."
            error={errorFor === 'disable' ? error : undefined}
          />
          <DescribedSubmit describedBy="disable-effect" variant="danger">
            Turn off two-factor
          </DescribedSubmit>
        </form>
      </Card>
    </>
  );
}

function SecurityView(props: SecurityViewProps) {
  const { base, status, notice, error } = props;
  return (
    <AccountShell base={base} title={SECURITY_TITLE} current={SECURITY_PATH} notice={notice} error={error}>
      {status.enabled ? <OnView {...props} /> : <OffView />}
    </AccountShell>
  );
}

/** The trusted device this browser's cookie names (`<row id>.<token>`), whatever state it is in. */
function deviceOfThisBrowser(c: Context<AppEnv>): string | null {
  const cookie = readAppCookie(c, 'device');
  const dot = cookie?.indexOf('.') ?? -1;
  return cookie && dot > 0 ? cookie.slice(0, dot) : null;
}

async function render(
  c: Context<AppEnv>,
  props: Pick<SecurityViewProps, 'notice' | 'error' | 'errorFor'> = {},
  status: ContentfulStatusCode = 200,
) {
  const ctx = serviceCtx(c);
  const base = pageBase(c);
  const state = await twoFactorStatus(ctx, base.user.userId);
  const devices = state.enabled ? await listTrustedDevices(ctx) : [];
  return renderPage(
    c,
    <SecurityView
      base={base}
      status={state}
      devices={devices}
      thisDevice={deviceOfThisBrowser(c)}
      smsOffered={ctx.settings.TWO_FACTOR_SMS_ENABLED}
      {...props}
    />,
    status,
  );
}

export const securityPage = new Hono<AppEnv>()
  .get('/security', (c) => render(c, { notice: noticeFrom(c, NOTICES) }))
  .post('/security/backup-codes', async (c) => {
    const field = await formFields(c);
    let codes: string[];
    try {
      codes = (await regenerateBackupCodes(serviceCtx(c), field('password', 300))).backup_codes;
    } catch (err) {
      const problem = formProblem(c, err);
      return render(c, { error: problem.message, errorFor: 'backup' }, problem.status);
    }
    // Every trusted device was revoked with the old codes; this browser's cookie is dead too.
    if (readAppCookie(c, 'device')) clearAppCookie(c, 'device');
    return renderPage(
      c,
      <BackupCodesView
        base={pageBase(c)}
        title="New backup codes"
        intro="Your new backup codes are ready. The old ones no longer work, and trusted devices will be asked for a code again."
        codes={codes}
      />,
    );
  })
  .post('/security/disable', async (c) => {
    const field = await formFields(c);
    try {
      await disableTwoFactor(serviceCtx(c), field('password', 300));
    } catch (err) {
      const problem = formProblem(c, err);
      return render(c, { error: problem.message, errorFor: 'disable' }, problem.status);
    }
    if (readAppCookie(c, 'device')) clearAppCookie(c, 'device');
    return c.redirect(`${SECURITY_PATH}?notice=off`, 303);
  })
  .post('/security/sms', async (c) => {
    const field = await formFields(c);
    const on = field('on', 1) === '1';
    try {
      await setSmsMethod(serviceCtx(c), on);
    } catch (err) {
      const problem = formProblem(c, err);
      return render(c, { error: problem.message, errorFor: 'sms' }, problem.status);
    }
    return c.redirect(`${SECURITY_PATH}?notice=${on ? 'sms_on' : 'sms_off'}`, 303);
  })
  .post('/security/devices/revoke', async (c) => {
    const field = await formFields(c);
    const id = field('device_id', ID_MAX_LENGTH);
    try {
      await revokeTrustedDevice(serviceCtx(c), id);
    } catch (err) {
      const problem = formProblem(c, err, { 'NOT-FOUND-ERR': 'That device was no longer trusted.' });
      return render(c, { error: problem.message, errorFor: 'devices' }, problem.status);
    }
    if (id && id === deviceOfThisBrowser(c)) clearAppCookie(c, 'device');
    return c.redirect(`${SECURITY_PATH}?notice=device_revoked`, 303);
  });
