import { McpServer } from '@modelcontextprotocol/server';
import { forToolClients } from '../../../src/mcp/json-schema';
import { answerError, type ToolContext } from './tools/kit';
import { ALL_LOCAL_TOOLS } from './tools';

export const SERVER_INFO = { name: 'shiftmarket-mcp', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Shiftmarket, the shift-work marketplace, for the accounts added here. Start with whoami or list_accounts; with no account, register_business / register_shifter then verify_email, or add_account_by_key. Then me tells the role and ids the other tools take.';

/** One MCP server instance with all 32 tools, acting through `ctx` (shared by every connection of the process). */
export function createServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of ALL_LOCAL_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: forToolClients(tool.input),
        ...(tool.output ? { outputSchema: forToolClients(tool.output) } : {}),
        annotations: tool.annotations,
      },
      // The SDK types the callback per input schema; the local tools' answers are plain CallToolResults.
      (async (args: Record<string, unknown>) => {
        try {
          return await tool.run(ctx, args);
        } catch (err) {
          return answerError(err);
        }
      }) as never,
    );
  }
  return server;
}
