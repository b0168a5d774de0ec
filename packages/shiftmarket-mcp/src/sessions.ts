import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { deriveKey, type KeySource } from './key-source';

/**
 * The accounts this tool server acts for, kept on disk encrypted (AES-256-GCM) in one file, mode
 * 0600 in a 0700 folder: `~/.config/shiftmarket-mcp/sessions.enc` (XDG_CONFIG_HOME honoured), or
 * SHIFTMARKET_MCP_SESSIONS. The file holds a version, the key's source, the scrypt salt, the IV, the
 * GCM tag and the ciphertext, all as base64: no account data or key is readable without the key.
 * Every save uses a fresh IV and replaces the file atomically (write to a temporary file, rename).
 */
export interface Account {
  /** The user id (usr_…). */
  user_id: string;
  email: string;
  display_name: string;
  /** The service address the key belongs to. */
  base_url: string;
  api_key: string;
  shifter_id: string | null;
  business_ids: string[];
  added_at: string;
}

export interface SessionData {
  active: string | null;
  accounts: Account[];
}

interface SealedFile {
  v: 1;
  source: 'keychain' | 'passphrase';
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

export function defaultSessionPath(env: Record<string, string | undefined> = process.env): string {
  if (env.SHIFTMARKET_MCP_SESSIONS) return env.SHIFTMARKET_MCP_SESSIONS;
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'shiftmarket-mcp', 'sessions.enc');
}

export class SessionFileError extends Error {}

export class SessionStore {
  private data: SessionData = { active: null, accounts: [] };
  private salt: Buffer = randomBytes(16);
  /** The derived key, kept for the process: scrypt runs once per salt, not on every save. */
  private derived: { salt: Buffer; key: Promise<Buffer> } | null = null;
  private resolved: KeySource | null;
  private readonly pendingSource: Promise<KeySource>;
  private opening: Promise<void> | null = null;

  /**
   * `source` may still be on its way (the keychain asked, the passphrase not derived yet): the server
   * answers the client meanwhile, and every tool waits for `ready()` before it reads the accounts.
   */
  constructor(
    readonly path: string,
    source: KeySource | Promise<KeySource>,
  ) {
    this.pendingSource = Promise.resolve(source);
    this.resolved = source instanceof Promise ? null : source;
  }

  /** Where the key comes from; known once `ready()` has resolved (at once when given as a value). */
  get source(): KeySource {
    if (!this.resolved) throw new SessionFileError('the session file is still being opened');
    return this.resolved;
  }

  /** True when accounts survive a restart (a keychain key or a passphrase is available). */
  get persistent(): boolean {
    return this.source.kind !== 'none';
  }

  /**
   * Opens the file once (the key source, then the file, deriving its key): started at launch without
   * being awaited, awaited by every tool and every change. Rejects with SessionFileError when the file
   * cannot be opened; nothing is then written over it.
   */
  ready(): Promise<void> {
    if (!this.opening) {
      this.opening = this.load();
      // Seen by whoever awaits it; not an unhandled rejection meanwhile.
      this.opening.catch(() => undefined);
    }
    return this.opening;
  }

  private keyFor(salt: Buffer): Promise<Buffer> {
    const source = this.source;
    if (source.kind === 'keychain') return Promise.resolve(source.key);
    if (source.kind === 'passphrase') {
      if (this.derived?.salt.equals(salt)) return this.derived.key;
      const key = deriveKey(source.passphrase, salt);
      this.derived = { salt, key };
      // A failed derivation is not kept: the next call tries again.
      key.catch(() => {
        if (this.derived?.key === key) this.derived = null;
      });
      return key;
    }
    return Promise.reject(new SessionFileError('no key to open the session file'));
  }

  async load(): Promise<void> {
    this.resolved = await this.pendingSource;
    if (!this.persistent) return;
    let raw: string;
    try {
      raw = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const sealed = JSON.parse(raw) as SealedFile;
    if (sealed.v !== 1) throw new SessionFileError(`unknown session file version in ${this.path}`);
    const salt = Buffer.from(sealed.salt, 'base64');
    const key = await this.keyFor(salt);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
      this.data = JSON.parse(plain.toString('utf8')) as SessionData;
      this.salt = salt;
    } catch {
      throw new SessionFileError(
        `cannot open ${this.path}: wrong passphrase or keychain key (set SHIFTMARKET_MCP_PASSPHRASE, or move the file away to start afresh)`,
      );
    }
  }

  private async save(): Promise<void> {
    if (!this.persistent) return;
    const key = await this.keyFor(this.salt);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(this.data), 'utf8'), cipher.final()]);
    const sealed: SealedFile = {
      v: 1,
      source: this.source.kind === 'keychain' ? 'keychain' : 'passphrase',
      salt: this.salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(sealed), { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, this.path);
  }

  accounts(): Account[] {
    return this.data.accounts;
  }

  active(): Account | null {
    return this.data.accounts.find((a) => a.user_id === this.data.active) ?? null;
  }

  /** Adds or replaces (same user and service) an account and makes it the active one. */
  async upsert(account: Account): Promise<void> {
    await this.ready();
    this.data.accounts = this.data.accounts.filter((a) => !(a.user_id === account.user_id && a.base_url === account.base_url));
    this.data.accounts.push(account);
    this.data.active = account.user_id;
    await this.save();
  }

  async switchTo(userId: string): Promise<Account | null> {
    await this.ready();
    const a = this.data.accounts.find((x) => x.user_id === userId);
    if (!a) return null;
    this.data.active = a.user_id;
    await this.save();
    return a;
  }

  async remove(userId: string): Promise<Account | null> {
    await this.ready();
    const a = this.data.accounts.find((x) => x.user_id === userId);
    if (!a) return null;
    this.data.accounts = this.data.accounts.filter((x) => x.user_id !== userId);
    if (this.data.active === userId) this.data.active = this.data.accounts[0]?.user_id ?? null;
    await this.save();
    return a;
  }
}
