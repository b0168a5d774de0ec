import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { forToolClients, readToolError, type ToolErrorBody, toolErrorResult } from '@shiftmarket/tool-specs';
import type { RemoteResult } from './remote';
import { answerError, NO_PROGRESS, type ToolAnswer, type ToolContext, type ToolExtras } from './tools/kit';
import { ALL_LOCAL_TOOLS } from './tools';

export const SERVER_INFO = { name: 'shiftmarket-mcp', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Shiftmarket, the shift-work marketplace, for the accounts added here. Start with whoami or list_accounts; with no account, register_business / register_shifter then verify_email, or add_account_by_key. Then me tells the role and ids the other tools take.';

/** Progress of this request, sent only when the client gave a progressToken (MCP `notifications/progress`). */
function progressFor(req: ServerContext): ToolExtras {
  const token = req.mcpReq._meta?.progressToken;
  if (token === undefined) return NO_PROGRESS;
  return {
    progress: (progress, total, message) =>
      req.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken: token, progress, total, ...(message ? { message } : {}) } })
        // A client gone meanwhile must not fail the work itself.
        .catch(() => undefined),
  };
}

/**
 * A tool error as every client reads it: no `structuredContent` (an MCP SDK 1.x client checks it
 * against the tool's output schema even on an error, and throws). The service's tool server answers
 * its errors that way, and they pass as they came; one from a service that still put its error in
 * `structuredContent` is rewritten to the sentence and the JSON block.
 */
function asToolError(result: ToolAnswer | RemoteResult): ToolAnswer | RemoteResult {
  const { structuredContent, ...rest } = result;
  if (readToolError(rest)) return rest;
  const error = (structuredContent as { error?: Partial<ToolErrorBody> } | undefined)?.error;
  if (typeof error?.code === 'string' && typeof error.message === 'string')
    return toolErrorResult(error.code, error.message, error.details);
  return rest;
}

/** One MCP server instance with all 36 tools, acting through `ctx` (shared by every connection of the process). */
export function createServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of ALL_LOCAL_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: forToolClients(tool.input),
        outputSchema: forToolClients(tool.output),
        annotations: tool.annotations,
      },
      // The SDK types the callback per input schema; the local tools' answers are plain CallToolResults.
      (async (args: Record<string, unknown>, req: ServerContext) => {
        try {
          // The session file opens in the background from launch; the accounts are read after it.
          await ctx.store.ready();
          const result = await tool.run(ctx, args, progressFor(req));
          if (result.isError) return asToolError(result);
          if (!result.structuredContent) return result;
          // Sent as the listed output schema reads it (fields it does not list dropped: the listed
          // schema allows no others); a mismatch is left for the SDK's check to refuse.
          const read = tool.output.safeParse(result.structuredContent);
          return read.success ? { ...result, structuredContent: read.data } : result;
        } catch (err) {
          return answerError(err);
        }
      }) as never,
    );
  }
  return server;
}
