import type { AppBindings } from '../env';
import type { RateLimitResult } from '../durable-objects/rate-limiter';

/**
 * The limit client: callers name a subject and a budget; how it is counted (one Durable Object per
 * subject) stays behind this function.
 */
export async function consumeRateLimit(
  env: AppBindings,
  subject: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  return stub.hit(limit, windowSeconds);
}

export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    'X-RateLimit-Reset': String(r.reset),
  };
}
