import { createRouter, serviceCtx } from '../../http/create-app';
import {
  getJoinLink,
  inviteToCrew,
  joinCrew,
  listConnections,
  listCrewInvites,
  removeConnection,
  respondToConnection,
  rotateJoinLink,
  sendConnection,
  withdrawCrewInvite,
} from '../../services/connections';
import * as routes from './connections.routes';

// One service call per handler: the services take the validated input and return the connection view.
export const connectionsRouter = createRouter()
  .openapi(routes.send, async (c) => c.json(await sendConnection(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.accept, async (c) => c.json(await respondToConnection(serviceCtx(c), c.req.valid('param').id, 'accept'), 200))
  .openapi(routes.decline, async (c) => c.json(await respondToConnection(serviceCtx(c), c.req.valid('param').id, 'decline'), 200))
  .openapi(routes.remove, async (c) => c.json(await removeConnection(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.list, async (c) => c.json(await listConnections(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.inviteToCrew, async (c) => c.json(await inviteToCrew(serviceCtx(c), c.req.valid('json')), 202))
  .openapi(routes.listCrewInvites, async (c) => c.json(await listCrewInvites(serviceCtx(c), c.req.valid('query').business_id), 200))
  .openapi(routes.withdrawCrewInvite, async (c) => c.json(await withdrawCrewInvite(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.getJoinLink, async (c) => c.json(await getJoinLink(serviceCtx(c), c.req.valid('query').business_id), 200))
  .openapi(routes.rotateJoinLink, async (c) => c.json(await rotateJoinLink(serviceCtx(c), c.req.valid('json').business_id), 200))
  .openapi(routes.joinCrew, async (c) => c.json(await joinCrew(serviceCtx(c), c.req.valid('json')), 200));
