import { env } from 'cloudflare:workers';
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { mcpAudit } from '../../src/db/schema';
import { sha256Hex } from '../../src/lib/crypto';
import { AppError } from '../../src/lib/errors';
import { REDACTED, redactArguments } from '../../src/mcp/audit';
import { setConfirmWrites } from '../../src/services/agents';
import { resolveCaller } from '../../src/mcp/caller';
import { replaceToolRegistry, toolRegistry } from '../../src/mcp/server';
import { defineTool } from '../../src/mcp/tool';
import { ALL_TOOLS } from '../../src/mcp/tools';
import { getSettings } from '../../src/env';
import { db, makeUser, type TestUser } from '../helpers/factory';
import { failNextBatch } from '../helpers/failures';
import { call } from '../helpers/api';
import {
  connectLegacy,
  connectModern,
  MCP_ORIGIN,
  MCP_URL,
  oauthTokens,
  rawMcp,
  signedInBrowser,
  toolErrorOf,
  workerFetch,
} from '../helpers/mcp';

/*
 * The server around the tools: registration through the one wrapper, scopes, confirmation, error
 * mapping and audit. A small set of tools defined here stands in for the real ones, so each wrapper
 * behavior is seen on its own; the real registry is checked for its 21 names.
 */

const whoami = defineTool({
  name: 'test_whoami',
  title: 'Who is calling',
  description: 'Test tool: the caller as the services see it.',
  scope: 'read',
  input: z.object({ echo: z.string().max(50).optional() }),
  output: z.object({ user_id: z.string(), actor: z.string(), echo: z.string().nullable() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  run: async (ctx, args) => {
    const a = ctx.actor;
    return { user_id: 'userId' in a ? a.userId : '', actor: a.kind, echo: args.echo ?? null };
  },
  summarize: (r) => `You are ${r.user_id} (${r.actor}).`,
});

let notesSaved = 0;
let payRuns = 0;
const saveNote = defineTool({
  name: 'test_save_note',
  title: 'Save a note',
  description: 'Test tool: a write that counts its runs; "fail" makes the service refuse.',
  scope: 'write',
  input: z.object({
    note: z.string().max(100),
    password: z.string().max(100).optional(),
    nested: z.object({ card_number: z.string().max(30).optional(), label: z.string().max(30).optional() }).optional(),
  }),
  output: z.object({ saved: z.string(), runs: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  describeAction: async (_ctx, args) => `Save the note "${args.note}".`,
  run: async (_ctx, args) => {
    if (args.note === 'fail') throw new AppError('SHFT-STATE-ERR', 'The shift request is not in a state that allows this.');
    notesSaved++;
    return { saved: args.note, runs: notesSaved };
  },
  summarize: (r) => `Saved "${r.saved}".`,
});

const pay = defineTool({
  name: 'test_pay',
  title: 'Pay',
  description: 'Test tool: needs the payment scope.',
  scope: 'payment',
  input: z.object({ amount: z.number().max(100) }),
  output: z.object({ ok: z.boolean(), offered: z.boolean(), runs: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  run: async (_ctx, _args, extras) => {
    payRuns++;
    const offered = extras.clientSupportsUrlElicitation
      ? await extras.elicitUrl({ url: 'https://mcp.test/mcp-confirm/test-token', message: 'Confirm the payment.', elicitationId: 'el-1' })
      : false;
    return { ok: true, offered, runs: payRuns };
  },
  summarize: () => 'Paid.',
});

let restore: () => void;
beforeAll(() => {
  restore = replaceToolRegistry([whoami, saveNote, pay]);
});
afterAll(() => restore());
afterEach(() => vi.restoreAllMocks());

async function auditRows(userId: string) {
  return db().select().from(mcpAudit).where(eq(mcpAudit.user_id, userId)).orderBy(desc(mcpAudit.created_at));
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content?: Array<{ type: string; text?: string }> };

describe('the registry', () => {
  it('is the 21 tools, each with the prefix, a scope, schemas and annotations', () => {
    restore();
    try {
      const names = toolRegistry().map((t) => t.name);
      expect(names).toEqual(ALL_TOOLS.map((t) => t.name));
      expect(names).toHaveLength(21);
      expect(toolRegistry().filter((t) => t.scope === 'read')).toHaveLength(10);
      expect(toolRegistry().filter((t) => t.scope === 'write')).toHaveLength(9);
      expect(
        toolRegistry()
          .filter((t) => t.scope === 'payment')
          .map((t) => t.name),
      ).toEqual(['confirm_payment_for_shift', 'approve_timesheet']);
    } finally {
      restore = replaceToolRegistry([whoami, saveNote, pay]);
    }
  });
});

describe('clients of both served revisions', () => {
  let u: TestUser;
  let token: string;
  beforeAll(async () => {
    u = await makeUser({ shifter: true });
    token = (await oauthTokens(u.email)).accessToken;
  });

  it('a 2026-07-28 client (SDK v2, stateless) lists the tools with schemas and annotations and calls one', async () => {
    const client = await connectModern(token);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['shiftmarket.test_pay', 'shiftmarket.test_save_note', 'shiftmarket.test_whoami']);
    const note = tools.find((t) => t.name === 'shiftmarket.test_save_note')!;
    expect(note.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, title: 'Save a note' });
    expect(Object.keys(note.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['note', 'confirm']));
    expect(note.outputSchema?.properties).toHaveProperty('saved');
    const who = tools.find((t) => t.name === 'shiftmarket.test_whoami')!;
    expect(who.inputSchema.properties).not.toHaveProperty('confirm');

    const res = (await client.callTool({ name: 'shiftmarket.test_whoami', arguments: { echo: 'hi' } })) as ToolResult;
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual({ user_id: u.userId, actor: 'agent', echo: 'hi' });
    expect(res.content?.[0]?.text).toBe(`You are ${u.userId} (agent).`);
    await client.close();
  });

  it('a 2025-11-25 client (SDK 1.x) initializes, lists the tools and calls one', async () => {
    const client = await connectLegacy(token);
    expect(client.getServerVersion()?.name).toBe('shiftmarket');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(3);
    const res = (await client.callTool({ name: 'shiftmarket.test_whoami', arguments: {} })) as ToolResult;
    expect(res.structuredContent).toEqual({ user_id: u.userId, actor: 'agent', echo: null });
    await client.close();
  });

  it('a personal API key works on the endpoint with all three scopes, acting as the user', async () => {
    const client = await connectLegacy(u.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('shiftmarket.test_pay');
    const res = (await client.callTool({ name: 'shiftmarket.test_whoami', arguments: {} })) as ToolResult;
    expect(res.structuredContent).toMatchObject({ user_id: u.userId, actor: 'user' });
    await client.close();
    const [row] = await auditRows(u.userId);
    expect(row!.token_id).toBe(u.keyId);
  });
});

describe('scopes', () => {
  it('a token without payment neither lists nor runs the payment tool: 403 insufficient_scope naming it', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email, { tick: ['read', 'write'] });
    const client = await connectModern(s.accessToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['shiftmarket.test_save_note', 'shiftmarket.test_whoami']);
    await client.close();

    const res = await rawMcp(
      s.accessToken,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'shiftmarket.test_pay', arguments: { amount: 1 } } },
      {
        'MCP-Protocol-Version': '2025-11-25',
      },
    );
    expect(res.status).toBe(403);
    const challenge = res.headers.get('WWW-Authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toMatch(/scope="[^"]*\bpayment\b[^"]*"/);
    expect(challenge).toContain('resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/v1/mcp/"');
    const [row] = await auditRows(u.userId);
    expect(row).toMatchObject({ tool_name: 'shiftmarket.test_pay', status: 'denied' });
    expect(JSON.parse(row!.arguments)).toEqual({ amount: 1 });
  });

  it('a read-only token cannot run a write tool; an unknown tool name is the protocol’s unknown-tool answer', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email, { tick: ['read'] });
    const before = notesSaved;
    const write = await rawMcp(s.accessToken, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'shiftmarket.test_save_note', arguments: { note: 'x', confirm: true } },
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('WWW-Authenticate')).toMatch(/scope="read write"/);
    expect(notesSaved).toBe(before);
    expect((await auditRows(u.userId))[0]).toMatchObject({ status: 'denied' });

    const client = await connectLegacy(s.accessToken);
    const unknown = (await client
      .callTool({ name: 'shiftmarket.nope', arguments: {} })
      .catch((e: Error) => ({ isError: true, thrown: e.message }))) as ToolResult & { thrown?: string };
    expect(unknown.isError).toBe(true);
    await client.close();
  });

  it('refuses a grant whose props act as an agent', async () => {
    const d = db();
    const u = await makeUser();
    const res = await resolveCaller(
      d,
      { kind: 'oauth', user_id: u.userId, scopes: ['read'], acting_as: 'agent' as 'human' },
      { token: 't', audience: 'https://mcp.test/v1/mcp/', scope: ['read'] },
      env,
      getSettings(env),
    );
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.response.status).toBe(403);
  });
});

describe('URL-mode elicitation', () => {
  it('a 2026-07-28 client that declared it is asked to open the link; the tool runs once and its result comes on the retry', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const opened: string[] = [];
    const client = await connectModern(token, {
      openUrl: (url) => {
        opened.push(url);
        return 'accept';
      },
    });
    const before = payRuns;
    const res = (await client.callTool({ name: 'shiftmarket.test_pay', arguments: { amount: 5 } })) as ToolResult;
    expect(opened).toEqual(['https://mcp.test/mcp-confirm/test-token']);
    expect(res.structuredContent).toEqual({ ok: true, offered: true, runs: before + 1 });
    expect(payRuns).toBe(before + 1);
    await client.close();
  });

  it('other clients are told it is not supported (the link goes in the result)', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const modern = await connectModern(token);
    expect(
      ((await modern.callTool({ name: 'shiftmarket.test_pay', arguments: { amount: 5 } })) as ToolResult).structuredContent?.offered,
    ).toBe(false);
    await modern.close();
    const legacy = await connectLegacy(token);
    expect(
      ((await legacy.callTool({ name: 'shiftmarket.test_pay', arguments: { amount: 5 } })) as ToolResult).structuredContent?.offered,
    ).toBe(false);
    await legacy.close();
  });

  it('a stored result is released once, only to the person and tool it was stored for', async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const id = `mrq_${'B'.repeat(32)}`;
    const stored = { user_id: owner.userId, actor: 'stored', echo: 'from storage' };
    await env.OAUTH_KV.put(`mcp-input:${id}`, JSON.stringify({ userId: owner.userId, tool: 'shiftmarket.test_whoami', output: stored }));
    const callWith = async (key: string, name = 'shiftmarket.test_whoami', args: Record<string, unknown> = {}) => {
      const res = await rawMcp(
        key,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args, requestState: id } },
        {
          'MCP-Protocol-Version': '2025-11-25',
        },
      );
      return res.text();
    };
    expect(await callWith(other.key)).not.toContain('from storage');
    const paid = await callWith(owner.key, 'shiftmarket.test_pay', { amount: 1 });
    expect(paid).toContain('"offered":false');
    expect(paid).not.toContain('from storage');
    expect(await callWith(owner.key)).toContain('from storage');
    expect(await callWith(owner.key)).not.toContain('from storage');
  });
});

describe('request bodies', () => {
  it('refuses a body over the limit, declared or streamed, before any tool runs', async () => {
    const u = await makeUser();
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'shiftmarket.test_whoami', arguments: { echo: 'x'.repeat(70_000) } },
    });
    const declared = await rawMcp(u.key, JSON.parse(big));
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await workerFetch(MCP_URL, {
      method: 'POST',
      headers: { Authorization: `Bearer ${u.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await auditRows(u.userId)).toHaveLength(0);
  });
});

describe('browser origins', () => {
  it('refuses a request carrying a foreign Origin (DNS rebinding), accepts one from localhost', async () => {
    const u = await makeUser();
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
    };
    expect((await rawMcp(u.key, init, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawMcp(u.key, init, { Origin: 'http://localhost:6274' })).status).toBe(200);
  });
});

describe('errors', () => {
  it('a service refusal becomes a tool error carrying its code', async () => {
    const u = await makeUser();
    await setConfirmWrites(db(), u.userId, false, Date.now());
    const client = await connectLegacy(u.key);
    const res = (await client.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'fail' } })) as ToolResult;
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toBeUndefined();
    expect(toolErrorOf(res)).toEqual({ code: 'SHFT-STATE-ERR', message: 'The shift request is not in a state that allows this.' });
    expect(res.content?.[0]?.text).toBe('SHFT-STATE-ERR: The shift request is not in a state that allows this.');
    await client.close();
    expect((await auditRows(u.userId))[0]).toMatchObject({ status: 'SHFT-STATE-ERR' });
  });

  it('clients of both eras that listed the tools read a tool error, its details and the confirmation hint without throwing', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const before = notesSaved;
    for (const client of [await connectLegacy(token), await connectModern(token)]) {
      // Listing makes each SDK check the answers against the listed output schemas (the 1.x SDK also
      // checks an error's structuredContent, so an error must not carry one).
      expect((await client.listTools()).tools.find((t) => t.name === 'shiftmarket.test_save_note')?.outputSchema).toBeDefined();
      const ask = (await client.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'listed' } })) as ToolResult;
      expect(ask.isError).toBe(true);
      expect(ask.structuredContent).toBeUndefined();
      const asked = toolErrorOf(ask);
      expect(asked?.code).toBe('MCP-CONFIRM-REQ-ERR');
      expect(asked?.details).toEqual({ summary: 'Save the note "listed".' });
      expect(asked?.message).toContain('call the tool again with the same arguments and confirm: true');
      expect(ask.content?.[0]?.text).toBe(`MCP-CONFIRM-REQ-ERR: ${asked?.message}`);

      const refused = (await client.callTool({
        name: 'shiftmarket.test_save_note',
        arguments: { note: 'fail', confirm: true },
      })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toBeUndefined();
      expect(toolErrorOf(refused)).toEqual({ code: 'SHFT-STATE-ERR', message: 'The shift request is not in a state that allows this.' });

      const invalid = (await client.callTool({ name: 'shiftmarket.test_whoami', arguments: { echo: 42 } })) as ToolResult;
      expect(toolErrorOf(invalid)?.code).toBe('VALIDATION-ERR');
      expect(toolErrorOf(invalid)?.details?.issues?.[0]?.field).toBe('echo');

      const ran = (await client.callTool({
        name: 'shiftmarket.test_save_note',
        arguments: { note: 'listed', confirm: true },
      })) as ToolResult;
      expect(ran.isError).toBeFalsy();
      expect(ran.structuredContent?.saved).toBe('listed');
      await client.close();
    }
    expect(notesSaved).toBe(before + 2);
  });
});

describe('write confirmation', () => {
  it('on by default: the first call answers the summary and runs nothing; confirm: true runs it', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const client = await connectLegacy(token);
    const before = notesSaved;
    const first = (await client.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'hello' } })) as ToolResult;
    expect(first.isError).toBe(true);
    expect(toolErrorOf(first)?.code).toBe('MCP-CONFIRM-REQ-ERR');
    expect(toolErrorOf(first)?.details?.summary).toBe('Save the note "hello".');
    expect(notesSaved).toBe(before);

    const second = (await client.callTool({
      name: 'shiftmarket.test_save_note',
      arguments: { note: 'hello', confirm: true },
    })) as ToolResult;
    expect(second.isError).toBeFalsy();
    expect(second.structuredContent).toEqual({ saved: 'hello', runs: before + 1 });
    await client.close();
    const rows = await auditRows(u.userId);
    expect(rows.map((r) => r.status).sort()).toEqual(['MCP-CONFIRM-REQ-ERR', 'ok']);
  });

  it('asks through a form when a 2026-07-28 client declared form elicitation: accept runs, decline does not', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const asked: string[] = [];
    const yes = await connectModern(token, {
      elicit: (message) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const before = notesSaved;
    const ran = (await yes.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'via form' } })) as ToolResult;
    expect(asked).toEqual(['Save the note "via form".']);
    expect(ran.structuredContent).toEqual({ saved: 'via form', runs: before + 1 });
    await yes.close();

    const no = await connectModern(token, { elicit: () => ({ action: 'decline' }) });
    const refused = (await no.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'declined' } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(toolErrorOf(refused)?.code).toBe('MCP-CONFIRM-DECLINED-ERR');
    expect(notesSaved).toBe(before + 1);
    await no.close();
    expect((await auditRows(u.userId)).map((r) => r.status)).toContain('denied');
  });

  it('switched off by the person: the write runs on the first call', async () => {
    const u = await makeUser();
    await setConfirmWrites(db(), u.userId, false, Date.now());
    const client = await connectModern((await oauthTokens(u.email)).accessToken);
    const res = (await client.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'direct' } })) as ToolResult;
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent?.saved).toBe('direct');
    await client.close();
  });
});

describe('audit', () => {
  it('writes a row per call with the token id, tool, redacted arguments, status and latency', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const client = await connectLegacy(token);
    await client.callTool({
      name: 'shiftmarket.test_save_note',
      arguments: { note: 'audited', password: 'hunter2-secret', nested: { card_number: '4242424242424242', label: 'kept' }, confirm: true },
    });
    await client.callTool({ name: 'shiftmarket.test_whoami', arguments: {} });
    await client.close();
    const rows = await auditRows(u.userId);
    expect(rows).toHaveLength(2);
    const note = rows.find((r) => r.tool_name === 'shiftmarket.test_save_note')!;
    expect(note.status).toBe('ok');
    expect(note.token_id).toBe(await sha256Hex(token));
    expect(note.id).toMatch(/^mca_/);
    expect(note.latency_ms).toBeGreaterThanOrEqual(0);
    const args = JSON.parse(note.arguments);
    expect(args).toEqual({ note: 'audited', password: REDACTED, nested: { card_number: REDACTED, label: 'kept' }, confirm: true });
    expect(note.arguments).not.toContain('hunter2');
    expect(note.arguments).not.toContain('4242');
  });

  it('a call refused by input validation answers VALIDATION-ERR and writes its audit row, on both revisions', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const before = notesSaved;
    const tooLong = 'x'.repeat(101);
    for (const client of [await connectLegacy(token), await connectModern(token)]) {
      const res = (await client.callTool({
        name: 'shiftmarket.test_save_note',
        arguments: { note: tooLong, password: 'hunter2-secret', confirm: true },
      })) as ToolResult;
      expect(res.isError).toBe(true);
      expect(toolErrorOf(res)?.code).toBe('VALIDATION-ERR');
      expect(toolErrorOf(res)?.details?.issues?.[0]?.field).toBe('note');
      expect(res.content?.[0]?.text).toMatch(/^VALIDATION-ERR: note: /);
      const wrongType = (await client.callTool({ name: 'shiftmarket.test_whoami', arguments: { echo: 42 } })) as ToolResult;
      expect(toolErrorOf(wrongType)?.code).toBe('VALIDATION-ERR');
      await client.close();
    }
    expect(notesSaved).toBe(before);
    const rows = await auditRows(u.userId);
    expect(rows.map((r) => `${r.tool_name} ${r.status}`).sort()).toEqual([
      'shiftmarket.test_save_note VALIDATION-ERR',
      'shiftmarket.test_save_note VALIDATION-ERR',
      'shiftmarket.test_whoami VALIDATION-ERR',
      'shiftmarket.test_whoami VALIDATION-ERR',
    ]);
    const note = rows.find((r) => r.tool_name === 'shiftmarket.test_save_note')!;
    expect(JSON.parse(note.arguments)).toEqual({ note: tooLong, password: REDACTED, confirm: true });
  });

  it('redacts by key name, case-insensitive and nested in arrays', () => {
    expect(
      redactArguments({
        Password: 'a',
        apiKey: 'b',
        client_secret: 'c',
        CVC: 'd',
        items: [{ token: 'e', name: 'f' }],
        verification_code: 'g',
        shift_id: 'sr_1',
      }),
    ).toEqual({
      Password: REDACTED,
      apiKey: REDACTED,
      client_secret: REDACTED,
      CVC: REDACTED,
      items: [{ token: REDACTED, name: 'f' }],
      verification_code: REDACTED,
      shift_id: 'sr_1',
    });
  });

  it('redacts sessions, refresh values, social security numbers and any key containing token, secret, password or key', () => {
    const secrets = {
      session_id: 'a',
      sessionId: 'b',
      refresh: 'c',
      ssn: 'd',
      userSSN: 'e',
      ssn_last4: 'f',
      access_token_hint: 'g',
      tokens: ['h'],
      my_secret_value: 'i',
      newPassword: 'j',
      idempotency_key: 'k',
      keys: 'l',
      signing_key_id: 'm',
    };
    const kept = { shift_request_id: 'sr_1', classname: 'n', note: 'o', lesson: 'p', business_id: 'biz_1' };
    const out = redactArguments({ ...secrets, ...kept, nested: [{ ...secrets }] }) as Record<string, unknown>;
    for (const k of Object.keys(secrets)) expect(out[k], k).toBe(REDACTED);
    expect(out).toMatchObject(kept);
    expect(JSON.stringify(out)).not.toMatch(/"[a-m]"/);
  });

  it('a failed audit write never fails the call', async () => {
    const u = await makeUser();
    const token = (await oauthTokens(u.email)).accessToken;
    const client = await connectLegacy(token);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = failNextBatch({ writes: 'mcp_audit' });
    const res = (await client.callTool({ name: 'shiftmarket.test_whoami', arguments: { echo: 'still works' } })) as ToolResult;
    expect(failed.fired()).toBe(true);
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent?.echo).toBe('still works');
    expect(await auditRows(u.userId)).toHaveLength(0);
    await client.close();
    log.mockRestore();
  });
});

describe("the person's switch for write confirmations", () => {
  it('GET/PUT /v1/user/agent_settings read and change it, for the caller only', async () => {
    const u = await makeUser();
    const first = await call('GET', '/v1/user/agent_settings', { key: u.key });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ confirm_writes: true });
    const off = await call('PUT', '/v1/user/agent_settings', { key: u.key, body: { confirm_writes: false } });
    expect(off.body).toEqual({ confirm_writes: false });
    expect((await call('GET', '/v1/user/agent_settings', { key: u.key })).body).toEqual({ confirm_writes: false });
    const other = await makeUser();
    expect((await call('GET', '/v1/user/agent_settings', { key: other.key })).body).toEqual({ confirm_writes: true });
    expect((await call('PUT', '/v1/user/agent_settings', { key: u.key, body: { confirm_writes: 'no' } })).status).toBe(400);
    expect((await call('GET', '/v1/user/agent_settings')).status).toBe(401);
  });

  it('the account page toggles it (a CSRF-checked form), and the tools follow it', async () => {
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const page = await web.get('/account/agents');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/id="confirm-writes"[^>]*checked/);
    const forged = await web.post('/account/agents', { _csrf: 'y'.repeat(43) });
    expect(forged.status).toBe(403);
    const saved = await web.post('/account/agents', {});
    expect(saved.status).toBe(303);
    expect((await web.get('/account/agents')).html).not.toMatch(/id="confirm-writes"[^>]*checked/);

    const client = await connectLegacy(u.key);
    const res = (await client.callTool({ name: 'shiftmarket.test_save_note', arguments: { note: 'no questions' } })) as ToolResult;
    expect(res.structuredContent?.saved).toBe('no questions');
    await client.close();
    expect(MCP_ORIGIN).toBe('https://mcp.test');
  });
});
