// Starts and stops the `wrangler dev` the benchmarks measure: its own port, its own state
// directory, in its own process group so stopping it also stops workerd.
//
// The Worker is bundled once before the server starts (`wrangler deploy --dry-run --outdir`) and
// served with `wrangler dev --no-bundle`: `wrangler dev` on src/ rebuilds and restarts the Worker
// whenever a source file changes, which in a shared work tree can happen mid-measurement (the
// requests in flight then fail with 503 "Your worker restarted mid-request").
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { childEnv, freePort, ROOT, runWrangler, signalAllChildren, sleep, track, WRANGLER } from './common.mjs';

/**
 * The processes of the group `pgid` (a server's: wrangler, its workerd processes, esbuild), from
 * `ps`: pid, resident memory in KB, the command and its arguments. Throws where `ps` is absent.
 */
export function groupProcesses(pgid) {
  return execFileSync('ps', ['-eo', 'pgid=,pid=,rss=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([g]) => Number(g) === pgid)
    .map(([, pid, rss, command, ...args]) => ({ pid, rssKb: Number(rss), command, args }));
}

/** The stops of the servers started and not stopped yet: what an interrupted or failed run stops first. */
const running = new Set();

/** Settings passed with --var: demo data off, and a rate limit no benchmark reaches. */
export const BENCH_VARS = { DEMO_MODE: 'false', API_KEY_RATE_LIMIT: '1000000' };

/**
 * Bundles the Worker as it is in the work tree now; returns the entry file. With `entry` (a path
 * relative to the project), that module is bundled instead of wrangler.toml's `main`, e.g. the
 * benchmarks' probe Worker (bench/probe-worker.ts: the real Worker plus probe routes).
 */
export async function buildSnapshot(outdir, logFile, entry) {
  await runWrangler(['deploy', ...(entry ? [entry] : []), '--dry-run', '--outdir', outdir], logFile);
  return join(outdir, entry ? `${basename(entry).replace(/\.[cm]?[jt]s$/, '')}.js` : 'index.js');
}

/** `vars` replaces BENCH_VARS (the Lighthouse benchmark serves the demo world: DEMO_MODE with a seed token). */
export async function startServer({ port, persistTo, logFile, script, vars = BENCH_VARS }) {
  const inspectorPort = await freePort();
  const args = [
    'dev',
    script,
    '--no-bundle',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    persistTo,
    '--inspector-port',
    String(inspectorPort),
  ];
  for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
  const child = track(spawn(WRANGLER, args, { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n$ wrangler ${args.join(' ')}\n`);
  let tail = '';
  let up = false;
  let reloads = 0;
  const keep = (d) => {
    log.write(d);
    tail = (tail + d).slice(-3000);
    if (up && String(d).includes('Reloading local server')) reloads++;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  child.once('exit', () => log.end());

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!up && Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(`${base}/`, { signal: AbortSignal.timeout(2000) });
      up = true;
    } catch {
      await sleep(300);
    }
  }

  /** SIGTERM to the whole group, then SIGKILL if it lingers; resolves once wrangler has exited. */
  async function stop() {
    running.delete(stop);
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 8_000);
      await exited;
      clearTimeout(timer);
    }
    // workerd may outlive wrangler by a moment; make sure nothing of the group is left.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* the group is empty */
    }
  }

  running.add(stop);
  if (!up) {
    await stop();
    throw new Error(`wrangler dev did not answer on ${base} within 120 s\n${tail}`);
  }
  /** Restarts of the Worker after it first answered (a changed wrangler.toml still causes one). */
  return { base, pid: child.pid, inspectorPort, stop, tail: () => tail, reloads: () => reloads };
}

/**
 * Runs a benchmark's `main` so that nothing it started outlives it: on Ctrl-C, a kill or a failure the
 * servers still running are stopped and every child is ended (TERM, then KILL); `tag` prefixes the messages.
 */
export function runBench(tag, main) {
  let interrupted = false;
  const stopServers = () => Promise.all([...running].map((stop) => stop().catch(() => undefined)));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, async () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n[${tag}] ${sig}: stopping wrangler…`);
      await stopServers();
      signalAllChildren('SIGTERM');
      await sleep(500);
      signalAllChildren('SIGKILL');
      process.exit(130);
    });
  }
  // Last resort: whatever way the process ends, no child of ours outlives it.
  process.on('exit', () => signalAllChildren('SIGKILL'));

  main().catch(async (err) => {
    if (interrupted) return;
    console.error(`[${tag}] ${err instanceof Error ? err.message : String(err)}`);
    await stopServers();
    signalAllChildren('SIGKILL');
    process.exitCode = 1;
  });
}
