import { createRouter, serviceCtx } from '../../lib/create-app';
import { createShifterProfile } from '../../services/accounts/profiles';
import { getShifterOfUser } from '../../services/accounts/reads';
import * as routes from './shifter.routes';

export const shifterRouter = createRouter()
  .openapi(routes.ofUser, async (c) => c.json(await getShifterOfUser(serviceCtx(c), c.req.valid('query').user_id), 200))
  .openapi(routes.create, async (c) => {
    const ctx = serviceCtx(c);
    await createShifterProfile(ctx, c.req.valid('json'));
    return c.json(await getShifterOfUser(ctx), 201);
  });
