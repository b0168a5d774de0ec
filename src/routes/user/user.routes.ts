import { z } from '@hono/zod-openapi';
import { TEAMMATE_STATUS } from '../../services/access';
import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { apiKeyFullSchema } from '../auth/auth.routes';

const tags = ['Accounts'];

export const userIdQuery = z.object({
  user_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .optional()
    .openapi({ description: "The caller's user id (default). Another user's id needs an admin." }),
});

export const userDetailsSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    display_name: z.string(),
    phone: z.string().nullable(),
    email_verified: z.boolean(),
    email_verified_at: z.string().nullable(),
    is_admin: z.boolean(),
    is_demo: z.boolean(),
    has_shifter_profile: z.boolean(),
    has_business_profile: z.boolean(),
    is_dual_profile: z.boolean(),
    shifter_id: z.string().nullable(),
    default_business_id: z.string().nullable(),
    business_ids: z.array(z.string()),
    teammate_of_business_ids: z.array(z.string()),
    two_factor_enabled: z.boolean(),
    created_at: z.string(),
  })
  .openapi('UserDetails');

export const details = authRoute({
  method: 'get',
  path: '/v1/user/details',
  operationId: 'getUserDetails',
  tags,
  summary: 'Account profile, dual-profile flags and verification state',
  request: { query: userIdQuery },
  responses: { 200: jsonContent(userDetailsSchema, 'The account.') },
  errors: ['USER-NOT-FND-ERR'],
});

export const apiKeyInfo = authRoute({
  method: 'get',
  path: '/v1/user/api_key',
  operationId: 'getApiKey',
  tags,
  summary: 'The personal API key, identified by its 12-character prefix',
  responses: {
    200: jsonContent(
      z.object({ prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable() }).openapi('ApiKeyInfo'),
      'The live key (never the full key).',
    ),
  },
  errors: ['NOT-FOUND-ERR'],
});

export const regenerateApiKey = authRoute({
  method: 'post',
  path: '/v1/user/api_key/regenerate',
  operationId: 'regenerateApiKey',
  tags,
  summary: 'Revoke the personal API key at once and issue a new one',
  description:
    'The new full key is in this response only. Not replayed for a repeated Idempotency-Key (the answer holds a secret). ' +
    'The rate-limit budget belongs to the account, so a new key continues it.',
  responses: { 201: jsonContent(apiKeyFullSchema, 'The new key.') },
  errors: ['CONFLICT-ERR'],
});

export const changePassword = authRoute({
  method: 'post',
  path: '/v1/user/password',
  operationId: 'changePassword',
  tags,
  summary: 'Change the password (the current one is required)',
  description:
    'Every session of the account ends, the one making the request included (sign in again). The personal API key stays; regenerate it separately if it may be known to someone else.',
  request: {
    body: jsonBody(
      z.object({
        current_password: z.string().min(1).max(200),
        new_password: z.string().min(10).max(200).openapi({ description: 'At least 10 characters.' }),
      }),
    ),
  },
  responses: {
    200: jsonContent(
      z.object({ status: z.literal('password_changed'), sessions_revoked: z.literal(true), api_key_revoked: z.literal(false) }),
      'Changed; every session is signed out.',
    ),
  },
  errors: ['PASSWORD-WRONG-ERR', 'USER-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const sessionSchema = z
  .object({
    id: z.string(),
    created_at: z.string(),
    last_seen_at: z.string().openapi({ description: 'Last request made with it (to the minute).' }),
    expires_at: z.string(),
    current: z.boolean().openapi({ description: 'True for the session making this request.' }),
  })
  .openapi('Session');

export const listSessions = authRoute({
  method: 'get',
  path: '/v1/user/sessions',
  operationId: 'listSessions',
  tags,
  summary: "The account's live sign-in sessions, newest first (at most 20 exist)",
  responses: { 200: jsonContent(z.object({ data: z.array(sessionSchema).max(20) }), 'Live sessions.') },
});

export const revokeSession = authRoute({
  method: 'delete',
  path: '/v1/user/sessions/{id}',
  operationId: 'revokeSession',
  tags,
  summary: 'Sign out one session of the account',
  request: { params: idParam },
  responses: { 200: jsonContent(z.object({ id: z.string(), status: z.literal('revoked') }), 'Signed out.') },
  errors: ['SESSION-NOT-FND-ERR'],
});

export const revokeOtherSessions = authRoute({
  method: 'post',
  path: '/v1/user/sessions/revoke_others',
  operationId: 'revokeOtherSessions',
  tags,
  summary: 'Sign out every other session of the account',
  description: 'Keeps the session making the request; called with the API key, it signs out every session.',
  responses: { 200: jsonContent(z.object({ revoked: z.number().int() }), 'How many sessions were signed out.') },
});

export const receivedInvitationSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    business_name: z.string(),
    invited_by_name: z.string(),
    email: z.string(),
    status: z.enum(['pending', 'accepted', 'declined', 'revoked', 'expired']),
    expires_at: z.string(),
    responded_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('ReceivedTeammateInvitation');

export const listMyInvitations = authRoute({
  method: 'get',
  path: '/v1/user/invitations',
  operationId: 'listMyTeammateInvitations',
  tags,
  summary: "Invitations to join a business's team addressed to the caller's email",
  responses: { 200: jsonContent(z.object({ data: z.array(receivedInvitationSchema).max(100) }), 'Pending invitations, newest first.') },
  errors: ['EMAIL-UNVERIFIED-ERR'],
});

export const teammateSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    status: z
      .number()
      .int()
      .openapi({ enum: Object.values(TEAMMATE_STATUS), description: '1 = active, 0 = suspended.' }),
    is_active: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Teammate');

export const acceptInvitation = authRoute({
  method: 'post',
  path: '/v1/user/invitations/{id}/accept',
  operationId: 'acceptTeammateInvitation',
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
  tags,
  summary: 'Decline an invitation',
  request: { params: idParam },
  responses: { 200: jsonContent(receivedInvitationSchema, 'Declined.') },
  errors: ['INVITATION-NOT-FND-ERR', 'INVITATION-CLOSED-ERR', 'EMAIL-UNVERIFIED-ERR'],
});
