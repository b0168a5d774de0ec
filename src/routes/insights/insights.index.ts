import { createRouter, serviceCtx } from '../../lib/create-app';
import { setWeeklyBudget, updateSettings } from '../../services/businesses/settings';
import { crewAnalytics } from '../../services/insights/crew-analytics';
import { earnings, setEarningsGoal } from '../../services/insights/earnings';
import { goingRate } from '../../services/insights/going-rate';
import { laborCosts } from '../../services/insights/labor-costs';
import * as routes from './insights.routes';

export const insightsRouter = createRouter()
  .openapi(routes.updateSettings, async (c) => c.json(await updateSettings(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.laborCosts, async (c) => c.json(await laborCosts(serviceCtx(c), c.req.valid('param').id, c.req.valid('query').week), 200))
  .openapi(routes.weeklyBudget, async (c) =>
    c.json(await setWeeklyBudget(serviceCtx(c), c.req.valid('param').id, c.req.valid('json').weekly_labor_budget), 200),
  )
  .openapi(routes.crewAnalytics, async (c) => c.json(await crewAnalytics(serviceCtx(c), c.req.valid('param').business_id), 200))
  .openapi(routes.goingRate, async (c) => c.json(await goingRate(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.earnings, async (c) => c.json(await earnings(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200))
  .openapi(routes.earningsGoal, async (c) =>
    c.json(await setEarningsGoal(serviceCtx(c), c.req.valid('param').id, c.req.valid('json').monthly_earnings_goal), 200),
  );
