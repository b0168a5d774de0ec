import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveKeySource } from '../src/key-source';
import { type Account, SessionFileError, SessionStore } from '../src/sessions';

const dir = mkdtempSync(join(tmpdir(), 'shiftmarket-mcp-sessions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = `smk_${'A1b2C3d4E5'.repeat(4)}`;
const account = (n: number): Account => ({
  user_id: `usr_test${n}`,
  email: `person${n}@example.test`,
  display_name: `Person ${n}`,
  base_url: 'http://127.0.0.1:8787',
  api_key: `${KEY}${n}`,
  shifter_id: null,
  business_ids: [],
  added_at: new Date(0).toISOString(),
});
const passphrase = (p: string) => ({ kind: 'passphrase' as const, passphrase: p });

describe('the session file', () => {
  it('is AES-256-GCM sealed under a scrypt key from the passphrase, mode 0600 in a 0700 folder, with no key or email readable', async () => {
    const path = join(dir, 'nested', 'sessions.enc');
    const store = new SessionStore(path, passphrase('a long test passphrase'));
    await store.upsert(account(1));
    await store.upsert(account(2));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    const raw = readFileSync(path, 'utf8');
    expect(raw).not.toContain('smk_');
    expect(raw).not.toContain('person1@example.test');
    const sealed = JSON.parse(raw);
    expect(sealed).toMatchObject({ v: 1, source: 'passphrase' });
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(Buffer.from(sealed.salt, 'base64')).toHaveLength(16);

    const reopened = new SessionStore(path, passphrase('a long test passphrase'));
    await reopened.load();
    expect(reopened.accounts().map((a) => a.api_key)).toEqual([`${KEY}1`, `${KEY}2`]);
    expect(reopened.active()?.user_id).toBe('usr_test2');
  });

  it('a new IV on every save; the wrong passphrase or a changed byte cannot open it', async () => {
    const path = join(dir, 'tamper.enc');
    const store = new SessionStore(path, passphrase('right passphrase'));
    await store.upsert(account(1));
    const first = JSON.parse(readFileSync(path, 'utf8'));
    await store.switchTo('usr_test1');
    const second = JSON.parse(readFileSync(path, 'utf8'));
    expect(second.iv).not.toBe(first.iv);

    await expect(new SessionStore(path, passphrase('wrong passphrase')).load()).rejects.toBeInstanceOf(SessionFileError);
    const data = Buffer.from(second.data, 'base64');
    data[0] = data[0]! ^ 1;
    writeFileSync(path, JSON.stringify({ ...second, data: data.toString('base64') }));
    await expect(new SessionStore(path, passphrase('right passphrase')).load()).rejects.toBeInstanceOf(SessionFileError);
  });

  it('without a keychain or a passphrase nothing is written: accounts live in memory only', async () => {
    const source = await resolveKeySource({ SHIFTMARKET_MCP_KEYCHAIN: 'off' });
    expect(source.kind).toBe('none');
    const path = join(dir, 'never.enc');
    const store = new SessionStore(path, source);
    await store.upsert(account(1));
    expect(store.active()?.email).toBe('person1@example.test');
    expect(() => statSync(path)).toThrow();
  });

  it('removing the active account makes another one active', async () => {
    const store = new SessionStore(join(dir, 'remove.enc'), passphrase('p'));
    await store.upsert(account(1));
    await store.upsert(account(2));
    await store.remove('usr_test2');
    expect(store.active()?.user_id).toBe('usr_test1');
    await store.remove('usr_test1');
    expect(store.active()).toBeNull();
  });
});

describe('the key from the OS keychain', () => {
  it('is made once and stored through secret-tool (on stdin, never on a command line), then read back; the file opens without a passphrase', async () => {
    // A stand-in secret-tool on PATH that keeps the secret in a file and records its command lines.
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const vault = join(dir, 'vault');
    const calls = join(dir, 'calls');
    writeFileSync(
      join(bin, 'secret-tool'),
      `#!/bin/sh\necho "$@" >> "${calls}"\ncase "$1" in\n  lookup) [ -f "${vault}" ] && cat "${vault}" || exit 1 ;;\n  store) cat > "${vault}" ;;\n  *) exit 2 ;;\nesac\n`,
    );
    chmodSync(join(bin, 'secret-tool'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    const saved = process.env.PATH;
    process.env.PATH = env.PATH;
    try {
      if (process.platform === 'darwin') return; // macOS goes through `security` instead
      const first = await resolveKeySource({ ...env });
      expect(first.kind).toBe('keychain');
      const second = await resolveKeySource({ ...env, SHIFTMARKET_MCP_PASSPHRASE: 'ignored when a keychain answers' });
      expect(second.kind).toBe('keychain');
      if (first.kind !== 'keychain' || second.kind !== 'keychain') return;
      expect(second.key.equals(first.key)).toBe(true);
      expect(first.key).toHaveLength(32);
      const log = readFileSync(calls, 'utf8');
      expect(log).not.toContain(first.key.toString('hex'));

      const path = join(dir, 'keychain.enc');
      await new SessionStore(path, first).upsert(account(7));
      expect(JSON.parse(readFileSync(path, 'utf8')).source).toBe('keychain');
      const reopened = new SessionStore(path, second);
      await reopened.load();
      expect(reopened.active()?.api_key).toBe(`${KEY}7`);
      // With the keychain skipped and no passphrase the file cannot be opened by this process.
      const none = await resolveKeySource({ ...env, SHIFTMARKET_MCP_KEYCHAIN: 'off' });
      expect(none.kind).toBe('none');
    } finally {
      process.env.PATH = saved;
    }
  });
});
