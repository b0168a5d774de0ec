import { createRouter, serviceCtx } from '../../http/create-app';
import { copyWeek, previewCopyWeek } from '../../services/templates';
import * as routes from './schedule.routes';

export const scheduleRouter = createRouter()
  .openapi(routes.copyWeekPreview, async (c) => c.json(await previewCopyWeek(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.copyWeek, async (c) => {
    const r = await copyWeek(serviceCtx(c), c.req.valid('json'));
    return r.created.length ? c.json(r, 201) : c.json(r, 200);
  });
