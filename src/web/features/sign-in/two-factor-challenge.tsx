import { type Context, Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { cancelPendingSignIn, completeSecondFactor, deviceLabel, sendSignInSms, trustDevice, twoFactorStatus } from '@/services/accounts';
import { Card, CsrfField, Notice, SubmitButton, TextField } from '@/web/components';
import { setAppCookie } from '@/http/cookies';
import { rotateCsrfToken } from '@/web/csrf';
import { formFields, formProblem } from '@/web/forms';
import { Layout } from '@/web/layout';
import { renderPage } from '@/web/render';
import { clearSessionCookie, readWebSession } from '@/web/session';
import { safeNextPath } from '@/web/urls';

interface ChallengeViewProps {
  csrfToken: string;
  next: string;
  /** The account also takes codes by text message (offered by the operator and turned on). */
  sms?: boolean;
  notice?: string | undefined;
  error?: string | undefined;
  /** Which form the error belongs to. */
  errorFor?: 'code' | 'backup_code' | undefined;
}

function TrustBox({ id }: { id: string }) {
  return (
    <div class="field checkbox">
      <input type="checkbox" id={id} name="trust_device" value="on" />
      <label for={id}>Trust this browser for 30 days (skip the code here)</label>
    </div>
  );
}

/** The second step of signing in: a code from the authenticator app, or a backup code. */
function ChallengeView({ csrfToken, next, sms, notice, error, errorFor }: ChallengeViewProps) {
  return (
    <Layout title="Two-factor check">
      <h1>Two-factor check</h1>
      <p>Your password was right. Now enter the 6-digit code from your authenticator app{sms ? ', or one we text you' : ''}.</p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <Card title="Authenticator code">
        <form method="post" action="/login/2fa" class="stack">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="next" value={next} />
          <TextField
            label="Code"
            name="code"
            autocomplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            required
            autofocus={errorFor !== 'backup_code'}
            error={errorFor === 'code' ? 'Check the code and try again.' : undefined}
          />
          <TrustBox id="trust-code" />
          <SubmitButton>Verify</SubmitButton>
        </form>
        {sms ? (
          <form method="post" action="/login/2fa/sms">
            <CsrfField token={csrfToken} />
            <input type="hidden" name="next" value={next} />
            <SubmitButton variant="secondary">Text me a code instead</SubmitButton>
          </form>
        ) : null}
      </Card>
      <Card title="Lost your phone?">
        <form method="post" action="/login/2fa" class="stack">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="next" value={next} />
          <TextField
            label="Backup code"
            name="backup_code"
            autocomplete="off"
            maxLength={16}
            required
            hint="One of the codes you saved when you turned on two-factor, like abcde-23456. Each works once."
            autofocus={errorFor === 'backup_code'}
            error={errorFor === 'backup_code' ? 'Check the backup code and try again.' : undefined}
          />
          <TrustBox id="trust-backup" />
          <SubmitButton variant="secondary">Use backup code</SubmitButton>
        </form>
      </Card>
      <form method="post" action="/login/2fa/cancel">
        <CsrfField token={csrfToken} />
        <SubmitButton variant="secondary">Cancel and sign out</SubmitButton>
      </form>
    </Layout>
  );
}

const smsOffered = async (c: Context<AppEnv>, userId: string) => (await twoFactorStatus(serviceCtx(c), userId)).methods.includes('sms');

export const twoFactorChallengePages = new Hono<AppEnv>()
  .get('/login/2fa', async (c) => {
    const next = safeNextPath(c.req.query('next'));
    const session = await readWebSession(c);
    if (session.kind === 'active') return c.redirect(next, 303);
    if (session.kind === 'none') return c.redirect('/login?notice=expired', 303);
    const sms = await smsOffered(c, session.pending.userId);
    return renderPage(c, <ChallengeView csrfToken={c.get('csrfToken')} next={next} sms={sms} />);
  })
  .post('/login/2fa/sms', async (c) => {
    const field = await formFields(c);
    const next = safeNextPath(field('next', 600));
    const session = await readWebSession(c);
    if (session.kind === 'active') return c.redirect(next, 303);
    if (session.kind === 'none') return c.redirect('/login?notice=expired', 303);
    try {
      const { sent_to } = await sendSignInSms(serviceCtx(c), session.pending);
      return renderPage(c, <ChallengeView csrfToken={c.get('csrfToken')} next={next} sms notice={`We texted a code to ${sent_to}.`} />);
    } catch (err) {
      const problem = formProblem(c, err);
      const sms = await smsOffered(c, session.pending.userId);
      return renderPage(c, <ChallengeView csrfToken={c.get('csrfToken')} next={next} sms={sms} error={problem.message} />, problem.status);
    }
  })
  .post('/login/2fa', async (c) => {
    const field = await formFields(c);
    const next = safeNextPath(field('next', 600));
    const session = await readWebSession(c);
    if (session.kind === 'active') return c.redirect(next, 303);
    if (session.kind === 'none') return c.redirect('/login?notice=expired', 303);
    const code = field('code', 16);
    const backupCode = field('backup_code', 32);
    const errorFor = code ? 'code' : 'backup_code';
    try {
      await completeSecondFactor(serviceCtx(c), session.pending, code ? { code } : { backup_code: backupCode });
    } catch (err) {
      if (err instanceof AppError && err.code === 'AUTH-REQ-ERR') {
        clearSessionCookie(c);
        return c.redirect('/login?notice=expired', 303);
      }
      const problem = formProblem(c, err);
      const sms = await smsOffered(c, session.pending.userId);
      return renderPage(
        c,
        <ChallengeView csrfToken={c.get('csrfToken')} next={next} sms={sms} error={problem.message} errorFor={errorFor} />,
        problem.status,
      );
    }
    // Signed in now: the session is the actor from here on.
    await readWebSession(c);
    rotateCsrfToken(c);
    if (field('trust_device', 4) === 'on') {
      const device = await trustDevice(serviceCtx(c), session.pending.userId, deviceLabel(c.req.header('User-Agent')));
      setAppCookie(c, 'device', device.value, { maxAgeSeconds: Math.floor((device.expiresAt - Date.now()) / 1000) });
    }
    return c.redirect(next, 303);
  })
  .post('/login/2fa/cancel', async (c) => {
    const session = await readWebSession(c);
    if (session.kind === 'pending') await cancelPendingSignIn(serviceCtx(c), session.pending);
    clearSessionCookie(c);
    rotateCsrfToken(c);
    return c.redirect('/login?notice=signed_out', 303);
  });
