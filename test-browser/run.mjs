// `npm run test:browser`: proves in a real browser that the API reference pages work offline and
// that the sign-in pages (password, two-factor, trusted device) work by keyboard in light and dark.
//
// 1. Chromium from Debian: installed with apt-get when /usr/bin/chromium is missing (CI runs as root).
// 2. The Worker under `wrangler dev` on a free loopback port, its local state in a temporary
//    --persist-to folder (developers' .wrangler/state is never touched) with the migrations applied;
//    retried on a failed start. As under `npm run dev`: DEMO_MODE with a fresh seed token and the
//    development key for two-factor secrets (LOCAL_DEFAULT_SECRETS); the demo data is seeded once.
//    Its language model is the scripted stand-in of test-browser/model-stand-in.mjs, served from here.
// 3. `node --test test-browser/` against it (DOCS_BASE_URL; the demo accounts in BROWSER_ACCOUNTS;
//    BROWSER_TESTS=widgets,sign-in runs only those files), among them the widgets on their example page,
//    with the screenshots of the sign-in steps and of failed steps in test-browser/artifacts/
//    (emptied at the start, git-ignored; BROWSER_ARTIFACTS chooses another folder), printed at the end.
// 4. Everything started here is stopped, on success, failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callSeed, newSeedToken } from '../scripts/dev.mjs';
import { CHROMIUM } from './offline.mjs';
import { STAND_IN_KEY, startModelStandIn } from './model-stand-in.mjs';
import { newVapidKeys } from './push-service.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const START_ATTEMPTS = 3;
const START_TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => console.log(`[test:browser] ${msg}`);
const wranglerEnv = () => ({
  ...process.env,
  PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`,
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
});

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (CHROMIUM !== '/usr/bin/chromium' || process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (sudo apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  log('installing chromium from Debian (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const run = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${run.status ?? run.signal})`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `wrangler d1 migrations apply DB --local` into the temporary state, as `npm run dev` does into its own. */
function applyMigrations(persistTo) {
  const args = ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo];
  const run = spawnSync(join(BIN, 'wrangler'), args, { cwd: ROOT, encoding: 'utf8', env: wranglerEnv() });
  if (run.status !== 0) throw new Error(`applying the migrations failed (exit ${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`);
}

/** One `wrangler dev` in its own process group, so stopping it also stops workerd. */
async function startWorker(persistTo, seedToken, push, model) {
  if (cleaning) throw new Error('stopped');
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort)];
  args.push('--persist-to', persistTo, '--log-level', 'warn', '--show-interactive-dev-session=false');
  args.push('--var', 'DEMO_MODE:true', '--var', `DEMO_SEED_TOKEN:${seedToken}`, '--var', 'LOCAL_DEFAULT_SECRETS:true');
  // As under `npm run dev`: emailed codes stay readable in the local mailbox (email_outbox) for the sign-up test.
  args.push('--var', 'LOCAL_MAILBOX:true');
  // Web push to the local stand-in of a push service that the inbox test runs (test-browser/push-service.mjs).
  args.push('--var', `VAPID_PUBLIC_KEY:${push.vapid.publicKey}`, '--var', `VAPID_PRIVATE_KEY:${push.vapid.privateKey}`);
  args.push('--var', `LOCAL_PUSH_SERVICE:http://127.0.0.1:${push.port}`);
  // The language model is the local stand-in (test-browser/model-stand-in.mjs): the business assistant's
  // one-click actions are scripted; the help assistant gets a 503 from it and answers its fixed reply.
  args.push('--var', `OPENAI_API_KEY:${STAND_IN_KEY}`, '--var', `OPENAI_BASE_URL:http://127.0.0.1:${model.port}/v1`);
  const child = spawn(join(BIN, 'wrangler'), args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: wranglerEnv(),
  });
  let output = '';
  const keep = (d) => {
    output = (output + d).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, port, origin: `http://127.0.0.1:${port}`, output: () => output };
}

/** Waits until the document and the Scalar page answer 200 (the first request also builds the isolate). */
async function waitUntilServing(worker) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (worker.child.exitCode !== null || worker.child.signalCode)
      throw new Error(`wrangler dev exited (${worker.child.exitCode ?? worker.child.signalCode})`);
    try {
      const [doc, page] = await Promise.all(
        ['/v1/openapi.json', '/v1/docs'].map((p) => fetch(`${worker.origin}${p}`, { signal: AbortSignal.timeout(5_000) })),
      );
      await Promise.all([doc.arrayBuffer(), page.arrayBuffer()]);
      if (doc.ok && page.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  throw new Error(`wrangler dev did not serve ${worker.origin}/v1/openapi.json within ${START_TIMEOUT_MS / 1000} s`);
}

/** Seeds the demo data as `npm run dev` does; returns the accounts' role, email and password (not their keys). */
async function seedDemo(worker, token) {
  const { status, body } = await callSeed(worker.port, token);
  if (status !== 200 || !body?.seeded || !Array.isArray(body.accounts) || body.accounts.length === 0) {
    const detail = typeof body === 'string' ? body : JSON.stringify(body);
    throw new Error(`seeding the demo data failed (HTTP ${status}): ${detail.slice(0, 500)}`);
  }
  return body.accounts.map(({ role, email, password }) => ({ role, email, password }));
}

/** Stops a child started in its own process group: SIGTERM to the group, SIGKILL after 5 s. */
async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode) return;
  const exited = new Promise((r) => child.once('exit', () => r(true)));
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      child.kill(sig);
    }
  };
  signal('SIGTERM');
  if (await Promise.race([exited, sleep(5_000)])) return;
  signal('SIGKILL');
  await Promise.race([exited, sleep(5_000)]);
}

const started = { worker: undefined, tests: undefined, model: undefined };
const persistTo = mkdtempSync(join(tmpdir(), 'shiftmarket-browser-state-'));
const DEFAULT_ARTIFACTS = join(ROOT, 'test-browser', 'artifacts');
const artifacts = process.env.BROWSER_ARTIFACTS || DEFAULT_ARTIFACTS;
// Only the project's own folder is emptied: a folder given in BROWSER_ARTIFACTS is the caller's.
if (artifacts === DEFAULT_ARTIFACTS) rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

let cleaning;
/** Stops what this script started and removes its temporary state; runs once, whoever asks first. */
function cleanup() {
  cleaning ??= (async () => {
    await stop(started.tests);
    await stop(started.worker?.child);
    started.model?.closeAllConnections();
    started.model?.close();
    rmSync(persistTo, { recursive: true, force: true });
    if (readdirSync(artifacts).length > 0) log(`screenshots (sign-in steps, and failed steps with their records): ${artifacts}`);
  })();
  return cleaning;
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    log(`${sig}: stopping`);
    cleanup().finally(() => process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1)));
  });
}

async function main() {
  const t0 = Date.now();
  ensureChromium();
  const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout.trim();
  log(`browser: ${version || CHROMIUM}`);
  applyMigrations(persistTo);
  const seedToken = newSeedToken();
  const push = { vapid: newVapidKeys(), port: await freePort() };
  const model = { port: await freePort() };
  started.model = await startModelStandIn(model.port);

  for (let attempt = 1; ; attempt++) {
    started.worker = await startWorker(persistTo, seedToken, push, model);
    try {
      await waitUntilServing(started.worker);
      break;
    } catch (err) {
      await stop(started.worker.child);
      const detail = `${err.message}\n${started.worker.output().split('\n').slice(-30).join('\n')}`;
      if (attempt >= START_ATTEMPTS) throw new Error(`the Worker did not start after ${attempt} attempts: ${detail}`);
      log(`start attempt ${attempt} failed, retrying: ${err.message}`);
    }
  }
  log(`worker: ${started.worker.origin} (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const accounts = await seedDemo(started.worker, seedToken);
  log(`demo data seeded: ${accounts.length} accounts (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  if (cleaning) throw new Error('stopped');
  // BROWSER_TESTS=widgets runs test-browser/widgets.test.mjs alone (a comma-separated list of names).
  const only = (process.env.BROWSER_TESTS ?? '').split(',').filter((n) => /^[a-z0-9-]+$/.test(n));
  const files = only.length ? only.map((n) => `test-browser/${n}.test.mjs`) : ['test-browser/**/*.test.mjs'];
  const tests = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
    cwd: ROOT,
    detached: true,
    stdio: 'inherit',
    env: {
      ...process.env,
      DOCS_BASE_URL: started.worker.origin,
      BROWSER_ARTIFACTS: artifacts,
      CHROMIUM_PATH: CHROMIUM,
      BROWSER_ACCOUNTS: JSON.stringify(accounts),
      // The Worker's local state, for tests that read its mailbox (email_outbox) with `wrangler d1 execute`.
      BROWSER_STATE_DIR: persistTo,
      // Where the Worker sends web pushes: the inbox test listens there (test-browser/push-service.mjs).
      PUSH_SERVICE_PORT: String(push.port),
      VAPID_PUBLIC_KEY: push.vapid.publicKey,
    },
  });
  started.tests = tests;
  const code = await new Promise((resolve) => tests.once('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (code !== 0) log(`wrangler output (last lines):\n${started.worker.output().split('\n').slice(-20).join('\n')}`);
  return code;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (err) {
  console.error(`[test:browser] ${err instanceof Error ? err.message : err}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
