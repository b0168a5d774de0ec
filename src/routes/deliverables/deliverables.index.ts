import { createRouter, serviceCtx } from '../../http/create-app';
import { storedFileHeaders } from '../../lib/downloads';
import {
  deleteDeliverable,
  listDeliverables,
  readDeliverableFile,
  recordDeliverable,
  uploadDeliverableFile,
} from '../../services/deliverables';
import * as routes from './deliverables.routes';

export const deliverablesRouter = createRouter()
  .openapi(routes.recordShiftDeliverable, async (c) =>
    c.json(await recordDeliverable(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(routes.listShiftDeliverables, async (c) => c.json(await listDeliverables(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.deleteShiftDeliverable, async (c) => {
    const p = c.req.valid('param');
    return c.json(await deleteDeliverable(serviceCtx(c), p.id, p.deliverable_id), 200);
  })
  .openapi(routes.uploadShiftDeliverableFile, async (c) => {
    const p = c.req.valid('param');
    return c.json(await uploadDeliverableFile(serviceCtx(c), p.id, p.deliverable_id, c.req.valid('form').file), 201);
  })
  .openapi(routes.getShiftDeliverableFile, async (c) => {
    const p = c.req.valid('param');
    const f = await readDeliverableFile(serviceCtx(c), p.id, p.deliverable_id, p.file_id);
    return c.body(f.body, 200, storedFileHeaders(f));
  });
