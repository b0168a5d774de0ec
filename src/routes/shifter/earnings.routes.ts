import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import { earningsGoalInput, earningsGoalSchema, earningsQuery, earningsSchema } from '../../services/insights';

export const earnings = authRoute({
  method: 'get',
  operationId: 'getEarnings',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/earnings',
  tags: ['Shifters'],
  summary:
    "A month's earnings with projection, typical rate and hours, breakdowns and trend, and a week's by shift with the 8 weeks before it (owner only)",
  request: { params: idParam, query: earningsQuery },
  responses: { 200: jsonContent(earningsSchema, 'Earnings.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const earningsGoal = authRoute({
  method: 'put',
  operationId: 'setEarningsGoal',
  authorization: 'shifter',
  path: '/v1/shifter/{id}/earnings_goal',
  tags: ['Shifters'],
  summary: 'Set or clear the monthly earnings goal (owner only)',
  request: { params: idParam, body: jsonBody(earningsGoalInput) },
  responses: { 200: jsonContent(earningsGoalSchema, 'The goal.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});
