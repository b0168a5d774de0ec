import type { ToolDefinition } from '../tool';
import { me, updateMyProfile } from './account';
import { createCounterOffer } from './counter-offer';
import { confirmPaymentForShift, myEarnings, mySpend } from './money';
import { businessProfile, listConnections, shifterProfile } from './people';
import { cancelShift, claimShift, clockIn, clockOut, listMyShifts, postShift, searchShifts, shiftDetails } from './shifts';
import { approveTimesheet, disputeTimesheet, editTimesheet, listTimesheets } from './timesheets';

/**
 * Every agent tool (spec 4.9, and the timesheet tools): 10 read, 9 write, 2 payment, in the specs' order. The server registers
 * each through its one wrapper (src/mcp/register.ts); the specs alone are in ../tool-specs/ (`@shiftmarket/tool-specs`).
 */
export const ALL_TOOLS: ToolDefinition[] = [
  me,
  listMyShifts,
  shiftDetails,
  searchShifts,
  businessProfile,
  shifterProfile,
  listConnections,
  myEarnings,
  mySpend,
  listTimesheets,
  postShift,
  claimShift,
  clockIn,
  clockOut,
  cancelShift,
  updateMyProfile,
  createCounterOffer,
  editTimesheet,
  disputeTimesheet,
  confirmPaymentForShift,
  approveTimesheet,
] as ToolDefinition[];
