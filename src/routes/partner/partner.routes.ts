import { jsonBody, jsonContent } from '../../http/openapi';
import { partnerRoute } from '../../http/middleware/partner-auth';
import { postedShiftSchema, shiftListSchema } from '../../services/shifts';
import {
  businessParams,
  pageQuery,
  partnerBroadcastsQuery,
  partnerBusinessListSchema,
  partnerShiftBody,
  partnerShifterListSchema,
  partnerShiftsQuery,
} from '../../services/partners';

// The partner-facing routes: partner credentials only (x-api-key or a partner access token), each
// business reached through its link (services/access/partner.ts).

const tags = ['Partner API'];

export const listBusinesses = partnerRoute({
  method: 'get',
  operationId: 'listPartnerBusinesses',
  path: '/v1/partner/businesses',
  tags,
  summary: 'The businesses linked to this client, with the scopes each granted',
  request: { query: pageQuery },
  responses: { 200: jsonContent(partnerBusinessListSchema, 'A page of linked businesses, oldest link first.') },
});

export const listShiftRequests = partnerRoute({
  method: 'get',
  operationId: 'listPartnerShiftRequests',
  path: '/v1/partner/businesses/{business_id}/shift_requests',
  scope: 'shifts:read',
  tags,
  summary: "A linked business's shift requests, newest first",
  request: { params: businessParams, query: partnerShiftsQuery },
  responses: { 200: jsonContent(shiftListSchema, 'A page of shift requests.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const postShiftRequest = partnerRoute({
  method: 'post',
  operationId: 'createPartnerShiftRequest',
  path: '/v1/partner/businesses/{business_id}/shift_requests',
  scope: 'shifts:write',
  tags,
  summary: 'Post one shift for a linked business: targeted to a crew member, or broadcast to the crew',
  description:
    "The same rules as POST /v1/shift_request/send_request for the business itself, and the same `warnings` (shifter_busy: the targeted shifter is already booked then; empty_crew: a broadcast nobody is told of); the shift is posted either way. A shifter_busy warning's `conflicts` lists the business's overlapping shifts in full only when the credential and the link carry shifts:read; otherwise, and for other businesses' shifts, they are `busy` windows. Idempotency-Key makes a retry safe.",
  request: { params: businessParams, body: jsonBody(partnerShiftBody) },
  responses: { 201: jsonContent(postedShiftSchema, 'The created request (status 1, pending), with its warnings.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'SHFT-NOT-CONNECTED-ERR', 'SHIFTER-PAUSED-ERR'],
});

export const listBroadcasts = partnerRoute({
  method: 'get',
  operationId: 'listPartnerBroadcasts',
  path: '/v1/partner/businesses/{business_id}/broadcasts',
  scope: 'shifts:read',
  tags,
  summary: "A linked business's open broadcasts, newest first",
  request: { params: businessParams, query: partnerBroadcastsQuery },
  responses: { 200: jsonContent(shiftListSchema, 'A page of open broadcasts.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const listShifters = partnerRoute({
  method: 'get',
  operationId: 'listPartnerShifters',
  path: '/v1/partner/businesses/{business_id}/shifters',
  scope: 'shifters:read',
  tags,
  summary: "A linked business's crew: the shifters connected to it",
  request: { params: businessParams, query: pageQuery },
  responses: { 200: jsonContent(partnerShifterListSchema, 'A page of shifters.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});
