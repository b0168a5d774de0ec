import { createRouter, serviceCtx } from '../../http/create-app';
import { listConnections, removeConnection, respondToConnection, sendConnection } from '../../services/connections';
import * as routes from './connections.routes';

// One service call per handler: the services take the validated input and return the connection view.
export const connectionsRouter = createRouter()
  .openapi(routes.send, async (c) => c.json(await sendConnection(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.accept, async (c) => c.json(await respondToConnection(serviceCtx(c), c.req.valid('param').id, 'accept'), 200))
  .openapi(routes.decline, async (c) => c.json(await respondToConnection(serviceCtx(c), c.req.valid('param').id, 'decline'), 200))
  .openapi(routes.remove, async (c) => c.json(await removeConnection(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.list, async (c) => c.json(await listConnections(serviceCtx(c), c.req.valid('json')), 200));
