import { type Context, Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { clientIp, enforceAuthIpLimit } from '@/http/middleware/auth';
import { serviceCtx } from '@/http/create-app';
import { cancelPendingSignIn, type LoginInput, type LoginOutcome, login, loginInput, logout } from '@/services/accounts';
import { Card, CsrfField, Notice, SubmitButton, TextField } from '@/web/components';
import { readAppCookie, setAppCookie } from '@/http/cookies';
import { rotateCsrfToken } from '@/web/csrf';
import { formFields, formProblem } from '@/web/forms';
import { Layout } from '@/web/layout';
import { renderPage } from '@/web/render';
import { clearSessionCookie, readWebSession, setSessionCookie } from '@/web/session';
import { safeNextPath } from '@/web/urls';

/** Fixed notices a redirect may ask for by name (never text from the URL). */
const NOTICES = {
  signed_out: 'You are signed out.',
  expired: 'That sign-in took too long or was cancelled. Sign in again.',
  password_changed: 'Your password was changed and every session ended. Sign in with the new password.',
  password_reset: 'Your password was reset and every session ended. Sign in with the new password.',
  verified: 'Your email address is confirmed. Sign in to continue.',
} as const;

interface LoginViewProps {
  csrfToken: string;
  next: string;
  email?: string;
  error?: string | undefined;
  notice?: string | undefined;
}

function LoginView({ csrfToken, next, email, error, notice }: LoginViewProps) {
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      {notice ? <Notice kind="info">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <Card title="Your Shiftmarket account">
        <form method="post" action="/login" class="stack">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="next" value={next} />
          <TextField
            label="Email"
            name="email"
            type="email"
            value={email}
            autocomplete="username"
            required
            maxLength={254}
            autofocus={!email}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxLength={256}
            autofocus={!!email}
          />
          <SubmitButton>Sign in</SubmitButton>
        </form>
        <ul class="list-plain login-links">
          <li>
            <a href="/login/forgot">Forgot your password?</a>
          </li>
          <li>
            New to Shiftmarket? <a href="/signup">Create an account</a>
          </li>
          <li>
            Questions first? <a href="/help">Read the help center</a>
          </li>
        </ul>
      </Card>
    </Layout>
  );
}

/**
 * Signs this browser in with an email and password (sign-in, and the end of a password reset or of a
 * sign-up confirmed elsewhere): see beginWebSession. The caller has counted the request against its
 * address (enforceAuthIpLimit).
 */
export async function startWebSession(c: Context<AppEnv>, input: LoginInput, next: string): Promise<string> {
  return beginWebSession(
    c,
    () => login(serviceCtx(c), input, clientIp(c), { deviceCookie: readAppCookie(c, 'device'), userAgent: c.req.header('User-Agent') }),
    next,
  );
}

/**
 * Signs this browser in with the session `open` makes (a sign-in, or a sign-up confirmed by its
 * code): whatever session it had ends, the new one is set in the cookie with a new CSRF token.
 * Returns where to go: `next`, or the two-factor step on the way there.
 */
export async function beginWebSession(c: Context<AppEnv>, open: () => Promise<LoginOutcome>, next: string): Promise<string> {
  // Whatever session this browser had ends: every sign-in starts a new session id.
  const previous = await readWebSession(c);
  if (previous.kind === 'pending') await cancelPendingSignIn(serviceCtx(c), previous.pending);
  else if (previous.kind === 'active') await logout(serviceCtx(c));
  c.set('actor', { kind: 'anonymous' });

  const outcome = await open();
  rotateCsrfToken(c);
  setSessionCookie(c, outcome.view.session_token, Date.parse(outcome.view.expires_at));
  if (outcome.device) {
    setAppCookie(c, 'device', outcome.device.value, { maxAgeSeconds: Math.floor((outcome.device.expiresAt - Date.now()) / 1000) });
  }
  return outcome.view.two_factor_required ? `/login/2fa?next=${encodeURIComponent(next)}` : next;
}

export const loginPages = new Hono<AppEnv>()
  .get('/login', async (c) => {
    const next = safeNextPath(c.req.query('next'));
    const session = await readWebSession(c);
    if (session.kind === 'active') return c.redirect(next, 303);
    if (session.kind === 'pending') return c.redirect(`/login/2fa?next=${encodeURIComponent(next)}`, 303);
    const noticeKey = c.req.query('notice');
    const notice = noticeKey && noticeKey in NOTICES ? NOTICES[noticeKey as keyof typeof NOTICES] : undefined;
    return renderPage(c, <LoginView csrfToken={c.get('csrfToken')} next={next} notice={notice} />);
  })
  .post('/login', async (c) => {
    const field = await formFields(c);
    const next = safeNextPath(field('next', 600));
    const email = field('email', 320);
    const parsed = loginInput.safeParse({ email, password: field('password', 300) });
    const again = (status: 400 | 401 | 403 | 429, error: string) =>
      renderPage(c, <LoginView csrfToken={c.get('csrfToken')} next={next} email={email} error={error} />, status);
    if (!parsed.success) return again(400, 'Enter your email address and password.');
    try {
      await enforceAuthIpLimit(c);
      return c.redirect(await startWebSession(c, parsed.data, next), 303);
    } catch (err) {
      const problem = formProblem(c, err);
      return again(problem.status as 400 | 401 | 403 | 429, problem.message);
    }
  })
  // A link cannot sign anyone out (that would let any page do it): GET asks, the button posts.
  .get('/logout', async (c) => {
    const session = await readWebSession(c);
    if (session.kind === 'none') return c.redirect('/login', 303);
    const user = session.kind === 'active' ? session.user : undefined;
    return renderPage(
      c,
      <Layout title="Sign out" user={user} csrfToken={c.get('csrfToken')}>
        <h1>Sign out</h1>
        <form method="post" action="/logout">
          <CsrfField token={c.get('csrfToken')} />
          <SubmitButton>Sign out of this browser</SubmitButton>
        </form>
      </Layout>,
    );
  })
  .post('/logout', async (c) => {
    const session = await readWebSession(c);
    if (session.kind === 'active') await logout(serviceCtx(c));
    else if (session.kind === 'pending') await cancelPendingSignIn(serviceCtx(c), session.pending);
    clearSessionCookie(c);
    rotateCsrfToken(c);
    return c.redirect('/login?notice=signed_out', 303);
  });
