import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readToolError } from '@shiftmarket/tool-specs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalWorker, startWorker } from './worker';

/*
 * The whole tool server as a desktop client runs it: the bundled script (dist/shiftmarket-mcp.mjs,
 * built here) started by an MCP SDK client over stdio, against a real Worker (`wrangler dev`).
 */
const PKG = join(import.meta.dirname, '..');
const BUNDLE = join(PKG, 'dist', 'shiftmarket-mcp.mjs');
const PASSPHRASE = 'correct horse battery staple for the stdio tests';

const EXPECTED_TOOLS = [
  // the 21 remote equivalents
  'me',
  'list_my_shifts',
  'shift_details',
  'search_shifts',
  'business_profile',
  'shifter_profile',
  'list_connections',
  'my_earnings',
  'my_spend',
  'list_timesheets',
  'post_shift',
  'claim_shift',
  'clock_in',
  'clock_out',
  'cancel_shift',
  'update_my_profile',
  'create_counter_offer',
  'edit_timesheet',
  'dispute_timesheet',
  'confirm_payment_for_shift',
  'approve_timesheet',
  // the 15 local ones
  'register_business',
  'register_shifter',
  'verify_email',
  'add_account_by_key',
  'list_accounts',
  'switch_account',
  'remove_account',
  'whoami',
  'request_connection',
  'answer_connection',
  'record_passport',
  'show_passport',
  'record_deliverable',
  'list_deliverables',
  'bulk_post_shifts',
];

let worker: LocalWorker;
let home: string;

beforeAll(async () => {
  const built = spawnSync(process.execPath, [join(PKG, 'build.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stdout}${built.stderr}`);
  worker = await startWorker();
  home = mkdtempSync(join(tmpdir(), 'shiftmarket-mcp-home-'));
});

afterAll(async () => {
  await worker?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: tool answers are read field by field in the assertions
type Loose = any;

interface Result {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, Loose>;
}

/** How a desktop client starts the bundle (the command, its arguments and environment). */
function serverProcess(extraEnv: Record<string, string>) {
  return {
    command: process.execPath,
    args: [BUNDLE],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      SHIFTMARKET_BASE_URL: worker.origin,
      SHIFTMARKET_MCP_SESSIONS: join(home, 'sessions.enc'),
      SHIFTMARKET_MCP_PASSPHRASE: PASSPHRASE,
      SHIFTMARKET_MCP_KEYCHAIN: 'off',
      ...extraEnv,
    },
    stderr: 'pipe' as const,
  };
}

function callers(callTool: (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>) {
  const call = async (name: string, args: Record<string, unknown> = {}) => (await callTool({ name, arguments: args })) as Result;
  const must = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await call(name, args);
    if (r.isError) throw new Error(`${name} failed: ${r.content.map((c) => c.text).join(' ')}`);
    return r;
  };
  return { call, must };
}

/** An MCP SDK 2.x client. */
async function connect(extraEnv: Record<string, string> = {}) {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport(serverProcess(extraEnv)));
  return { client, ...callers((p) => client.callTool(p)) };
}

/** An MCP SDK 1.x client (protocol 2025-11-25), as 2025-era desktop clients and the MCP Inspector are. */
async function connectLegacy(extraEnv: Record<string, string> = {}) {
  const client = new LegacyClient({ name: 'stdio-legacy-test', version: '1.0.0' });
  await client.connect(new LegacyStdioTransport(serverProcess(extraEnv)));
  return { client, ...callers((p) => client.callTool(p)) };
}

/** A tool error as a client reads it: the JSON text block (an error carries no structuredContent). */
const errorOf = (r: Result) => readToolError(r) as { code: string; message: string; details?: Loose } | null;

const text = (r: Result) => r.content.map((c) => c.text ?? '').join('\n');
const stamp = Date.now().toString(36);

/** A date `days` ahead in New York (the businesses' zone), YYYY-MM-DD. */
function dateAhead(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(Date.now() + days * 86_400_000));
}

describe('shiftmarket-mcp over stdio', () => {
  it('starts without a key, lists 36 tools, registers and verifies two accounts, switches, posts and claims, records a passport and a deliverable with a local file, bulk-posts with one failing row and its progress; every answer matches its listed output schema; the session file holds no readable key', async () => {
    const { client, call, must } = await connect();

    // 36 tools, each with a description and an input schema. Listing them first makes the client check
    // every later answer against its tool's listed output schema (a mismatch throws).
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...EXPECTED_TOOLS].sort());
    expect(tools).toHaveLength(36);
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(20);
      expect(t.inputSchema.type).toBe('object');
    }

    // No account yet: a tool that needs one says how to add one.
    const none = await call('claim_shift', { shift_request_id: 'sr_x' });
    expect(none.isError).toBe(true);
    expect(text(none)).toMatch(/register_business or register_shifter.*verify_email.*add_account_by_key/s);
    expect((await must('list_accounts')).structuredContent!.accounts).toEqual([]);

    // Register and verify a business account, then a shifter account (codes from the local mailbox).
    const bizEmail = `owner-${stamp}@example.test`;
    const shEmail = `worker-${stamp}@example.test`;
    await must('register_business', {
      email: bizEmail,
      password: 'owner password 123',
      display_name: 'Stdio Owner',
      business_name: 'Stdio Bakery',
      timezone: 'America/New_York',
    });
    const biz = (await must('verify_email', { email: bizEmail, code: await worker.codeFor(bizEmail) })).structuredContent!.account;
    expect(biz).toMatchObject({ email: bizEmail, active: true });
    expect(biz.business_ids).toHaveLength(1);
    await must('register_shifter', {
      email: shEmail,
      password: 'worker password 123',
      display_name: 'Stdio Worker',
      timezone: 'America/New_York',
    });
    // A wrong code is the server's refusal, shown as it is.
    const wrong = await call('verify_email', { email: shEmail, code: '000000' });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toBeUndefined();
    expect(errorOf(wrong)?.code).toBe('VERIFY-CODE-ERR');
    const sh = (await must('verify_email', { email: shEmail, code: await worker.codeFor(shEmail) })).structuredContent!.account;
    expect(sh.shifter_id).toMatch(/^shf_/);

    const listed = (await must('list_accounts')).structuredContent!;
    expect(listed.accounts.map((a: { email: string }) => a.email).sort()).toEqual([bizEmail, shEmail].sort());
    expect(listed.active_user_id).toBe(sh.user_id);
    // Only the key's public prefix is ever shown.
    for (const a of listed.accounts) expect(a.key_prefix).toMatch(/^smk_.{8}…$/);
    expect(JSON.stringify(listed)).not.toMatch(/smk_[0-9A-Za-z]{20,}/);

    // Switch to the business: connect with the shifter, who accepts.
    expect((await must('switch_account', { account: bizEmail })).structuredContent!.account.user_id).toBe(biz.user_id);
    expect((await must('whoami')).structuredContent!.account.email).toBe(bizEmail);
    const businessId = biz.business_ids[0];
    const conn = (await must('request_connection', { business_id: businessId, shifter_id: sh.shifter_id })).structuredContent!.connection;
    await must('switch_account', { account: sh.user_id });
    await must('answer_connection', { connection_id: conn.id, accept: true });

    // The business posts a broadcast; the shifter claims it.
    await must('switch_account', { account: bizEmail });
    const posted = (
      await must('post_shift', {
        business_id: businessId,
        shift_date: dateAhead(3),
        shift_in: '09:00',
        shift_out: '13:00',
        shiftrole_id: 1,
        hourly_rate: 21.5,
        is_broadcast: true,
      })
    ).structuredContent!.shift_request;
    expect(posted).toMatchObject({ request_status: 1, is_broadcast: 1 });
    await must('switch_account', { account: shEmail });
    const claimed = (await must('claim_shift', { shift_request_id: posted.id })).structuredContent!.shift_request;
    expect(claimed).toMatchObject({ id: posted.id, request_status: 2, shifter_id: sh.shifter_id });
    expect((await must('shift_details', { shift_request_id: posted.id })).structuredContent!.shift_request.id).toBe(posted.id);
    const mine = (await must('list_my_shifts', { role: 'shifter' })).structuredContent!;
    expect(mine.data.map((s: { id: string }) => s.id)).toContain(posted.id);

    // The agent tools without a one-to-one REST operation run on the service's tool server with the key.
    const me = (await must('me')).structuredContent!;
    expect(me.user.email).toBe(shEmail);
    expect(me.role).toBe('shifter');
    expect(me.shifter.id).toBe(sh.shifter_id);
    const counterparties = JSON.stringify((await must('list_connections')).structuredContent);
    expect(counterparties).toContain(businessId);
    // A write there asks for confirmation first, and changes nothing until confirm: true.
    const ask = await call('update_my_profile', { display_name: 'Stdio Worker Renamed' });
    expect(text(ask)).toMatch(/confirm/i);
    expect((await must('me')).structuredContent!.user.display_name).toBe('Stdio Worker');
    const renamed = (await must('update_my_profile', { display_name: 'Stdio Worker Renamed', confirm: true })).structuredContent!;
    expect(renamed.user.display_name).toBe('Stdio Worker Renamed');
    expect(renamed.updated_fields).toEqual(['display_name']);

    // A passport on the shifter's account.
    const passport = (await must('record_passport', { agent_name: 'Stdio Test Agent', model: 'test-model-1', operator: 'Stdio Worker' }))
      .structuredContent!.passport;
    expect(passport).toMatchObject({ status: 'active', user_id: sh.user_id });
    const shown = (await must('show_passport')).structuredContent!.passports;
    expect(shown.map((p: { id: string }) => p.id)).toEqual([passport.id]);

    // The shifter may not record before the shift is worked (the server's message comes through); the business may.
    const early = await call('record_deliverable', { shift_request_id: posted.id, note: 'too early' });
    expect(early.isError).toBe(true);
    expect(errorOf(early)?.code).toBe('SHFT-STATE-ERR');
    expect(text(early)).toContain('once the shift is worked');
    // Local files go with it: one is attached, a missing one and one the service refuses (415) are each answered on their own.
    await must('switch_account', { account: bizEmail });
    const brief = join(home, 'brief.pdf');
    writeFileSync(brief, '%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const binary = join(home, 'tool.exe');
    writeFileSync(binary, Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0]));
    const missing = join(home, 'no-such-file.pdf');
    const recorded = await must('record_deliverable', {
      shift_request_id: posted.id,
      note: 'Brief for the shift',
      links: [{ url: 'https://files.example.com/brief.pdf', label: 'Brief' }],
      files: [brief, missing, binary],
    });
    const dlv = recorded.structuredContent!.deliverable;
    expect(dlv).toMatchObject({ author_side: 'business', note: 'Brief for the shift' });
    expect(dlv.files).toHaveLength(1);
    expect(dlv.files[0]).toMatchObject({ name: 'brief.pdf', type: 'application/pdf' });
    const perFile = recorded.structuredContent!.files;
    expect(perFile.map((f: { path: string; ok: boolean }) => [f.path, f.ok])).toEqual([
      [brief, true],
      [missing, false],
      [binary, false],
    ]);
    expect(perFile[1].error.message).toContain('no such file');
    expect(perFile[2].error.code).toBe('UNSUPPORTED-MEDIA-ERR');
    expect(text(recorded)).toContain('not accepted for a deliverable');
    await must('switch_account', { account: shEmail });
    const dlvList = await must('list_deliverables', { shift_request_id: posted.id });
    const seen = dlvList.structuredContent!.deliverables;
    expect(seen.map((d: { id: string }) => d.id)).toEqual([dlv.id]);
    expect(seen[0].files.map((f: { id: string }) => f.id)).toEqual([dlv.files[0].id]);
    expect(text(dlvList)).toContain('brief.pdf');

    // Bulk posting as the business: six rows, the fourth refused by the server.
    await must('switch_account', { account: bizEmail });
    const row = (i: number) => ({
      business_id: businessId,
      shift_date: dateAhead(5 + i),
      shift_in: '10:00',
      shift_out: '14:00',
      shiftrole_id: 1,
      hourly_rate: 20,
      is_broadcast: true,
    });
    const rows = [0, 1, 2, 3, 4, 5].map(row);
    rows[3] = { ...rows[3]!, business_id: 'biz_notyoursnotanyones000' };
    const progress: Array<{ progress: number; total?: number }> = [];
    const bulkAnswer = (await client.callTool(
      { name: 'bulk_post_shifts', arguments: { rows } },
      { onprogress: (p) => void progress.push(p) },
    )) as unknown as Result;
    expect(bulkAnswer.isError).toBeFalsy();
    const bulk = bulkAnswer.structuredContent!;
    // notifications/progress: rows done of the total, one per row as it finishes, all sent before the
    // answer. The client SDK hands a notification to its handler a microtask later but ends the
    // request's progress handler at once when the answer comes in the same read, so on a busy machine
    // the last one can be dropped on the client's side: every one seen is in order, and at most the
    // last is missing.
    const reported = progress.map((p) => [p.progress, p.total]);
    expect(reported.length).toBeGreaterThanOrEqual(rows.length - 1);
    expect(reported).toEqual(rows.slice(0, reported.length).map((_, i) => [i + 1, rows.length]));
    expect(bulk).toMatchObject({ posted: 5, failed: 1 });
    const failedRow = bulk.results.find((r: { ok: boolean }) => !r.ok);
    expect(failedRow.row).toBe(4);
    expect(failedRow.error.code).toMatch(/-ERR$/);
    expect(failedRow.error.message.length).toBeGreaterThan(5);
    expect(
      bulk.results.filter((r: { ok: boolean }) => r.ok).every((r: { shift_request_id: string }) => /^sr_/.test(r.shift_request_id)),
    ).toBe(true);

    await client.close();

    // The session file: mode 0600, no key, no email, nothing readable.
    const file = join(home, 'sessions.enc');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toMatch(/smk_/);
    expect(raw).not.toContain(bizEmail);
    expect(raw).not.toContain('usr_');
    expect(Object.keys(JSON.parse(raw)).sort()).toEqual(['data', 'iv', 'salt', 'source', 'tag', 'v']);

    // A restart with the passphrase finds both accounts; with a wrong passphrase the tools say so (test/start.test.ts).
    const again = await connect();
    const back = (await again.must('list_accounts')).structuredContent!;
    expect(back.accounts).toHaveLength(2);
    expect(back.active_user_id).toBe(biz.user_id);
    await again.must('remove_account', { account: shEmail });
    expect((await again.must('list_accounts')).structuredContent!.accounts.map((a: { email: string }) => a.email)).toEqual([bizEmail]);
    await again.client.close();
    const wrongKey = await connect({ SHIFTMARKET_MCP_PASSPHRASE: 'not the passphrase' });
    expect(errorOf(await wrongKey.call('list_accounts'))?.code).toBe('SESSION-FILE-ERR');
    await wrongKey.client.close();
  });

  it('clients of both SDK eras that listed the tools read the service’s refusal and its confirmation hint as tool errors, without throwing', async () => {
    // Accounts of their own, in a session file of their own: a business with a broadcast, and a shifter
    // who is no party of it.
    const sessions = { SHIFTMARKET_MCP_SESSIONS: join(home, 'eras.enc') };
    const setup = await connectLegacy(sessions);
    await setup.client.listTools();
    const bizEmail = `eras-owner-${stamp}@example.test`;
    const shEmail = `eras-worker-${stamp}@example.test`;
    await setup.must('register_business', {
      email: bizEmail,
      password: 'owner password 123',
      display_name: 'Eras Owner',
      business_name: 'Eras Bakery',
      timezone: 'America/New_York',
    });
    const biz = (await setup.must('verify_email', { email: bizEmail, code: await worker.codeFor(bizEmail) })).structuredContent!.account;
    const posted = (
      await setup.must('post_shift', {
        business_id: biz.business_ids[0],
        shift_date: dateAhead(4),
        shift_in: '09:00',
        shift_out: '13:00',
        shiftrole_id: 1,
        hourly_rate: 21.5,
        is_broadcast: true,
      })
    ).structuredContent!.shift_request;
    await setup.must('register_shifter', {
      email: shEmail,
      password: 'worker password 123',
      display_name: 'Eras Worker',
      timezone: 'America/New_York',
    });
    await setup.must('verify_email', { email: shEmail, code: await worker.codeFor(shEmail) });
    await setup.client.close();

    for (const [era, open] of [
      ['SDK 1.x (2025-11-25)', connectLegacy],
      ['SDK 2.x', connect],
    ] as const) {
      const { client, call } = await open(sessions);
      // Listed first: each SDK then checks every answer against the tool's listed output schema, and
      // the 1.x SDK does so for an error's structuredContent too (a mismatch throws).
      expect((await client.listTools()).tools, era).toHaveLength(36);
      expect((await call('whoami')).structuredContent!.account.email, era).toBe(shEmail);

      // Refused by the service's REST API (the shifter is no party of the business's broadcast).
      const refused = await call('shift_details', { shift_request_id: posted.id });
      expect(refused.isError, era).toBe(true);
      expect(refused.structuredContent, era).toBeUndefined();
      expect(errorOf(refused)?.code, era).toBe('SHFT-NOT-FND-ERR');
      expect(refused.content[0]!.text, era).toMatch(/^SHFT-NOT-FND-ERR: /);

      // Asked to confirm by the service's tool server, passed on as it came.
      const ask = await call('update_my_profile', { display_name: 'Eras Worker Renamed' });
      expect(ask.isError, era).toBe(true);
      expect(ask.structuredContent, era).toBeUndefined();
      const asked = errorOf(ask);
      expect(asked?.code, era).toBe('MCP-CONFIRM-REQ-ERR');
      expect(asked?.details?.summary, era).toEqual(expect.any(String));
      expect(asked?.message, era).toContain('confirm: true');
      expect(text(ask), era).toContain('confirm: true');
      await client.close();
    }
  });
});
