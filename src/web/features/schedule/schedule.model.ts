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

/** "Mon 12 May": a wall-clock date (YYYY-MM-DD) in words, read as the date it names. */
export function dateText(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);
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
