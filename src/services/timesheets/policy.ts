import { payForMinutes } from '../../lib/money';
import { addDays, mondayOf, wallClockToInstant } from '../../lib/shift-time';

/*
 * The timesheet's numbers: the business's windows with their defaults and bounds, the rounding, the
 * minutes paid and their pay, and the pay period a shift belongs to. Pure: every surface and the
 * sweep count with these and nothing else (docs/decisions/timesheets.md).
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Rounding of in and out, to the nearest N minutes (never up or down only); 0 = none. */
export const ROUNDING_CHOICES = [0, 5, 6, 15] as const;
export type RoundingMinutes = (typeof ROUNDING_CHOICES)[number];

/** Each window's default and bounds, in hours (a business setting each). */
export const TIMESHEET_WINDOWS = {
  /** The worker may dispute a submission or an edit this long after it. */
  dispute_hours: { default: 12, min: 1, max: 72 },
  /** The business answers a dispute in this long, or it resolves for the worker. */
  answer_hours: { default: 72, min: 24, max: 168 },
  /** A submitted timesheet nobody answered approves itself this long after its submission; null = at its period's lock. */
  auto_approve_hours: { default: null, min: 1, max: 336 },
} as const;

/** An edit moving either end by more than this needs the worker's consent. */
export const CONSENT_EDIT_MINUTES = 120;
/** Breaks a clock-out or an edit may list. */
export const MAX_BREAKS = 6;

/** The timesheet settings of a business row. */
export interface TimesheetPolicy {
  timezone: string;
  rounding: number;
  disputeHours: number;
  answerHours: number;
  autoApproveHours: number | null;
}

export function policyOf(b: {
  timezone: string;
  timesheet_rounding_minutes: number;
  timesheet_dispute_hours: number;
  timesheet_answer_hours: number;
  timesheet_auto_approve_hours: number | null;
}): TimesheetPolicy {
  return {
    timezone: b.timezone,
    rounding: b.timesheet_rounding_minutes,
    disputeHours: b.timesheet_dispute_hours,
    answerHours: b.timesheet_answer_hours,
    autoApproveHours: b.timesheet_auto_approve_hours,
  };
}

/** An instant rounded to the nearest `minutes` (half up); unchanged when 0. */
export function roundToNearest(ms: number, minutes: number): number {
  if (!minutes) return ms;
  const step = minutes * MINUTE;
  return Math.floor((ms + step / 2) / step) * step;
}

/** What the minutes count from. */
export interface CountedTimes {
  in_at: number;
  out_at: number;
  unpaid_break_minutes: number;
}

/**
 * The minutes paid: rounded out − rounded in, on real instants (a night the clocks change counts its
 * real hours), less the unpaid breaks, never below 0. Whole minutes, rounded half up once.
 */
export function paidMinutes(t: CountedTimes, rounding: number): number {
  const span = roundToNearest(t.out_at, rounding) - roundToNearest(t.in_at, rounding);
  return Math.max(0, Math.round(span / MINUTE) - t.unpaid_break_minutes);
}

/** The pay of paid minutes at an hourly rate (minor units), rounded half up once per shift. */
export const timesheetPayMinor = (minutes: number, hourlyRateMinor: number) => payForMinutes(minutes, hourlyRateMinor);

/**
 * The pay period of a shift: the Monday–Sunday week (in the business's zone) of its start date; a shift
 * crossing Sunday midnight belongs to the week it starts in. Returns the Monday's date.
 */
export const periodStartOf = (shiftDate: string) => mondayOf(shiftDate);

/** When a period locks: the Monday after it, 23:59 in the business's zone. */
export function periodLockAt(periodStart: string, timezone: string): number {
  return wallClockToInstant(addDays(periodStart, 7), '23:59', timezone);
}

/** When a timesheet submitted at `submittedAt` approves itself if nobody answers it. */
export function autoApproveAt(p: TimesheetPolicy, shiftDate: string, submittedAt: number): number {
  if (p.autoApproveHours !== null) return submittedAt + p.autoApproveHours * HOUR;
  return Math.max(submittedAt, periodLockAt(periodStartOf(shiftDate), p.timezone));
}

export const disputeUntil = (p: TimesheetPolicy, from: number) => from + p.disputeHours * HOUR;
export const answerDueAt = (p: TimesheetPolicy, from: number) => from + p.answerHours * HOUR;

/** A break as stored and shown. */
export interface BreakEntry {
  start_at: number;
  end_at: number;
  paid: boolean;
}

/** Unpaid minutes of a list of breaks (rounded once). */
export function unpaidMinutesOf(breaks: readonly BreakEntry[]): number {
  const ms = breaks.filter((b) => !b.paid).reduce((sum, b) => sum + (b.end_at - b.start_at), 0);
  return Math.round(ms / MINUTE);
}

export function parseBreaks(stored: string): BreakEntry[] {
  try {
    const v: unknown = JSON.parse(stored);
    return Array.isArray(v) ? (v as BreakEntry[]) : [];
  } catch {
    return [];
  }
}
