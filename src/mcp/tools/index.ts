import type { ToolDefinition } from '../tool';
import { me, updateMyProfile } from './account';
import { createCounterOffer } from './counter-offer';
import { confirmPaymentForShift, myEarnings, mySpend } from './money';
import { businessProfile, listConnections, shifterProfile } from './people';
import { cancelShift, claimShift, clockIn, clockOut, listMyShifts, postShift, searchShifts, shiftDetails } from './shifts';

/**
 * Every agent tool (spec 4.9): 9 read, 7 write, 1 payment, in the spec's order. The server registers
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
  postShift,
  claimShift,
  clockIn,
  clockOut,
  cancelShift,
  updateMyProfile,
  createCounterOffer,
  confirmPaymentForShift,
] as ToolDefinition[];
