import { toIso } from '../../lib/time';
import { SHIFT_STATUS } from '../kernel';
import type { ClockSide, ShiftRequestView } from './schemas';

/**
 * The clock window: whether a side may clock a shift in or out at an instant, and if not, when it
 * opens and why. The one rule: the clock service checks every punch with it (clock.ts, its guarded
 * updates carry the same bounds), and the shifter's clock page, its island, the kiosk, the API's
 * `clock_window` field and the MCP tools show it, so nothing offers a punch the service refuses.
 */

/** Clock-in opens this long before the scheduled start and closes at the scheduled end. */
export const CLOCK_IN_EARLY_MINUTES = 60;
/**
 * A clock-out comes at least this long after the clock-in, whoever punches: the worker clocks out when
 * they stop working, before the scheduled end too (recorded as left early on the timesheet, never
 * refused; docs/decisions/timesheets.md).
 */
export const MIN_CLOCKED_MINUTES = 1;

const MINUTE = 60_000;

/**
 * Who punches (DECISIONS.md "Clock actor"): the shifter, a kiosk for them (both follow the shifter's
 * window), or the business acting as itself, which may end a shift early.
 */
export type PunchAs = 'shifter' | 'kiosk' | 'manager';

/** What the window reads of a shift, as instants (epoch ms). */
export interface ClockTimes {
  accepted: boolean;
  noShow: boolean;
  startsAt: number;
  endsAt: number;
  clockedInAt: number | null;
  clockedOutAt: number | null;
}

/**
 * due: not in yet; in: clocked in; done: clocked out; no_show: marked absent; missed: its clock-in
 * closed unused; not_accepted: not a shift anyone clocks (pending, declined, cancelled…).
 */
export type ClockState = 'due' | 'in' | 'done' | 'no_show' | 'missed' | 'not_accepted';

export interface ClockWindow {
  state: ClockState;
  /** The side that may be punched now, if any. */
  can: ClockSide | null;
  /** When the next punch opens, while it has not yet (epoch ms). */
  opensAt: number | null;
  /** When the punch open now (or about to open) closes: a clock-in at the scheduled end (epoch ms). */
  closesAt: number | null;
  /** Why nothing can be punched now, in people's words; null when a punch is open. */
  reason: string | null;
}

/** The first instant a clock-in is accepted. */
export const clockInOpensAt = (startsAt: number) => startsAt - CLOCK_IN_EARLY_MINUTES * MINUTE;

/** The first instant a clock-out is accepted, once clocked in (the same for every side). */
export function clockOutOpensAt(t: Pick<ClockTimes, 'clockedInAt' | 'startsAt'>): number {
  return (t.clockedInAt ?? t.startsAt) + MIN_CLOCKED_MINUTES * MINUTE;
}

export function clockWindow(t: ClockTimes, now: number, _as: PunchAs): ClockWindow {
  const none = (state: ClockState, reason: string): ClockWindow => ({ state, can: null, opensAt: null, closesAt: null, reason });
  if (t.clockedOutAt !== null) return none('done', 'Clocked out.');
  if (!t.accepted) return none('not_accepted', 'Only an accepted shift is clocked in and out.');
  if (t.noShow) return none('no_show', 'The business marked this shift as a no-show.');
  if (t.clockedInAt !== null) {
    const opens = clockOutOpensAt(t);
    if (now >= opens) return { state: 'in', can: 'out', opensAt: null, closesAt: null, reason: null };
    return { state: 'in', can: null, opensAt: opens, closesAt: null, reason: 'Clock-out opens a minute after clocking in.' };
  }
  if (now > t.endsAt) return none('missed', 'The clock window has closed: ask the business to record the shift.');
  const opens = clockInOpensAt(t.startsAt);
  if (now >= opens) return { state: 'due', can: 'in', opensAt: null, closesAt: t.endsAt, reason: null };
  return {
    state: 'due',
    can: null,
    opensAt: opens,
    closesAt: t.endsAt,
    reason: `Clock-in opens ${CLOCK_IN_EARLY_MINUTES} minutes before the start.`,
  };
}

/** The window's times as the API view carries them. */
export function clockTimesOfView(s: ShiftRequestView): ClockTimes {
  return {
    accepted: s.request_status === SHIFT_STATUS.accepted,
    noShow: s.is_noshow === 1,
    startsAt: Date.parse(s.starts_at),
    endsAt: Date.parse(s.ends_at),
    clockedInAt: s.shift_start_at ? Date.parse(s.shift_start_at) : null,
    clockedOutAt: s.shift_end_at ? Date.parse(s.shift_end_at) : null,
  };
}

/** The API's `clock_window` field: the window for the caller's side, as ISO times. */
export function clockWindowField(w: ClockWindow) {
  return {
    state: w.state,
    can: w.can,
    opens_at: w.opensAt === null ? null : toIso(w.opensAt),
    closes_at: w.closesAt === null ? null : toIso(w.closesAt),
    reason: w.reason,
  };
}

/**
 * The view with its `clock_window` for a caller punching as `as` (null: neither party, no field), on
 * an accepted shift not yet clocked out; other views are returned as they are.
 */
export function withClockWindow(view: ShiftRequestView, as: PunchAs | null, now: number): ShiftRequestView {
  if (as === null || view.request_status !== SHIFT_STATUS.accepted || view.shift_end_at !== null) return view;
  return { ...view, clock_window: clockWindowField(clockWindow(clockTimesOfView(view), now, as)) };
}
