import { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { businessProfileInput, emailSchema } from '../../services/accounts/schemas';
import { userIdQuery } from '../user/user.routes';

const tags = ['Businesses'];

export const businessSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    user_id: z.string(),
    name: z.string(),
    is_default: z.boolean().openapi({ description: "Marks the owner's default business." }),
    timezone: z.string(),
    address: z.string().nullable(),
    city_id: z.number().nullable(),
    state_id: z.number().nullable(),
    country_id: z.number().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    geofence_radius_m: z.number().nullable(),
    require_clock_photo: z.boolean(),
    weekly_labor_budget: z.number().nullable(),
    currency: z.string(),
    auto_fill_on_cancel: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Business');

export const teammateSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    status: z.number().openapi({ description: '1 = active, 0 = suspended.' }),
    is_active: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Teammate');

const businessIdParam = idParam;

export const ofUser = authRoute({
  method: 'get',
  operationId: 'listBusinessesOfUser',
  path: '/v1/business/of_user',
  tags,
  summary: 'Every business the user owns, each with the default-business flag',
  request: { query: userIdQuery },
  responses: { 200: jsonContent(z.object({ data: z.array(businessSchema) }), 'The businesses, default first.') },
  errors: ['USER-NOT-FND-ERR'],
});

export const create = authRoute({
  method: 'post',
  operationId: 'createBusiness',
  path: '/v1/business/create',
  tags,
  summary: 'Create a business owned by the caller',
  request: { body: jsonBody(businessProfileInput.extend({ is_default: z.boolean().optional() })) },
  responses: { 201: jsonContent(businessSchema, 'The new business.') },
});

export const listTeammates = authRoute({
  method: 'get',
  path: '/v1/business/{id}/teammates',
  tags,
  summary: "The business's teammates",
  request: { params: businessIdParam },
  responses: { 200: jsonContent(z.object({ data: z.array(teammateSchema) }), 'Teammates.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const addTeammate = authRoute({
  method: 'post',
  path: '/v1/business/{id}/teammates',
  tags,
  summary: 'Add a verified user as an active teammate (owner or admin)',
  request: { params: businessIdParam, body: jsonBody(z.object({ email: emailSchema })) },
  responses: { 201: jsonContent(teammateSchema, 'The teammate.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'USER-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const setTeammateStatus = authRoute({
  method: 'put',
  path: '/v1/business/{id}/teammates/{user_id}',
  tags,
  summary: 'Activate (1) or suspend (0) a teammate (owner or admin)',
  request: {
    params: businessIdParam.extend({ user_id: pathParam('user_id') }),
    body: jsonBody(z.object({ status: z.union([z.literal(0), z.literal(1)]) })),
  },
  responses: { 200: jsonContent(teammateSchema, 'The teammate.') },
  errors: ['BUSINESS-NOT-FND-ERR', 'NOT-FOUND-ERR'],
});
