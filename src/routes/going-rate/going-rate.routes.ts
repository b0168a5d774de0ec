import { authRoute, jsonContent } from '../../http/openapi';
import { goingRateQuery, goingRateSchema } from '../../services/insights';

export const goingRate = authRoute({
  method: 'get',
  operationId: 'getGoingRate',
  authorization: 'signed-in',
  path: '/v1/going_rate',
  tags: ['Market'],
  summary: 'Going hourly rate of worked shifts in a place (and role)',
  description: 'sufficient_data is false when the sample is below the operator minimum (default 10); the window defaults to 90 days.',
  request: { query: goingRateQuery },
  responses: { 200: jsonContent(goingRateSchema, 'Going rate.') },
});
