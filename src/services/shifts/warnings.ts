import { dateInZone, timeInZone } from '../../lib/shift-time';
import { crewOf } from '../access';
import type { ServiceContext } from '../kernel';
import { posterConflicts } from './conflicts';
import { sendRequest } from './create';
import type { PostedShift, PostingWarning, SendRequestInput, ShiftRequestView } from './schemas';

/**
 * What the poster of a new shift should know, said when it is made (docs/decisions/shift-requests.md
 * "Warnings when posting"): the shift is posted either way, as the spec lets it be.
 * - `shifter_busy`: a targeted shifter already booked then. The overlapping shifts are the conflicts
 *   operation's own answer (`posterConflicts`: the one overlap rule and the one privacy rule), read as
 *   the poster would read it, so for a person the warning lists exactly what
 *   GET /v1/shift_request/conflicts lists for the same input.
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

/** What shifterBusyWords reads of a conflicts answer: the zone, the windows in full and those elsewhere. */
type Window = { starts_at: string; ends_at: string };
export interface BusyWindows {
  window: { timezone: string };
  data: readonly Window[];
  busy: readonly Window[];
}

/**
 * "Jordan Rivera already works 09:00–17:00 that day.": the overlapping windows on the business's wall
 * clock, a window starting another day with its date, another business's as "elsewhere". Bulk
 * posting words its check before sending the same way (web/features/posting/shift-rows.model.ts
 * `busyWords`; test/web/posting-warnings.test.ts holds the two together).
 */
export function shifterBusyWords(name: string | null, date: string, conflicts: BusyWindows): string {
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

/** The warnings of a shift just made, as its poster reads them (a person, their agent or a partner client). */
export async function postingWarnings(ctx: ServiceContext, shift: ShiftRequestView): Promise<PostingWarning[]> {
  return (await postingWarningsEach(ctx, [shift]))[0] ?? [];
}

/**
 * The warnings of several shifts just made (a template's run), one list per shift in their order:
 * the same rule as one shift, with the crew read once per business and who may read a shifter's
 * conflicts settled once per business and shifter.
 */
export async function postingWarningsEach(ctx: ServiceContext, shifts: readonly ShiftRequestView[]): Promise<PostingWarning[][]> {
  const out: PostingWarning[][] = shifts.map(() => []);
  const emptyCrew = new Map<string, PostingWarning | null>();
  const targeted = new Map<string, number[]>();
  for (const [i, shift] of shifts.entries()) {
    if (shift.is_broadcast) {
      if (!emptyCrew.has(shift.business_id)) emptyCrew.set(shift.business_id, await emptyCrewWarning(ctx, shift.business_id));
      const empty = emptyCrew.get(shift.business_id);
      if (empty) out[i] = [empty];
    } else if (shift.shifter_id) {
      const key = `${shift.business_id}|${shift.shifter_id}`;
      targeted.set(key, [...(targeted.get(key) ?? []), i]);
    }
  }
  for (const indexes of targeted.values()) {
    const first = shifts[indexes[0]!]!;
    const windows = indexes.map((i) => ({ date: shifts[i]!.shift_date, shift_in: shifts[i]!.shift_in, shift_out: shifts[i]!.shift_out }));
    const answers = await posterConflicts(ctx, first.business_id, first.shifter_id!, windows);
    for (const [n, conflicts] of answers.entries()) {
      const i = indexes[n]!;
      const shift = shifts[i]!;
      if (!conflicts.data.length && !conflicts.busy.length) continue;
      out[i] = [
        {
          code: 'shifter_busy',
          message: `${shifterBusyWords(shift.shifter_name, shift.shift_date, conflicts)} They cannot accept this request while booked then: it waits, and expires at its start.`,
          conflicts: conflicts.data,
          busy: conflicts.busy,
        },
      ];
    }
  }
  return out;
}

/** A shift just made, with its warnings: what send_request, the post form, the post_shift tool and the partner's post answer. */
export async function withPostingWarnings(ctx: ServiceContext, shift: ShiftRequestView): Promise<PostedShift> {
  return { ...shift, warnings: await postingWarnings(ctx, shift) };
}

/** Shifts just made, each with its warnings (template generation's `created`). */
export async function withPostingWarningsEach(ctx: ServiceContext, shifts: readonly ShiftRequestView[]): Promise<PostedShift[]> {
  const warnings = await postingWarningsEach(ctx, shifts);
  return shifts.map((shift, i) => ({ ...shift, warnings: warnings[i] ?? [] }));
}

/**
 * POST /v1/shift_request/send_request as people post (the API, the web app, the agent tool): the
 * created request and its warnings. A partner client's post answers them too (postPartnerShift).
 */
export async function sendRequestWithWarnings(ctx: ServiceContext, input: SendRequestInput): Promise<PostedShift> {
  return withPostingWarnings(ctx, await sendRequest(ctx, input));
}
