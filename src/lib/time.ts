import { Temporal } from 'temporal-polyfill';

/** True when `tz` is an IANA zone name the runtime knows. */
export function isValidTimeZone(tz: string): boolean {
  // Temporal also accepts fixed offsets ("+02:00"); a business needs a named zone with its DST rules.
  if (/^[+\-\u2212]/.test(tz)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(tz);
    return true;
  } catch {
    return false;
  }
}

export function toIso(ms: number): string;
export function toIso(ms: number | null | undefined): string | null;
export function toIso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export { Temporal };
