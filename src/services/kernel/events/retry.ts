import { type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * Backoff between outbox attempts made by the cron sweep: 2, 4, 8, 16, 32 minutes, then hourly.
 * The queue's own retries of one message are much shorter (see queues/consumer.ts).
 */
export const RETRY_BASE_MS = 60_000;
export const RETRY_CAP_MS = 60 * 60_000;

/** How long to wait after the `attempts`-th failed attempt before the sweep tries again. */
export function retryAfterMs(attempts: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts));
}

/** In an UPDATE that counts one more attempt: `now + retryAfterMs(attempts + 1)` from the old value. */
export function nextAttemptAfterFailure(now: number, attempts: SQLiteColumn): SQL<number> {
  return sql<number>`${now} + min(${RETRY_CAP_MS}, ${RETRY_BASE_MS} * (1 << min(${attempts} + 1, 16)))`;
}
