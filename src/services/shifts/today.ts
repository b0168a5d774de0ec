import { addDays, startOfDay, todayIn } from '../../lib/shift-time';
import { type ServiceContext, SHIFT_STATUS } from '../kernel';
import { listRequests } from './list';
import type { ShiftRequestView } from './schemas';

/** Pages of list_of_requests read for one day at most (200 rows each): far beyond a venue's day. */
const MAX_PAGES = 5;

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
  const rows: ShiftRequestView[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await listRequests(ctx, {
      as: 'business',
      business_id: business.id,
      status: ON_THE_BOARD,
      date_from: yesterday,
      date_to: today,
      limit: 200,
      cursor,
    });
    rows.push(...res.data);
    cursor = res.next_cursor;
    if (!cursor) break;
  }
  const shifts = rows
    .filter((s) => s.shift_date === today || Date.parse(s.ends_at) > dayStarts)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id.localeCompare(b.id));
  return { today, shifts };
}
