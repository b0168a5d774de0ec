import { createRouter, serviceCtx } from '../../http/create-app';
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateSecret,
  sendTestEvent,
} from '../../services/webhooks';
import * as routes from './webhooks.routes';

/** Partner webhook endpoints and their delivery log (scope webhooks:manage). Answers carrying a secret are never stored. */
export const partnerWebhooksRouter = createRouter()
  .openapi(routes.createEndpoint, async (c) => {
    const created = await createEndpoint(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(created, 201);
  })
  .openapi(routes.listEndpoints, async (c) => c.json(await listEndpoints(serviceCtx(c)), 200))
  .openapi(routes.deleteEndpoint, async (c) => c.json(await deleteEndpoint(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.rotateSecret, async (c) => {
    const rotated = await rotateSecret(serviceCtx(c), c.req.valid('param').id, c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(rotated, 200);
  })
  .openapi(routes.enableEndpoint, async (c) => c.json(await enableEndpoint(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.sendTestEvent, async (c) => c.json(await sendTestEvent(serviceCtx(c), c.req.valid('param').id), 202))
  .openapi(routes.listDeliveries, async (c) =>
    c.json(await listDeliveries(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(routes.redeliver, async (c) => {
    const p = c.req.valid('param');
    return c.json(await redeliver(serviceCtx(c), p.id, p.delivery_id), 202);
  });
