import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import {
  businessParams,
  linkBody,
  linkListSchema,
  linkParams,
  pageQuery,
  partnerLinkSchema,
  updateLinkBody,
} from '../../services/partners';

// A business's consent to partner clients. These live under /v1/business/ but beside the partner
// routes they govern (docs/decisions/partner-api.md).

const tags = ['Partner clients'];

export const link = authRoute({
  method: 'post',
  operationId: 'linkPartnerClient',
  authorization: 'business-owner',
  path: '/v1/business/{business_id}/partners',
  tags,
  summary: 'Link a partner client to the business, granting it some of its scopes here (owner or admin)',
  request: { params: businessParams, body: jsonBody(linkBody) },
  responses: { 201: jsonContent(partnerLinkSchema, 'The link.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PARTNER-CLIENT-NOT-FND-ERR', 'PARTNER-LINK-EXISTS-ERR'],
});

export const list = authRoute({
  method: 'get',
  operationId: 'listBusinessPartnerLinks',
  authorization: 'business-member',
  path: '/v1/business/{business_id}/partners',
  tags,
  summary: 'The partner clients linked to the business (owner, active teammate or admin)',
  request: { params: businessParams, query: pageQuery },
  responses: { 200: jsonContent(linkListSchema, 'A page of links, oldest first.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const update = authRoute({
  method: 'patch',
  operationId: 'updatePartnerLink',
  authorization: 'business-owner',
  path: '/v1/business/{business_id}/partners/{client_id}',
  tags,
  summary: 'Change the scopes a partner client is granted for the business (owner or admin)',
  description:
    'Replaces the granted scopes with `scopes`, each one the client has (else 400 VALIDATION-ERR). Takes effect with the partner’s next request; its webhook endpoints receive the business’s events only while the link grants `webhooks:manage` and `shifts:read`.',
  request: { params: linkParams, body: jsonBody(updateLinkBody) },
  responses: { 200: jsonContent(partnerLinkSchema, 'The link, as it is now.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PARTNER-LINK-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const unlink = authRoute({
  method: 'delete',
  operationId: 'unlinkPartnerClient',
  authorization: 'business-owner',
  path: '/v1/business/{business_id}/partners/{client_id}',
  tags,
  summary: 'Unlink a partner client: its access to the business ends at once (owner or admin)',
  request: { params: linkParams },
  responses: { 200: jsonContent(partnerLinkSchema, 'The link, removed.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'PARTNER-LINK-NOT-FND-ERR'],
});
