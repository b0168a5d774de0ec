import { createRouter, serviceCtx } from '../../http/create-app';
import { createShifterProfile, getShifterOfUser } from '../../services/accounts';
import { earnings, setEarningsGoal } from '../../services/insights';
import * as earn from './earnings.routes';
import { payoutAccountRouter } from './payout-account.routes';
import * as routes from './shifter.routes';

export const shifterRouter = createRouter()
  .route('/', payoutAccountRouter)
  .openapi(routes.ofUser, async (c) => c.json(await getShifterOfUser(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.create, async (c) => c.json(await createShifterProfile(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(earn.earnings, async (c) => c.json(await earnings(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200))
  .openapi(earn.earningsGoal, async (c) => c.json(await setEarningsGoal(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200));
