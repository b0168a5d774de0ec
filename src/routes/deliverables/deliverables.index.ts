import { createRouter, serviceCtx } from '../../http/create-app';
import { listDeliverables, recordDeliverable } from '../../services/deliverables/deliverables';
import * as routes from './deliverables.routes';

export const deliverablesRouter = createRouter()
  .openapi(routes.recordShiftDeliverable, async (c) =>
    c.json(await recordDeliverable(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(routes.listShiftDeliverables, async (c) => c.json(await listDeliverables(serviceCtx(c), c.req.valid('param').id), 200));
