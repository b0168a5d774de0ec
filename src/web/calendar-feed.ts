import { Hono } from 'hono';
import type { AppEnv } from '../http/app-types';
import { serviceCtx } from '../http/create-app';
import { clientIp } from '../http/middleware/auth';
import { enforceRateLimit } from '../services/kernel';
import { calendarFeedText } from '../services/shifts';

/** Feed reads per address per hour: calendar apps poll every 15 minutes to a few hours. */
export const CALENDAR_FEED_READS_PER_HOUR = 120;

/**
 * A shifter's private calendar feed, GET {app_url}/cal/{secret}.ics (outside /v1: a calendar app
 * subscribes with the address alone, no key or cookie). The secret is the credential: an unknown or
 * revoked one is a plain 404, the same for both. Reads are bounded per address.
 */
export const calendarFeedRoutes = new Hono<AppEnv>();

calendarFeedRoutes.get('/cal/:file{[A-Za-z0-9_-]{1,64}\\.ics}', async (c) => {
  const ctx = serviceCtx(c);
  await enforceRateLimit(c.env, `calfeed:ip:${clientIp(c)}`, CALENDAR_FEED_READS_PER_HOUR, 3600, 'Too many calendar feed reads.');
  const secret = c.req.param('file').slice(0, -'.ics'.length);
  const text = await calendarFeedText(ctx, secret);
  c.header('Cache-Control', 'private, no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Robots-Tag', 'noindex');
  if (text === null) return c.text('No such calendar feed.', 404);
  return c.body(text, 200, { 'Content-Type': 'text/calendar; charset=utf-8' });
});
