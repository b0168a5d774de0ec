import { createRouter, serviceCtx } from '../../http/create-app';
import { grantHelpers } from '../../mcp/oauth';
import { getAgentSettings, listAgentGrants, revokeAgentGrant, updateAgentSettings } from '../../services/agents';
import * as routes from './agents.routes';

export const agentsRouter = createRouter()
  .openapi(routes.listAgentGrantsRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await listAgentGrants(serviceCtx(c), grantHelpers(c.env)), 200);
  })
  .openapi(routes.revokeAgentGrantRoute, async (c) =>
    c.json(await revokeAgentGrant(serviceCtx(c), grantHelpers(c.env), c.req.valid('param').grant_id), 200),
  )
  .openapi(routes.getAgentSettingsRoute, async (c) => c.json(await getAgentSettings(serviceCtx(c)), 200))
  .openapi(routes.updateAgentSettingsRoute, async (c) => c.json(await updateAgentSettings(serviceCtx(c), c.req.valid('json')), 200));
