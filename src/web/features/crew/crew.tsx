/**
 * The crew (/dashboard/crew): connection requests in and out (accept, decline, withdraw), the
 * connected shifters with their ratings and the crew analytics of the last 90 days (pay figures for
 * the owner only, as the service gives them), each shifter's public details and the credentials they
 * let businesses see, inviting a shifter by their name (a search of the public profiles), public name
 * (slug), profile link or id, or anyone by email or phone (an invitation with a join link), the
 * invitations waiting, the crew's join link with its QR code and printable poster, and the teammates:
 * invitations by email and their state, suspend and reactivate (the owner only). Every change that
 * matters asks for confirmation on a page of its own.
 */

// The entry of the crew feature: the handlers the dashboard routes to, each from the file of its part.
export {
  postAcceptConnection,
  postDeclineConnection,
  postRemoveConnection,
  renderDeclineConnection,
  renderRemoveConnection,
} from './connection-actions';
export { ratingText } from './crew-format';
export { renderCrew } from './crew-view';
export { postInviteAddress, postWithdrawCrewInvite, renderWithdrawCrewInvite } from './invite-address';
export { postInviteShifter, renderInviteShifter } from './invite-shifter';
export { postRotateJoinLink, renderJoinPoster, renderRotateJoinLink } from './join-link';
export { downloadCredential, renderCrewShifter } from './shifter-page';
export {
  postInviteTeammate,
  postRevokeInvitation,
  postTeammateStatus,
  renderRevokeInvitation,
  renderSuspendTeammate,
} from './teammate-actions';
