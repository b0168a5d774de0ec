import { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';

const money = z.number();

export const earnings = authRoute({
  method: 'get',
  operationId: 'getEarnings',
  path: '/v1/shifter/{id}/earnings',
  tags: ['Shifters'],
  summary: "A month's earnings with projection, typical rate and hours, breakdowns and trend (owner only)",
  request: {
    params: idParam,
    query: z.object({ year: z.coerce.number().int().min(2000).max(2100).optional(), month: z.coerce.number().int().min(1).max(12).optional() }),
  },
  responses: {
    200: jsonContent(
      z
        .object({
          shifter_id: z.string(),
          currency: z.string(),
          timezone: z.string(),
          year: z.number(),
          month: z.number(),
          days_in_month: z.number(),
          elapsed_days: z.number(),
          gross: money,
          shifts: z.number(),
          projected_end_of_month: money.nullable(),
          typical_hourly_rate: money.nullable(),
          typical_shift_hours: z.number().nullable(),
          monthly_earnings_goal: money.nullable(),
          shifts_to_goal: z.number().nullable(),
          by_business: z.array(z.object({ business_id: z.string(), business_name: z.string(), gross: money, shifts: z.number(), hours: z.number() })),
          trend_12_months: z.array(z.object({ month: z.string(), gross: money, shifts: z.number() })),
          other_currencies: z.array(z.object({ currency: z.string(), gross: money })),
        })
        .openapi('Earnings'),
      'Earnings.',
    ),
  },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const earningsGoal = authRoute({
  method: 'put',
  operationId: 'setEarningsGoal',
  path: '/v1/shifter/{id}/earnings_goal',
  tags: ['Shifters'],
  summary: 'Set or clear the monthly earnings goal (owner only)',
  request: { params: idParam, body: jsonBody(z.object({ monthly_earnings_goal: z.number().positive().max(100_000_000).nullable() })) },
  responses: { 200: jsonContent(z.object({ shifter_id: z.string(), monthly_earnings_goal: money.nullable(), currency: z.string() }), 'The goal.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});
