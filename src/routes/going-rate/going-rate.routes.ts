import { z } from '@hono/zod-openapi';
import { authRoute, jsonContent } from '../../http/openapi';

const money = z.number();

const idQuery = z.coerce.number().int().positive().optional();
export const goingRate = authRoute({
  method: 'get',
  operationId: 'getGoingRate',
  path: '/v1/going_rate',
  tags: ['Market'],
  summary: 'Going hourly rate of worked shifts in a place (and role)',
  description: 'sufficient_data is false when the sample is below the operator minimum (default 10); the window defaults to 90 days.',
  request: {
    query: z.object({
      city_id: idQuery,
      state_id: idQuery,
      country_id: idQuery,
      shiftrole_id: idQuery,
      currency: z.string().length(3).toUpperCase().optional(),
    }),
  },
  responses: {
    200: jsonContent(
      z
        .object({
          min: money.nullable(),
          p25: money.nullable(),
          median: money.nullable(),
          p75: money.nullable(),
          max: money.nullable(),
          mean: money.nullable(),
          sample_size: z.number(),
          currency: z.string().nullable(),
          window_days: z.number(),
          window: z.object({ from: z.string(), to: z.string() }),
          min_sample: z.number(),
          sufficient_data: z.boolean(),
          filters: z.object({ city_id: z.number().nullable(), state_id: z.number().nullable(), country_id: z.number().nullable(), shiftrole_id: z.number().nullable() }),
        })
        .openapi('GoingRate'),
      'Going rate.',
    ),
  },
});
