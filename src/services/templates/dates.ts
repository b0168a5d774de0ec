import { addDays, shiftInstants, weekdayOf } from '../../lib/shift-time';
import { MAX_SHIFT_MINUTES } from '../shifts';

/** The Monday of the calendar week (Monday to Sunday) that holds `date`. */
export function mondayOf(date: string): string {
  return addDays(date, 1 - weekdayOf(date));
}

/**
 * The Monday generate starts on: the week of `weekOf` when given, else next week (the week after the
 * one holding `today`). Null when the week asked for is before this week or more than `maxAhead`
 * weeks after it.
 */
export function generateWeekStart(today: string, weekOf: string | undefined, maxAhead: number): string | null {
  const thisWeek = mondayOf(today);
  if (weekOf === undefined) return addDays(thisWeek, 7);
  const start = mondayOf(weekOf);
  if (start < thisWeek || start > addDays(thisWeek, 7 * maxAhead)) return null;
  return start;
}

/** The calendar dates of `weeks` weeks from `monday` (included) whose ISO weekday is listed. */
export function templateDates(monday: string, days: readonly number[], weeks: number): string[] {
  const wanted = new Set(days);
  const out: string[] = [];
  for (let i = 0; i < weeks * 7; i++) {
    const date = addDays(monday, i);
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
 * The shifts a template would create: one per listed weekday of `weeks` calendar weeks from the
 * Monday `monday`, each
 * with its real instants in the business's zone (so a shift over a DST change is 7 or 9 hours long),
 * keeping only those that start after `nowMs`. A date whose wall-clock window does not exist as a
 * 1 min–24 h shift that day (a 24-hour template on a 25-hour day) is left out.
 */
export function templateOccurrences(
  t: { days: readonly number[]; shift_in: string; shift_out: string },
  timeZone: string,
  monday: string,
  weeks: number,
  nowMs: number,
): Occurrence[] {
  const out: Occurrence[] = [];
  for (const date of templateDates(monday, t.days, weeks)) {
    const { startsAt, endsAt, minutes } = shiftInstants(date, t.shift_in, t.shift_out, timeZone);
    if (startsAt <= nowMs || minutes <= 0 || minutes > MAX_SHIFT_MINUTES) continue;
    out.push({ date, startsAt, endsAt, minutes });
  }
  return out;
}
