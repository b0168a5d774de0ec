import type { AppError } from '../../lib/errors';
import { COPY_WEEK_MAX_SHIFTS, type CopySkipReason } from './copy-week-schemas';

/** What a reason's words name of the shift: who it was for. */
interface Who {
  shifter_name: string | null;
  is_broadcast: number;
}

const person = (s: Who) => s.shifter_name ?? 'The shifter';

/**
 * Why a shift of the source week is not copied, in people's words: the service says it once, and
 * the API, the web page and any tool show the same sentence. `shifter_busy` and `refused` carry
 * their own (the overlapping times, the refusal) and come here only as a fallback.
 */
export function copySkipWords(reason: CopySkipReason, s: Who): string {
  switch (reason) {
    case 'already_there':
      return s.is_broadcast
        ? 'Already on the schedule: an open shift at that time for the same role.'
        : `Already on the schedule: ${s.shifter_name ?? 'the same person'} works that time in the same role.`;
    case 'shifter_busy':
      return `${person(s)} already works then.`;
    case 'cancelled':
      return 'It was cancelled, so it is not copied.';
    case 'declined':
      return `${person(s)} declined it, so it is not copied.`;
    case 'expired':
      return 'Nobody took it before it started, so it is not copied.';
    case 'past':
      return 'That time has already passed.';
    case 'not_connected':
      return `${person(s)} is no longer in your crew.`;
    case 'paused':
      return `${person(s)} has paused new shift requests.`;
    case 'refused':
      return 'It cannot be posted as it is.';
    case 'over_limit':
      return `More than ${COPY_WEEK_MAX_SHIFTS} shifts in one copy: run it again to copy the rest.`;
  }
}

/** Field-by-field words for what buildShiftRow refuses (its messages name fields, not things people see). */
const REFUSED_FIELD: Record<string, string> = {
  shiftrole_id: 'Its role is no longer offered.',
  currency: 'Its currency is no longer supported.',
  hourly_rate: 'Its rate is not allowed now.',
  shift_out: 'That time does not fit on that day (the clocks change then).',
  shift_date: 'That time has already passed.',
};

/** A refusal of posting the copy (as a single post would be refused) as a skip reason and its words. */
export function refusalReason(err: AppError, s: Who): { reason: CopySkipReason; message: string } {
  if (err.code === 'SHFT-NOT-CONNECTED-ERR') return { reason: 'not_connected', message: copySkipWords('not_connected', s) };
  if (err.code === 'SHIFTER-PAUSED-ERR') return { reason: 'paused', message: copySkipWords('paused', s) };
  const field = Array.isArray(err.details) ? (err.details as { field?: unknown }[])[0]?.field : undefined;
  const words = typeof field === 'string' ? REFUSED_FIELD[field] : undefined;
  return { reason: 'refused', message: words ?? copySkipWords('refused', s) };
}
