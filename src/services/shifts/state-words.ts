import type { ShiftStatusName } from '../kernel';

/**
 * A shift's state in people's words: the one wording of the service's states (request status, the
 * clock and the no-show mark) for every page that shows them. The schedule (its table, its calendar
 * island through the API's `state_words`), the dashboard's today table and the clock board all say
 * a shift's state with this and nothing else.
 */

/** The states a person is told, one per wording. */
export const SHIFT_STATE_KEYS = [
  'waiting',
  'open_broadcast',
  'accepted',
  'late',
  'clocked_in',
  'worked',
  'worked_and_paid',
  'no_show',
  'expired',
  'cancelled',
  'declined',
  'superseded',
] as const;
export type ShiftStateKey = (typeof SHIFT_STATE_KEYS)[number];

/** The colour family a state is drawn in (the schedule's legend): never said by colour alone. */
export const SHIFT_TONES = ['pending', 'accepted', 'done', 'off'] as const;
export type ShiftTone = (typeof SHIFT_TONES)[number];

export interface ShiftStateWords {
  state: ShiftStateKey;
  label: string;
  tone: ShiftTone;
  /** The business should look at it: a late start, a no-show, a shift that expired unfilled. */
  attention: boolean;
}

/** What the wording reads of a shift: the fields of the API view (and of its summary) it needs. */
export interface ShiftStateInput {
  status: ShiftStatusName;
  is_broadcast: number | boolean;
  is_noshow: number | boolean;
  starts_at: string;
  shift_start_at: string | null;
  shift_end_at: string | null;
}

/**
 * Late: accepted, its start passed, nobody clocked in and not marked absent; exactly when the
 * no-show service lets the business mark it (no-show.ts: `starts_at <= now`, no clock-in).
 */
export function shiftIsLate(s: ShiftStateInput, nowMs: number): boolean {
  return s.status === 'accepted' && !s.shift_start_at && !s.is_noshow && Date.parse(s.starts_at) <= nowMs;
}

const words = (state: ShiftStateKey, label: string, tone: ShiftTone, attention = false): ShiftStateWords => ({
  state,
  label,
  tone,
  attention,
});

/**
 * A shift's state in words and its tone. Given `nowMs` (pages about today), an accepted shift whose
 * start has passed without a clock-in is "Late: not clocked in"; without it (the API view, which
 * holds no clock) it stays "Accepted".
 */
export function shiftStateWords(s: ShiftStateInput, nowMs?: number): ShiftStateWords {
  if (s.is_noshow) return words('no_show', 'No-show', 'off', true);
  switch (s.status) {
    case 'pending':
      return s.is_broadcast ? words('open_broadcast', 'Open broadcast', 'pending') : words('waiting', 'Waiting for answer', 'pending');
    case 'accepted':
      if (s.shift_end_at) return words('worked', 'Worked', 'done');
      if (s.shift_start_at) return words('clocked_in', 'Clocked in', 'accepted');
      if (nowMs !== undefined && shiftIsLate(s, nowMs)) return words('late', 'Late: not clocked in', 'accepted', true);
      return words('accepted', 'Accepted', 'accepted');
    case 'completed':
      return words('worked_and_paid', 'Worked and paid', 'done');
    case 'expired':
      return words('expired', 'Expired unfilled', 'off', true);
    case 'cancelled':
      return words('cancelled', 'Cancelled', 'off');
    case 'declined':
      return words('declined', 'Declined', 'off');
    case 'superseded':
      return words('superseded', 'Replaced by a change', 'off');
  }
}
