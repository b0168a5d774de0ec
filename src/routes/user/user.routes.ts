import { z } from '@hono/zod-openapi';
import { authRoute, jsonContent } from '../../http/openapi';
import { apiKeyFullSchema } from '../auth/auth.routes';

const tags = ['Accounts'];

export const userIdQuery = z.object({
  user_id: z.string().min(1).optional().openapi({ description: "The caller's user id (default). Another user's id needs an admin." }),
});

export const userDetailsSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    display_name: z.string(),
    phone: z.string().nullable(),
    email_verified: z.boolean(),
    email_verified_at: z.string().nullable(),
    is_admin: z.boolean(),
    is_demo: z.boolean(),
    has_shifter_profile: z.boolean(),
    has_business_profile: z.boolean(),
    is_dual_profile: z.boolean(),
    shifter_id: z.string().nullable(),
    default_business_id: z.string().nullable(),
    business_ids: z.array(z.string()),
    teammate_of_business_ids: z.array(z.string()),
    two_factor_enabled: z.boolean(),
    created_at: z.string(),
  })
  .openapi('UserDetails');

export const details = authRoute({
  method: 'get',
  path: '/v1/user/details',
  tags,
  summary: 'Account profile, dual-profile flags and verification state',
  request: { query: userIdQuery },
  responses: { 200: jsonContent(userDetailsSchema, 'The account.') },
  errors: ['USER-NOT-FND-ERR'],
});

export const apiKeyInfo = authRoute({
  method: 'get',
  path: '/v1/user/api_key',
  tags,
  summary: 'The personal API key, identified by its 12-character prefix',
  responses: {
    200: jsonContent(
      z
        .object({ prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })
        .openapi('ApiKeyInfo'),
      'The live key (never the full key).',
    ),
  },
  errors: ['NOT-FOUND-ERR'],
});

export const regenerateApiKey = authRoute({
  method: 'post',
  path: '/v1/user/api_key/regenerate',
  tags,
  summary: 'Revoke the personal API key at once and issue a new one',
  description: 'The new full key is in this response only. Not replayed for a repeated Idempotency-Key (the answer holds a secret).',
  responses: { 201: jsonContent(apiKeyFullSchema, 'The new key.') },
  errors: ['CONFLICT-ERR'],
});
