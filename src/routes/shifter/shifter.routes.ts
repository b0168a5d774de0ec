import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { shifterProfileInput, shifterSchema, userIdQuery } from '../../services/accounts';

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
