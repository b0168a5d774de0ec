import { addDays, shiftInstants, weekdayOf } from '../../lib/shift-time';
import { MAX_SHIFT_MINUTES } from '../shifts';

/** The calendar dates from `today` (included) over the next weeks × 7 days whose ISO weekday is listed. */
export function templateDates(today: string, days: readonly number[], weeks: number): string[] {
  const wanted = new Set(days);
  const out: string[] = [];
  for (let i = 0; i < weeks * 7; i++) {
    const date = addDays(today, i);
    if (wanted.has(weekdayOf(date))) out.push(date);
  }
  return out;
}

export interface Occurrence {
  date: string;
  startsAt: number;
  endsAt: number;
  minutes: number;
}

/**
 * The shifts a template would create: one per listed weekday from `today` over `weeks` weeks, each
 * with its real instants in the business's zone (so a shift over a DST change is 7 or 9 hours long),
 * keeping only those that start after `nowMs`. A date whose wall-clock window does not exist as a
 * 1 min–24 h shift that day (a 24-hour template on a 25-hour day) is left out.
 */
export function templateOccurrences(
  t: { days: readonly number[]; shift_in: string; shift_out: string },
  timeZone: string,
  today: string,
  weeks: number,
  nowMs: number,
): Occurrence[] {
  const out: Occurrence[] = [];
  for (const date of templateDates(today, t.days, weeks)) {
    const { startsAt, endsAt, minutes } = shiftInstants(date, t.shift_in, t.shift_out, timeZone);
    if (startsAt <= nowMs || minutes <= 0 || minutes > MAX_SHIFT_MINUTES) continue;
    out.push({ date, startsAt, endsAt, minutes });
  }
  return out;
}
