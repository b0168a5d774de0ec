import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { USER_AGENT } from './api';

/**
 * The service's own agent tool server (`/v1/mcp/`), reached with the active account's personal key:
 * the tools that have no one-to-one REST operation (profiles by slug, connections, earnings, spend,
 * profile changes, counter-offers, payment confirmation) run there, under the same definitions,
 * access rules, confirmation and audit as for any agent. The answer comes back as the server gave it.
 */
export interface RemoteResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [k: string]: unknown;
}

export async function callRemoteTool(baseUrl: string, key: string, name: string, args: Record<string, unknown>): Promise<RemoteResult> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/v1/mcp/`), {
    requestInit: { headers: { Authorization: `Bearer ${key}`, 'User-Agent': USER_AGENT } },
  });
  const client = new Client({ name: 'shiftmarket-mcp', version: '0.1.0' });
  try {
    await client.connect(transport);
    return (await client.callTool({ name, arguments: args })) as RemoteResult;
  } finally {
    await client.close().catch(() => undefined);
  }
}
