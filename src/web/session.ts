import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, WebUser } from '../http/app-types';
import { type PendingSignIn, resolvePendingSession, resolveSession, signedInUser, touchSession, useIsStale } from '../services/accounts';
import { clearAppCookie, readAppCookie, setAppCookie } from '../http/cookies';
import { safeNextPath } from './urls';

/**
 * The cookie session of the pages. The cookie holds a session token of the same kind the API's
 * sign-in returns (services/accounts/credentials.ts): signing out, revoking it in the sessions list or
 * changing the password ends both. The JSON API never reads this cookie (it wants a Bearer header),
 * so no API route is exposed to cross-site requests.
 */
export type WebSession = { kind: 'active'; user: WebUser } | { kind: 'pending'; pending: PendingSignIn } | { kind: 'none' };

export async function readWebSession(c: Context<AppEnv>): Promise<WebSession> {
  const session = await sessionOf(c);
  c.set('pageSession', session.kind === 'active' ? await pageSessionKey(session.user.sessionId) : 'none');
  return session;
}

/** The page's session as `X-Page-Session` names it: not the token, a digest of the session row's id. */
async function pageSessionKey(sessionId: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`page-session:${sessionId}`));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function sessionOf(c: Context<AppEnv>): Promise<WebSession> {
  const token = readAppCookie(c, 'session');
  if (!token) return { kind: 'none' };
  const db = c.get('db');
  const now = Date.now();
  const cred = await resolveSession(db, token, now);
  if (cred === 'pending') {
    const pending = await resolvePendingSession(db, token, now);
    return pending ? { kind: 'pending', pending } : { kind: 'none' };
  }
  if (!cred) return { kind: 'none' };
  const user = await signedInUser(db, cred.userId);
  if (!user) return { kind: 'none' };
  const { userId, isAdmin, isDemo, demoAdmin, credentialId } = cred;
  c.set('actor', { kind: 'user', userId, isAdmin, isDemo, demoAdmin, via: 'session', credentialId });
  if (useIsStale(cred.lastUsedAt, now))
    c.executionCtx.waitUntil(
      touchSession(db, credentialId, now)
        .run()
        .catch(() => undefined),
    );
  return { kind: 'active', user: { userId, sessionId: credentialId, email: user.email, displayName: user.displayName } };
}

/** Puts a new session token in the cookie, for as long as the session lives. */
export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: number): void {
  setAppCookie(c, 'session', token, { maxAgeSeconds: Math.max(0, Math.floor((expiresAt - Date.now()) / 1000)) });
}

export const clearSessionCookie = (c: Context<AppEnv>) => clearAppCookie(c, 'session');

/** Where to send someone who must sign in first, coming back here afterwards. */
export function loginRedirectPath(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  const here = safeNextPath(`${url.pathname}${url.search}`);
  return `/login?next=${encodeURIComponent(here)}`;
}

/**
 * Page guard: a signed-in person (the actor of the request and `webUser`), else a redirect to
 * sign-in. A session waiting for its second factor reaches no page but the challenge.
 */
export const requireWebUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await readWebSession(c);
  if (session.kind === 'pending')
    return c.redirect(`/login/2fa?next=${encodeURIComponent(safeNextPath(new URL(c.req.url).pathname))}`, 303);
  if (session.kind === 'none') {
    if (readAppCookie(c, 'session')) clearSessionCookie(c);
    return c.redirect(loginRedirectPath(c), 303);
  }
  c.set('webUser', session.user);
  await next();
};
