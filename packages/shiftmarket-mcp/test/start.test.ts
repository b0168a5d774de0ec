import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readToolError } from '@shiftmarket/tool-specs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../src/sessions';

/*
 * How the server starts: the first answer never waits for the session key (the keychain lookup and the
 * scrypt derivation run meanwhile), a session file that does not open is answered by every tool and
 * left untouched, and the package runs with npx from its folder and from the tarball `npm pack` makes.
 * No service is needed: only what needs no account is called.
 */
const PKG = join(import.meta.dirname, '..');
const BUNDLE = join(PKG, 'dist', 'shiftmarket-mcp.mjs');
const PASSPHRASE = 'correct horse battery staple for the start tests';

let dir: string;
let tarball: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shiftmarket-mcp-start-'));
  // `npm pack` builds the bundle first (the package's prepack script), so dist/ is fresh for every test here.
  const packed = spawnSync('npm', ['pack', '--pack-destination', dir], { cwd: PKG, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stdout}${packed.stderr}`);
  tarball = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: tool answers are read field by field in the assertions
type Loose = any;

async function start(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env.PATH ?? '', HOME: dir, SHIFTMARKET_BASE_URL: 'http://127.0.0.1:9', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'start-test', version: '1.0.0' });
  const t0 = performance.now();
  await client.connect(transport);
  const firstAnswerMs = Math.round(performance.now() - t0);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as unknown as Loose;
  return { client, call, firstAnswerMs, t0 };
}

describe('starting the stdio server', () => {
  it('answers initialize and lists the tools while the key is still on its way; a tool call then waits for it', async () => {
    // A stand-in secret-tool whose lookup holds until the test lets it go (a keychain asking the user).
    const bin = join(dir, 'slow-keychain');
    mkdirSync(bin, { recursive: true });
    const release = join(dir, 'release');
    const started = join(dir, 'lookup-started');
    writeFileSync(
      join(bin, 'secret-tool'),
      `#!/bin/sh\ncase "$1" in\n  lookup) touch "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done; [ -f "${dir}/vault" ] && cat "${dir}/vault" || exit 1 ;;\n  store) cat > "${dir}/vault" ;;\n  *) exit 2 ;;\nesac\n`,
    );
    chmodSync(join(bin, 'secret-tool'), 0o755);
    const { client, call, firstAnswerMs } = await start(process.execPath, [BUNDLE], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      SHIFTMARKET_MCP_SESSIONS: join(dir, 'slow.enc'),
    });
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(36);
      if (process.platform !== 'darwin') {
        // Both answers came while the lookup was still held.
        expect(existsSync(started)).toBe(true);
        expect(existsSync(release)).toBe(false);
        const pending = call('whoami');
        writeFileSync(release, '');
        const who = await pending;
        // The stored key was read back: the OS keychain keeps the sessions.
        expect(who.structuredContent.key_from).toBe('OS keychain');
      }
      console.log(`first answer with the keychain lookup held: ${firstAnswerMs} ms`);
    } finally {
      writeFileSync(release, '');
      await client.close();
    }
  });

  it('with a passphrase and a session file: the first answer comes before the scrypt key, the accounts after it', async () => {
    const path = join(dir, 'sealed.enc');
    const store = new SessionStore(path, { kind: 'passphrase', passphrase: PASSPHRASE });
    await store.upsert({
      user_id: 'usr_start1',
      email: 'start@example.test',
      display_name: 'Start',
      base_url: 'http://127.0.0.1:9',
      api_key: `smk_${'Z9y8X7w6V5'.repeat(3)}`,
      shifter_id: null,
      business_ids: [],
      added_at: new Date(0).toISOString(),
    });
    const { client, call, firstAnswerMs, t0 } = await start(process.execPath, [BUNDLE], {
      SHIFTMARKET_MCP_KEYCHAIN: 'off',
      SHIFTMARKET_MCP_PASSPHRASE: PASSPHRASE,
      SHIFTMARKET_MCP_SESSIONS: path,
    });
    try {
      const listed = await call('list_accounts');
      const accountsMs = Math.round(performance.now() - t0);
      expect(listed.structuredContent.accounts.map((a: { email: string }) => a.email)).toEqual(['start@example.test']);
      expect(listed.structuredContent.persistent).toBe(true);
      console.log(`first answer ${firstAnswerMs} ms; accounts (after the scrypt key) ${accountsMs} ms`);
      // A generous bound for a shared machine; idle it is well under a second (docs/agents.md, "Local stdio tool server").
      expect(firstAnswerMs).toBeLessThan(10_000);
    } finally {
      await client.close();
    }
  });

  it('with the wrong passphrase every tool answers SESSION-FILE-ERR and the file is left as it was', async () => {
    const path = join(dir, 'sealed.enc');
    const before = readFileSync(path, 'utf8');
    const { client, call } = await start(process.execPath, [BUNDLE], {
      SHIFTMARKET_MCP_KEYCHAIN: 'off',
      SHIFTMARKET_MCP_PASSPHRASE: 'not the passphrase',
      SHIFTMARKET_MCP_SESSIONS: path,
    });
    try {
      for (const [name, args] of [
        ['list_accounts', {}],
        ['remove_account', { account: 'start@example.test' }],
        ['whoami', {}],
      ] as const) {
        const r = await call(name, args);
        expect(r.isError, name).toBe(true);
        expect(r.structuredContent, name).toBeUndefined();
        expect(readToolError(r)?.code).toBe('SESSION-FILE-ERR');
        expect(r.content[0].text).toContain('wrong passphrase');
      }
    } finally {
      await client.close();
    }
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it.each([
    ['the package folder (a checkout)', () => ['--yes', '--offline', PKG]],
    ['the packed tarball', () => ['--yes', '--offline', `--package=${tarball}`, 'shiftmarket-mcp']],
  ])('runs with npx from %s', async (_, args) => {
    const cache = mkdtempSync(join(dir, 'npm-cache-'));
    const { client, call } = await start('npx', args(), { SHIFTMARKET_MCP_KEYCHAIN: 'off', npm_config_cache: cache });
    try {
      expect(client.getServerVersion()?.name).toBe('shiftmarket-mcp');
      expect((await client.listTools()).tools).toHaveLength(36);
      expect((await call('whoami')).structuredContent.key_from).toBe('memory only');
    } finally {
      await client.close();
    }
  });
});
