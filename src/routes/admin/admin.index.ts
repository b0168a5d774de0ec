import { createRouter, serviceCtx } from '../../http/create-app';
import { grantAdmin } from '../../services/accounts/admins';
import * as routes from './admin.routes';

export const adminRouter = createRouter().openapi(routes.grantAdmin, async (c) => {
  const { user_id } = c.req.valid('json');
  await grantAdmin(serviceCtx(c), user_id);
  return c.json({ user_id, is_admin: true as const }, 200);
});
