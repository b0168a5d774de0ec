import { z } from '@hono/zod-openapi';
import { createRouter, serviceCtx } from '../../http/create-app';
import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { getAgentSettings, updateAgentSettings } from '../../mcp/confirmation';

/**
 * The person's settings for agents acting for them on the agent tool server (/v1/mcp/): whether write
 * tools ask before they run. The account page's toggle uses the same service.
 */
const agentSettingsSchema = z
  .object({
    confirm_writes: z.boolean().openapi({
      description: 'Write tools ask for confirmation before they run (default true). The payment tool always needs its confirm page.',
    }),
  })
  .openapi('AgentSettings');

const tags = ['User'];

export const getAgentSettingsRoute = authRoute({
  method: 'get',
  path: '/v1/user/agent_settings',
  operationId: 'getAgentSettings',
  tags,
  summary: 'Your settings for agents using the agent tool server',
  responses: { 200: jsonContent(agentSettingsSchema, 'The settings in effect (defaults when never changed).') },
});

export const updateAgentSettingsRoute = authRoute({
  method: 'put',
  path: '/v1/user/agent_settings',
  operationId: 'updateAgentSettings',
  tags,
  summary: 'Change your settings for agents using the agent tool server',
  request: { body: jsonBody(agentSettingsSchema.strict()) },
  responses: { 200: jsonContent(agentSettingsSchema, 'The settings now in effect.') },
  errors: ['VALIDATION-ERR'],
});

export const agentSettingsRouter = createRouter()
  .openapi(getAgentSettingsRoute, async (c) => c.json(await getAgentSettings(serviceCtx(c)), 200))
  .openapi(updateAgentSettingsRoute, async (c) => c.json(await updateAgentSettings(serviceCtx(c), c.req.valid('json')), 200));
