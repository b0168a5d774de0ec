import { eq } from 'drizzle-orm';
import { businesses } from '../../db/schema';
import { createRouter, serviceCtx } from '../../http/create-app';
import { createBusiness } from '../../services/accounts/profiles';
import { businessView, getBusinessesOfUser } from '../../services/accounts/reads';
import { addTeammate, listTeammates, setTeammateStatus } from '../../services/businesses/teammates';
import { setWeeklyBudget, updateSettings } from '../../services/businesses/settings';
import { crewAnalytics } from '../../services/insights/crew-analytics';
import { laborCosts } from '../../services/insights/labor-costs';
import * as routes from './business.routes';
import * as settings from './settings.routes';

export const businessRouter = createRouter()
  .openapi(routes.ofUser, async (c) => c.json({ data: await getBusinessesOfUser(serviceCtx(c), c.req.valid('query').user_id) }, 200))
  .openapi(routes.create, async (c) => {
    const ctx = serviceCtx(c);
    const id = await createBusiness(ctx, c.req.valid('json'));
    const [row] = await ctx.db.select().from(businesses).where(eq(businesses.id, id));
    return c.json(businessView(row!), 201);
  })
  .openapi(routes.listTeammates, async (c) => c.json({ data: await listTeammates(serviceCtx(c), c.req.valid('param').id) }, 200))
  .openapi(routes.addTeammate, async (c) =>
    c.json(await addTeammate(serviceCtx(c), c.req.valid('param').id, c.req.valid('json').email), 201),
  )
  .openapi(routes.setTeammateStatus, async (c) => {
    const { id, user_id } = c.req.valid('param');
    return c.json(await setTeammateStatus(serviceCtx(c), id, user_id, c.req.valid('json').status), 200);
  })
  .openapi(settings.updateSettings, async (c) => c.json(await updateSettings(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(settings.laborCosts, async (c) => c.json(await laborCosts(serviceCtx(c), c.req.valid('param').id, c.req.valid('query').week), 200))
  .openapi(settings.weeklyBudget, async (c) =>
    c.json(await setWeeklyBudget(serviceCtx(c), c.req.valid('param').id, c.req.valid('json').weekly_labor_budget), 200),
  )
  .openapi(settings.crewAnalytics, async (c) => c.json(await crewAnalytics(serviceCtx(c), c.req.valid('param').business_id), 200));
