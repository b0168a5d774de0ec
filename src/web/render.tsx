import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/app-types';
import { Layout } from './layout';
import { requestOrigin } from '../http/origin';
import { appOrigin, authOrigin } from './urls';

/**
 * The page policy: nothing but this origin's stylesheet, script and images (data: for the QR code),
 * no inline script or style, no framing, no <base>; the pages' scripts may call this origin's API
 * (connect-src) and nothing else. Forms may post here and to {app_url} and
 * {auth_url} (form-action also governs the redirect after a post, so a sign-in on {auth_url} may
 * send the browser on to {app_url}).
 */
export function pageCsp(c: Context<AppEnv>): string {
  const self = requestOrigin(c);
  const formTargets = [...new Set([appOrigin(c), authOrigin(c)])].filter((o) => o !== self);
  return [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Answers with a rendered page: HTML, never cached (pages carry personal data and CSRF tokens), the
 * page CSP and a same-origin referrer. These headers win over app.ts's secureHeaders defaults, which
 * do not overwrite.
 */
export async function renderPage(c: Context<AppEnv>, node: JSX.Element, status: ContentfulStatusCode = 200): Promise<Response> {
  // A JSX tree renders to a string, or to a promise of one when a component is async.
  const html = await (await node).toString();
  const session = c.get('pageSession');
  return c.html(html, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': pageCsp(c),
    'Referrer-Policy': 'same-origin',
    ...(session ? { 'X-Page-Session': session } : {}),
  });
}

/**
 * A small error page in the layout (403 refused form, 404 unknown page, …). `message` is shown as
 * is, so give a generic sentence, never an internal detail. The signed-in person and CSRF token are
 * taken from the request when the session and CSRF middleware have set them.
 */
export function renderError(c: Context<AppEnv>, status: ContentfulStatusCode, title: string, message: string): Promise<Response> {
  const user = c.get('webUser');
  return renderPage(
    c,
    <Layout title={title} user={user} csrfToken={c.get('csrfToken')}>
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <a href={user ? '/account' : '/login'}>{user ? 'Back to your account' : 'Go to sign in'}</a>
      </p>
    </Layout>,
    status,
  );
}
