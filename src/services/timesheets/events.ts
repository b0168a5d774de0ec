import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import { partnerEvent } from '../webhooks';
import type { DisputeRow, TimesheetRow } from './load';

type TimesheetEventType = 'timesheet.submitted' | 'timesheet.approved' | 'timesheet.disputed' | 'timesheet.resolved';

/** A timesheet's partner event, from the row as it stands after the change. */
export function timesheetEvent(
  type: TimesheetEventType,
  ts: TimesheetRow,
  counted: { minutes: number | null; payMinor: number | null },
  currency: string,
  now: number,
  dispute: Pick<DisputeRow, 'id' | 'status'> | null = null,
) {
  return partnerEvent(
    type,
    ts.business_id,
    {
      timesheet: {
        id: ts.id,
        shift_request_id: ts.shift_request_id,
        shifter_id: ts.shifter_id,
        status: ts.status,
        in_at: toIso(ts.in_at),
        out_at: toIso(ts.out_at),
        unpaid_break_minutes: ts.unpaid_break_minutes,
        worked_minutes: counted.minutes,
        pay: counted.payMinor === null ? null : fromMinor(counted.payMinor, currency),
        currency,
        approved_how: ts.approved_how,
      },
      dispute: dispute ? { id: dispute.id, status: dispute.status } : null,
    },
    now,
  );
}
