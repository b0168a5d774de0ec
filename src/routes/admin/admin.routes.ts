import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';

export const grantAdmin = authRoute({
  method: 'post',
  path: '/v1/admin/admins',
  operationId: 'grantAdmin',
  tags: ['Admin'],
  summary: 'Grant admin rights to a user (admin only; never a demo account)',
  request: { body: jsonBody(z.object({ user_id: z.string().min(1).max(ID_MAX_LENGTH) })) },
  responses: { 200: jsonContent(z.object({ user_id: z.string(), is_admin: z.literal(true) }), 'Granted.') },
  errors: ['USER-NOT-FND-ERR'],
});
