export { listCounterparties } from './counterparties';
export { CREW_INVITE_BOUNDS, CREW_INVITE_TTL_MS, inviteToCrew, listCrewInvites, withdrawCrewInvite } from './crew-invites';
export {
  businessIdInput,
  type CrewInvitationPreview,
  type CrewInviteList,
  crewInviteListSchema,
  type CrewInviteOutcome,
  crewInviteOutcomeSchema,
  crewInviteSchema,
  type CrewInviteView,
  INVITE_NAME_MAX,
  inviteToCrewInput,
  type JoinCrewInput,
  joinCrewInput,
  type JoinedCrew,
  joinedCrewSchema,
  joinLinkAnswerSchema,
  type JoinLinkView,
  listCrewInvitesQuery,
  PHONE_INPUT_MAX,
} from './invite-schemas';
export { closedWords, joinCrew, previewCrewInvitation, TOKEN_MISSES } from './join';
export { getJoinLink, JOIN_LINK_ROTATIONS, rotateJoinLink } from './join-links';
export { listConnections } from './list';
export { removeConnection, respondToConnection, sendConnection } from './requests';
export {
  CONNECTION_STATUSES,
  type ConnectionLists,
  connectionListsSchema,
  connectionSchema,
  listConnectionsInput,
  type ListedConnection,
  sendConnectionInput,
} from './schemas';
