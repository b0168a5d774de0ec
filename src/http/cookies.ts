import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from './app-types';

/**
 * The pages' cookies, named and shaped in one place (here, in http/, because the API's cookie-session
 * path, middleware/auth.ts, reads them too). On HTTPS every cookie carries the `__Host-`
 * prefix: the browser then insists on Secure, Path=/ and no Domain, so a sibling subdomain cannot
 * plant or shadow it. Plain HTTP (local development only) cannot hold a `__Host-` cookie, so there
 * the bare name is used. All are HttpOnly (no script reads them) and SameSite=Lax (sent on top-level
 * navigations, not on cross-site form posts or subrequests).
 */
export type AppCookie = 'session' | 'csrf' | 'device' | 'kiosk' | 'code_step';

/** Header accepted in place of the form field, for scripted calls from our own pages (and, with it, the API). */
export const CSRF_HEADER = 'X-CSRF-Token';

const BASE_NAMES: Record<AppCookie, string> = {
  session: 'sm_session',
  csrf: 'sm_csrf',
  device: 'sm_device',
  kiosk: 'sm_kiosk',
  // The emailed-code step this browser is on (sign-up, password reset): services/accounts/code-steps.ts.
  code_step: 'sm_code_step',
};

/** True when the request reached the Worker over HTTPS (always so behind Cloudflare in production). */
export function isHttps(c: Context<AppEnv>): boolean {
  return new URL(c.req.url).protocol === 'https:';
}

/** The cookie's name as the browser stores it: `__Host-sm_<kind>` on HTTPS, `sm_<kind>` on plain HTTP. */
export function cookieName(c: Context<AppEnv>, kind: AppCookie): string {
  return isHttps(c) ? `__Host-${BASE_NAMES[kind]}` : BASE_NAMES[kind];
}

function options(c: Context<AppEnv>, maxAgeSeconds: number | undefined): CookieOptions {
  const base: CookieOptions = { httpOnly: true, sameSite: 'Lax', path: '/' };
  if (maxAgeSeconds !== undefined) base.maxAge = maxAgeSeconds;
  // hono adds `__Host-` to the name and forces Secure, Path=/ and no Domain with the host prefix.
  return isHttps(c) ? { ...base, secure: true, prefix: 'host' } : base;
}

/**
 * Sets one of the app's cookies: HttpOnly, SameSite=Lax, Path=/, Secure exactly on HTTPS. Without
 * `maxAgeSeconds` it lives until the browser closes.
 */
export function setAppCookie(c: Context<AppEnv>, kind: AppCookie, value: string, opts: { maxAgeSeconds?: number } = {}): void {
  setCookie(c, BASE_NAMES[kind], value, options(c, opts.maxAgeSeconds));
}

/**
 * Reads one of the app's cookies. On HTTPS only the `__Host-` name counts: a bare `sm_*` cookie,
 * which a subdomain could have set, is ignored.
 */
export function readAppCookie(c: Context<AppEnv>, kind: AppCookie): string | undefined {
  const value = isHttps(c) ? getCookie(c, BASE_NAMES[kind], 'host') : getCookie(c, BASE_NAMES[kind]);
  return value === '' ? undefined : value;
}

/** Tells the browser to drop the cookie (same name and attributes, empty value, Max-Age=0). */
export function clearAppCookie(c: Context<AppEnv>, kind: AppCookie): void {
  setCookie(c, BASE_NAMES[kind], '', options(c, 0));
}
