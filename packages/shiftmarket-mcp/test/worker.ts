import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A real Worker for the stdio server to talk to: `wrangler dev` on a free loopback port with
 * throwaway state (migrations applied first), the local mailbox on, as `npm run dev` runs it.
 * Verification codes are read from the developer's mailbox (the email_outbox table) with
 * `wrangler d1 execute --local` on the same state.
 */
export const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const env = () => ({ ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`, CI: 'true', WRANGLER_SEND_METRICS: 'false' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface LocalWorker {
  origin: string;
  /** The latest verification code emailed to this address. */
  codeFor(email: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startWorker(): Promise<LocalWorker> {
  const state = mkdtempSync(join(tmpdir(), 'shiftmarket-stdio-state-'));
  const migrate = spawnSync(join(BIN, 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
    cwd: ROOT,
    encoding: 'utf8',
    env: env(),
  });
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stdout}${migrate.stderr}`);
  // Two free ports, never the same one twice (a port just closed can be handed out again), and a
  // new pair if another process takes one before wrangler binds it.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let inspector = await freePort();
    while (inspector === port) inspector = await freePort();
    try {
      return await launch(state, port, inspector);
    } catch (err) {
      const taken = err instanceof Error && err.message.startsWith('wrangler dev exited') && err.message.includes('Address already in use');
      if (attempt >= 3 || !taken) {
        rmSync(state, { recursive: true, force: true });
        throw err;
      }
    }
  }
}

/** `wrangler dev` on the given ports with the state folder, once it answers. */
async function launch(state: string, port: number, inspector: number): Promise<LocalWorker> {
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector), '--persist-to', state];
  args.push('--log-level', 'warn', '--show-interactive-dev-session=false');
  args.push('--var', 'LOCAL_MAILBOX:true', '--var', 'LOCAL_DEFAULT_SECRETS:true', '--var', 'LOG_LEVEL:warn');
  const child: ChildProcess = spawn(join(BIN, 'wrangler'), args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env(),
  });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && !child.signalCode) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      await Promise.race([exited, sleep(5_000)]);
      if (child.exitCode === null && !child.signalCode) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    rmSync(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    try {
      const r = await fetch(`${origin}/v1/openapi.json`, { signal: AbortSignal.timeout(5_000) });
      await r.arrayBuffer();
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not start:\n${output}`);
    }
    await sleep(300);
  }
  return {
    origin,
    stop,
    async codeFor(email: string) {
      for (let i = 0; i < 20; i++) {
        const q = spawnSync(
          join(BIN, 'wrangler'),
          [
            'd1',
            'execute',
            'DB',
            '--local',
            '--persist-to',
            state,
            '--json',
            '--command',
            `SELECT text_body FROM email_outbox WHERE to_address = '${email.replaceAll("'", "''")}' ORDER BY created_at DESC LIMIT 1`,
          ],
          { cwd: ROOT, encoding: 'utf8', env: env() },
        );
        const m = /\b(\d{6})\b/.exec(q.stdout ?? '');
        if (q.status === 0 && m) return m[1]!;
        await sleep(500);
      }
      throw new Error(`no verification email for ${email}`);
    },
  };
}
