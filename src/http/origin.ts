import type { Context } from 'hono';
import type { AppEnv } from './app-types';

/** The origin the request itself reached (scheme, host and port). */
export function requestOrigin(c: Context<AppEnv>): string {
  return new URL(c.req.url).origin;
}
