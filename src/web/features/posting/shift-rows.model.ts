/**
 * A shift written as a row of text (bulk posting, templates): the checks made in the browser before
 * anything is sent, and the send_request body it becomes. The service checks everything again; these
 * checks only spare a round trip for what is plainly wrong. The bounds are the service's own
 * (services/shifts `SHIFT_INPUT_BOUNDS`, which its schemas are built from), handed to the island by
 * the page, so a row the service would refuse for its rate, times or note is never "Ready".
 */

/** The service's shift input bounds as the page sends them (services/shifts/input-bounds.ts). */
export interface ShiftInputBounds {
  datePattern: string;
  timePattern: string;
  maxHourlyRate: number;
  minMinutes: number;
  maxMinutes: number;
  maxNoteLength: number;
}
export interface RowInput {
  date: string;
  in: string;
  out: string;
  role: string;
  rate: string;
  shifter: string;
  note: string;
}

export interface Role {
  id: number;
  slug: string;
  label: string;
}

export interface Crew {
  id: string;
  name: string;
}

export interface RowProblem {
  field: keyof RowInput;
  message: string;
}

const RATE = /^\d+(\.\d{1,2})?$/;
const money = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

const norm = (s: string) => s.trim().toLowerCase();

export function findRole(value: string, roles: Role[]): Role | undefined {
  const v = norm(value);
  return roles.find((r) => norm(r.label) === v || r.slug === v || String(r.id) === v);
}

/** '' or "broadcast" is a broadcast; anything else names one shifter of the crew (name or id). */
export function findShifter(value: string, crew: Crew[]): Crew | 'broadcast' | undefined {
  const v = norm(value);
  if (v === '' || v === 'broadcast') return 'broadcast';
  return crew.find((s) => norm(s.name) === v || s.id === value.trim());
}

function realDate(d: string, bounds: ShiftInputBounds): boolean {
  if (!new RegExp(bounds.datePattern).test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
}

/** What is wrong with an hourly rate as typed, by the service's bounds, or null. */
export function rateProblem(rate: string, bounds: ShiftInputBounds): string | null {
  if (!RATE.test(rate) || Number(rate) <= 0) return 'An amount such as 18.50.';
  if (Number(rate) > bounds.maxHourlyRate) return `At most ${money(bounds.maxHourlyRate)} an hour.`;
  return null;
}

/**
 * A time of day as people type it, as the service's HH:MM: "20:00", "8am", "8 AM", "8:30 pm",
 * "8.30pm", "0830", "12am" (midnight) and "12pm" (noon). Null when it is no time of day.
 */
export function timeOfDay(text: string): string | null {
  const m = /^\s*(\d{1,2})(?:[:.h]?(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?\s*$/i.exec(text);
  if (!m) return null;
  let hours = Number(m[1]);
  const minutes = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.[0]?.toLowerCase();
  if (minutes > 59) return null;
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'p' ? 12 : 0);
  } else if (hours > 23) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The shift's length on the wall clock (an end earlier than the start is the next day) within the service's bounds. */
function lengthWithin(shiftIn: string, shiftOut: string, bounds: ShiftInputBounds): boolean {
  const minutes = (minutesOf(shiftOut) - minutesOf(shiftIn) + 1440) % 1440;
  return minutes >= bounds.minMinutes && minutes <= bounds.maxMinutes;
}

/** A row's times as the service takes them (timeOfDay), each left as typed when it is no time. */
export function withTimes(row: RowInput): RowInput {
  return { ...row, in: timeOfDay(row.in) ?? row.in, out: timeOfDay(row.out) ?? row.out };
}

export function checkRow(typed: RowInput, roles: Role[], crew: Crew[], bounds: ShiftInputBounds): RowProblem[] {
  const p: RowProblem[] = [];
  const row = withTimes(typed);
  const time = new RegExp(bounds.timePattern);
  if (!realDate(row.date, bounds)) p.push({ field: 'date', message: 'A date as YYYY-MM-DD.' });
  if (!time.test(row.in)) p.push({ field: 'in', message: 'A time such as 08:30, 8:30am or 20:00.' });
  if (!time.test(row.out)) p.push({ field: 'out', message: 'A time such as 17:00, 5pm or 17:30.' });
  else if (row.out === row.in) p.push({ field: 'out', message: 'Must differ from the start.' });
  else if (time.test(row.in) && !lengthWithin(row.in, row.out, bounds))
    p.push({ field: 'out', message: `A shift lasts between ${bounds.minMinutes} minute(s) and ${bounds.maxMinutes / 60} hours.` });
  if (!findRole(row.role, roles)) p.push({ field: 'role', message: 'Not a role: use its name.' });
  const rate = rateProblem(row.rate, bounds);
  if (rate) p.push({ field: 'rate', message: rate });
  if (!findShifter(row.shifter, crew)) p.push({ field: 'shifter', message: 'Not in your crew: a name, or "broadcast".' });
  if (row.note.trim().length > bounds.maxNoteLength) p.push({ field: 'note', message: `At most ${bounds.maxNoteLength} characters.` });
  return p;
}

/** The send_request body of a checked row. */
export function toRequest(typed: RowInput, businessId: string, roles: Role[], crew: Crew[]) {
  const row = withTimes(typed);
  const who = findShifter(row.shifter, crew);
  const targeted = who && who !== 'broadcast' ? who : null;
  return {
    business_id: businessId,
    shift_date: row.date,
    shift_in: row.in,
    shift_out: row.out,
    shiftrole_id: findRole(row.role, roles)?.id ?? 0,
    hourly_rate: Number(row.rate),
    shifter_id: targeted ? targeted.id : null,
    is_broadcast: !targeted,
    note: row.note || null,
  };
}

/** The conflicts operation's answer as the words need it (GET /v1/shift_request/conflicts). */
export interface BookedWindows {
  window: { timezone: string };
  data: { starts_at: string; ends_at: string }[];
  busy: { starts_at: string; ends_at: string }[];
}

/** YYYY-MM-DD and HH:MM of an instant on the wall clock of `tz`. */
function wallClock(iso: string, tz: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}` };
}

/**
 * "Jordan Rivera already works 09:00–17:00 that day.": a targeted row's shifter booked then, as the
 * conflicts operation answers it, on the business's wall clock (`window.timezone`). The same words as
 * the service's `shifter_busy` warning (services/shifts `shifterBusyWords`), which the row shows once
 * sent; test/web/posting-warnings.test.ts holds the two together. Null when the shifter is free.
 */
export function busyWords(name: string, date: string, booked: BookedWindows): string | null {
  const windows = [
    ...booked.data.map((s) => ({ starts_at: s.starts_at, ends_at: s.ends_at, elsewhere: false })),
    ...booked.busy.map((w) => ({ ...w, elsewhere: true })),
  ].sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  if (!windows.length) return null;
  const tz = booked.window.timezone;
  let sameDay = true;
  const spans = windows.map((w) => {
    const start = wallClock(w.starts_at, tz);
    if (start.date !== date) sameDay = false;
    return `${start.time}–${wallClock(w.ends_at, tz).time}${start.date === date ? '' : ` (from ${start.date})`}${w.elsewhere ? ' elsewhere' : ''}`;
  });
  return `${name} already works ${spans.join(' and ')}${sameDay ? ' that day' : ''}.`;
}

/** A row's wall-clock window in minutes (days since 1970 × 1440 + the time; an end before the start is the next day). */
function rowMinutes(row: RowInput): { start: number; end: number } {
  const day = Date.parse(`${row.date}T00:00:00Z`) / 86_400_000;
  const start = day * 1440 + minutesOf(row.in);
  return { start, end: start + ((minutesOf(row.out) - minutesOf(row.in) + 1440) % 1440) };
}

/**
 * "Jordan Rivera is already asked for 09:00–17:00 that day in row 1.": a targeted row whose shifter an
 * earlier row of the same table already asks for an overlapping time (half-open windows, as the
 * service's overlap rule; both rows are in the business's zone, so its wall clock compares them).
 * The service knows nothing of rows not sent yet, and two such requests cannot both be accepted.
 * `rows` are checked rows (`checkRow` found nothing) in table order; null when none overlaps.
 */
export function askedTwiceWords(rows: { n: number; input: RowInput }[], n: number, crew: Crew[]): string | null {
  const at = rows.findIndex((r) => r.n === n);
  if (at < 0) return null;
  const row = withTimes(rows[at]!.input);
  const who = findShifter(row.shifter, crew);
  if (!who || who === 'broadcast') return null;
  const mine = rowMinutes(row);
  for (const earlier of rows.slice(0, at)) {
    const other = withTimes(earlier.input);
    const same = findShifter(other.shifter, crew);
    if (!same || same === 'broadcast' || same.id !== who.id) continue;
    const theirs = rowMinutes(other);
    if (theirs.start < mine.end && mine.start < theirs.end) {
      const day = other.date === row.date ? 'that day' : `on ${other.date}`;
      return `${who.name} is already asked for ${other.in}–${other.out} ${day} in row ${earlier.n}.`;
    }
  }
  return null;
}
