import type { AppBindings } from '../../env';
import { consumeRateLimit, rateLimitError, type RateLimitResult, releaseRateLimit } from '../kernel';

/**
 * Budgets of the public sign-up and sign-in routes beyond the per-IP budget every one of them has
 * (AUTH_IP_RATE_LIMIT, http/middleware/auth.ts). Numbers are per sliding window.
 */
export const LIMITS = {
  /** Registrations of one email (each starts over an unverified one). */
  registerPerEmail: { limit: 5, windowSeconds: 3600 },
  /** New verification codes for one email. */
  resendPerEmail: { limit: 5, windowSeconds: 3600 },
  /** Password reset codes for one email. */
  resetRequestPerEmail: { limit: 5, windowSeconds: 3600 },
  /** Failed sign-ins for one email from one IP: only that IP is held back. */
  loginFailuresPerEmailAndIp: { limit: 10, windowSeconds: 900 },
  /** Failed sign-ins from one IP, whatever the email (one address spraying many accounts). */
  loginFailuresPerIp: { limit: 30, windowSeconds: 900 },
  /**
   * Failed sign-ins for one email from anywhere (guessing spread over many addresses). Past it, only
   * places the account signed in from before (a session from that IP in the last 90 days) get through.
   */
  loginFailuresPerEmail: { limit: 50, windowSeconds: 3600 },
  /** Wrong current passwords on a password change, per account. */
  passwordChangeFailures: { limit: 10, windowSeconds: 900 },
} as const;

export const KNOWN_PLACE_MS = 90 * 24 * 3600 * 1000;

/** Live sessions kept per account; signing in once more ends the oldest. */
export const MAX_LIVE_SESSIONS = 20;
/**
 * Sign-ins waiting for their second factor kept per account, apart from the full sessions: someone
 * who has only the password cannot push the owner's sessions out by signing in again and again.
 */
export const MAX_PENDING_SESSIONS = 10;

export interface Budget {
  subject: string;
  limit: number;
  windowSeconds: number;
}

export const budget = (subject: string, b: { limit: number; windowSeconds: number }): Budget => ({ subject, ...b });

/**
 * Attempts that count only when they fail. Each budget is charged before the attempt (so concurrent
 * attempts cannot all slip under a limit) and `succeeded()` gives the charges back; a failed attempt
 * simply keeps them. A spent budget refuses the attempt with 429 and gives back the others, unless
 * `mayPass` lets it through anyway (uncounted).
 */
export async function chargeAttempt(
  env: AppBindings,
  budgets: Budget[],
  message: string,
  mayPass?: (spent: Budget) => Promise<boolean>,
): Promise<{ succeeded(): Promise<void> }> {
  const results = await Promise.all(budgets.map((b) => consumeRateLimit(env, b.subject, b.limit, b.windowSeconds)));
  const charged = budgets.map((b, i) => ({ b, r: results[i]! }));
  const giveBack = (list: Array<{ b: Budget; r: RateLimitResult }>) =>
    Promise.all(list.filter((x) => x.r.allowed).map((x) => releaseRateLimit(env, x.b.subject, x.b.windowSeconds, x.r))).then(
      () => undefined,
    );
  for (const { b, r } of charged) {
    if (r.allowed) continue;
    if (mayPass && (await mayPass(b))) continue;
    await giveBack(charged);
    throw rateLimitError(r, message);
  }
  return { succeeded: () => giveBack(charged) };
}
