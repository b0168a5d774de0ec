// `npm run dev`: applies the D1 migrations locally, starts `wrangler dev` with DEMO_MODE and
// LOCAL_MAILBOX on and a fresh seed token, and seeds demo data when the local database is empty,
// printing the demo accounts and their keys. Extra arguments go to wrangler (`npm run dev -- --port 9000`).
// Plain Node ESM without dependencies; scripts/seed.mjs reuses the helpers exported here.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TOKEN_FILE = join(ROOT, '.wrangler', 'demo-seed-token');
export const PORT_FILE = join(ROOT, '.wrangler', 'demo-dev-port');
export const DEFAULT_PORT = 8787;
const BIN = join(ROOT, 'node_modules', '.bin');
const WRANGLER = join(BIN, process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler');

/** The project's own bin folder first, so wrangler runs on the Node 22 pinned in the project. */
export function childEnv(extra = {}) {
  return { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`, ...extra };
}

export function newSeedToken() {
  return randomBytes(24).toString('hex');
}

/** `wrangler d1 migrations apply DB --local`, without prompts (CI=true). */
export function applyMigrations({ quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local'], {
      cwd: ROOT,
      env: childEnv({ CI: 'true' }),
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrations failed (exit ${code})\n${output}`))));
  });
}

/**
 * The settings `npm run dev` turns on over wrangler.toml's (besides a fresh DEMO_SEED_TOKEN): demo data;
 * LOCAL_MAILBOX, emails stay readable in email_outbox and are printed in the log (codes included);
 * LOCAL_DEFAULT_SECRETS, absent secrets fall back to their published development values.
 * `npm run lint:openapi` lints the document served with them too.
 */
export const DEV_VARS = { DEMO_MODE: 'true', LOCAL_MAILBOX: 'true', LOCAL_DEFAULT_SECRETS: 'true' };

/** Starts `wrangler dev` with DEV_VARS and the given seed token. */
export function startWrangler({ port, token, extraArgs = [], ip, quiet = false }) {
  const vars = { ...DEV_VARS, DEMO_SEED_TOKEN: token };
  const args = ['dev', ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]), ...extraArgs];
  if (!hasFlag(extraArgs, '--port')) args.push('--port', String(port));
  if (ip && !hasFlag(extraArgs, '--ip')) args.push('--ip', ip);
  return spawn(WRANGLER, args, {
    cwd: ROOT,
    env: childEnv(quiet ? { CI: 'true' } : {}),
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
}

function hasFlag(args, flag) {
  return args.some((a) => a === flag || a.startsWith(`${flag}=`));
}

/** The port passed to wrangler in `args`, if any. */
export function portFromArgs(args) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port' && args[i + 1]) return Number(args[i + 1]);
    if (args[i].startsWith('--port=')) return Number(args[i].slice('--port='.length));
  }
  return null;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves once http://127.0.0.1:<port>/ answers at all; rejects if the child exits or time runs out. */
export async function waitUntilUp(port, child, timeoutMs = 120_000) {
  let exited = null;
  child.once('exit', (code) => (exited = code ?? 1));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`wrangler dev exited (code ${exited}) before it was ready`);
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await sleep(400);
    }
  }
  throw new Error(`wrangler dev did not answer on port ${port} within ${timeoutMs / 1000} s`);
}

/** POST /internal/demo/seed; returns { status, body } (body parsed when JSON). */
export async function callSeed(port, token, { force = false, timeoutMs = 120_000 } = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/internal/demo/seed${force ? '?force=1' : ''}`, {
    method: 'POST',
    headers: { 'X-Demo-Seed-Token': token },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, body };
}

/**
 * A demo shifter for the README's relevance example, which needs a shifter's key and that shifter's id:
 * { email, api_key, shifter_id } (the id from GET /v1/shifter/of_user), or null.
 */
export async function relevanceShifter(port, accounts = []) {
  const s = accounts.find((a) => a.role === 'shifter');
  if (!s) return null;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/shifter/of_user`, {
      headers: { Authorization: `Bearer ${s.api_key}` },
      signal: AbortSignal.timeout(10_000),
    });
    const body = await res.json();
    return res.ok && typeof body?.id === 'string' ? { email: s.email, api_key: s.api_key, shifter_id: body.id } : null;
  } catch {
    return null;
  }
}

/**
 * The demo accounts as a table, then curl lines to try a key: a business owner's, and (given
 * `shifter`, see relevanceShifter) a shifter's for open broadcasts sorted by relevance.
 */
export function printAccounts(result, port, shifter = null) {
  const accounts = result.accounts ?? [];
  const head = { role: 'ROLE', email: 'EMAIL', password: 'PASSWORD', api_key: 'API KEY' };
  const rows = [head, ...accounts];
  const width = (k) => Math.max(...rows.map((r) => String(r[k]).length));
  const line = (r) =>
    ['role', 'email', 'password', 'api_key']
      .map((k) => String(r[k]).padEnd(width(k)))
      .join('  ')
      .trimEnd();
  const out = [];
  const c = result.counts;
  const counts = c
    ? `: ${c.users} users, ${c.businesses} businesses, ${c.shifters} shifters, ${c.connections} connections, ${c.shift_requests} shift requests, ${c.mileage_entries ?? 0} mileage entries, ${c.counter_rules ?? 0} counter rules, ${c.credentials ?? 0} credentials${extraCounts(c)}`
    : '';
  out.push('', `  Demo data seeded${counts}.`);
  out.push('  Demo keys are shown only now; the nightly reset (and `npm run seed`) replaces them.', '');
  out.push(`  ${line(head)}`, `  ${'-'.repeat(Math.max(...rows.map((r) => line(r).length)))}`);
  for (const a of accounts) out.push(`  ${line(a)}`);
  const sample = accounts.find((a) => a.role === 'business') ?? accounts[0];
  if (sample) {
    out.push('', `  Try it (${sample.email}):`);
    out.push(`  curl -s http://127.0.0.1:${port}/v1/user/details -H "Authorization: Bearer ${sample.api_key}"`);
    out.push(`  or sign in on the pages: http://localhost:${port}/login (${sample.email}, password ${sample.password})`);
  }
  if (shifter) {
    out.push('', `  Open broadcasts sorted by relevance need a shifter's key and that shifter's id (${shifter.email}):`);
    out.push(
      `  curl -s -X POST http://127.0.0.1:${port}/v1/shift_request/list_of_broadcast_requests -H "Authorization: Bearer ${shifter.api_key}" \\`,
    );
    out.push(`    -H "Content-Type: application/json" -d '{"sort_by_relevance": true, "shifter_id": "${shifter.shifter_id}"}'`);
  }
  out.push('');
  console.log(out.join('\n'));
}

/** The later parts of the demo world (reviews, threads, help conversations…), as the seed names them. */
function extraCounts(c) {
  const base = new Set([
    'users',
    'businesses',
    'shifters',
    'teammates',
    'connections',
    'shift_requests',
    'mileage_entries',
    'counter_rules',
    'credentials',
    'credential_documents',
  ]);
  return Object.entries(c)
    .filter(([k, v]) => !base.has(k) && typeof v === 'number')
    .map(([k, v]) => `, ${v} ${k.replaceAll('_', ' ')}`)
    .join('');
}

async function main() {
  const extraArgs = process.argv.slice(2);
  const port = portFromArgs(extraArgs) ?? (process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT);

  console.log('[dev] applying D1 migrations to the local database…');
  await applyMigrations();

  const token = newSeedToken();
  mkdirSync(dirname(TOKEN_FILE), { recursive: true });
  writeFileSync(TOKEN_FILE, `${token}\n`, { mode: 0o600 });
  writeFileSync(PORT_FILE, `${port}\n`);
  const cleanup = () => {
    rmSync(TOKEN_FILE, { force: true });
    rmSync(PORT_FILE, { force: true });
  };

  const child = startWrangler({ port, token, extraArgs, ip: '127.0.0.1' });
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      if (child.exitCode === null) child.kill(sig);
    });
  }
  child.on('exit', (code, signal) => {
    cleanup();
    process.exit(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
  });

  try {
    await waitUntilUp(port, child);
    const { status, body } = await callSeed(port, token);
    if (status !== 200) {
      console.error(`[dev] demo seeding failed (HTTP ${status}): ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    } else if (body.seeded) {
      printAccounts(body, port, await relevanceShifter(port, body.accounts));
    } else {
      console.log(`\n  Demo data already exists in the local database (it is seeded only when the database is empty).`);
      console.log(`  To wipe and re-seed it and get fresh demo keys: npm run seed\n`);
    }
  } catch (err) {
    // wrangler's own output explains most failures; the server keeps running if it is up.
    console.error(`[dev] ${err instanceof Error ? err.message : String(err)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
