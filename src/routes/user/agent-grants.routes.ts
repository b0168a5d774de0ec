import { z } from '@hono/zod-openapi';
import { createRouter, serviceCtx } from '../../http/create-app';
import { authRoute, jsonContent } from '../../http/openapi';
import { agentGrantListSchema, agentGrantRevokedSchema, grantIdSchema, listAgentGrants, revokeAgentGrant } from '../../mcp/grants';

/**
 * The apps the person connected to the agent tool server (/v1/mcp/) through OAuth: listed, and revoked
 * one by one. The account page /account/agents uses the same service.
 */
const tags = ['User'];

export const listAgentGrantsRoute = authRoute({
  method: 'get',
  path: '/v1/user/agent_grants',
  operationId: 'listAgentGrants',
  tags,
  summary: 'The apps you connected to the agent tool server',
  responses: { 200: jsonContent(agentGrantListSchema, 'Your OAuth grants, newest first.') },
});

export const revokeAgentGrantRoute = authRoute({
  method: 'post',
  path: '/v1/user/agent_grants/{grant_id}/revoke',
  operationId: 'revokeAgentGrant',
  tags,
  summary: 'Disconnect an app: revoke its grant and every token issued under it',
  request: { params: z.object({ grant_id: grantIdSchema.openapi({ param: { name: 'grant_id', in: 'path' } }) }) },
  responses: { 200: jsonContent(agentGrantRevokedSchema, 'Revoked: the app’s tokens no longer work.') },
  errors: ['VALIDATION-ERR', 'AGENT-GRANT-NOT-FND-ERR'],
});

export const agentGrantsRouter = createRouter()
  .openapi(listAgentGrantsRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await listAgentGrants(serviceCtx(c)), 200);
  })
  .openapi(revokeAgentGrantRoute, async (c) => c.json(await revokeAgentGrant(serviceCtx(c), c.req.valid('param').grant_id), 200));
