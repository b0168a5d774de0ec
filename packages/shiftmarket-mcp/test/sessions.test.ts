import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
