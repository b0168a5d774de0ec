import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/app-types';
import { clientIp } from '../../http/middleware/auth';
import { consumeRateLimit } from '../../services/kernel';
import { EmptyState } from './frame';
import { renderFrame } from './render';

/**
 * Widget frames loaded per client address (every frame counts, cache hit or not: a scraper walking
 * slugs misses the cache every time). A page showing widgets loads a handful of frames, so this
 * leaves room for a few dozen page views a minute from one address (an office behind one NAT included).
 */
export const WIDGET_FRAME_IP_LIMIT = { limit: 600, windowSeconds: 300 } as const;

const TOO_MANY = {
  title: 'Too many requests',
  message: 'Shiftmarket is getting too many requests from your network. This will load again in a few minutes.',
};

/**
 * The frames' per-address limit (the help center's pattern, routes/help/help.middleware.ts). A refusal
 * is still a frame page, with the frames' headers and a 429 with Retry-After: the error envelope is
 * JSON, which the partner's page would show as text inside its iframe.
 */
export const limitFramesByIp: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { limit, windowSeconds } = WIDGET_FRAME_IP_LIMIT;
  const r = await consumeRateLimit(c.env, `widget-ip:${clientIp(c)}`, limit, windowSeconds);
  if (!r.allowed) {
    return renderFrame(c, TOO_MANY.title, <EmptyState {...TOO_MANY} />, 429, undefined, { 'Retry-After': String(r.retryAfter) });
  }
  return next();
};
