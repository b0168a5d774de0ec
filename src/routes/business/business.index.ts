import { createRouter, serviceCtx } from '../../http/create-app';
import { createBusiness, getBusinessesOfUser, makeDefaultBusiness } from '../../services/accounts';
import {
  inviteTeammate,
  listBusinessInvitations,
  listTeammates,
  revokeInvitation,
  setTeammateStatus,
  setWeeklyBudget,
  updateSettings,
} from '../../services/businesses';
import { crewAnalytics, laborCosts } from '../../services/insights';
import { createCardSetup, deleteCard, listCards, saveCard, setDefaultCard } from '../../services/payments';
import * as routes from './business.routes';
import * as paymentMethods from './payment-methods.routes';
import * as settings from './settings.routes';

export const businessRouter = createRouter()
  .openapi(routes.ofUser, async (c) => c.json(await getBusinessesOfUser(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.create, async (c) => c.json(await createBusiness(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.makeDefault, async (c) => c.json(await makeDefaultBusiness(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.listTeammates, async (c) => c.json(await listTeammates(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.addTeammate, async (c) => c.json(await inviteTeammate(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 202))
  .openapi(routes.listInvitations, async (c) => c.json(await listBusinessInvitations(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.revokeInvitation, async (c) => {
    const { id, invitation_id } = c.req.valid('param');
    return c.json(await revokeInvitation(serviceCtx(c), id, invitation_id), 200);
  })
  .openapi(routes.setTeammateStatus, async (c) => {
    const { id, user_id } = c.req.valid('param');
    return c.json(await setTeammateStatus(serviceCtx(c), id, user_id, c.req.valid('json')), 200);
  })
  .openapi(settings.updateSettings, async (c) => c.json(await updateSettings(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(settings.laborCosts, async (c) => c.json(await laborCosts(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200))
  .openapi(settings.weeklyBudget, async (c) =>
    c.json(await setWeeklyBudget(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(settings.crewAnalytics, async (c) => c.json(await crewAnalytics(serviceCtx(c), c.req.valid('param').business_id), 200));

// Its own router so src/routes/index.ts mounts it after the invoice routes: mount order is match order and document order.
export const paymentMethodsRouter = createRouter()
  .openapi(paymentMethods.createSetupIntent, async (c) => c.json(await createCardSetup(serviceCtx(c), c.req.valid('param').id), 201))
  .openapi(paymentMethods.savePaymentMethod, async (c) =>
    c.json(await saveCard(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(paymentMethods.listPaymentMethods, async (c) => c.json(await listCards(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(paymentMethods.setDefaultPaymentMethod, async (c) => {
    const { id, payment_method_id } = c.req.valid('param');
    return c.json(await setDefaultCard(serviceCtx(c), id, payment_method_id), 200);
  })
  .openapi(paymentMethods.deletePaymentMethod, async (c) => {
    const { id, payment_method_id } = c.req.valid('param');
    return c.json(await deleteCard(serviceCtx(c), id, payment_method_id), 200);
  });
