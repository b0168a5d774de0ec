import { eq } from 'drizzle-orm';
import { invoices, shiftRequests, timesheets } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { approveTimesheet } from '../../src/services/timesheets';
import { contextAt } from './clock';
import type { TestUser } from './factory';
import { db } from './factory';

/** The timesheet id of a shift (null when it has none). */
export async function timesheetIdOf(shiftId: string): Promise<string | null> {
  const [row] = await db().select({ id: timesheets.id }).from(timesheets).where(eq(timesheets.shift_request_id, shiftId));
  return row?.id ?? null;
}

/** Approves a worked shift's time as its business (`biz`) at `at`, and returns the invoice the approval wrote. */
export async function approveShiftTimeAt(biz: TestUser, shiftId: string, at: number) {
  await approveTimesheet(contextAt(at, biz), await submittedTimesheet(shiftId));
  const [inv] = await db().select().from(invoices).where(eq(invoices.shift_request_id, shiftId));
  if (!inv) throw new Error(`approveShiftTime: no invoice for ${shiftId}`);
  return inv;
}

/**
 * The timesheet of a worked shift; for one inserted as worked straight into the table (no punches
 * through the service), the submitted timesheet its clock-out would have written, from its punches.
 */
export async function submittedTimesheet(shiftId: string): Promise<string> {
  let id = await timesheetIdOf(shiftId);
  if (!id) {
    const [s] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, shiftId));
    if (!s?.shift_start_at || !s.shift_end_at || !s.shifter_id) throw new Error(`approveShiftTime: ${shiftId} is not worked`);
    id = newId('timesheet');
    await db()
      .insert(timesheets)
      .values({
        id,
        shift_request_id: s.id,
        business_id: s.business_id,
        shifter_id: s.shifter_id,
        status: 'submitted',
        in_at: s.shift_start_at,
        out_at: s.shift_end_at,
        submitted_at: s.shift_end_at,
        dispute_until: s.shift_end_at + 12 * 3600_000,
        auto_approve_at: s.shift_end_at + 7 * 24 * 3600_000,
        left_early: s.shift_end_at < s.ends_at,
        created_at: s.shift_start_at,
        updated_at: s.shift_end_at,
      });
  }
  return id;
}

export const approveShiftTime = (biz: TestUser, shiftId: string) => approveShiftTimeAt(biz, shiftId, Date.now());
