import type { AppBindings } from '../../env';
import { AppError } from '../../lib/errors';

/** The answer to one counted hit (the limiter's own type: callers never see how it is counted). */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the current window ends. */
  reset: number;
  /** Seconds to wait before retrying (0 when allowed). */
  retryAfter: number;
  /** Epoch ms of the window the hit was counted in (to release it later). */
  windowStart: number;
}

/**
 * The limit client: callers name a subject and a budget; how it is counted (one Durable Object per
 * subject, a sliding window) stays behind these functions.
 */
export async function consumeRateLimit(env: AppBindings, subject: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  return stub.hit(limit, windowSeconds);
}

/** Gives back a hit `consumeRateLimit` counted (an attempt that turned out harmless). */
export async function releaseRateLimit(env: AppBindings, subject: string, windowSeconds: number, counted: RateLimitResult): Promise<void> {
  if (!counted.allowed) return;
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  await stub.release(windowSeconds, counted.windowStart);
}

export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    'X-RateLimit-Reset': String(r.reset),
  };
}

/** The 429 for a refused hit, with Retry-After (and the X-RateLimit-* headers when asked). */
export function rateLimitError(r: RateLimitResult, message: string, withHeaders = false): AppError {
  return new AppError('RATE-LIMIT-ERR', message, undefined, {
    ...(withHeaders ? rateLimitHeaders(r) : {}),
    'Retry-After': String(r.retryAfter),
  });
}

/** A reservation of several units (model tokens) from a budget: how many were granted, to settle later. */
export interface Reservation extends RateLimitResult {
  granted: number;
}

/**
 * Reserves up to `want` units of a budget (at least `atLeast`, else refused), before spending them:
 * concurrent callers cannot together take more than the budget holds. Settle with the real spend.
 */
export async function reserveBudget(
  env: AppBindings,
  subject: string,
  limit: number,
  windowSeconds: number,
  want: number,
  atLeast: number,
): Promise<Reservation> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  return stub.take(limit, windowSeconds, want, atLeast);
}

/** Replaces a reservation by what was really spent: gives back the rest, or counts the excess. */
export async function settleBudget(env: AppBindings, subject: string, windowSeconds: number, r: Reservation, spent: number): Promise<void> {
  if (!r.allowed || spent === r.granted) return;
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  await stub.adjust(windowSeconds, r.windowStart, spent - r.granted);
}

/** Counts one hit against a budget and throws the 429 when it is spent. */
export async function enforceRateLimit(env: AppBindings, subject: string, limit: number, windowSeconds: number, message: string) {
  const r = await consumeRateLimit(env, subject, limit, windowSeconds);
  if (!r.allowed) throw rateLimitError(r, message);
  return r;
}
