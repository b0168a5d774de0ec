// `npm run bench [-- claims|broadcasts|insights|auth ...]`: seeds a fresh local D1 under
// bench/.state/, starts `wrangler dev` on its own port with that state, runs the chosen benchmarks
// (all by default), prints the figures and writes them to bench/results/<timestamp>.json.
// `--reuse` keeps the data of the last run (read-only benchmarks only; claims change the data).
// `--smoke` runs every chosen benchmark a few requests deep on tiny data in its own state
// (bench/.state/smoke/) and fails on any unexpected answer: a check that the benchmarks still run,
// not a measurement (`npm run bench:smoke`, in CI).
// Environment: BENCH_PORT (default 8791; a free port with --smoke). See bench/README.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchAuthRead, printAuthRead } from './auth-read.mjs';
import { benchBroadcasts, printBroadcasts } from './broadcasts.mjs';
import { benchClaims, printClaims } from './claims.mjs';
import { freePort, portIsFree, RESULTS_DIR, ROOT, signalAllChildren, sleep, STATE_DIR } from './common.mjs';
import { benchInsights, printInsights } from './insights.mjs';
import { generate, load } from './seed.mjs';
import { BENCH_VARS, buildSnapshot, startServer } from './server.mjs';

const ALL = ['claims', 'broadcasts', 'insights', 'auth'];
/** The Worker served: the real one, plus the probe routes the auth benchmark measures layer by layer. */
const ENTRY = 'bench/probe-worker.ts';
const PLAN = {
  uncontendedClaims: 200,
  contendedRounds: 20,
  listRequests: 200,
  insightRequests: 100,
  authRounds: 300,
};
/** `--smoke`: a few requests of each kind on tiny data (enough for a full page of 50 broadcasts). */
const SMOKE_PLAN = {
  uncontendedClaims: 3,
  contendedRounds: 2,
  listRequests: 4,
  insightRequests: 4,
  authRounds: 3,
};
const SMOKE_SIZES = { openBroadcasts: 120, insightRows: 1_500, insightBusinesses: 5, workerPool: 20, contenders: 5 };

/** Benchmarks that leave the data as they found it, so a later `--reuse` run measures the same thing. */
const READ_ONLY = ['broadcasts', 'insights', 'auth'];

function parseArgs(argv) {
  const chosen = argv.filter((a) => !a.startsWith('-'));
  const unknown = chosen.filter((a) => !ALL.includes(a));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);
    process.exit(2);
  }
  const benches = chosen.length ? ALL.filter((b) => chosen.includes(b)) : ALL;
  const reuse = argv.includes('--reuse');
  const smoke = argv.includes('--smoke');
  if (reuse && smoke) {
    console.error('--reuse and --smoke do not go together: the smoke run always seeds its own tiny data');
    process.exit(2);
  }
  if (reuse && benches.some((b) => !READ_ONLY.includes(b))) {
    console.error(`--reuse only with read-only benchmarks (${READ_ONLY.join(', ')}): the others change the data`);
    process.exit(2);
  }
  return { benches, reuse, smoke };
}

/** The commit the work tree is on and whether it has uncommitted changes under src/ or migrations/. */
function gitSource() {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--', 'src', 'migrations', 'wrangler.toml') !== '' };
  } catch {
    return { commit: 'unknown', dirty: null };
  }
}

const elapsed = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

async function main() {
  const { benches, reuse, smoke } = parseArgs(process.argv.slice(2));
  const plan = smoke ? SMOKE_PLAN : PLAN;
  const port = Number(process.env.BENCH_PORT || (smoke ? await freePort() : 8791));
  if (port === 8787) throw new Error('port 8787 belongs to `npm run dev`; choose another BENCH_PORT');
  if (!(await portIsFree(port))) throw new Error(`port ${port} is in use; set BENCH_PORT to a free port`);

  const t0 = performance.now();
  const started = new Date();
  // The smoke run keeps to a folder of its own, so the data of the last full run stays for --reuse.
  const stateDir = smoke ? join(STATE_DIR, 'smoke') : STATE_DIR;
  const persistTo = join(stateDir, 'wrangler');
  const sqlDir = join(stateDir, 'sql');
  const logFile = join(stateDir, 'wrangler.log');
  const manifestFile = join(sqlDir, 'manifest.json');
  let manifest;
  let loadSeconds = 0;
  if (reuse && existsSync(manifestFile) && existsSync(persistTo)) {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    console.log(`[bench] reusing the data seeded ${new Date(manifest.now).toISOString()} in ${persistTo.replace(`${ROOT}/`, '')}`);
  } else {
    if (reuse) console.log('[bench] --reuse: no earlier data found, seeding');
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(stateDir, { recursive: true });
    console.log(`[bench] generating ${smoke ? 'smoke ' : ''}data (fresh state in ${persistTo.replace(`${ROOT}/`, '')})…`);
    const generated = generate(sqlDir, {
      uncontendedClaims: plan.uncontendedClaims,
      contendedRounds: plan.contendedRounds,
      ...(smoke ? { warmupClaims: 2, sizes: SMOKE_SIZES } : {}),
    });
    manifest = generated.manifest;
    console.log(
      `[bench] ${manifest.counts.rows.toLocaleString('en-US')} rows in ${generated.files.length} SQL files (${manifest.counts.shiftRequests.toLocaleString('en-US')} shift requests) — ${elapsed(t0)}`,
    );
    const tLoad = performance.now();
    await load(persistTo, generated.files, logFile, (msg) => console.log(`[bench] ${msg} — ${elapsed(t0)}`));
    loadSeconds = (performance.now() - tLoad) / 1000;
  }

  const script = await buildSnapshot(join(stateDir, 'build'), logFile, ENTRY);
  const source = gitSource();
  console.log(
    `[bench] Worker bundled from the work tree (${source.commit.slice(0, 10)}${source.dirty ? ' + uncommitted changes' : ''}) — ${elapsed(t0)}`,
  );
  console.log(
    `[bench] starting wrangler dev on 127.0.0.1:${port} with ${Object.entries(BENCH_VARS)
      .map(([k, v]) => `--var ${k}:${v}`)
      .join(' ')}`,
  );
  console.log('[bench] (API_KEY_RATE_LIMIT is raised so the 600-per-5-minutes personal-key limit does not cut the runs short)');
  const tStart = performance.now();
  const server = await startServer({ port, persistTo, logFile, script });
  stopServer = server.stop;
  const startSeconds = (performance.now() - tStart) / 1000;
  console.log(`[bench] wrangler dev answers on ${server.base} — ${elapsed(t0)}`);

  const results = {};
  let reloads = 0;
  try {
    for (const b of benches) {
      const tb = performance.now();
      console.log(`[bench] running ${b}…`);
      if (b === 'claims') results.claims = await benchClaims(server.base, manifest);
      if (b === 'broadcasts') results.broadcasts = await benchBroadcasts(server.base, manifest, { requests: plan.listRequests });
      if (b === 'insights') results.insights = await benchInsights(server.base, manifest, { requests: plan.insightRequests });
      if (b === 'auth') results.auth = await benchAuthRead(server.base, manifest, { rounds: plan.authRounds });
      results[b].seconds = (performance.now() - tb) / 1000;
      console.log(`[bench] ${b} done in ${results[b].seconds.toFixed(1)} s — ${elapsed(t0)}`);
    }
  } finally {
    reloads = server.reloads();
    await server.stop();
    stopServer = null;
    console.log(`[bench] wrangler dev stopped — ${elapsed(t0)}`);
  }

  const cpu = cpus();
  const machine = {
    cpus: cpu.length,
    cpu_model: cpu[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    wrangler: JSON.parse(readFileSync(join(ROOT, 'node_modules', 'wrangler', 'package.json'), 'utf8')).version,
  };
  console.log(`\nShiftmarket benchmarks under \`wrangler dev\` (local D1/DO), ${started.toISOString()}`);
  if (smoke)
    console.log('Smoke run: tiny data, a few requests of each kind. It checks that every benchmark runs; its numbers are not figures.');
  console.log(
    `Machine: ${machine.cpus} cores (${machine.cpu_model}), Node ${machine.node}, wrangler ${machine.wrangler}; load generator and server share the machine.`,
  );
  console.log(
    `Settings: ${Object.entries(BENCH_VARS)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}.`,
  );
  if (results.claims) printClaims(results.claims);
  if (results.broadcasts) printBroadcasts(results.broadcasts);
  if (results.insights) printInsights(results.insights);
  if (results.auth) printAuthRead(results.auth);

  const failures = benches.flatMap((b) => results[b].failures.map((f) => `${b}: ${f}`));
  if (reloads) failures.push(`wrangler dev reloaded the Worker ${reloads} time(s) during the run; the figures are not reliable`);
  const totalSeconds = (performance.now() - t0) / 1000;
  console.log(
    `\nData load ${loadSeconds.toFixed(1)} s, server start ${startSeconds.toFixed(1)} s, whole run ${totalSeconds.toFixed(1)} s.`,
  );
  if (smoke) {
    if (failures.length) {
      console.error(`\n[bench] smoke run: ${failures.length} unexpected answer(s):`);
      for (const f of failures.slice(0, 20)) console.error(`  ${f}`);
      process.exitCode = 1;
    } else console.log(`[bench] smoke run: ${benches.join(', ')} ran and every answer was as expected.`);
    return;
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `${started
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z')}.json`,
  );
  writeFileSync(
    file,
    `${JSON.stringify({ started: started.toISOString(), source, machine, settings: BENCH_VARS, plan: PLAN, counts: manifest.counts, timings: { loadSeconds, startSeconds, totalSeconds }, results, failures }, null, 2)}\n`,
  );
  console.log(`Results written to ${file.replace(`${ROOT}/`, '')}`);
  if (failures.length) {
    console.error(`\n${failures.length} unexpected answer(s):`);
    for (const f of failures.slice(0, 20)) console.error(`  ${f}`);
    process.exitCode = 1;
  }
}

let stopServer = null;
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, async () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n[bench] ${sig}: stopping wrangler…`);
    if (stopServer) await stopServer().catch(() => undefined);
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
  console.error(`[bench] ${err instanceof Error ? err.message : String(err)}`);
  if (stopServer) await stopServer().catch(() => undefined);
  signalAllChildren('SIGKILL');
  process.exitCode = 1;
});
