import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent } from '../../http/openapi';

export const grantAdmin = authRoute({
  method: 'post',
  path: '/v1/admin/admins',
  tags: ['Admin'],
  summary: 'Grant admin rights to a user (admin only)',
  request: { body: jsonBody(z.object({ user_id: z.string().min(1) })) },
  responses: { 200: jsonContent(z.object({ user_id: z.string(), is_admin: z.literal(true) }), 'Granted.') },
  errors: ['USER-NOT-FND-ERR'],
});
