/**
 * Who may act: one place for a caller's standing toward a business (owner, active teammate, admin),
 * a shifter's records, a shift (party, crew of an open broadcast) and the SQL scopes lists use.
 * Every surface (REST, MCP tools, partner routes, jobs) asks here; new kinds of standing are added here.
 */
export { adminOverUser, adminReach, assertSelfOrAdminOf, isAdmin, userIsDemo } from './admin';
export { assertAgentPayWithinCap, assertRole, ownedBusiness, ownedBusinesses, ownShifterId, shiftAsShifter, shiftForParty } from './agent';
export {
  accessBusiness,
  actingBusinessIds,
  actsForBusinessSql,
  type BusinessRole,
  type BusinessRow,
  PAY_VIEWERS,
  postingBusiness,
  seesPay,
  standingToward,
  TEAMMATE_STATUS,
} from './business';
export { crewBusinessSql, crewOf, isCrew } from './crew';
export { asPartner, assertPartnerScope, partnerActor, partnerBusiness, partnerLinkedBusinessSql, partnersOfBusiness } from './partner';
export { pickSide, type ShiftParty, shiftParty } from './shift';
export { callerShifter, privateRecords, type ShifterAccess, shifterAccess, shifterIdOf } from './shifter';
