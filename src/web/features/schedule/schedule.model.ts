/**
 * The schedule's words and sums, shared by the server page (src/web/features/schedule/schedule.tsx,
 * which renders them without script) and the calendar island (src/web/features/schedule/schedule.island.ts, which
 * redraws them after every change): who a shift is for, whether the calendar offers to move it, and
 * what the week's still-to-come shifts will cost. A shift's state in words (`state_words`) and its
 * pay (`scheduled_pay`) come with each shift from the server (services/shifts `shiftStateWords`,
 * kernel `shiftPayMinor`); this file only adds them up, in minor units. Pure code, no DOM.
 */

/** The fields of a shift request (the API's ShiftRequest) the schedule reads. */
export interface ScheduleShift {
  id: string;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  starts_at: string;
  ends_at: string;
  duration_minutes: number;
  role: string | null;
  shifter_id: string | null;
  shifter_name: string | null;
  is_broadcast: number;
  status: string;
  hourly_rate: number;
  currency: string;
  shift_start_at: string | null;
  shift_end_at: string | null;
  is_noshow: number;
  /** The shift's pay for its scheduled times, as the service counts it (hours × rate rounded once). */
  scheduled_pay: number;
  /** The shift's state in words and the tone it is drawn in, as the service says it. */
  state_words: { state: string; label: string; tone: ShiftTone; attention: boolean };
}

/** The statuses the schedule shows: superseded requests have a pending child, declined ones no one to show. */
export const SCHEDULE_STATUSES = [1, 2, 5, 6, 7] as const;

/** The colour family of a state (services/shifts `SHIFT_TONES`): the legend's four. */
export type ShiftTone = 'pending' | 'accepted' | 'done' | 'off';

/** Digits after the decimal point of a currency's minor unit (2 for USD, 0 for JPY), as src/lib/money.ts reads them. */
function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * An amount the server sent (a decimal at the currency's minor unit) as integer minor units: exact,
 * since the amount has no more decimals than the currency and is far below 2^53 minor units.
 */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** currencyDigits(currency));
}

/** Integer minor units as the decimal amount the money format shows. */
export function fromMinorUnits(minor: number, currency: string): number {
  const digits = currencyDigits(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** Who works it: the shifter's name, or the crew for an open broadcast. */
export function shiftWho(s: ScheduleShift): string {
  if (s.shifter_name) return s.shifter_name;
  return s.is_broadcast ? 'Open to the crew' : 'Shifter';
}

/**
 * The change-request rule as the calendar offers it: a pending request that has not started can be
 * changed by its business (services/shifts/change.ts supersedes it with a pending child). The
 * service decides; this only keeps the calendar from offering what it would refuse.
 */
export function isChangeable(s: ScheduleShift, nowMs: number): boolean {
  return s.status === 'pending' && Date.parse(s.starts_at) > nowMs;
}

/** "09:00–17:00", with "(next day)" when the shift ends after midnight. */
export function hoursText(shiftIn: string, shiftOut: string): string {
  return `${shiftIn}–${shiftOut}${shiftOut <= shiftIn ? ' (next day)' : ''}`;
}

let dateWords: Intl.DateTimeFormat | undefined;
/** "Mon 12 May": a wall-clock date (YYYY-MM-DD) in words, read as the date it names. */
export function dateText(date: string): string {
  // One formatter for every call: making one per call cost the week's table of 850 shifts (three
  // dates a row) more than half its render (bench/README.md, "schedule").
  dateWords ??= new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  return dateWords.format(new Date(`${date}T12:00:00Z`));
}

/** A YYYY-MM-DD date moved by whole days (calendar arithmetic, no zone involved). */
export function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Monday of a date's week (labor costs count Monday to Sunday). */
export function mondayOfDate(date: string): string {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay(); // 0 = Sunday
  return shiftDate(date, -((weekday + 6) % 7));
}

/** Whether a shift belongs in [from, to]: it starts then, or it is an overnight shift of the day before. */
export function inRange(s: ScheduleShift, from: string, to: string): boolean {
  if (s.shift_date >= from && s.shift_date <= to) return true;
  return s.shift_date === shiftDate(from, -1) && s.shift_out <= s.shift_in;
}

/** What a week's accepted and pending shifts that are not worked yet will cost, in the business's currency. */
export interface StillToCome {
  /** In the currency's minor units: the sum of each shift's pay as the server rounded it. */
  minor: number;
  total: number;
  shifts: number;
  hours: number;
}

/**
 * The shifts of the week (Monday `weekStart` to Sunday, by start date) still to be worked: pending
 * requests that have not started and accepted shifts not clocked out (nor marked no-show). Each
 * shift's pay is the server's `scheduled_pay` (hours × rate rounded once, as labor costs count a
 * worked shift), added up in minor units; shifts in another currency are left out.
 */
export function stillToCome(shifts: readonly ScheduleShift[], weekStart: string, currency: string, nowMs: number): StillToCome {
  const weekEnd = shiftDate(weekStart, 6);
  let minor = 0;
  let minutes = 0;
  let count = 0;
  for (const s of shifts) {
    if (s.shift_date < weekStart || s.shift_date > weekEnd || s.currency !== currency || s.is_noshow) continue;
    const coming = s.status === 'pending' ? Date.parse(s.starts_at) > nowMs : s.status === 'accepted' && !s.shift_end_at;
    if (!coming) continue;
    minor += toMinorUnits(s.scheduled_pay, currency);
    minutes += s.duration_minutes;
    count++;
  }
  return { minor, total: fromMinorUnits(minor, currency), shifts: count, hours: Math.round((minutes / 60) * 100) / 100 };
}

/** The part of GET /v1/business/{id}/labor_costs the schedule shows. */
export interface LaborWeek {
  week_start: string;
  week_end: string;
  currency: string;
  this_week_total: number;
  this_week_hours: number;
  this_week_shifts: number;
  weekly_budget: number | null;
}

/** The labor figures of a week in words: worked, still to come, expected against the budget. */
export function laborLines(labor: LaborWeek, coming: StillToCome, money: (n: number) => string) {
  const cur = labor.currency;
  const expectedMinor = toMinorUnits(labor.this_week_total, cur) + coming.minor;
  const expected = fromMinorUnits(expectedMinor, cur);
  const budget = labor.weekly_budget;
  const overMinor = budget === null ? 0 : expectedMinor - toMinorUnits(budget, cur);
  const over = overMinor > 0 ? fromMinorUnits(overMinor, cur) : null;
  return {
    expected,
    budget,
    week: `${dateText(labor.week_start)} – ${dateText(labor.week_end)}`,
    worked: `Worked: ${money(labor.this_week_total)} (${labor.this_week_shifts} shift${labor.this_week_shifts === 1 ? '' : 's'}, ${labor.this_week_hours} h)`,
    coming: `Still to come: ${money(coming.total)} (${coming.shifts} accepted or pending shift${coming.shifts === 1 ? '' : 's'}, ${coming.hours} h)`,
    against: budget === null ? 'No weekly budget set.' : `of ${money(budget)} budget`,
    over: over === null ? null : `Over the budget by ${money(over)}.`,
  };
}

// ---- Where a drag lands (docs/decisions/schedule-grid.md) ----

/** The step a calendar edit lands on (spec: "Drag snap: calendar edits, 15 minutes"). */
export const SNAP_MINUTES = 15;
const DAY_MINUTES = 1440;

/** A shift's wall-clock date and times, as a change request takes them. */
export interface WallShift {
  shift_date: string;
  shift_in: string;
  shift_out: string;
}

/** A point of the time grid: the date of the column and the minute of the day under the pointer (not rounded). */
export interface GridPoint {
  date: string;
  minute: number;
}

/** Minutes rounded to the nearest step, a half step away from zero, so a drag up and a drag down mirror each other. */
export function nearestStep(minutes: number, step = SNAP_MINUTES): number {
  const steps = Math.round(Math.abs(minutes) / step);
  return steps === 0 ? 0 : Math.sign(minutes) * steps * step;
}

/** The minute of the day at `offset` pixels down a column drawn from minute `min` to minute `max`, `height` pixels tall. */
export function minuteAt(offset: number, height: number, min: number, max: number): number {
  return min + (offset / height) * (max - min);
}

/** Whole days from one YYYY-MM-DD date to another (calendar days, no zone involved). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A shift moved by whole minutes on the wall clock: the same times of day apart, the date following past midnight. */
export function movedBy(s: WallShift, minutes: number): WallShift {
  const start = minutesOfDay(s.shift_in) + minutes;
  const days = Math.floor(start / DAY_MINUTES);
  const out = (((minutesOfDay(s.shift_out) + minutes) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return { shift_date: shiftDate(s.shift_date, days), shift_in: hhmm(start - days * DAY_MINUTES), shift_out: hhmm(out) };
}

/**
 * Where a dragged shift lands: moved by the pointer's travel from where it was grabbed to where it
 * was dropped, rounded to the nearest step. Only the travel counts, not the point of the shift that
 * was grabbed, so a 40-minute drag lands 45 minutes later from its top, its middle or its bottom.
 */
export function droppedShift(s: WallShift, grab: GridPoint, drop: GridPoint, step = SNAP_MINUTES): WallShift {
  const travel = daysBetween(grab.date, drop.date) * DAY_MINUTES + (drop.minute - grab.minute);
  return movedBy(s, nearestStep(travel, step));
}

// ---- The hours the time grid shows ----

/** A span of the day in minutes from midnight, on whole hours: 0 to 1440 is the whole day. */
export interface HourSpan {
  min: number;
  max: number;
}

export const WHOLE_DAY: HourSpan = { min: 0, max: DAY_MINUTES };
/** What a range without a shift shows: a working day (every hour is one press of "Show all 24 hours" away). */
export const EMPTY_RANGE_HOURS: HourSpan = { min: 8 * 60, max: 18 * 60 };

function minutesOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * The hours of [from, to] worth drawing: from `margin` minutes before the earliest shift to `margin`
 * after the latest, widened to whole hours. An overnight shift runs to midnight on its own day and
 * from midnight on the next, as the grid draws it (an overnight shift of the day before `from`
 * counts from midnight).
 */
export function fittedHours(shifts: readonly WallShift[], from: string, to: string, margin = 60): HourSpan {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const take = (a: number, b: number) => {
    first = Math.min(first, a);
    last = Math.max(last, b);
  };
  for (const s of shifts) {
    const start = minutesOfDay(s.shift_in);
    const end = minutesOfDay(s.shift_out);
    const overnight = end <= start;
    if (s.shift_date >= from && s.shift_date <= to) take(start, overnight ? DAY_MINUTES : end);
    const next = shiftDate(s.shift_date, 1);
    if (overnight && end > 0 && next >= from && next <= to) take(0, end);
  }
  if (first > last) return EMPTY_RANGE_HOURS;
  return {
    min: Math.max(0, Math.floor((first - margin) / 60) * 60),
    max: Math.min(DAY_MINUTES, Math.ceil((last + margin) / 60) * 60),
  };
}

/** A minute of the day as the calendar's duration option takes it ("08:00:00", "24:00:00"). */
export const gridTime = (minutes: number) => `${hhmm(minutes)}:00`;

/** "08:00–18:00": the hours shown, in words. */
export const hoursSpanText = (span: HourSpan) => `${hhmm(span.min)}–${hhmm(span.max)}`;
