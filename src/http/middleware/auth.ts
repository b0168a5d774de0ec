import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-types';
import { CSRF_HEADER, readAppCookie } from '../cookies';
import { requestOrigin } from '../origin';
import { timingSafeEqualStr } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import {
  looksLikeApiKey,
  looksLikeSession,
  type ResolvedCredential,
  resolveApiKey,
  resolveSession,
  touchApiKey,
  touchSession,
  useIsStale,
} from '../../services/accounts';
import { consumeRateLimit, enforceRateLimit, rateLimitError, rateLimitHeaders } from '../../services/kernel';
import { carriesPartnerAuth, resolvePartnerAuth } from './partner-auth';

/**
 * Resolves `Authorization: Bearer …` when present. A present but malformed, unknown or revoked
 * credential is a 401 on every route, public ones included, so a client never silently runs
 * anonymous. Every authenticated request is counted against its account: personal keys under
 * `user:<id>` (so a regenerated key continues the same budget), session tokens under `session:<id>`
 * with a budget of their own (DECISIONS.md "Rate limits"); every answer carries the X-RateLimit-*
 * headers of the budget it used.
 */
export const resolveAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Partner credentials (x-api-key, smpt_ tokens) and the OAuth token route under /v1/partner/.
  if (carriesPartnerAuth(c)) return resolvePartnerAuth(c, next);
  const header = c.req.header('Authorization');
  let token: string;
  if (header !== undefined) {
    const match = /^Bearer ([^\s]+)$/.exec(header.trim());
    if (!match?.[1]) throw new AppError('AUTH-REQ-ERR', 'Authorization header must be "Bearer <API_KEY>".');
    token = match[1];
  } else {
    const fromPage = pageSessionToken(c);
    if (fromPage === null) return next();
    token = fromPage;
  }
  const db = c.get('db');
  const now = Date.now();
  const settings = c.get('settings');

  let cred: ResolvedCredential | 'pending' | null;
  let budget: { subject: string; limit: number; window: number };
  if (looksLikeApiKey(token)) {
    cred = await resolveApiKey(db, token);
    if (!cred) throw new AppError('AUTH-REQ-ERR', 'The API key is unknown or has been revoked.');
    budget = { subject: `user:${cred.userId}`, limit: settings.API_KEY_RATE_LIMIT, window: settings.API_KEY_RATE_WINDOW_SECONDS };
  } else if (looksLikeSession(token)) {
    cred = await resolveSession(db, token, now);
    if (cred === 'pending') throw new AppError('TWO-FACTOR-REQ-ERR');
    if (!cred) throw new AppError('AUTH-REQ-ERR', 'The session has expired or was signed out.');
    budget = { subject: `session:${cred.userId}`, limit: settings.SESSION_RATE_LIMIT, window: settings.SESSION_RATE_WINDOW_SECONDS };
  } else {
    throw new AppError('AUTH-REQ-ERR', 'The credential is not a Shiftmarket API key or session token.');
  }

  const limit = await consumeRateLimit(c.env, budget.subject, budget.limit, budget.window);
  if (!limit.allowed) {
    throw rateLimitError(limit, `Rate limit exceeded for this account's ${cred.via === 'api_key' ? 'API key' : 'sessions'}.`, true);
  }
  const { userId, isAdmin, isDemo, demoAdmin, via, credentialId } = cred;
  c.set('actor', { kind: 'user', userId, isAdmin, isDemo, demoAdmin, via, credentialId });
  // Recorded at most once a minute; the lookup already told when it last was, so most requests skip the write.
  if (useIsStale(cred.lastUsedAt, now)) {
    const touch = via === 'api_key' ? touchApiKey(db, credentialId, now) : touchSession(db, credentialId, now);
    c.executionCtx.waitUntil(touch.run().catch(() => undefined));
  }
  await next();
  for (const [k, v] of Object.entries(rateLimitHeaders(limit))) c.res.headers.set(k, v);
};

/**
 * The web application's own scripts call the API with the page's cookie session instead of a Bearer
 * token, and only so: the cookie counts when the request also carries the page's CSRF token in
 * `X-CSRF-Token` (equal to the CSRF cookie, which no other site can read) and comes from this origin
 * (`Origin`, and `Sec-Fetch-Site` when the browser sends it). A request without that header never
 * reads the cookie, so a form or link on another site cannot act with it; CORS does not allow the
 * header from other origins. A browser holding a kiosk token is refused outright. Returns the session
 * token, or null when the request does not ask for the cookie.
 */
function pageSessionToken(c: Context<AppEnv>): string | null {
  const sent = c.req.header(CSRF_HEADER);
  if (sent === undefined) return null;
  // A venue's kiosk reaches no API at all: its browser holds no person's session, and what it holds is
  // read by the kiosk pages alone (web/features/kiosk).
  if (readAppCookie(c, 'kiosk')) throw new AppError('FORBIDDEN-ERR', 'This device is a kiosk: it reaches no API.');
  const expected = readAppCookie(c, 'csrf');
  const origin = c.req.header('Origin');
  const site = c.req.header('Sec-Fetch-Site');
  const sameOrigin = (origin === undefined || origin === requestOrigin(c)) && (site === undefined || site === 'same-origin');
  if (!sameOrigin || !expected || !timingSafeEqualStr(sent, expected)) {
    throw new AppError('FORBIDDEN-ERR', 'The page token is missing or wrong: reload the page and try again.');
  }
  const session = readAppCookie(c, 'session');
  if (!session) throw new AppError('AUTH-REQ-ERR', 'You are signed out: sign in again.');
  return session;
}

/** Route guard: the caller must be signed in. */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const a = c.get('actor');
  if (a.kind !== 'user' && a.kind !== 'agent') throw new AppError('AUTH-REQ-ERR', 'This operation needs Authorization: Bearer <API_KEY>.');
  return next();
};

/**
 * The client's address as Cloudflare reports it. Absent locally (`wrangler dev`, tests), where every
 * caller shares one bucket.
 */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header('CF-Connecting-IP')?.trim() || 'unknown';
}

/**
 * The public sign-up and sign-in routes, and the sign-in pages: every request counts against its
 * client IP (AUTH_IP_RATE_LIMIT per AUTH_IP_RATE_WINDOW_SECONDS, all of them together). The per-email
 * and per-failure budgets are the services' (services/accounts/limits.ts).
 */
export async function enforceAuthIpLimit(c: Context<AppEnv>): Promise<void> {
  const { AUTH_IP_RATE_LIMIT, AUTH_IP_RATE_WINDOW_SECONDS } = c.get('settings');
  await enforceRateLimit(
    c.env,
    `auth-ip:${clientIp(c)}`,
    AUTH_IP_RATE_LIMIT,
    AUTH_IP_RATE_WINDOW_SECONDS,
    'Too many sign-in requests from this address.',
  );
}

/** Route guard: `enforceAuthIpLimit` before the handler. */
export const limitAuthByIp: MiddlewareHandler<AppEnv> = async (c, next) => {
  await enforceAuthIpLimit(c);
  return next();
};
