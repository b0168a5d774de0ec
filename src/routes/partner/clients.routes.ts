import { createRoute } from '@hono/zod-openapi';
import { PARTNER_TOKEN_PATH } from '../../http/middleware/partner-auth';
import { type AuthorizationClass, authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { errorResponses } from '../../lib/errors';
import {
  clientListSchema,
  clientParams,
  createClientBody,
  issuedClientSchema,
  oauthErrorSchema,
  pageQuery,
  partnerClientSchema,
  rotateBody,
  rotatedSchema,
  tokenRequestBody,
  tokenResponseSchema,
  updateClientBody,
} from '../../services/partners';
import { limitTokenRequests, oauthShapedErrors } from './clients.middleware';

// Partner clients are registered and managed by a person (their owner) with a personal key or
// session; the token route is where a client trades its id and secret for an access token.

const tags = ['Partner clients'];

export const createClient = authRoute({
  method: 'post',
  operationId: 'createPartnerClient',
  authorization: 'self',
  path: '/v1/partner/clients',
  tags,
  summary: 'Register a partner client; its x-api-key and client secret are shown in this answer only',
  description:
    'self_serve unless an admin sets client_tier. At most 25 clients per account. Not replayed for a repeated Idempotency-Key (the answer holds secrets): a retry after the client was created answers the same client with fresh credentials.',
  request: { body: jsonBody(createClientBody) },
  responses: { 201: jsonContent(issuedClientSchema, 'The client with its credentials (shown once).') },
  errors: ['CONFLICT-ERR'],
});

export const listClients = authRoute({
  method: 'get',
  operationId: 'listPartnerClients',
  authorization: 'self',
  path: '/v1/partner/clients',
  tags,
  summary: "The caller's partner clients, newest first",
  request: { query: pageQuery },
  responses: { 200: jsonContent(clientListSchema, 'A page of clients (credential prefixes only).') },
});

export const getClient = authRoute({
  method: 'get',
  operationId: 'getPartnerClient',
  authorization: 'self',
  path: '/v1/partner/clients/{client_id}',
  tags,
  summary: 'One partner client (its owner or an admin)',
  request: { params: clientParams },
  responses: { 200: jsonContent(partnerClientSchema, 'The client.') },
  errors: ['PARTNER-CLIENT-NOT-FND-ERR'],
});

export const updateClient = authRoute({
  method: 'patch',
  operationId: 'updatePartnerClient',
  authorization: 'self',
  path: '/v1/partner/clients/{client_id}',
  tags,
  summary: 'Rename a partner client, change its scopes, disable or re-enable it (the tier: admins only)',
  request: { params: clientParams, body: jsonBody(updateClientBody) },
  responses: { 200: jsonContent(partnerClientSchema, 'The client as changed.') },
  errors: ['PARTNER-CLIENT-NOT-FND-ERR'],
});

const rotation = (kind: 'api_key' | 'client_secret') =>
  authRoute({
    method: 'post',
    operationId: kind === 'api_key' ? 'rotatePartnerApiKey' : 'rotatePartnerClientSecret',
    authorization: 'self',
    path: `/v1/partner/clients/{client_id}/${kind}/rotate`,
    tags,
    summary:
      kind === 'api_key'
        ? 'Issue a new x-api-key; the old one is revoked at once or after an optional overlap'
        : 'Issue a new client secret; the old one is revoked at once (with the live tokens) or after an optional overlap',
    description: 'The new secret is in this answer only. Not replayed for a repeated Idempotency-Key: a retry rotates again.',
    request: { params: clientParams, body: { ...jsonBody(rotateBody), required: false } },
    responses: { 201: jsonContent(rotatedSchema, 'The new credential (shown once).') },
    errors: ['PARTNER-CLIENT-NOT-FND-ERR', 'CONFLICT-ERR'],
  });
export const rotateApiKey = rotation('api_key');
export const rotateClientSecret = rotation('client_secret');

/**
 * RFC 6749 §4.4. The body is a form, as the RFC requires; its own refusals (400, 401) are the RFC's
 * `{ error, error_description }`, other failures (413, 429, 500) the usual envelope.
 */
export const issueToken = createRoute({
  method: 'post',
  operationId: 'issuePartnerToken',
  'x-authorization': 'partner' satisfies AuthorizationClass,
  path: PARTNER_TOKEN_PATH,
  tags,
  summary: 'OAuth 2.0 client credentials: trade a client id and secret for a short-lived access token',
  description:
    'Authenticate with HTTP Basic (`client_id:client_secret`) or with client_id and client_secret in the form (never both). ' +
    '`scope` narrows the token to a subset of the client’s scopes. The token goes in `Authorization: Bearer` on /v1/partner/* and expires after `expires_in` seconds. ' +
    'Requests are limited per client IP.',
  security: [{ partnerClientBasic: [] }],
  middleware: [limitTokenRequests, oauthShapedErrors] as const,
  request: {
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: tokenRequestBody } } },
  },
  responses: {
    200: jsonContent(tokenResponseSchema, 'The access token (Cache-Control: no-store).'),
    400: jsonContent(oauthErrorSchema, 'invalid_request, unsupported_grant_type or invalid_scope (RFC 6749 §5.2).'),
    401: jsonContent(oauthErrorSchema, 'invalid_client: unknown client, wrong secret or disabled client (RFC 6749 §5.2).'),
    ...errorResponses('PAYLOAD-TOO-LARGE-ERR', 'RATE-LIMIT-ERR', 'INTERNAL-ERR'),
  },
});
