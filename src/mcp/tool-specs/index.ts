/**
 * The agent tools' contracts, shared by the Worker's tool server (src/mcp/) and the local stdio tool
 * server (packages/shiftmarket-mcp/): both import this folder by name, `@shiftmarket/tool-specs`
 * (`paths` in tsconfig.json and in the package's tsconfig.json; docs/decisions/stdio-tool-server.md).
 * Data and schema helpers only: zod, the domains' response schemas and the JSON Schema clients are
 * given; nothing here reaches storage or runs a service.
 */
export { forToolClients, listedInputOnly, toolJsonSchema } from './json-schema';
export { readToolError, type ToolErrorBody, type ToolErrorResult, toolErrorResult } from './tool-errors';
export {
  approveTimesheetSpec,
  businessProfileSpec,
  cancelShiftSpec,
  claimShiftSpec,
  clockInSpec,
  clockOutSpec,
  confirmPaymentForShiftSpec,
  counterOfferSchema,
  counterpartySchema,
  createCounterOfferSpec,
  disputeTimesheetSpec,
  editTimesheetSpec,
  listConnectionsSpec,
  listMyShiftsSpec,
  listTimesheetsSpec,
  meSpec,
  myEarningsSpec,
  mySpendSpec,
  postShiftSpec,
  PROFILE_FIELDS,
  profileRowSchema,
  publicBusinessSchema,
  publicShifterSchema,
  searchShiftsSpec,
  shiftDetailsSpec,
  shifterProfileSpec,
  shiftRoleSchema,
  TOOL_SPECS,
  type ToolAnnotations,
  type ToolScope,
  type ToolSpec,
  updateMyProfileSpec,
} from './specs';

/** REST response schemas the stdio server's own tools read (accounts, passports, deliverables). */
export { connectionSchema } from '../../services/connections';
export { deliverableFileSchema, deliverableSchema } from '../../services/deliverables';
export { passportSchema } from '../../services/passports';
