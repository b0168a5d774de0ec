/**
 * When attempts are made, after Standard Webhooks' schedule: the first at once, then 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after the previous failure (10 attempts over about three
 * days), each wait with ±10 % jitter so endpoints that failed together do not retry together.
 */
const S = 1000;
const M = 60 * S;
const H = 60 * M;

/** RETRY_DELAYS_MS[n] is the wait before attempt n + 1 (index 0: the first attempt, at once). */
export const RETRY_DELAYS_MS = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;
export const JITTER = 0.1;

/** Queue messages may be delayed by at most 12 hours a hop; longer waits re-delay on arrival. */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 60 * 60;

/** How long a receiver may take to answer. */
export const DELIVERY_TIMEOUT_MS = 15 * S;
/** How long an attempt holds its delivery; past it, a crashed attempt's delivery is taken up again. */
export const DELIVERY_LEASE_MS = 60 * S;

/** The longest Retry-After honoured: a receiver cannot park a delivery for longer than a day. */
export const MAX_RETRY_AFTER_MS = 24 * H;

/** The wait after `attempts` failed attempts (1-based: after the first failure, 5 s), jittered. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), MAX_ATTEMPTS - 1)]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as milliseconds from `now` (delta-seconds or an HTTP date), capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * S;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
