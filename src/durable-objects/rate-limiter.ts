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
    const { granted, ...r } = this.take(limit, windowSeconds, 1, 1, nowMs);
    return r;
  }

  /**
   * Takes up to `want` units, and at least `atLeast`, of a budget of `limit` per window (a hit is
   * want = atLeast = 1; a reservation of model tokens asks for an answer's ceiling and settles the
   * rest with `adjust` once the answer is known). Refused when fewer than `atLeast` remain.
   */
  take(
    limit: number,
    windowSeconds: number,
    want: number,
    atLeast: number,
    nowMs: number = Date.now(),
  ): RateLimitResult & { granted: number } {
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    const state = this.windowAt(start, windowMs);

    const overlap = 1 - (nowMs - start) / windowMs;
    const used = Math.floor(state.prevCount * overlap) + state.count;
    const reset = Math.ceil((start + windowMs) / 1000);
    const granted = Math.min(want, limit - used);
    if (granted < Math.max(1, atLeast)) {
      // Earliest moment enough weight of the previous window has slid out, or the window ends.
      const retryAfter = Math.max(1, reset - Math.floor(nowMs / 1000));
      return { allowed: false, limit, remaining: Math.max(0, limit - used), reset, retryAfter, windowStart: start, granted: 0 };
    }
    state.count += granted;
    this.ctx.storage.kv.put('w', state);
    return { allowed: true, limit, remaining: Math.max(0, limit - used - granted), reset, retryAfter: 0, windowStart: start, granted };
  }

  /**
   * Changes by `delta` units what was counted in the window starting at `windowStart`: negative gives
   * back the unused part of a reservation (never below zero), positive adds what was spent beyond it.
   * A window already slid out of reach is left alone.
   */
  adjust(windowSeconds: number, windowStart: number, delta: number): void {
    const windowMs = windowSeconds * 1000;
    const stored = this.ctx.storage.kv.get<WindowState>('w');
    if (!stored || delta === 0) return;
    if (stored.start === windowStart) stored.count = Math.max(0, stored.count + delta);
    else if (stored.start === windowStart + windowMs) stored.prevCount = Math.max(0, stored.prevCount + delta);
    else return;
    this.ctx.storage.kv.put('w', stored);
  }

  private windowAt(start: number, windowMs: number): WindowState {
    const stored = this.ctx.storage.kv.get<WindowState>('w');
    if (!stored || stored.start < start - windowMs) return { start, count: 0, prevCount: 0 };
    if (stored.start < start) return { start, count: 0, prevCount: stored.count };
    return stored;
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
