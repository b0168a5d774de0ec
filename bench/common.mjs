// Shared helpers for the benchmarks: paths, child processes, a seeded random source, timing and
// percentile statistics. Plain Node ESM, no dependencies beyond the project's own.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DIR = join(ROOT, 'bench');
export const STATE_DIR = join(BENCH_DIR, '.state');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

/**
 * Writes a run's figures as bench/results/<prefix><time>.json (the time in UTC, to the second, with
 * no colon so every file system takes the name); returns its path relative to the project.
 */
export function writeResults(prefix, figures, at = new Date()) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `${prefix}${at
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z')}.json`,
  );
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  return file.replace(`${ROOT}/`, '');
}
const BIN = join(ROOT, 'node_modules', '.bin');
export const WRANGLER = join(BIN, process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler');
/** The Node the project pins (22, with node:sqlite), whatever Node runs the benchmark itself. */
export const NODE = join(BIN, process.platform === 'win32' ? 'node.cmd' : 'node');

/** The local D1 database file under wrangler's state folder (the largest of the D1 objects). */
export function databaseFile(persistTo) {
  const dir = join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
    .map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** The project's bin folder first, so wrangler runs on the Node 22 pinned in the project. */
export function childEnv(extra = {}) {
  return {
    ...process.env,
    PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`,
    CI: 'true',
    WRANGLER_SEND_METRICS: 'false',
    ...extra,
  };
}

/** Children still running, so an interrupt can stop them (see `stopAllChildren`). */
const live = new Set();

/**
 * Runs wrangler with `args` to completion; its output goes to `logFile` (appended). Rejects with
 * the tail of the output when it exits non-zero.
 */
export function runWrangler(args, logFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(WRANGLER, args, { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    live.add(child);
    const log = createWriteStream(logFile, { flags: 'a' });
    log.write(`\n$ wrangler ${args.join(' ')}\n`);
    let tail = '';
    const keep = (d) => {
      log.write(d);
      tail = (tail + d).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => {
      live.delete(child);
      log.end();
      reject(err);
    });
    child.on('exit', (code, signal) => {
      live.delete(child);
      log.end();
      if (code === 0) resolve();
      else reject(new Error(`wrangler ${args.slice(0, 3).join(' ')} failed (${signal ?? `exit ${code}`})\n${tail}`));
    });
  });
}

/** Registers a long-running child (wrangler dev) so an interrupt stops it too. */
export function track(child) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Signals every tracked child's process group (they are started detached, one group each). */
export function signalAllChildren(signal) {
  for (const child of live) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** True when nothing listens on 127.0.0.1:port. */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Small seeded PRNG (mulberry32), so every run seeds the same shape of data. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

/** Percentile by nearest rank on a sorted copy. */
function pct(sorted, p) {
  if (!sorted.length) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : null;
  return { n: s.length, min: s[0] ?? null, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.at(-1) ?? null, mean };
}

export const ms = (v) => (v === null || v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

/**
 * Runs `total` calls of `fn(i)` with at most `concurrency` in flight. Each call returns
 * `{ ok, status, detail? }`; the runner times it. Returns the latencies (ms) of every call, the
 * wall time and the failures.
 */
export async function runFixed(total, concurrency, fn) {
  const latencies = [];
  const failures = [];
  let nextIndex = 0;
  const t0 = performance.now();
  async function worker() {
    while (nextIndex < total) {
      const i = nextIndex++;
      const start = performance.now();
      let outcome;
      try {
        outcome = await fn(i);
      } catch (err) {
        outcome = { ok: false, status: 0, detail: err instanceof Error ? err.message : String(err) };
      }
      latencies.push(performance.now() - start);
      if (!outcome.ok) failures.push({ i, status: outcome.status, detail: outcome.detail });
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const wallMs = performance.now() - t0;
  return { latencies, wallMs, failures, rps: total / (wallMs / 1000) };
}

/** Prints rows as an aligned text table. */
/** The load columns every latency table shares, and one row's cells for them. */
export const LOAD_COLUMNS = ['conc', 'requests', 'req/s', 'p50', 'p95', 'p99', 'mean', 'max', 'failed'];
export const loadCells = (r) => [
  r.concurrency,
  r.requests,
  r.rps.toFixed(1),
  ms(r.latency.p50),
  ms(r.latency.p95),
  ms(r.latency.p99),
  ms(r.latency.mean),
  ms(r.latency.max),
  r.failed,
];

export function printTable(title, head, rows) {
  const all = [head, ...rows].map((r) => r.map((c) => String(c)));
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(all[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of all.slice(1)) console.log(line(r));
}

/** One JSON request to the service (with `key` as bearer, when given); resolves to { status, body } (body parsed when JSON). */
export async function call(base, method, path, key, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, body: parsed };
}

/** A short description of an unexpected answer, for the failure list. */
export const describe = (r) =>
  `${r.status} ${typeof r.body === 'string' ? r.body.slice(0, 200) : JSON.stringify(r.body?.error ?? r.body).slice(0, 200)}`;
