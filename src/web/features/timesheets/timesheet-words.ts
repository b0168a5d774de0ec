/**
 * The timesheet pages' words and times: statuses, issues and edit reasons said for people, worked
 * minutes as hours, and the local date-time fields (the business's clock) turned into instants and back.
 */
import { dateInZone, timeInZone, wallClockToInstant } from '@/lib/shift-time';
import type { TimesheetView } from '@/services/timesheets';

export const BUSINESS_TIMESHEETS = '/dashboard/timesheets';
export const SHIFTER_TIMESHEETS = '/dashboard/shifter/timesheets';

export const STATUS_WORDS: Record<TimesheetView['status'], string> = {
  open: 'On the clock',
  submitted: 'Waiting for approval',
  approved: 'Approved',
  locked: 'Approved, week closed',
};

export const ISSUE_WORDS: Record<TimesheetView['issues'][number], string> = {
  open_dispute: 'the worker disputes the times',
  left_early: 'left before the scheduled end',
  far_punch: 'a punch far from the business',
  offline_punch: 'a punch made offline',
  edited: 'edited by the business',
  breaks_short: 'breaks short or waived',
};

/** The edit reasons in people's words, in the order the select lists them. */
export const REASON_WORDS = {
  missed_punch: 'A punch was missed',
  break_correction: 'The breaks were not right',
  sent_home: 'Sent home early',
  early_release: 'Let go before the end',
  stayed_late: 'Stayed late',
  no_show: 'Did not come',
  other: 'Something else (say what in the note)',
} as const satisfies Record<NonNullable<TimesheetView['edit']>['reason'], string>;

export const ATTESTATION_WORDS: Record<NonNullable<TimesheetView['break_attestation']>, string> = {
  taken: 'breaks taken in full',
  short: 'breaks cut short',
  waived: 'breaks waived',
};

export const APPROVED_HOW_WORDS: Record<NonNullable<TimesheetView['approved_how']>, string> = {
  business: 'by the business',
  auto: 'automatically, nobody answered in time',
  dispute_overdue: 'for the worker: the dispute was not answered in time',
};

export const DISPUTE_STATUS_WORDS: Record<NonNullable<TimesheetView['dispute']>['status'], string> = {
  open: 'waiting for the business',
  accepted: 'accepted: your times were approved',
  rejected: 'turned down',
  resolved_for_worker: 'not answered in time: your times were approved',
};

/** "7 h 30 min", or a dash while the shift is on the clock. */
export function workedWords(minutes: number | null): string {
  if (minutes === null) return '–';
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

export const issuesWords = (t: TimesheetView): string => (t.issues.length ? t.issues.map((i) => ISSUE_WORDS[i]).join('; ') : 'None');

/** An instant as the value of a datetime-local field on the business's clock: "2026-06-10T08:03". */
export function localInput(iso: string | null, tz: string): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return `${dateInZone(ms, tz)}T${timeInZone(ms, tz)}`;
}

const LOCAL_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(:\d{2}(\.\d+)?)?$/;

/** A datetime-local field's value on the business's clock as an ISO instant; null when it is not one. */
export function instantOfLocal(value: string, tz: string): string | null {
  const m = LOCAL_RE.exec(value.trim());
  if (!m) return null;
  try {
    return new Date(wallClockToInstant(m[1]!, `${m[2]}:${m[3]}`, tz)).toISOString();
  } catch {
    return null;
  }
}
