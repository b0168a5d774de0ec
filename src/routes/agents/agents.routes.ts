import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import { agentGrantListSchema, agentGrantRevokedSchema, agentSettingsSchema, grantIdSchema } from '../../services/agents';

/**
 * What a person controls of the agents acting for them on the agent tool server (/v1/mcp/): the apps
 * they connected through OAuth (listed, and revoked one by one) and whether write tools ask before
 * they run. The account page /account/agents uses the same services.
 */
const tags = ['User'];

export const listAgentGrantsRoute = authRoute({
  method: 'get',
  path: '/v1/user/agent_grants',
  operationId: 'listAgentGrants',
  authorization: 'self',
  tags,
  summary: 'The apps you connected to the agent tool server',
  responses: { 200: jsonContent(agentGrantListSchema, 'Your OAuth grants, newest first.') },
});

export const revokeAgentGrantRoute = authRoute({
  method: 'post',
  path: '/v1/user/agent_grants/{grant_id}/revoke',
  operationId: 'revokeAgentGrant',
  authorization: 'self',
  tags,
  summary: 'Disconnect an app: revoke its grant and every token issued under it',
  request: { params: z.object({ grant_id: grantIdSchema.openapi({ param: { name: 'grant_id', in: 'path' } }) }) },
  responses: { 200: jsonContent(agentGrantRevokedSchema, 'Revoked: the app’s tokens no longer work.') },
  errors: ['VALIDATION-ERR', 'AGENT-GRANT-NOT-FND-ERR'],
});

export const getAgentSettingsRoute = authRoute({
  method: 'get',
  path: '/v1/user/agent_settings',
  operationId: 'getAgentSettings',
  authorization: 'self',
  tags,
  summary: 'Your settings for agents using the agent tool server',
  responses: { 200: jsonContent(agentSettingsSchema, 'The settings in effect (defaults when never changed).') },
});

export const updateAgentSettingsRoute = authRoute({
  method: 'put',
  path: '/v1/user/agent_settings',
  operationId: 'updateAgentSettings',
  authorization: 'self',
  tags,
  summary: 'Change your settings for agents using the agent tool server',
  request: { body: jsonBody(agentSettingsSchema.strict()) },
  responses: { 200: jsonContent(agentSettingsSchema, 'The settings now in effect.') },
  errors: ['VALIDATION-ERR'],
});
