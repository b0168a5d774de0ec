import { execFile } from 'node:child_process';
import { randomBytes, scrypt as scryptCb } from 'node:crypto';

/**
 * Where the session file's 256-bit key comes from, in this order:
 * 1. the OS keychain, when its command-line tool is present: `security` (macOS Keychain) or
 *    `secret-tool` (Linux Secret Service: GNOME Keyring, KWallet). A random key is made and stored
 *    there the first time (service `shiftmarket-mcp`, account `sessions-key`);
 * 2. else SHIFTMARKET_MCP_PASSPHRASE through scrypt (node:crypto): N = 2^17, r = 8, p = 1 (128 MiB,
 *    memory-hard), with the file's random 16-byte salt;
 * 3. else none: accounts are kept in memory for this run only, and the tools say how to keep them.
 * SHIFTMARKET_MCP_KEYCHAIN=off skips the keychain (for tests and headless machines).
 * The key is never printed or logged; on the command line of `security` it travels as hex only
 * when storing it the first time (that tool reads no stdin), `secret-tool` reads it from stdin.
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 } as const;
export const KEYCHAIN_SERVICE = 'shiftmarket-mcp';
export const KEYCHAIN_ACCOUNT = 'sessions-key';

export type KeySource =
  | { kind: 'keychain'; tool: 'security' | 'secret-tool'; key: Buffer }
  | { kind: 'passphrase'; passphrase: string }
  | { kind: 'none' };

function run(cmd: string, args: string[], input?: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { timeout: 10_000 }, (err, stdout) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code ?? 1) : 127) : 0;
      resolve({ code, stdout: String(stdout ?? '') });
    });
    child.on('error', () => resolve({ code: 127, stdout: '' }));
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function fromKeychain(): Promise<KeySource | null> {
  const hexKey = (s: string) => (/^[0-9a-f]{64}$/.test(s.trim()) ? Buffer.from(s.trim(), 'hex') : null);
  if (process.platform === 'darwin') {
    const found = await run('security', ['find-generic-password', '-s', KEYCHAIN_SERVICE, '-a', KEYCHAIN_ACCOUNT, '-w']);
    if (found.code === 127) return null;
    const key = found.code === 0 ? hexKey(found.stdout) : null;
    if (key) return { kind: 'keychain', tool: 'security', key };
    const fresh = randomBytes(32);
    const stored = await run('security', [
      'add-generic-password',
      '-U',
      '-s',
      KEYCHAIN_SERVICE,
      '-a',
      KEYCHAIN_ACCOUNT,
      '-w',
      fresh.toString('hex'),
    ]);
    return stored.code === 0 ? { kind: 'keychain', tool: 'security', key: fresh } : null;
  }
  const attrs = ['service', KEYCHAIN_SERVICE, 'account', KEYCHAIN_ACCOUNT];
  const found = await run('secret-tool', ['lookup', ...attrs]);
  if (found.code === 127) return null;
  const key = found.code === 0 ? hexKey(found.stdout) : null;
  if (key) return { kind: 'keychain', tool: 'secret-tool', key };
  const fresh = randomBytes(32);
  const stored = await run('secret-tool', ['store', '--label=Shiftmarket MCP sessions', ...attrs], fresh.toString('hex'));
  if (stored.code !== 0) return null;
  // Read it back: a Secret Service without an unlocked collection may accept and drop the secret.
  const check = await run('secret-tool', ['lookup', ...attrs]);
  const back = check.code === 0 ? hexKey(check.stdout) : null;
  return back?.equals(fresh) ? { kind: 'keychain', tool: 'secret-tool', key: fresh } : null;
}

export async function resolveKeySource(env: Record<string, string | undefined> = process.env): Promise<KeySource> {
  if ((env.SHIFTMARKET_MCP_KEYCHAIN ?? '').toLowerCase() !== 'off') {
    const k = await fromKeychain();
    if (k) return k;
  }
  const passphrase = env.SHIFTMARKET_MCP_PASSPHRASE;
  if (passphrase) return { kind: 'passphrase', passphrase };
  return { kind: 'none' };
}

export function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(passphrase.normalize('NFKC'), salt, 32, SCRYPT_PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}
