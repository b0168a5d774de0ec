import { Temporal } from '../../lib/time';

/** Quiet hours: wall-clock HH:MM in the person's zone; start > end spans midnight (22:00–07:00). */
export interface QuietHours {
  start: string;
  end: string;
  timezone: string;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the instant falls in the quiet hours: [start, end) of the person's wall clock. */
export function inQuietHours(now: number, q: QuietHours): boolean {
  const local = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(q.timezone);
  const t = local.hour * 60 + local.minute;
  const s = minutes(q.start);
  const e = minutes(q.end);
  return s < e ? t >= s && t < e : t >= s || t < e;
}

/**
 * When a non-urgent notification due at `now` may go out: `now` outside quiet hours, else the instant
 * they end (the next time the wall clock shows `end`, computed in the zone, so a DST change in the
 * night gives the true instant; an end time a DST gap skips moves forward with the clocks).
 */
export function quietHoursEnd(now: number, q: QuietHours | null): number {
  if (!q || !inQuietHours(now, q)) return now;
  const local = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(q.timezone);
  const endTime = Temporal.PlainTime.from(q.end);
  let candidate = local.toPlainDate().toZonedDateTime({ timeZone: q.timezone, plainTime: endTime });
  if (Temporal.ZonedDateTime.compare(candidate, local) <= 0) {
    candidate = local.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: q.timezone, plainTime: endTime });
  }
  return candidate.toInstant().epochMilliseconds;
}
