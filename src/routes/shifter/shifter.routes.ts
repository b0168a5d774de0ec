import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { shifterProfileInput } from '../../services/accounts/schemas';
import { userIdQuery } from '../user/user.routes';

const tags = ['Shifters'];

export const shifterSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    user_id: z.string(),
    display_name: z.string(),
    headline: z.string().nullable(),
    bio: z.string().nullable(),
    photo_url: z.string().nullable(),
    city_id: z.number().nullable(),
    city: z.string().nullable(),
    timezone: z.string(),
    accept_shift_req: z.boolean(),
    is_paused: z.boolean().openapi({ description: 'True when accept_shift_req is off: the public profile shows a Paused badge.' }),
    monthly_earnings_goal: z.number().nullable(),
    currency: z.string(),
    ratings: z.object({ average: z.number().nullable(), count: z.number() }),
    created_at: z.string(),
  })
  .openapi('Shifter');

export const ofUser = authRoute({
  method: 'get',
  operationId: 'getShifterOfUser',
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
  path: '/v1/shifter/create',
  tags,
  summary: "Add a shifter profile to the caller's account (dual profile)",
  request: { body: jsonBody(shifterProfileInput) },
  responses: { 201: jsonContent(shifterSchema, 'The new shifter profile.') },
  errors: ['PROFILE-EXISTS-ERR'],
});
