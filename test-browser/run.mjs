// `npm run test:browser`: proves the API reference pages work offline, in a real browser.
//
// 1. Chromium from Debian: installed with apt-get when /usr/bin/chromium is missing (CI runs as root).
// 2. The Worker under `wrangler dev` on a free loopback port, its local state in a temporary
//    --persist-to folder (developers' .wrangler/state is never touched); retried on a failed start.
// 3. `node --test test-browser/` against it (DOCS_BASE_URL), with screenshots of failed steps kept
//    in a temporary folder that is printed.
// 4. Everything started here is stopped, on success, failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM } from './offline.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const START_ATTEMPTS = 3;
const START_TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => console.log(`[test:browser] ${msg}`);

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

/** One `wrangler dev` in its own process group, so stopping it also stops workerd. */
async function startWorker(persistTo) {
  if (cleaning) throw new Error('stopped');
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort)];
  args.push('--persist-to', persistTo, '--log-level', 'warn', '--show-interactive-dev-session=false');
  const child = spawn(join(BIN, 'wrangler'), args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  let output = '';
  const keep = (d) => {
    output = (output + d).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, origin: `http://127.0.0.1:${port}`, output: () => output };
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

const started = { worker: undefined, tests: undefined };
const persistTo = mkdtempSync(join(tmpdir(), 'shiftmarket-browser-state-'));
const artifacts = mkdtempSync(join(tmpdir(), 'shiftmarket-browser-'));

let cleaning;
/** Stops what this script started and removes its temporary state; runs once, whoever asks first. */
function cleanup() {
  cleaning ??= (async () => {
    await stop(started.tests);
    await stop(started.worker?.child);
    rmSync(persistTo, { recursive: true, force: true });
    if (readdirSync(artifacts).length === 0) rmSync(artifacts, { recursive: true, force: true });
    else log(`screenshots and records of failed steps: ${artifacts}`);
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

  for (let attempt = 1; ; attempt++) {
    started.worker = await startWorker(persistTo);
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

  if (cleaning) throw new Error('stopped');
  const tests = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=1', 'test-browser/**/*.test.mjs'], {
    cwd: ROOT,
    detached: true,
    stdio: 'inherit',
    env: { ...process.env, DOCS_BASE_URL: started.worker.origin, BROWSER_ARTIFACTS: artifacts, CHROMIUM_PATH: CHROMIUM },
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
