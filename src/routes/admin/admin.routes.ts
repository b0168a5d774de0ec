import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { adminGrantedSchema, grantAdminInput } from '../../services/accounts';

export const grantAdmin = authRoute({
  method: 'post',
  path: '/v1/admin/admins',
  operationId: 'grantAdmin',
  authorization: 'admin',
  tags: ['Admin'],
  summary: 'Grant admin rights to a user (admin only; never a demo account)',
  request: { body: jsonBody(grantAdminInput) },
  responses: { 200: jsonContent(adminGrantedSchema, 'Granted.') },
  errors: ['USER-NOT-FND-ERR'],
});
