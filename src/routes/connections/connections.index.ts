import { createRouter, serviceCtx } from '../../http/create-app';
import type { ServiceContext } from '../../services/context';
import { listConnections } from '../../services/connections/list';
import { removeConnection, respondToConnection, sendConnection } from '../../services/connections/requests';
import { connectionView, loadConnection } from '../../services/connections/view';
import * as routes from './connections.routes';

async function viewOf(ctx: ServiceContext, id: string) {
  const c = await loadConnection(ctx, id);
  return connectionView(c.row, c.join);
}

export const connectionsRouter = createRouter()
  .openapi(routes.send, async (c) => {
    const ctx = serviceCtx(c);
    return c.json(await viewOf(ctx, await sendConnection(ctx, c.req.valid('json'))), 201);
  })
  .openapi(routes.accept, async (c) => {
    const ctx = serviceCtx(c);
    return c.json(await viewOf(ctx, await respondToConnection(ctx, c.req.valid('param').id, 'accept')), 200);
  })
  .openapi(routes.decline, async (c) => {
    const ctx = serviceCtx(c);
    return c.json(await viewOf(ctx, await respondToConnection(ctx, c.req.valid('param').id, 'decline')), 200);
  })
  .openapi(routes.remove, async (c) => {
    const ctx = serviceCtx(c);
    return c.json(await viewOf(ctx, await removeConnection(ctx, c.req.valid('param').id)), 200);
  })
  .openapi(routes.list, async (c) => c.json(await listConnections(serviceCtx(c), c.req.valid('json')), 200));
