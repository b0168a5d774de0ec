import { dateInZone, timeInZone } from '../../lib/shift-time';
import { crewOf } from '../access';
import type { ServiceContext } from '../kernel';
import { findConflicts } from './conflicts';
import { sendRequest } from './create';
import type { PostedShift, PostingWarning, SendRequestInput, ShiftConflicts, ShiftRequestView } from './schemas';

/**
 * What the poster of a new shift should know, said when it is made (docs/decisions/shift-requests.md
 * "Warnings when posting"): the shift is posted either way, as the spec lets it be.
 * - `shifter_busy`: a targeted shifter already booked then. The overlapping shifts are the conflicts
 *   operation's own answer (`findConflicts`, the one overlap rule), read as the poster would read it,
 *   so the warning lists exactly what GET /v1/shift_request/conflicts lists for the same input.
 * - `empty_crew`: a broadcast of a business with no crew: nobody is told of it, nobody can claim it.
 */

/** The words of an empty crew, the same on the API, the form and bulk posting. */
export const EMPTY_CREW_MESSAGE =
  'Nobody will be told about this broadcast: the business has no crew yet, so no shifter can see or claim it.';

/** The empty-crew warning when the business has no shifter with an accepted connection, else null. */
export async function emptyCrewWarning(ctx: ServiceContext, businessId: string): Promise<PostingWarning | null> {
  const crew = await crewOf(ctx, businessId);
  return crew.length ? null : { code: 'empty_crew', message: EMPTY_CREW_MESSAGE };
}

/**
 * "Jordan Rivera already works 09:00–17:00 that day.": the overlapping windows on the business's wall
 * clock, a window starting another day with its date, another business's as "elsewhere". Bulk
 * posting words its check before sending the same way (web/features/posting/shift-rows.model.ts
 * `busyWords`; test/web/posting-warnings.test.ts holds the two together).
 */
export function shifterBusyWords(name: string | null, date: string, conflicts: ShiftConflicts): string {
  const tz = conflicts.window.timezone;
  const windows = [
    ...conflicts.data.map((s) => ({ starts_at: s.starts_at, ends_at: s.ends_at, elsewhere: false })),
    ...conflicts.busy.map((w) => ({ ...w, elsewhere: true })),
  ].sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  let sameDay = true;
  const spans = windows.map((w) => {
    const start = Date.parse(w.starts_at);
    const day = dateInZone(start, tz);
    if (day !== date) sameDay = false;
    return `${timeInZone(start, tz)}–${timeInZone(Date.parse(w.ends_at), tz)}${day === date ? '' : ` (from ${day})`}${w.elsewhere ? ' elsewhere' : ''}`;
  });
  return `${name ?? 'This shifter'} already works ${spans.join(' and ')}${sameDay ? ' that day' : ''}.`;
}

/** The warnings of a shift just made, as its poster reads them (a person: the user or their agent). */
export async function postingWarnings(ctx: ServiceContext, shift: ShiftRequestView): Promise<PostingWarning[]> {
  if (shift.is_broadcast) {
    const empty = await emptyCrewWarning(ctx, shift.business_id);
    return empty ? [empty] : [];
  }
  if (!shift.shifter_id) return [];
  const conflicts = await findConflicts(ctx, {
    shifter_id: shift.shifter_id,
    date: shift.shift_date,
    shift_in: shift.shift_in,
    shift_out: shift.shift_out,
    business_id: shift.business_id,
  });
  if (!conflicts.data.length && !conflicts.busy.length) return [];
  return [
    {
      code: 'shifter_busy',
      message: `${shifterBusyWords(shift.shifter_name, shift.shift_date, conflicts)} They cannot accept this request while booked then: it waits, and expires at its start.`,
      conflicts: conflicts.data,
      busy: conflicts.busy,
    },
  ];
}

/** A shift just made, with its warnings: what send_request, the post form and the post_shift tool answer. */
export async function withPostingWarnings(ctx: ServiceContext, shift: ShiftRequestView): Promise<PostedShift> {
  return { ...shift, warnings: await postingWarnings(ctx, shift) };
}

/**
 * POST /v1/shift_request/send_request as people post (the API, the web app, the agent tool): the
 * created request and its warnings. A partner client posts through `sendRequest` alone.
 */
export async function sendRequestWithWarnings(ctx: ServiceContext, input: SendRequestInput): Promise<PostedShift> {
  return withPostingWarnings(ctx, await sendRequest(ctx, input));
}
