import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import {
  apiKeyInfoSchema,
  apiKeyIssuedSchema,
  changePasswordInput,
  passwordChangedSchema,
  sessionListSchema,
  sessionRevokedSchema,
  sessionsRevokedSchema,
  updateUserDetailsInput,
  userDetailsSchema,
  userIdQuery,
} from '../../services/accounts';
import { receivedInvitationListSchema, receivedInvitationSchema, teammateSchema } from '../../services/businesses';

const tags = ['Accounts'];

export const details = authRoute({
  method: 'get',
  path: '/v1/user/details',
  operationId: 'getUserDetails',
  authorization: 'self',
  tags,
  summary: 'Account profile, dual-profile flags and verification state',
  request: { query: userIdQuery },
  responses: { 200: jsonContent(userDetailsSchema, 'The account.') },
  errors: ['USER-NOT-FND-ERR'],
});

export const updateDetails = authRoute({
  method: 'patch',
  path: '/v1/user/details',
  operationId: 'updateUserDetails',
  authorization: 'self',
  tags,
  summary: "Change the account's display name or phone",
  description:
    "Acts on the caller's own account only. Send either field or both; the email cannot be changed here. " +
    'While SMS codes are a second factor of the account, the phone cannot be changed (409 `CONFLICT-ERR`; turn two-factor off first).',
  request: { body: jsonBody(updateUserDetailsInput) },
  responses: { 200: jsonContent(userDetailsSchema, 'The account, as GET /v1/user/details answers it.') },
  errors: ['USER-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const apiKeyInfo = authRoute({
  method: 'get',
  path: '/v1/user/api_key',
  operationId: 'getApiKey',
  authorization: 'self',
  tags,
  summary: 'The personal API key, identified by its 12-character prefix',
  responses: { 200: jsonContent(apiKeyInfoSchema, 'The live key (never the full key).') },
  errors: ['NOT-FOUND-ERR'],
});

export const regenerateApiKey = authRoute({
  method: 'post',
  path: '/v1/user/api_key/regenerate',
  operationId: 'regenerateApiKey',
  authorization: 'self',
  tags,
  summary: 'Revoke the personal API key at once and issue a new one',
  description:
    'The new full key is in this response only. Not replayed for a repeated Idempotency-Key (the answer holds a secret). ' +
    'The rate-limit budget belongs to the account, so a new key continues it.',
  responses: { 201: jsonContent(apiKeyIssuedSchema, 'The new key.') },
  errors: ['CONFLICT-ERR'],
});

export const changePassword = authRoute({
  method: 'post',
  path: '/v1/user/password',
  operationId: 'changePassword',
  authorization: 'self',
  tags,
  summary: 'Change the password (the current one is required)',
  description:
    'Every session of the account ends, the one making the request included (sign in again). The personal API key stays; regenerate it separately if it may be known to someone else.',
  request: { body: jsonBody(changePasswordInput) },
  responses: { 200: jsonContent(passwordChangedSchema, 'Changed; every session is signed out.') },
  errors: ['PASSWORD-WRONG-ERR', 'USER-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const listSessions = authRoute({
  method: 'get',
  path: '/v1/user/sessions',
  operationId: 'listSessions',
  authorization: 'self',
  tags,
  summary: "The account's live sign-in sessions, newest first (at most 20 exist)",
  responses: { 200: jsonContent(sessionListSchema, 'Live sessions.') },
});

export const revokeSession = authRoute({
  method: 'delete',
  path: '/v1/user/sessions/{id}',
  operationId: 'revokeSession',
  authorization: 'self',
  tags,
  summary: 'Sign out one session of the account',
  request: { params: idParam },
  responses: { 200: jsonContent(sessionRevokedSchema, 'Signed out.') },
  errors: ['SESSION-NOT-FND-ERR'],
});

export const revokeOtherSessions = authRoute({
  method: 'post',
  path: '/v1/user/sessions/revoke_others',
  operationId: 'revokeOtherSessions',
  authorization: 'self',
  tags,
  summary: 'Sign out every other session of the account',
  description: 'Keeps the session making the request; called with the API key, it signs out every session.',
  responses: { 200: jsonContent(sessionsRevokedSchema, 'How many sessions were signed out.') },
});

export const listMyInvitations = authRoute({
  method: 'get',
  path: '/v1/user/invitations',
  operationId: 'listMyTeammateInvitations',
  authorization: 'self',
  tags,
  summary: "Invitations to join a business's team addressed to the caller's email",
  responses: { 200: jsonContent(receivedInvitationListSchema, 'Pending invitations, newest first.') },
  errors: ['EMAIL-UNVERIFIED-ERR'],
});

export const acceptInvitation = authRoute({
  method: 'post',
  path: '/v1/user/invitations/{id}/accept',
  operationId: 'acceptTeammateInvitation',
  authorization: 'self',
  tags,
  summary: 'Accept an invitation: become an active teammate of the business',
  request: { params: idParam },
  responses: { 200: jsonContent(teammateSchema, 'The caller is now a teammate.') },
  errors: ['INVITATION-NOT-FND-ERR', 'INVITATION-CLOSED-ERR', 'EMAIL-UNVERIFIED-ERR', 'CONFLICT-ERR'],
});

export const declineInvitation = authRoute({
  method: 'post',
  path: '/v1/user/invitations/{id}/decline',
  operationId: 'declineTeammateInvitation',
  authorization: 'self',
  tags,
  summary: 'Decline an invitation',
  request: { params: idParam },
  responses: { 200: jsonContent(receivedInvitationSchema, 'Declined.') },
  errors: ['INVITATION-NOT-FND-ERR', 'INVITATION-CLOSED-ERR', 'EMAIL-UNVERIFIED-ERR'],
});
