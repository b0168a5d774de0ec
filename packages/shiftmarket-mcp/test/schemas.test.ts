import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { TOOL_SPECS, toolJsonSchema } from '@shiftmarket/tool-specs';
import { lintListedTools } from '../../../test/helpers/schema-lint';
import { createServer } from '../src/server';
import { SessionStore } from '../src/sessions';
import type { ToolContext } from '../src/tools/kit';

/*
 * The stdio tool server's list as a client reads it: every input property described and every schema
 * passing the MCP Inspector's strict portability checks with no finding (the same rules as the remote
 * server's list, test/mcp/mcp-tool-schemas.test.ts), every tool with an output schema, the 21 agent
 * tools with the remote server's own. No service is needed to list the tools.
 */
describe('listed tool schemas', () => {
  it('pass the strict checks, with every input property described and an output schema on all 36 tools, the agent tools the remote ones', async () => {
    const ctx: ToolContext = {
      api: { baseUrl: 'http://stand-in', call: async () => ({}) as never },
      store: new SessionStore('/nonexistent', { kind: 'none' }),
      pending: new Map(),
      remote: async () => ({ content: [] }),
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createServer(ctx);
    await server.connect(serverSide);
    const client = new Client({ name: 'schema-check', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(36);
    expect(lintListedTools(tools)).toEqual([]);
    expect(tools.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe('object');
    // The same document the remote server lists for each of its tools (src/mcp/register.ts lists def.output).
    for (const spec of TOOL_SPECS) {
      const listed = tools.find((t) => t.name === spec.name);
      expect(listed?.outputSchema, spec.name).toEqual(toolJsonSchema(spec.output, 'output'));
    }
    await client.close();
    await server.close();
  });
});
