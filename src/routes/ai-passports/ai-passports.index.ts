import { createRouter, serviceCtx } from '../../http/create-app';
import { listPassports, recordPassport, revokePassport } from '../../services/passports';
import * as routes from './ai-passports.routes';

export const aiPassportsRouter = createRouter()
  .openapi(routes.recordAiPassport, async (c) => c.json(await recordPassport(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.listAiPassports, async (c) => c.json(await listPassports(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.revokeAiPassport, async (c) => c.json(await revokePassport(serviceCtx(c), c.req.valid('param').id), 200));
