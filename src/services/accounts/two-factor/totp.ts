import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after the current one are accepted too (clock drift, typing time). */
export const TOTP_WINDOW = 1;
const ISSUER = 'Shiftmarket';

/** A new random secret (160 bits, the RFC's recommendation for SHA-1), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label: string) {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://` URI an authenticator app scans. */
export function totpUri(secretBase32: string, accountLabel: string): string {
  return totp(secretBase32, accountLabel).toString();
}

/**
 * The time step a code belongs to, when it is valid within ±TOTP_WINDOW steps of `now`; else null.
 * The caller refuses a step at or before the last one accepted (a code works once).
 */
export function matchingStep(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32, 'check').validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code of a given instant (for tests and tools that act as the authenticator app). */
export function totpCodeAt(secretBase32: string, now: number): string {
  return totp(secretBase32, 'code').generate({ timestamp: now });
}

/** Digits only: people type codes with spaces or dashes ("123 456"). */
export function normalizeCode(input: string): string {
  return input.replace(/[\s-]/g, '');
}
