// `npm run bench [-- claims|broadcasts|lists|insights|dashboard|schedule|auth|counts|load|soak ...]`: seeds a fresh local
// D1 under bench/.state/, starts `wrangler dev` on its own port with that state, runs the chosen
// benchmarks (all but load and soak by default), prints the figures and writes them to
// bench/results/<timestamp>.json.
// Sizes: `--broadcasts 10000,100000,1000000` (open broadcasts the list reads) and `--worked
// 100000,1000000` (worked shifts the figures and the lists read): the data grows to each size in turn
// (top-ups loaded with the server stopped) and the size-dependent benchmarks run at each.
// `load` runs the mixed workload (`--clients 20`, `--seconds 60`); `soak` the same for `--minutes 30`
// with workerd's memory and its isolates' heaps sampled every minute, each heap after a full
// collection (`--no-collect`: as it is, V8 collecting when it chooses).
// `--reuse` keeps the data of the last run (read-only benchmarks only; claims change the data).
// `--smoke` runs every chosen benchmark a few requests deep on tiny data in its own state
// (bench/.state/smoke/) and fails on any unexpected answer: a check that the benchmarks still run,
// not a measurement (`npm run bench:smoke`, in CI).
// Environment: BENCH_PORT (default 8791; a free port with --smoke). See bench/README.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchAuthRead, printAuthRead } from './auth-read.mjs';
import { benchBroadcasts, printBroadcasts } from './broadcasts.mjs';
import { benchClaims, printClaims } from './claims.mjs';
import { call, freePort, ms, portIsFree, printTable, ROOT, STATE_DIR, writeResults } from './common.mjs';
import { benchCounts, printCounts } from './counts.mjs';
import { benchDashboard, printDashboard } from './dashboard.mjs';
import { openHeapProbe } from './heap.mjs';
import { benchInsights, printInsights } from './insights.mjs';
import { benchLists, printLists } from './lists.mjs';
import { benchLoad, heapVerdict, memoryVerdict, poolsFor, printLoad, printSoak } from './load.mjs';
import { benchSchedule, printSchedule } from './schedule.mjs';
import { generate, generateBroadcasts, generateWorked, load } from './seed.mjs';
import { BENCH_VARS, buildSnapshot, runBench, startServer } from './server.mjs';

const ALL = ['claims', 'broadcasts', 'lists', 'insights', 'dashboard', 'schedule', 'auth', 'counts', 'load', 'soak'];
/** What `npm run bench` runs when no benchmark is named: all but the long-running load and soak. */
const DEFAULT = ['claims', 'broadcasts', 'lists', 'insights', 'dashboard', 'schedule', 'auth', 'counts'];
/** The Worker served: the real one, plus the probe routes the auth benchmark measures layer by layer. */
const ENTRY = 'bench/probe-worker.ts';
const PLAN = {
  uncontendedClaims: 200,
  contendedRounds: 20,
  listRequests: 200,
  insightRequests: 100,
  dashboardRounds: 100,
  scheduleRounds: 100,
  authRounds: 300,
};
/** `--smoke`: a few requests of each kind on tiny data (enough for a full page of 50 broadcasts). */
const SMOKE_PLAN = {
  uncontendedClaims: 3,
  contendedRounds: 2,
  listRequests: 4,
  insightRequests: 4,
  dashboardRounds: 3,
  scheduleRounds: 3,
  authRounds: 3,
};
const SMOKE_SIZES = {
  insightBusinesses: 5,
  workerPool: 20,
  contenders: 5,
  inboxThreads: 60,
  dashboardWeek: 60,
  dashboardHistoryWeeks: 2,
  dashboardCrew: 12,
  dashboardThreads: 4,
};
/** Smoke sizes: two of each, so the growing data and the per-size tables run too. */
const SMOKE_BROADCASTS = [120, 180];
const SMOKE_WORKED = [1_500, 2_000];

/** Benchmarks that leave the data as they found it, so a later `--reuse` run measures the same thing. */
const READ_ONLY = ['broadcasts', 'lists', 'insights', 'dashboard', 'schedule', 'auth'];

/** `--name value` (or `--name=value`) from the arguments. */
function option(argv, name) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
}
const sizesOf = (text, fallback) =>
  text === undefined
    ? fallback
    : [...new Set(text.split(',').map((x) => Number(x.replaceAll('_', ''))))].filter((x) => x > 0).sort((a, b) => a - b);

function parseArgs(argv) {
  const valued = new Set(['--broadcasts', '--worked', '--clients', '--seconds', '--minutes']);
  const chosen = argv.filter((a, i) => !a.startsWith('-') && !valued.has(argv[i - 1]));
  const unknown = chosen.filter((a) => !ALL.includes(a));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);
    process.exit(2);
  }
  const benches = chosen.length ? ALL.filter((b) => chosen.includes(b)) : DEFAULT;
  const reuse = argv.includes('--reuse');
  const smoke = argv.includes('--smoke');
  const broadcasts = smoke ? SMOKE_BROADCASTS : sizesOf(option(argv, 'broadcasts'), [10_000, 100_000]);
  const worked = smoke ? SMOKE_WORKED : sizesOf(option(argv, 'worked'), [100_000]);
  const clients = Number(option(argv, 'clients') ?? (smoke ? 3 : 20));
  const seconds = Number(option(argv, 'seconds') ?? (smoke ? 4 : 60));
  const minutes = Number(option(argv, 'minutes') ?? (smoke ? 0.1 : 30));
  if (!broadcasts.length || !worked.length || !(clients > 0) || !(seconds > 0) || !(minutes > 0)) {
    console.error('--broadcasts and --worked take comma-separated sizes; --clients, --seconds and --minutes positive numbers');
    process.exit(2);
  }
  if (reuse && smoke) {
    console.error('--reuse and --smoke do not go together: the smoke run always seeds its own tiny data');
    process.exit(2);
  }
  if (reuse && benches.some((b) => !READ_ONLY.includes(b))) {
    console.error(`--reuse only with read-only benchmarks (${READ_ONLY.join(', ')}): the others change the data`);
    process.exit(2);
  }
  // `--no-collect`: the soak reads the isolates' heaps as they are, without a full collection first.
  const collect = !argv.includes('--no-collect');
  return { benches, reuse, smoke, broadcasts, worked, clients, seconds, minutes, collect };
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
  const { benches, reuse, smoke, broadcasts, worked, clients, seconds, minutes, collect } = parseArgs(process.argv.slice(2));
  const plan = smoke ? SMOKE_PLAN : PLAN;
  const port = Number(process.env.BENCH_PORT || (smoke ? await freePort() : 8791));
  if (port === 8787) throw new Error('port 8787 belongs to `npm run dev`; choose another BENCH_PORT');
  if (!(await portIsFree(port))) throw new Error(`port ${port} is in use; set BENCH_PORT to a free port`);
  const has = (b) => benches.includes(b);

  const t0 = performance.now();
  const started = new Date();
  // The smoke run keeps to a folder of its own, so the data of the last full run stays for --reuse.
  const stateDir = smoke ? join(STATE_DIR, 'smoke') : STATE_DIR;
  const persistTo = join(stateDir, 'wrangler');
  const sqlDir = join(stateDir, 'sql');
  const logFile = join(stateDir, 'wrangler.log');
  const manifestFile = join(sqlDir, 'manifest.json');
  const saveManifest = () => writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  let manifest;
  let loadSeconds = 0;
  const loadFiles = async (files) => {
    const tLoad = performance.now();
    await load(persistTo, files, logFile, (msg) => console.log(`[bench] ${msg} — ${elapsed(t0)}`));
    loadSeconds += (performance.now() - tLoad) / 1000;
  };
  if (reuse && existsSync(manifestFile) && existsSync(persistTo)) {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    // The data stays as it is: one size each, the last run's.
    broadcasts.splice(0, broadcasts.length, manifest.counts.openBroadcasts);
    worked.splice(0, worked.length, manifest.counts.insightRows);
    console.log(`[bench] reusing the data seeded ${new Date(manifest.now).toISOString()} in ${persistTo.replace(`${ROOT}/`, '')}`);
  } else {
    if (reuse) console.log('[bench] --reuse: no earlier data found, seeding');
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(stateDir, { recursive: true });
    console.log(`[bench] generating ${smoke ? 'smoke ' : ''}data (fresh state in ${persistTo.replace(`${ROOT}/`, '')})…`);
    // What the load and soak runs consume is seeded for their length; a few for the counts.
    const runSeconds = Math.max(has('load') ? seconds : 0, has('soak') ? minutes * 60 : 0);
    const pools = runSeconds ? poolsFor(runSeconds, clients) : { claims: 4, clockIns: 2, clockOuts: 2, clients: 1 };
    const generated = generate(sqlDir, {
      uncontendedClaims: plan.uncontendedClaims,
      contendedRounds: plan.contendedRounds,
      ...(smoke ? { warmupClaims: 2 } : {}),
      sizes: { ...(smoke ? SMOKE_SIZES : {}), openBroadcasts: broadcasts[0], insightRows: worked[0] },
      pools,
    });
    manifest = generated.manifest;
    console.log(
      `[bench] ${manifest.counts.rows.toLocaleString('en-US')} rows in ${generated.files.length} SQL files (${manifest.counts.shiftRequests.toLocaleString('en-US')} shift requests) — ${elapsed(t0)}`,
    );
    await loadFiles(generated.files);
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
  let server = null;
  let startSeconds = 0;
  let reloads = 0;
  const start = async () => {
    const tStart = performance.now();
    server = await startServer({ port, persistTo, logFile, script });
    startSeconds += (performance.now() - tStart) / 1000;
    // The figures' windowed rollups follow the clock: the 5-minute job, run once the data is in.
    const r = await call(server.base, 'POST', '/__bench/rollups');
    if (r.status !== 200) throw new Error(`the rollup job failed: ${JSON.stringify(r.body).slice(0, 300)}`);
    console.log(`[bench] wrangler dev answers on ${server.base}; rollup windows moved (${JSON.stringify(r.body.steps)}) — ${elapsed(t0)}`);
  };
  const stop = async () => {
    reloads += server.reloads();
    await server.stop();
    server = null;
  };
  /** Grows the data to `size` with the server stopped (its SQLite file is written by the loader). */
  const grow = async (what, size, batch) => {
    const have = what === 'broadcasts' ? manifest.counts.openBroadcasts : manifest.counts.insightRows;
    if (size <= have) return;
    await stop();
    console.log(`[bench] growing to ${size.toLocaleString('en-US')} ${what === 'broadcasts' ? 'open broadcasts' : 'worked shifts'}…`);
    const files = (what === 'broadcasts' ? generateBroadcasts : generateWorked)(sqlDir, manifest, size - have, batch);
    saveManifest();
    await loadFiles(files);
    await start();
  };

  const results = { sizes: { broadcasts, worked } };
  /** The machine's 1-minute load average around each benchmark: others' work on a shared machine shows in the figures. */
  const machineLoad = [];
  const run = async (name, fn) => {
    const tb = performance.now();
    const before = loadavg()[0];
    console.log(`[bench] running ${name}… (load average ${before.toFixed(1)})`);
    const res = await fn();
    res.seconds = (performance.now() - tb) / 1000;
    res.loadAverage = { before, after: loadavg()[0] };
    machineLoad.push({ name, ...res.loadAverage });
    console.log(`[bench] ${name} done in ${res.seconds.toFixed(1)} s (load average ${res.loadAverage.after.toFixed(1)}) — ${elapsed(t0)}`);
    return res;
  };
  try {
    await start();
    if (has('claims')) results.claims = await run('claims', () => benchClaims(server.base, manifest));
    if (has('broadcasts')) {
      results.broadcasts = [];
      for (const [i, size] of broadcasts.entries()) {
        if (!reuse) await grow('broadcasts', size, i);
        results.broadcasts.push(
          await run(`broadcasts at ${manifest.counts.openBroadcasts}`, () =>
            benchBroadcasts(server.base, manifest, { requests: plan.listRequests }),
          ),
        );
      }
    }
    if ((has('dashboard') || has('schedule')) && !manifest.dashboard)
      throw new Error('the data was seeded before the dashboard business existed: run without --reuse');
    if (has('lists') || has('insights') || has('dashboard') || has('schedule') || has('auth')) {
      for (const k of ['lists', 'insights', 'dashboard', 'schedule', 'auth']) if (has(k)) results[k] = [];
      for (const [i, size] of worked.entries()) {
        if (!reuse) await grow('worked', size, i);
        if (has('lists'))
          results.lists.push(
            await run(`lists at ${manifest.counts.insightRows}`, () =>
              benchLists(server.base, manifest, { requests: plan.insightRequests }),
            ),
          );
        if (has('insights'))
          results.insights.push(
            await run(`insights at ${manifest.counts.insightRows}`, () =>
              benchInsights(server.base, manifest, { requests: plan.insightRequests }),
            ),
          );
        // The business's pages, with the least authenticated read interleaved: the table grows, the business's week does not.
        if (has('dashboard'))
          results.dashboard.push(
            await run(`dashboard at ${manifest.counts.insightRows}`, () =>
              benchDashboard(server.base, manifest, { rounds: plan.dashboardRounds }),
            ),
          );
        // The schedule's week of ~850 shifts and its calendar feed, against the least read (issue 34: within 3×).
        if (has('schedule'))
          results.schedule.push(
            await run(`schedule at ${manifest.counts.insightRows}`, () =>
              benchSchedule(server.base, manifest, { rounds: plan.scheduleRounds }),
            ),
          );
        // The least authenticated read, measured beside the figures it is the yardstick of.
        if (has('auth')) results.auth.push(await run('auth', () => benchAuthRead(server.base, manifest, { rounds: plan.authRounds })));
      }
    }
    // At the largest size: the scale plan (docs/scale.md) is built on what each request costs there.
    if (has('counts'))
      results.counts = await run(`counts at ${manifest.counts.openBroadcasts} and ${manifest.counts.insightRows}`, () =>
        benchCounts(server.base, manifest, { persistTo, workDir: join(stateDir, 'sql-copy') }),
      );
    if (has('load')) results.load = await run('load', () => benchLoad(server.base, manifest, { seconds, clients }));
    if (has('soak')) {
      const heap = await openHeapProbe({ pgid: server.pid, inspectorPort: server.inspectorPort, collect });
      if (!heap) console.log('[bench] the runtime inspector is out of reach: the soak samples the resident memory alone');
      try {
        results.soak = await run('soak', () =>
          benchLoad(server.base, manifest, {
            seconds: Math.round(minutes * 60),
            clients,
            sampleSeconds: smoke ? 2 : 60,
            pgid: server.pid,
            seed: 2,
            persistTo,
            heap,
          }),
        );
      } finally {
        heap?.close();
      }
    }
  } finally {
    if (server) await stop();
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
  for (const b of results.broadcasts ?? []) printBroadcasts(b);
  if ((results.broadcasts?.length ?? 0) > 1) printBroadcastSizes(results.broadcasts);
  for (const l of results.lists ?? []) printLists(l);
  for (const [i, r] of (results.insights ?? []).entries()) printInsights(r, results.auth?.[i]);
  if ((results.insights?.length ?? 0) > 0) printInsightSizes(results.insights, results.lists ?? [], results.auth ?? []);
  for (const d of results.dashboard ?? []) printDashboard(d);
  for (const d of results.schedule ?? []) printSchedule(d);
  for (const a of results.auth ?? []) printAuthRead(a);
  if (results.counts) printCounts(results.counts);
  if (results.load) printLoad(results.load);
  if (results.soak) printSoak(results.soak);
  printTable(
    `Machine load — the 1-minute load average before and after each benchmark (${machine.cpus} cores: above ${machine.cpus} others' work shares the cores with the measurement)`,
    ['benchmark', 'before', 'after'],
    machineLoad.map((m) => [m.name, m.before.toFixed(1), m.after.toFixed(1)]),
  );

  const failures = [];
  for (const [name, r] of Object.entries(results)) {
    if (name === 'sizes') continue;
    for (const one of Array.isArray(r) ? r : [r]) for (const f of one.failures ?? []) failures.push(`${name}: ${f}`);
  }
  if (results.load?.errors) failures.push(`load: ${results.load.errors} errors`);
  if (results.soak?.errors) failures.push(`soak: ${results.soak.errors} errors`);
  if (results.soak && !smoke && memoryVerdict(results.soak.memory).flat === false) failures.push('soak: workerd memory grew');
  if (results.soak && !smoke && heapVerdict(results.soak).flat === false) failures.push("soak: the Worker's heap grew");
  // The probe opened (it is null where the inspector is out of reach) but read no heap: it has rotted.
  if (results.soak?.heapProbe && !results.soak.memory.some((m) => typeof m.workerMb === 'number'))
    failures.push("soak: the heap probe read no heap of the Worker's");
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
  if (!reuse) saveManifest();
  const file = writeResults(
    '',
    {
      started: started.toISOString(),
      source,
      machine,
      settings: BENCH_VARS,
      plan: PLAN,
      counts: manifest.counts,
      timings: { loadSeconds, startSeconds, totalSeconds },
      results,
      failures,
    },
    started,
  );
  console.log(`Results written to ${file}`);
  if (failures.length) {
    console.error(`\n${failures.length} unexpected answer(s):`);
    for (const f of failures.slice(0, 20)) console.error(`  ${f}`);
    process.exitCode = 1;
  }
}

/** p50 at concurrency 1 of one mode of a broadcast run. */
const p50Of = (res, mode) => res.rows.find((r) => r.mode === mode && r.concurrency === 1)?.latency.p50 ?? null;

function printBroadcastSizes(runs) {
  const first = runs[0];
  printTable(
    'Broadcast listing by size — p50 at concurrency 1 (ms); growth against the smallest size',
    ['open broadcasts', 'newest first', 'growth', 'relevance', 'growth', 'relevance ÷ newest'],
    runs.map((r) => {
      const n = p50Of(r, 'newest first');
      const rel = p50Of(r, 'relevance');
      return [
        r.openBroadcasts.toLocaleString('en-US'),
        ms(n),
        `${(n / p50Of(first, 'newest first')).toFixed(2)}×`,
        ms(rel),
        `${(rel / p50Of(first, 'relevance')).toFixed(2)}×`,
        `${(rel / n).toFixed(2)}×`,
      ];
    }),
  );
}

function printInsightSizes(insights, lists, auths) {
  const p50 = (res, name) => res.rows.find((r) => (r.endpoint ?? r.name) === name && r.concurrency === 1)?.latency.p50 ?? null;
  const least = (a) => a?.rows.find((r) => r.layer.startsWith('+ the user'))?.latency.p50 ?? null;
  printTable(
    'Figures and lists by size — p50 at concurrency 1 (ms); the figures against the least authenticated read measured beside them',
    [
      'worked shifts',
      'going rate',
      'labor costs',
      'crew analytics',
      'least read',
      'worst ÷ least',
      'requests p1',
      'requests p6',
      'inbox p1',
      'inbox p6',
    ],
    insights.map((r, i) => {
      const l = lists[i];
      const figures = ['going_rate', 'labor_costs', 'crew_analytics'].map((n) => p50(r, n));
      const ls = least(auths[i]);
      return [
        r.totalRows.toLocaleString('en-US'),
        ...figures.map(ms),
        ms(ls),
        ls ? `${(Math.max(...figures) / ls).toFixed(2)}×` : '—',
        ...(l
          ? ['list_of_requests, page 1', 'list_of_requests, page 6', 'inbox, page 1', 'inbox, page 6'].map((n) => ms(p50(l, n)))
          : ['—', '—', '—', '—']),
      ];
    }),
  );
}

runBench('bench', main);
