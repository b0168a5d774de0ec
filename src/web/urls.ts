import type { Context } from 'hono';
import { ConfigError, getSettings, type Settings } from '../env';
import type { AppEnv } from '../http/app-types';
import { requestOrigin } from '../http/origin';

/**
 * Where the pages live. `APP_URL` ({app_url}: sign-in, account settings) and `AUTH_URL` ({auth_url}:
 * sign-in and authorization pages) are operator settings; empty or absent, both are the Worker's own
 * origin (local development). Only their origin counts: the pages are mounted at the root.
 */

function settingsOf(c: Context<AppEnv>): Settings {
  // Pages normally run after requestContext; a bare router (tests, a future sub-app) still works.
  return c.get('settings') ?? getSettings(c.env);
}

const parsedOrigins = new Map<string, string>();

function configuredOrigin(name: 'APP_URL' | 'AUTH_URL', value: string | undefined): string | undefined {
  const raw = value?.trim();
  if (!raw) return undefined;
  const hit = parsedOrigins.get(raw);
  if (hit) return hit;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be an http(s) URL`);
  parsedOrigins.set(raw, url.origin);
  return url.origin;
}

/** {app_url}'s origin: the configured APP_URL, else this request's origin. */
export function appOrigin(c: Context<AppEnv>): string {
  return configuredOrigin('APP_URL', settingsOf(c).APP_URL) ?? requestOrigin(c);
}

/** {auth_url}'s origin: the configured AUTH_URL, else this request's origin. */
export function authOrigin(c: Context<AppEnv>): string {
  return configuredOrigin('AUTH_URL', settingsOf(c).AUTH_URL) ?? requestOrigin(c);
}

function join(origin: string, path: string): string {
  // A path of our own code, never user input (that goes through safeNextPath first).
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`page path must start with a single "/": ${path}`);
  return `${origin}${path}`;
}

/** Absolute address of a page under {app_url}, e.g. `appUrl(c, '/account')`. */
export function appUrl(c: Context<AppEnv>, path: string): string {
  return join(appOrigin(c), path);
}

/** Absolute address of a page under {auth_url}, e.g. `authUrl(c, '/login')`. */
export function authUrl(c: Context<AppEnv>, path: string): string {
  return join(authOrigin(c), path);
}

const MAX_NEXT_LENGTH = 512;
const PROBE_ORIGIN = 'https://next.invalid';

/**
 * The `next` parameter of sign-in, made safe to redirect to: only a relative path on this site,
 * starting with exactly one `/`. Anything else gives `fallback`: absolute URLs and schemes
 * (`https:`, `javascript:`), protocol-relative `//host`, backslashes (browsers read `/\host` as
 * `//host`), control characters and whitespace (stripped by URL parsers, so `/\t/host` would become
 * `//host`), and values over 512 characters. The value is also resolved against a probe origin and
 * must stay on it.
 */
export function safeNextPath(raw: string | undefined, fallback = '/dashboard'): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_NEXT_LENGTH) return fallback;
  if (raw[0] !== '/' || raw[1] === '/' || raw.includes('\\')) return fallback;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    // C0 controls, space and DEL; C1 controls; and the Unicode spaces and separators.
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(raw[i]!)) return fallback;
  }
  let resolved: URL;
  try {
    resolved = new URL(raw, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (resolved.origin !== PROBE_ORIGIN) return fallback;
  return raw;
}
