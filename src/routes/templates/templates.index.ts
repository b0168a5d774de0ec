import { createRouter, serviceCtx } from '../../http/create-app';
import {
  createTemplate,
  deleteTemplate,
  generateFromTemplate,
  listTemplates,
  previewTemplateGeneration,
  updateTemplate,
} from '../../services/templates';
import * as routes from './templates.routes';

export const templatesRouter = createRouter()
  .openapi(routes.byBusiness, async (c) => c.json(await listTemplates(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.create, async (c) => c.json(await createTemplate(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.update, async (c) => c.json(await updateTemplate(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.remove, async (c) => c.json(await deleteTemplate(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.preview, async (c) =>
    c.json(await previewTemplateGeneration(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(routes.generate, async (c) => {
    const r = await generateFromTemplate(serviceCtx(c), c.req.valid('param').id, c.req.valid('query'));
    return r.created.length ? c.json(r, 201) : c.json(r, 200);
  });
