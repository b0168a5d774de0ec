import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-types';
import { timingSafeEqualStr, toBase64Url } from '../lib/crypto';
import { CSRF_HEADER, readAppCookie, setAppCookie } from '../http/cookies';
import { renderError } from './render';
import { requestOrigin } from '../http/origin';
import { appOrigin, authOrigin } from './urls';

/**
 * CSRF protection for the page routes: a double-submit token plus an Origin check.
 *
 * The token is 32 random bytes (base64url) kept in the `csrf` cookie (HttpOnly, SameSite=Lax,
 * `__Host-` on HTTPS, so no other site or subdomain can set it) and printed into every form as
 * `_csrf`. A state-changing request must send the same value back; another site can neither read
 * the cookie nor the page, so it cannot. An `Origin` header, when the browser sends one, must be
 * this origin, {app_url} or {auth_url}.
 */
export { CSRF_FIELD } from './components';
import { CSRF_FIELD } from './components';

export { CSRF_HEADER } from '../http/cookies';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Mints a fresh token, stores it in the cookie and exposes it to the page as `csrfToken`. */
export function rotateCsrfToken(c: Context<AppEnv>): string {
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  setAppCookie(c, 'csrf', token);
  c.set('csrfToken', token);
  return token;
}

async function submittedToken(c: Context<AppEnv>): Promise<string | undefined> {
  const header = c.req.header(CSRF_HEADER);
  if (header !== undefined) return header;
  try {
    // parseBody reads url-encoded and multipart forms (anything else gives {}); hono caches the
    // parsed body, so the handler can call it again.
    const value = (await c.req.parseBody())[CSRF_FIELD];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function originAllowed(c: Context<AppEnv>): boolean {
  const origin = c.req.header('Origin');
  if (origin === undefined) return true;
  return origin === requestOrigin(c) || origin === appOrigin(c) || origin === authOrigin(c);
}

function refuse(c: Context<AppEnv>, reason: string): Promise<Response> {
  c.get('log')?.warn('csrf check refused a form', { reason, method: c.req.method, path: c.req.path });
  return renderError(
    c,
    403,
    'Form not accepted',
    'This form could not be accepted: it may have been open too long or sent from another site. Go back, reload the page and try again.',
  );
}

/**
 * Page middleware: sets `csrfToken` for the page (reusing the browser's token, else minting one) and
 * refuses, with a 403 page, any request other than GET, HEAD and OPTIONS whose token is missing or
 * wrong, that came without the cookie, or whose Origin is foreign. A refused request gets a fresh
 * cookie when it had none, so reloading the form and sending it again works.
 */
export const csrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  const fromCookie = readAppCookie(c, 'csrf');
  const cookieToken = fromCookie !== undefined && TOKEN_SHAPE.test(fromCookie) ? fromCookie : undefined;
  if (cookieToken) c.set('csrfToken', cookieToken);
  else rotateCsrfToken(c);
  if (SAFE_METHODS.has(c.req.method)) return next();

  if (!originAllowed(c)) return refuse(c, 'foreign origin');
  if (!cookieToken) return refuse(c, 'no token cookie');
  const submitted = await submittedToken(c);
  if (!submitted) return refuse(c, 'no token submitted');
  if (!timingSafeEqualStr(submitted, cookieToken)) return refuse(c, 'token mismatch');
  return next();
};
