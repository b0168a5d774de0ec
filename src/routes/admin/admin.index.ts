import { createRouter, serviceCtx } from '../../http/create-app';
import { grantAdmin } from '../../services/accounts';
import * as routes from './admin.routes';

export const adminRouter = createRouter().openapi(routes.grantAdmin, async (c) =>
  c.json(await grantAdmin(serviceCtx(c), c.req.valid('json')), 200),
);
