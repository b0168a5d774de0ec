import { addDays, startOfDay, todayIn } from '../../lib/shift-time';
import { type ServiceContext, SHIFT_STATUS } from '../kernel';
import { listRequests } from './list';
import type { ListRequestsInput, ShiftRequestView } from './schemas';

/** The most shifts a dated read answers (a week of a very busy venue); past it the answer says `truncated`. */
export const DATED_READ_MAX = 1_000;

/** list_of_requests for a business's shifts dated `from` to `to` (both in) in the given statuses, as many as a dated read answers. */
const datedList = (businessId: string, range: DatedRange): ListRequestsInput => ({
  as: 'business' as const,
  business_id: businessId,
  status: range.status,
  date_from: range.from,
  date_to: range.to,
  limit: DATED_READ_MAX,
});
interface DatedRange {
  from: string;
  to: string;
  status: number[];
}

/**
 * A business's shifts dated `from` to `to` (both in; a range of at most two months, which
 * list_of_requests reads by start) in the given statuses: one statement, through list_of_requests
 * with the caller as actor, so the caller's standing is checked as everywhere else. Newest post first;
 * `truncated` when the range holds more than DATED_READ_MAX. `read` says how each shift is answered:
 * `listRequests` in full, `listRequestSummaries` in brief (what a week's calendar of a busy venue reads).
 */
export async function businessShiftsDated<T>(
  ctx: ServiceContext,
  businessId: string,
  range: DatedRange,
  read: (ctx: ServiceContext, f: ListRequestsInput) => Promise<{ data: T[]; next_cursor: string | null }>,
): Promise<{ shifts: T[]; truncated: boolean }> {
  const res = await read(ctx, datedList(businessId, range));
  return { shifts: res.data, truncated: res.next_cursor !== null };
}

/** What a day's board shows: nothing superseded or declined (those have no one to show). */
const ON_THE_BOARD = [SHIFT_STATUS.pending, SHIFT_STATUS.accepted, SHIFT_STATUS.completed, SHIFT_STATUS.expired, SHIFT_STATUS.cancelled];

/**
 * The shifts of a business "today" in its own zone, earliest start first: those dated today, and
 * yesterday's overnight shifts still running into today (someone may still be clocked in). One
 * reading for the clock board and the kiosk, through list_of_requests with the caller as actor, so
 * the caller's standing is checked as everywhere else.
 */
export async function todaysShifts(
  ctx: ServiceContext,
  business: { id: string; timezone: string },
): Promise<{ today: string; shifts: ShiftRequestView[] }> {
  const today = todayIn(business.timezone, ctx.now());
  const yesterday = addDays(today, -1);
  const dayStarts = startOfDay(today, business.timezone);
  const { shifts: rows } = await businessShiftsDated(ctx, business.id, { from: yesterday, to: today, status: ON_THE_BOARD }, listRequests);
  const shifts = rows
    .filter((s) => s.shift_date === today || Date.parse(s.ends_at) > dayStarts)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id.localeCompare(b.id));
  return { today, shifts };
}
