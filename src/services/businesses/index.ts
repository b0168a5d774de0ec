export { type ActingBusiness, listActingBusinesses } from './acting';
export {
  acceptInvitation,
  declineInvitation,
  inviteTeammate,
  listBusinessInvitations,
  listMyInvitations,
  revokeInvitation,
} from './invitations';
export { businessBySlug } from './lookup';
export { type MapLinkResult, type MapLinkSource, parseMapLink } from './map-link';
export {
  businessSettingsInput,
  invitationListSchema,
  invitationSchema,
  type InvitationView,
  inviteTeammateInput,
  receivedInvitationListSchema,
  receivedInvitationSchema,
  teammateListSchema,
  teammateSchema,
  teammateStatusInput,
  type TeammateView,
  weeklyBudgetInput,
} from './schemas';
export { getBusinessSettings, setWeeklyBudget, updateSettings } from './settings';
export { SETUP_STEPS, type SetupChecklist, type SetupStep, setupChecklist } from './setup';
export { listTeammates, setTeammateStatus } from './teammates';
