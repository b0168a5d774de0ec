import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-types';
import { AppError } from '../../lib/errors';
import {
  looksLikeApiKey,
  looksLikeSession,
  resolveApiKey,
  resolveSession,
  touchApiKey,
} from '../../services/accounts/credentials';
import { consumeRateLimit, rateLimitHeaders } from '../../services/rate-limit';

/**
 * Resolves `Authorization: Bearer …` when present. A present but malformed, unknown or revoked
 * credential is a 401 on every route, public ones included, so a client never silently runs
 * anonymous. Personal keys are counted per key (DECISIONS.md: 600 per 5 minutes) and every answer to
 * a key-authenticated request carries the X-RateLimit-* headers.
 */
export const resolveAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('Authorization');
  if (header === undefined) return next();
  const match = /^Bearer ([^\s]+)$/.exec(header.trim());
  if (!match?.[1]) throw new AppError('AUTH-REQ-ERR', 'Authorization header must be "Bearer <API_KEY>".');
  const token = match[1];
  const db = c.get('db');
  const now = Date.now();

  if (looksLikeApiKey(token)) {
    const cred = await resolveApiKey(db, token, now);
    if (!cred) throw new AppError('AUTH-REQ-ERR', 'The API key is unknown or has been revoked.');
    const settings = c.get('settings');
    const limit = await consumeRateLimit(
      c.env,
      `key:${cred.credentialId}`,
      settings.API_KEY_RATE_LIMIT,
      settings.API_KEY_RATE_WINDOW_SECONDS,
    );
    const headers = rateLimitHeaders(limit);
    if (!limit.allowed) {
      throw new AppError('RATE-LIMIT-ERR', 'Rate limit exceeded for this API key.', undefined, {
        ...headers,
        'Retry-After': String(limit.retryAfter),
      });
    }
    c.set('actor', { kind: 'user', userId: cred.userId, isAdmin: cred.isAdmin, via: 'api_key', credentialId: cred.credentialId });
    c.executionCtx.waitUntil(touchApiKey(db, cred.credentialId, now).run().catch(() => undefined));
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
    return;
  }

  if (looksLikeSession(token)) {
    const cred = await resolveSession(db, token, now);
    if (!cred) throw new AppError('AUTH-REQ-ERR', 'The session has expired or was signed out.');
    c.set('actor', { kind: 'user', userId: cred.userId, isAdmin: cred.isAdmin, via: 'session', credentialId: cred.credentialId });
    return next();
  }

  throw new AppError('AUTH-REQ-ERR', 'The credential is not a Shiftmarket API key or session token.');
};

/** Route guard: the caller must be signed in. */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const a = c.get('actor');
  if (a.kind !== 'user' && a.kind !== 'agent') throw new AppError('AUTH-REQ-ERR', 'This operation needs Authorization: Bearer <API_KEY>.');
  return next();
};
