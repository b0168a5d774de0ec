import { createRouter, serviceCtx } from '../../http/create-app';
import { getAssistantChat, sendAssistantMessage } from '../../services/assistant';
import * as routes from './assistant.routes';

export const assistantRouter = createRouter()
  .openapi(routes.getChat, async (c) => c.json(await getAssistantChat(serviceCtx(c), c.req.valid('param').business_id), 200))
  .openapi(routes.sendMessage, async (c) =>
    c.json(await sendAssistantMessage(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('json')), 200),
  );
