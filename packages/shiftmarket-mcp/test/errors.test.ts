import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readToolError, toolErrorResult } from '@shiftmarket/tool-specs';
import { describe, expect, it } from 'vitest';
import { type Api, ApiError } from '../src/api';
import type { RemoteResult } from '../src/remote';
import { createServer } from '../src/server';
import { SessionStore } from '../src/sessions';
import type { ToolContext } from '../src/tools/kit';

/*
 * Tool errors as clients of both SDK eras read them, once they have listed the tools (which makes the
 * SDK check every answer against the tool's listed output schema; the 1.x SDK checks an error's
 * structuredContent too, and throws on it). In process, with a stand-in API and tool server; the same
 * against a real Worker is in stdio.test.ts.
 */

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in the assertions
type Loose = any;

const CONFIRM_MESSAGE =
  'Change your display name to "B". Show this to the user; if they agree, call the tool again with the same arguments and confirm: true.';

/** The service's tool server as it answers now (`confirm` asked for), or as an older one did (the error in structuredContent). */
function remoteAnswer(name: string): RemoteResult {
  if (name === 'shiftmarket.update_my_profile')
    return toolErrorResult('MCP-CONFIRM-REQ-ERR', CONFIRM_MESSAGE, { summary: 'Change your display name to "B".' });
  return {
    isError: true,
    content: [{ type: 'text', text: 'MCP-TEAMMATE-ERR: Teammate access is not available to agents yet.' }],
    structuredContent: { error: { code: 'MCP-TEAMMATE-ERR', message: 'Teammate access is not available to agents yet.' } },
  };
}

async function context(withAccount: boolean): Promise<ToolContext> {
  const api: Api = {
    baseUrl: 'http://stand-in',
    async call() {
      throw new ApiError(404, 'SHFT-NOT-FND-ERR', 'Shift request not found.');
    },
  };
  const store = new SessionStore('/nonexistent', { kind: 'none' });
  if (withAccount)
    await store.upsert({
      user_id: 'usr_1',
      email: 'a@example.test',
      display_name: 'A',
      base_url: 'http://stand-in',
      api_key: 'smk_x',
      shifter_id: 'shf_1',
      business_ids: [],
      added_at: '',
    });
  return { api, store, pending: new Map(), remote: async (_key, name) => remoteAnswer(name) };
}

async function connected(era: 'legacy' | 'modern', withAccount = true) {
  const server = createServer(await context(withAccount));
  if (era === 'legacy') {
    const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new LegacyClient({ name: 'legacy-errors', version: '1.0.0' });
    await client.connect(clientSide);
    return { server, client, call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) };
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'modern-errors', version: '1.0.0' });
  await client.connect(clientSide);
  return { server, client, call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) };
}

describe.each(['legacy', 'modern'] as const)('tool errors to an SDK %s client that listed the tools', (era) => {
  it('a refusal of the API, the service tool server’s confirmation request, an older service’s error and a missing account each arrive as code, message and details', async () => {
    const { server, client, call } = await connected(era);
    try {
      expect((await client.listTools()).tools).toHaveLength(36);

      const refused = (await call('shift_details', { shift_request_id: 'sr_theirs' })) as Loose;
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toBeUndefined();
      expect(refused.content).toEqual([
        { type: 'text', text: 'SHFT-NOT-FND-ERR: Shift request not found.' },
        { type: 'text', text: '{"error":{"code":"SHFT-NOT-FND-ERR","message":"Shift request not found."}}' },
      ]);

      const ask = (await call('update_my_profile', { display_name: 'B' })) as Loose;
      expect(ask.structuredContent).toBeUndefined();
      expect(readToolError(ask)).toEqual({
        code: 'MCP-CONFIRM-REQ-ERR',
        message: CONFIRM_MESSAGE,
        details: { summary: 'Change your display name to "B".' },
      });
      expect(ask.content[0].text).toBe(`MCP-CONFIRM-REQ-ERR: ${CONFIRM_MESSAGE}`);

      const older = (await call('my_spend', {})) as Loose;
      expect(older.structuredContent).toBeUndefined();
      expect(readToolError(older)).toEqual({ code: 'MCP-TEAMMATE-ERR', message: 'Teammate access is not available to agents yet.' });
    } finally {
      await client.close();
      await server.close();
    }

    const empty = await connected(era, false);
    try {
      await empty.client.listTools();
      const none = (await empty.call('claim_shift', { shift_request_id: 'sr_x' })) as Loose;
      expect(none.structuredContent).toBeUndefined();
      expect(readToolError(none)?.code).toBe('NO-ACCOUNT');
      expect(readToolError(none)?.message).toMatch(/register_business or register_shifter.*add_account_by_key/s);
    } finally {
      await empty.client.close();
      await empty.server.close();
    }
  });
});
