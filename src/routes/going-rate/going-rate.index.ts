import { createRouter, serviceCtx } from '../../http/create-app';
import { goingRate } from '../../services/insights';
import * as routes from './going-rate.routes';

export const goingRateRouter = createRouter().openapi(routes.goingRate, async (c) =>
  c.json(await goingRate(serviceCtx(c), c.req.valid('query')), 200),
);
