import { DATE_RE, TIME_RE } from '../../lib/shift-time';

/**
 * What a shift's input may be, as data: the request schemas of send_request, change_request and
 * templates are built from it (schemas.ts), buildShiftRow checks the length with it (create.ts), and
 * the pages hand it to the islands that check rows before sending them (bulk posting, the post
 * form), so the browser never marks "Ready" what the service refuses. Plain JSON values only.
 */
export const SHIFT_INPUT_BOUNDS = {
  /** shift_date: a calendar date written YYYY-MM-DD (the pattern; the date must also exist). */
  datePattern: DATE_RE.source,
  /** shift_in, shift_out: a 24-hour time HH:MM. */
  timePattern: TIME_RE.source,
  /** hourly_rate: more than 0 and at most this, per hour in the shift's currency. */
  maxHourlyRate: 10_000,
  /** A shift lasts from this many minutes (shift_out must differ from shift_in)… */
  minMinutes: 1,
  /** …to at most this many (an end earlier than the start is the next day). */
  maxMinutes: 24 * 60,
  /** note: at most this many characters once trimmed. */
  maxNoteLength: 1000,
} as const;

export type ShiftInputBounds = typeof SHIFT_INPUT_BOUNDS;
