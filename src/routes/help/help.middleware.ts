import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/app-types';
import { clientIp } from '../../http/middleware/auth';
import { enforceRateLimit } from '../../services/kernel';

/** Anonymous readers of the help center, per client IP (signed-in callers count against their account). */
export const HELP_ANON_IP_LIMIT = { limit: 300, windowSeconds: 300 } as const;

export const limitAnonymousByIp: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('actor').kind === 'anonymous') {
    await enforceRateLimit(
      c.env,
      `help-ip:${clientIp(c)}`,
      HELP_ANON_IP_LIMIT.limit,
      HELP_ANON_IP_LIMIT.windowSeconds,
      'Too many help center requests from this address.',
    );
  }
  return next();
};
