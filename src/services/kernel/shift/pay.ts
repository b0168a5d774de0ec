import { payForMinutes } from '../../../lib/money';

/** Scheduled minutes from shift_in to shift_out, on real instants (a DST night is 7 or 9 hours). */
export function scheduledMinutes(row: { starts_at: number; ends_at: number }): number {
  return Math.round((row.ends_at - row.starts_at) / 60_000);
}

/** Pay for one shift in minor units: hours × rate, rounded half-up once (DECISIONS.md "Money"). */
export function shiftPayMinor(row: { starts_at: number; ends_at: number; hourly_rate_minor: number }): number {
  return payForMinutes(scheduledMinutes(row), row.hourly_rate_minor);
}

/** Hours with two decimals, for display. */
export function hours(minutes: number): number {
  return Math.round((minutes / 60) * 100) / 100;
}
