import { Temporal } from 'temporal-polyfill';

/**
 * Wall-clock ↔ instant conversions for shifts. shift_date/shift_in/shift_out are wall-clock values
 * in the business's IANA zone; shift_out ≤ shift_in means the shift ends the next day. All the
 * arithmetic is Temporal's, so DST days give 7- or 9-hour "8-hour" shifts, as they really are.
 */
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

export function isValidDate(date: string): boolean {
  if (!DATE_RE.test(date)) return false;
  try {
    Temporal.PlainDate.from(date, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

/** The instant a wall-clock date+time in `tz` denotes (a time skipped by DST moves forward). */
export function wallClockToInstant(date: string, time: string, tz: string): number {
  return Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(tz, { disambiguation: 'compatible' }).toInstant().epochMilliseconds;
}

export function crossesMidnight(shiftIn: string, shiftOut: string): boolean {
  return shiftOut <= shiftIn;
}

/** Real start and end instants of a shift; the end falls on the next day when it crosses midnight. */
export function shiftInstants(date: string, shiftIn: string, shiftOut: string, tz: string) {
  const startsAt = wallClockToInstant(date, shiftIn, tz);
  const endDate = crossesMidnight(shiftIn, shiftOut) ? addDays(date, 1) : date;
  const endsAt = wallClockToInstant(endDate, shiftOut, tz);
  return { startsAt, endsAt, minutes: Math.round((endsAt - startsAt) / 60_000) };
}

export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** The calendar date of an instant in `tz`. */
export function dateInZone(ms: number, tz: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(tz).toPlainDate().toString();
}

/** The HH:MM wall-clock time of an instant in `tz`. */
export function timeInZone(ms: number, tz: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(tz).toPlainTime().toString({ smallestUnit: 'minute' });
}

/** The instant a calendar day starts in `tz` (not always 00:00 on DST days). */
export function startOfDay(date: string, tz: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: tz }).toInstant().epochMilliseconds;
}

/** Monday of the week containing `date` (weeks start on Monday). */
export function mondayOf(date: string): string {
  const d = Temporal.PlainDate.from(date);
  return d.subtract({ days: d.dayOfWeek - 1 }).toString();
}

/** ISO weekday of a date: 1 = Monday … 7 = Sunday. */
export function weekdayOf(date: string): number {
  return Temporal.PlainDate.from(date).dayOfWeek;
}

/** Today's date in `tz`. */
export function todayIn(tz: string, nowMs: number = Date.now()): string {
  return dateInZone(nowMs, tz);
}

/** First day of the month and the number of days in it. */
export function monthBounds(year: number, month: number) {
  const first = Temporal.PlainDate.from({ year, month, day: 1 });
  return { first: first.toString(), days: first.daysInMonth, next: first.add({ months: 1 }).toString() };
}
