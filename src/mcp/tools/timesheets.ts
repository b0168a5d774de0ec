import { AppError } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { assertAgentPayWithinCap, ownedBusiness, ownShifterId } from '../../services/access';
import type { ServiceContext } from '../../services/kernel';
import {
  approvalRefusal,
  approveTimesheet as approveTimesheetService,
  disputeTimesheet as disputeTimesheetService,
  disputeTimesheetInput,
  editTimesheet as editTimesheetService,
  editTimesheetInput,
  getTimesheet,
  hoursWords,
  listBusinessTimesheets,
  listShifterTimesheets,
  type TimesheetView,
} from '../../services/timesheets';
import { defineTool } from '../tool';
import { approveTimesheetSpec, disputeTimesheetSpec, editTimesheetSpec, listTimesheetsSpec } from '@shiftmarket/tool-specs';

/*
 * The timesheet tools, through the same services as the REST routes (/v1/business/{id}/timesheets,
 * /v1/timesheets/{id}…). Agents act for a business the user owns (a teammate gets MCP-TEAMMATE-ERR)
 * or as the user's own shifter profile; an admin's reach is not used (TIMESHEET-NOT-FND-ERR).
 */

/**
 * A timesheet of a business the caller owns. Its worker is told only the business may act
 * (FORBIDDEN-ERR); a teammate gets MCP-TEAMMATE-ERR; anyone else learns nothing of it.
 */
async function ownersTimesheet(ctx: ServiceContext, id: string, what: string): Promise<TimesheetView> {
  const t = await getTimesheet(ctx, id);
  try {
    await ownedBusiness(ctx, t.business_id);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'BUSINESS-NOT-FND-ERR') throw err;
    const own = await ownShifterId(ctx).catch(() => null);
    if (own !== null && own === t.shifter_id) throw new AppError('FORBIDDEN-ERR', `Only the business ${what}.`);
    throw new AppError('TIMESHEET-NOT-FND-ERR');
  }
  return t;
}

const listed = (r: { data: unknown[]; next_cursor: string | null }) =>
  `${r.data.length} timesheet(s)${r.next_cursor ? '; more with next_cursor' : ''}.`;

export const listTimesheets = defineTool({
  ...listTimesheetsSpec,
  async run(ctx, args) {
    const q = { status: args.status, period: args.period, limit: args.limit, cursor: args.cursor };
    if (args.business_id) {
      const b = await ownedBusiness(ctx, args.business_id);
      return listBusinessTimesheets(ctx, b.id, q);
    }
    return listShifterTimesheets(ctx, await ownShifterId(ctx), q);
  },
  summarize: listed,
});

const timesWords = (t: Pick<TimesheetView, 'in_at' | 'out_at'>) => `${t.in_at}–${t.out_at ?? '(still clocked in)'}`;
const whose = (t: TimesheetView) => `${t.shifter_name ?? 'the worker'}'s timesheet at ${t.business_name}${t.role ? ` (${t.role})` : ''}`;

/** The invoice the approval would write, within the agent payment cap (PAYMENT-CAP-ERR over it). */
function invoiceWithinCap(ctx: ServiceContext, t: TimesheetView): number {
  const amount = t.pay ?? 0;
  assertAgentPayWithinCap(ctx, toMinor(amount, t.currency), t.currency);
  return amount;
}

export const approveTimesheet = defineTool({
  ...approveTimesheetSpec,
  async describeAction(ctx, args) {
    const t = await ownersTimesheet(ctx, args.timesheet_id, 'approves its timesheets');
    const refused = await approvalRefusal(ctx, t.id);
    if (refused) throw refused;
    const invoice_amount = invoiceWithinCap(ctx, t);
    const worked = t.worked_minutes ?? 0;
    const summary =
      t.status === 'approved' || t.status === 'locked'
        ? `${whose(t)} is approved already (${hoursWords(worked)}, invoiced ${invoice_amount} ${t.currency}); approving again changes nothing.`
        : `Approve ${whose(t)}, ${timesWords(t)}: ${hoursWords(worked)} worked, and write its invoice of ${invoice_amount} ${t.currency}.${t.issues.length ? ` Look first at: ${t.issues.join(', ')}.` : ''}`;
    return { summary, preview: { timesheet: t, worked_minutes: worked, invoice_amount, currency: t.currency } };
  },
  async run(ctx, args) {
    const t = await ownersTimesheet(ctx, args.timesheet_id, 'approves its timesheets');
    invoiceWithinCap(ctx, t);
    const approved = await approveTimesheetService(ctx, t.id);
    return { timesheet: approved, invoice_amount: approved.pay ?? 0, currency: approved.currency };
  },
  summarize: (r) =>
    `Approved ${r.timesheet.id}: ${hoursWords(r.timesheet.worked_minutes ?? 0)}, invoice ${r.invoice_amount} ${r.currency}.`,
});

export const editTimesheet = defineTool({
  ...editTimesheetSpec,
  async describeAction(ctx, args) {
    const t = await ownersTimesheet(ctx, args.timesheet_id, 'edits its timesheets');
    const changes = [
      args.in_at !== undefined ? `start ${t.in_at} → ${args.in_at}` : null,
      args.out_at !== undefined ? `end ${t.out_at} → ${args.out_at}` : null,
      args.breaks !== undefined ? `${args.breaks.length} break(s) instead of ${t.breaks.length}` : null,
    ].filter((c) => c !== null);
    return `Edit ${whose(t)} (${args.reason}): ${changes.join(', ') || 'no change'}. The worker is told and may dispute it.`;
  },
  async run(ctx, args) {
    const { timesheet_id, ...change } = args;
    const input = editTimesheetInput.parse(change);
    await ownersTimesheet(ctx, timesheet_id, 'edits its timesheets');
    return { timesheet: await editTimesheetService(ctx, timesheet_id, input) };
  },
  summarize: (r) => `Edited ${r.timesheet.id}: ${timesWords(r.timesheet)}, ${hoursWords(r.timesheet.worked_minutes ?? 0)}.`,
});

export const disputeTimesheet = defineTool({
  ...disputeTimesheetSpec,
  async describeAction(ctx, args) {
    const t = await getTimesheet(ctx, args.timesheet_id);
    return `Dispute your timesheet at ${t.business_name} (${timesWords(t)}), proposing ${args.in_at}–${args.out_at}: "${args.reason}".`;
  },
  async run(ctx, args) {
    const { timesheet_id, ...claim } = args;
    // The service refuses anyone but the shift's worker (FORBIDDEN-ERR).
    return { timesheet: await disputeTimesheetService(ctx, timesheet_id, disputeTimesheetInput.parse(claim)) };
  },
  summarize: (r) => `Disputed ${r.timesheet.id}; the business answers by ${r.timesheet.dispute?.answer_due_at ?? 'its deadline'}.`,
});
