import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import {
  businessIdInput,
  connectionListsSchema,
  connectionSchema,
  crewInviteListSchema,
  crewInviteOutcomeSchema,
  crewInviteSchema,
  inviteToCrewInput,
  joinCrewInput,
  joinedCrewSchema,
  joinLinkAnswerSchema,
  listConnectionsInput,
  listCrewInvitesQuery,
  sendConnectionInput,
} from '../../services/connections';

const tags = ['Connections'];

const one = (d: string) => jsonContent(connectionSchema, d);

export const send = authRoute({
  method: 'post',
  operationId: 'sendConnectionRequest',
  authorization: 'party',
  path: '/v1/request_authorization/send',
  tags,
  summary: 'Ask to connect a business and a shifter (from either side)',
  description:
    'The business side (owner or active teammate) sends `{business_id, shifter_id}`; a shifter sends `{business_id}`. A pending request from the other side is accepted instead (both want it); a declined or removed pair is reopened as pending.',
  request: { body: jsonBody(sendConnectionInput) },
  responses: { 201: one('The connection: pending, or accepted when the other side had already asked.') },
  errors: [
    'BUSINESS-NOT-FND-ERR',
    'SHIFTER-NOT-FND-ERR',
    'CONNECTION-EXISTS-ERR',
    'CONFLICT-ERR',
    'IDEMPOTENCY-MISMATCH-ERR',
    'IDEMPOTENCY-IN-PROGRESS-ERR',
  ],
});

export const accept = authRoute({
  method: 'post',
  operationId: 'acceptConnectionRequest',
  authorization: 'party',
  path: '/v1/request_authorization/{id}/accept',
  tags,
  summary: 'Accept a pending connection request (receiving side only)',
  request: { params: idParam },
  responses: { 200: one('The accepted connection.') },
  errors: ['CONNECTION-NOT-FND-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const decline = authRoute({
  method: 'post',
  operationId: 'declineConnectionRequest',
  authorization: 'party',
  path: '/v1/request_authorization/{id}/decline',
  tags,
  summary: 'Decline a pending connection request (receiving side only)',
  request: { params: idParam },
  responses: { 200: one('The declined connection.') },
  errors: ['CONNECTION-NOT-FND-ERR', 'CONFLICT-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'],
});

export const remove = authRoute({
  method: 'delete',
  operationId: 'removeConnection',
  authorization: 'party',
  path: '/v1/request_authorization/{id}',
  tags,
  summary: 'Remove a connection or withdraw a request (either side)',
  request: { params: idParam },
  responses: { 200: one('The connection, now removed.') },
  errors: ['CONNECTION-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const list = authRoute({
  method: 'post',
  operationId: 'listConnectionRequests',
  authorization: 'business-member',
  path: '/v1/request_authorization/list_of_requests',
  tags,
  summary: "The caller's connections: incoming, outgoing and accepted",
  request: { body: jsonBody(listConnectionsInput) },
  responses: { 200: jsonContent(connectionListsSchema, 'The connections, newest change first in each list.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

// ── Crew invitations by email or phone, the crew join link, joining with either ──

const RATE_LIMIT_NOTE = ' Bounded (429 with Retry-After when spent).';

export const inviteToCrew = authRoute({
  method: 'post',
  operationId: 'inviteToCrew',
  authorization: 'business-member',
  path: '/v1/request_authorization/invite',
  tags,
  summary: 'Invite someone to the crew by email address or mobile number',
  description:
    'The business side (owner, active teammate or admin) gives `email` or `phone` (and optionally a `name`). A shifter account with that verified email is sent the ordinary connection request (`sent_as: connection_request`); any other address gets a message (email, or a text for a phone) with a join link that works once, for 14 days (`sent_as: invitation`). Phones are never matched to accounts. Sending to the same address again (after an hour) sends a new link and retires the last one.' +
    ' At most 50 a day per business, 1 an hour per address from one business, 5 a day per address from all businesses; at most 200 invitations waiting.' +
    RATE_LIMIT_NOTE,
  request: { body: jsonBody(inviteToCrewInput) },
  responses: { 202: jsonContent(crewInviteOutcomeSchema, 'What was sent: a connection request, or an invitation.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'SHIFTER-NOT-FND-ERR', 'CONNECTION-EXISTS-ERR', 'CONFLICT-ERR'],
});

export const listCrewInvites = authRoute({
  method: 'get',
  operationId: 'listCrewInvites',
  authorization: 'business-member',
  path: '/v1/request_authorization/invites',
  tags,
  summary: "The business's crew invitations waiting for someone to join (addresses masked)",
  request: { query: listCrewInvitesQuery },
  responses: { 200: jsonContent(crewInviteListSchema, 'Pending invitations, newest first; expired ones (of the last 30 days) marked.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const withdrawCrewInvite = authRoute({
  method: 'delete',
  operationId: 'withdrawCrewInvite',
  authorization: 'business-member',
  path: '/v1/request_authorization/invites/{id}',
  tags,
  summary: 'Withdraw a crew invitation: its link stops working',
  description: "Another business's invitation is 404. Withdrawing a withdrawn invitation changes nothing.",
  request: { params: idParam },
  responses: { 200: jsonContent(crewInviteSchema, 'The invitation, withdrawn (status revoked).') },
  errors: ['CREW-INVITE-NOT-FND-ERR', 'CREW-INVITE-CLOSED-ERR'],
});

export const getJoinLink = authRoute({
  method: 'get',
  operationId: 'getCrewJoinLink',
  authorization: 'business-member',
  path: '/v1/request_authorization/join_link',
  tags,
  summary: "The business's crew join link (to share, or print as a QR code)",
  request: { query: listCrewInvitesQuery },
  responses: { 200: jsonContent(joinLinkAnswerSchema, 'The live join link, or null before the business makes one.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const rotateJoinLink = authRoute({
  method: 'post',
  operationId: 'rotateCrewJoinLink',
  authorization: 'business-member',
  path: '/v1/request_authorization/join_link/rotate',
  tags,
  summary: 'Make a new crew join link; the old one stops working',
  description: `The first call makes the link. At most 20 a day per business.${RATE_LIMIT_NOTE}`,
  request: { body: jsonBody(businessIdInput) },
  responses: { 200: jsonContent(joinLinkAnswerSchema, 'The new join link.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const joinCrew = authRoute({
  method: 'post',
  operationId: 'joinCrew',
  authorization: 'signed-in',
  path: '/v1/request_authorization/join',
  tags,
  summary: "Join a business's crew with its invitation or join link",
  description:
    "The caller's shifter profile joins: a connection request from the shifter that the invitation accepts at once (an invitation works once; a join link until it is replaced). Someone in the crew already changes nothing (`already_connected`). `details.state` of CREW-INVITE-CLOSED-ERR says why a token no longer works: used, withdrawn, expired or replaced." +
    ' Tokens that match nothing are bounded per person.' +
    RATE_LIMIT_NOTE,
  request: { body: jsonBody(joinCrewInput) },
  responses: { 200: jsonContent(joinedCrewSchema, 'The connection, accepted.') },
  errors: ['CREW-INVITE-NOT-FND-ERR', 'CREW-INVITE-CLOSED-ERR', 'SHIFTER-NOT-FND-ERR', 'CONFLICT-ERR'],
});
