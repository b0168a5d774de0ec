import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { shifterProfileInput, shifterSchema, updateShifterProfileInput, userIdQuery } from '../../services/accounts';

const tags = ['Shifters'];

export const ofUser = authRoute({
  method: 'get',
  operationId: 'getShifterOfUser',
  authorization: 'self',
  path: '/v1/shifter/of_user',
  tags,
  summary: "The user's shifter profile",
  request: { query: userIdQuery },
  responses: { 200: jsonContent(shifterSchema, 'The shifter profile.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const create = authRoute({
  method: 'post',
  operationId: 'createShifterProfile',
  authorization: 'self',
  path: '/v1/shifter/create',
  tags,
  summary: "Add a shifter profile to the caller's account (dual profile)",
  request: { body: jsonBody(shifterProfileInput) },
  responses: { 201: jsonContent(shifterSchema, 'The new shifter profile.') },
  errors: ['PROFILE-EXISTS-ERR'],
});

export const updateProfile = authRoute({
  method: 'patch',
  operationId: 'updateShifterProfile',
  authorization: 'self',
  path: '/v1/shifter/profile',
  tags,
  summary: "Change the caller's own shifter profile",
  description:
    'Only the fields sent change; null clears one. Besides the public details and accept_shift_req, the fields that rank open broadcasts for the shifter ' +
    '(list_of_broadcast_requests with sort_by_relevance): roles, home_area with home_latitude and home_longitude, travel_km, min_hourly_rate with ' +
    'min_hourly_rate_currency; and timezone. An extension of v1 (docs/api.md).',
  request: { body: jsonBody(updateShifterProfileInput) },
  responses: { 200: jsonContent(shifterSchema, 'The shifter profile, as GET /v1/shifter/of_user answers it.') },
  errors: ['FORBIDDEN-ERR'],
});
