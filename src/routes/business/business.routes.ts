import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { businessListSchema, businessSchema, createBusinessInput, userIdQuery } from '../../services/accounts';
import {
  invitationListSchema,
  invitationSchema,
  inviteTeammateInput,
  teammateListSchema,
  teammateSchema,
  teammateStatusInput,
} from '../../services/businesses';

const tags = ['Businesses'];

const businessIdParam = idParam;

export const ofUser = authRoute({
  method: 'get',
  operationId: 'listBusinessesOfUser',
  authorization: 'self',
  path: '/v1/business/of_user',
  tags,
  summary: 'Every business the user owns, each with the default-business flag',
  request: { query: userIdQuery },
  responses: { 200: jsonContent(businessListSchema, 'The businesses, default first.') },
  errors: ['USER-NOT-FND-ERR'],
});

export const create = authRoute({
  method: 'post',
  operationId: 'createBusiness',
  authorization: 'self',
  path: '/v1/business/create',
  tags,
  summary: 'Create a business owned by the caller',
  request: { body: jsonBody(createBusinessInput) },
  responses: { 201: jsonContent(businessSchema, 'The new business.') },
});

export const makeDefault = authRoute({
  method: 'post',
  operationId: 'makeDefaultBusiness',
  authorization: 'business-owner',
  path: '/v1/business/{id}/make_default',
  tags,
  summary: "Make this business the owner's default (owner only)",
  description: 'The owner always has exactly one default business; the flag moves from the old default in the same step.',
  request: { params: businessIdParam },
  responses: { 200: jsonContent(businessSchema, 'The business, now the default.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const listTeammates = authRoute({
  method: 'get',
  operationId: 'listTeammates',
  authorization: 'business-member',
  path: '/v1/business/{id}/teammates',
  tags,
  summary: "The business's teammates (people who accepted an invitation)",
  request: { params: businessIdParam },
  responses: { 200: jsonContent(teammateListSchema, 'Teammates (at most 500).') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const addTeammate = authRoute({
  method: 'post',
  operationId: 'inviteTeammate',
  authorization: 'business-owner',
  path: '/v1/business/{id}/teammates',
  tags,
  summary: 'Invite an email to join the team (owner or admin)',
  description:
    'Sends an invitation the invitee accepts or declines; until they accept, the business learns nothing of them beyond the email. ' +
    'The answer is the same whether or not the email has an account. Inviting an email with a pending invitation re-sends it. ' +
    'Invitations expire after 14 days.',
  request: { params: businessIdParam, body: jsonBody(inviteTeammateInput) },
  responses: { 202: jsonContent(invitationSchema, 'The invitation.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const listInvitations = authRoute({
  method: 'get',
  operationId: 'listTeammateInvitations',
  authorization: 'business-owner',
  path: '/v1/business/{id}/invitations',
  tags,
  summary: "The business's pending invitations (owner or admin)",
  request: { params: businessIdParam },
  responses: { 200: jsonContent(invitationListSchema, 'Pending invitations, expired ones marked.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const revokeInvitation = authRoute({
  method: 'delete',
  operationId: 'revokeTeammateInvitation',
  authorization: 'business-owner',
  path: '/v1/business/{id}/invitations/{invitation_id}',
  tags,
  summary: 'Withdraw a pending invitation (owner or admin)',
  request: { params: businessIdParam.extend({ invitation_id: pathParam('invitation_id') }) },
  responses: { 200: jsonContent(invitationSchema, 'The invitation, revoked.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'INVITATION-NOT-FND-ERR', 'INVITATION-CLOSED-ERR'],
});

export const setTeammateStatus = authRoute({
  method: 'put',
  operationId: 'setTeammateStatus',
  authorization: 'business-owner',
  path: '/v1/business/{id}/teammates/{user_id}',
  tags,
  summary: 'Activate (1) or suspend (0) a teammate (owner or admin)',
  request: {
    params: businessIdParam.extend({ user_id: pathParam('user_id') }),
    body: jsonBody(teammateStatusInput),
  },
  responses: { 200: jsonContent(teammateSchema, 'The teammate.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'NOT-FOUND-ERR'],
});
