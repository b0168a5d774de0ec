import { createRouter, serviceCtx } from '../../http/create-app';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { getApiKeyInfo, regenerateApiKey } from '../../services/accounts/api-keys';
import { changePassword } from '../../services/accounts/passwords';
import { getUserDetails } from '../../services/accounts/reads';
import { listSessions, revokeOtherSessions, revokeSession } from '../../services/accounts/sessions';
import { acceptInvitation, declineInvitation, listMyInvitations } from '../../services/businesses/invitations';
import * as routes from './user.routes';

export const userRouter = createRouter()
  .openapi(routes.details, async (c) => c.json(await getUserDetails(serviceCtx(c), c.req.valid('query').user_id), 200))
  .openapi(routes.apiKeyInfo, async (c) => {
    const info = await getApiKeyInfo(serviceCtx(c));
    if (!info) throw new AppError('NOT-FOUND-ERR', 'This account has no live API key; regenerate one.');
    return c.json({ prefix: info.prefix, created_at: toIso(info.created_at), last_used_at: toIso(info.last_used_at) }, 200);
  })
  .openapi(routes.regenerateApiKey, async (c) => {
    const k = await regenerateApiKey(serviceCtx(c));
    c.header('Cache-Control', 'no-store');
    return c.json({ key: k.key, prefix: k.prefix, created_at: toIso(k.created_at) }, 201);
  })
  .openapi(routes.changePassword, async (c) => c.json(await changePassword(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.listSessions, async (c) => c.json({ data: await listSessions(serviceCtx(c)) }, 200))
  .openapi(routes.revokeSession, async (c) => {
    const { id } = c.req.valid('param');
    await revokeSession(serviceCtx(c), id);
    return c.json({ id, status: 'revoked' as const }, 200);
  })
  .openapi(routes.revokeOtherSessions, async (c) => c.json({ revoked: await revokeOtherSessions(serviceCtx(c)) }, 200))
  .openapi(routes.listMyInvitations, async (c) => c.json({ data: await listMyInvitations(serviceCtx(c)) }, 200))
  .openapi(routes.acceptInvitation, async (c) => c.json(await acceptInvitation(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.declineInvitation, async (c) => c.json(await declineInvitation(serviceCtx(c), c.req.valid('param').id), 200));
