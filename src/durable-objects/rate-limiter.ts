import { DurableObject } from 'cloudflare:workers';
import type { RateLimitResult } from '../services/kernel';

interface WindowState {
  start: number;
  count: number;
  prevCount: number;
}

/**
 * One instance per limited subject (an account's personal key or sessions, a partner key, a client IP
 * or an email on the public sign-in routes).
 * Sliding-window counter: the previous window's count is weighted by how much of it still overlaps
 * the sliding window, which avoids the double burst a fixed window allows at its edge. State lives in
 * the object's SQLite-backed storage so an eviction does not reset the count.
 */
export class RateLimiter extends DurableObject<Env> {
  hit(limit: number, windowSeconds: number, nowMs: number = Date.now()): RateLimitResult {
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    const stored = this.ctx.storage.kv.get<WindowState>('w');
    let state: WindowState;
    if (!stored || stored.start < start - windowMs) state = { start, count: 0, prevCount: 0 };
    else if (stored.start < start) state = { start, count: 0, prevCount: stored.count };
    else state = stored;

    const overlap = 1 - (nowMs - start) / windowMs;
    const used = Math.floor(state.prevCount * overlap) + state.count;
    const reset = Math.ceil((start + windowMs) / 1000);
    if (used >= limit) {
      // Earliest moment enough weight of the previous window has slid out, or the window ends.
      const retryAfter = Math.max(1, reset - Math.floor(nowMs / 1000));
      return { allowed: false, limit, remaining: 0, reset, retryAfter, windowStart: start };
    }
    state.count += 1;
    this.ctx.storage.kv.put('w', state);
    return { allowed: true, limit, remaining: Math.max(0, limit - used - 1), reset, retryAfter: 0, windowStart: start };
  }

  /**
   * Gives back one hit counted in the window starting at `windowStart` (an attempt reserved before it
   * was known to be harmless, e.g. a sign-in whose password turned out right). Counting first and
   * releasing after keeps concurrent attempts from all slipping under the limit.
   */
  release(windowSeconds: number, windowStart: number): void {
    const windowMs = windowSeconds * 1000;
    const stored = this.ctx.storage.kv.get<WindowState>('w');
    if (!stored) return;
    if (stored.start === windowStart && stored.count > 0) stored.count -= 1;
    else if (stored.start === windowStart + windowMs && stored.prevCount > 0) stored.prevCount -= 1;
    else return;
    this.ctx.storage.kv.put('w', stored);
  }
}
