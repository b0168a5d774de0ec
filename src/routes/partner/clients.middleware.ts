import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/app-types';
import { clientIp } from '../../http/middleware/auth';
import { enforceRateLimit } from '../../services/kernel';

/**
 * Token requests count per client IP (a bucket of their own, with the sign-in routes' budget:
 * AUTH_IP_RATE_LIMIT per AUTH_IP_RATE_WINDOW_SECONDS), before the body is read.
 */
export const limitTokenRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { AUTH_IP_RATE_LIMIT, AUTH_IP_RATE_WINDOW_SECONDS } = c.get('settings');
  const message = 'Too many token requests from this address.';
  await enforceRateLimit(c.env, `partner-token-ip:${clientIp(c)}`, AUTH_IP_RATE_LIMIT, AUTH_IP_RATE_WINDOW_SECONDS, message);
  return next();
};

/**
 * The token route's own errors are RFC 6749's: a malformed or wrongly typed body, refused before the
 * handler in the usual envelope (400, 415), is answered as `invalid_request` instead.
 */
export const oauthShapedErrors: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!c.error || (c.res.status !== 400 && c.res.status !== 415)) return;
  const description = c.error.message || 'The request is malformed.';
  c.res = new Response(JSON.stringify({ error: 'invalid_request', error_description: description }), {
    status: 400,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
};
