import { createRouter, serviceCtx } from '../../http/create-app';
import {
  changePassword,
  getApiKeyInfo,
  getUserDetails,
  listSessions,
  regenerateApiKey,
  revokeOtherSessions,
  revokeSession,
  updateAccountProfile,
} from '../../services/accounts';
import { acceptInvitation, declineInvitation, listMyInvitations } from '../../services/businesses';
import * as routes from './user.routes';

export const userRouter = createRouter()
  .openapi(routes.details, async (c) => c.json(await getUserDetails(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.updateDetails, async (c) => c.json(await updateAccountProfile(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.apiKeyInfo, async (c) => c.json(await getApiKeyInfo(serviceCtx(c)), 200))
  .openapi(routes.regenerateApiKey, async (c) => {
    const issued = await regenerateApiKey(serviceCtx(c));
    c.header('Cache-Control', 'no-store');
    return c.json(issued, 201);
  })
  .openapi(routes.changePassword, async (c) => c.json(await changePassword(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.listSessions, async (c) => c.json(await listSessions(serviceCtx(c)), 200))
  .openapi(routes.revokeSession, async (c) => c.json(await revokeSession(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.revokeOtherSessions, async (c) => c.json(await revokeOtherSessions(serviceCtx(c)), 200))
  .openapi(routes.listMyInvitations, async (c) => c.json(await listMyInvitations(serviceCtx(c)), 200))
  .openapi(routes.acceptInvitation, async (c) => c.json(await acceptInvitation(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.declineInvitation, async (c) => c.json(await declineInvitation(serviceCtx(c), c.req.valid('param').id), 200));
