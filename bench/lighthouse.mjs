// `npm run bench:lighthouse`: Lighthouse's mobile audit (its default form factor and throttling) of
// the shifter's find-shifts page, /dashboard/shifter/find, signed in as the demo shifter Jordan, and of
// the landing page `/` for a visitor, for the categories performance and accessibility. Each page is
// audited RUNS times (3), the pages taking turns, each audit in a fresh Chromium (/usr/bin/chromium,
// CHROMIUM_PATH) with an empty profile, so every run loads the page cold. Prints each run's scores and
// metrics (FCP, LCP, TBT, CLS, Speed Index), their medians, every accessibility audit that failed and,
// for a page under 90, the performance audits that cost the most; writes
// bench/results/lighthouse-<time>.json, and keeps each run's full report in bench/.state/lighthouse/.
// The targets (issue 25): performance ≥ 90 and accessibility 100 on an idle machine; the machine's
// 1-minute load average before and after is printed beside the figures.
//
// The Worker serves the demo world as under `npm run dev` (DEMO_MODE with a fresh seed token, the
// demo seed) from a bundled snapshot (bench/server.mjs) with its own state in bench/.state/lighthouse/;
// the shifter signs in through the /login form and Lighthouse sends the session cookie with every
// request (`extraHeaders`).
// `--smoke`: one audit of the find page, in bench/.state/smoke/lighthouse/: checks that the page was
// audited signed in (not sent to /login) and that both categories were scored; no results file.
// Environment: BENCH_PORT (default: a free port), RUNS (3), CHROMIUM_PATH.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { callSeed, DEV_VARS, newSeedToken } from '../scripts/dev.mjs';
import { freePort, ms, portIsFree, printTable, ROOT, runWrangler, sleep, STATE_DIR, track, writeResults } from './common.mjs';
import { buildSnapshot, runBench, startServer } from './server.mjs';

const SMOKE = process.argv.includes('--smoke');
const RUNS = SMOKE ? 1 : Number(process.env.RUNS || 3);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHIFTER = 'jordan';
const FIND = '/dashboard/shifter/find';
const TARGET = { performance: 90, accessibility: 100 };
/** The metrics printed, by Lighthouse audit id, with how each is shown. */
const METRICS = [
  ['FCP', 'first-contentful-paint', (v) => `${ms(v)} ms`],
  ['LCP', 'largest-contentful-paint', (v) => `${ms(v)} ms`],
  ['TBT', 'total-blocking-time', (v) => `${ms(v)} ms`],
  ['CLS', 'cumulative-layout-shift', (v) => v.toFixed(3)],
  ['SI', 'speed-index', (v) => `${ms(v)} ms`],
];

const elapsed = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const log = (msg) => console.log(`[lighthouse] ${msg}`);
const median = (values) => {
  const s = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (!s.length) return null;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The cookies a response sets, as `name=value` pairs (attributes dropped). */
const cookiesOf = (res) => Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(';')[0].split(/=(.*)/s).slice(0, 2)));
const cookieHeader = (jar) =>
  Object.entries(jar)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** Signs in through the /login form as a browser would; returns the Cookie header of the session. */
async function signIn(base, { email, password }) {
  const form = await fetch(`${base}/login?next=${encodeURIComponent(FIND)}`, { redirect: 'manual' });
  const html = await form.text();
  const csrf = html.match(/name="_csrf" value="([^"]+)"/)?.[1];
  if (form.status !== 200 || !csrf) throw new Error(`GET /login answered ${form.status} without a CSRF field`);
  const jar = cookiesOf(form);
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookieHeader(jar) },
    body: new URLSearchParams({ _csrf: csrf, next: FIND, email, password }),
  });
  await res.arrayBuffer();
  Object.assign(jar, cookiesOf(res));
  const to = res.headers.get('location') ?? '';
  if (res.status !== 303 || !to.startsWith(FIND)) throw new Error(`signing in as ${email} answered ${res.status} to ${to || 'nowhere'}`);
  const cookie = cookieHeader(jar);
  const page = await fetch(`${base}${FIND}`, { headers: { Cookie: cookie }, redirect: 'manual' });
  const body = await page.text();
  if (page.status !== 200 || !body.includes('<main')) throw new Error(`${FIND} answered ${page.status} after signing in`);
  return cookie;
}

/** A headless Chromium with an empty profile and a DevTools port, for one audit; resolves to { port, close }. */
async function launchChromium() {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'shiftmarket-lighthouse-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Nothing but loopback resolves: a page that reached for another host would show it in the audit.
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    `--remote-debugging-port=${port}`,
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
  const child = track(spawn(CHROMIUM, args, { stdio: 'ignore', detached: true }));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await Promise.race([exited, sleep(5_000)]);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* the group is empty */
      }
    }
    rmSync(profile, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return { port, close };
    } catch {
      await sleep(200);
    }
  }
  await close();
  throw new Error(`${CHROMIUM} did not open its DevTools port within 30 s`);
}

/** One mobile audit of `url`; returns its figures, the failed accessibility audits and the costliest performance audits. */
async function audit(url, cookie, keepReport) {
  const chrome = await launchChromium();
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr, report } = result;
    if (keepReport) writeFileSync(keepReport, typeof report === 'string' ? report : report[0]);
    if (lhr.runtimeError)
      throw new LighthouseRuntimeError(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (id) =>
      lhr.categories[id]?.score === null || lhr.categories[id]?.score === undefined ? null : Math.round(lhr.categories[id].score * 100);
    const failedA11y = lhr.categories.accessibility.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
      .map((a) => ({
        id: a.id,
        title: a.title,
        items: (a.details?.items ?? []).map((i) => i.node?.snippet ?? i.node?.selector ?? '').slice(0, 5),
      }));
    const costly = lhr.categories.performance.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => ({ id: a.id, title: a.title, display: a.displayValue ?? '' }));
    return {
      requested: url,
      finalUrl: lhr.finalDisplayedUrl,
      lighthouse: lhr.lighthouseVersion,
      userAgent: lhr.environment?.hostUserAgent,
      benchmarkIndex: lhr.environment?.benchmarkIndex,
      performance: score('performance'),
      accessibility: score('accessibility'),
      metrics: Object.fromEntries(METRICS.map(([name, id]) => [name, lhr.audits[id]?.numericValue ?? null])),
      failedA11y,
      costly,
      warnings: lhr.runWarnings,
    };
  } finally {
    await chrome.close();
  }
}

/**
 * `audit`, tried again (up to twice) when Lighthouse could not record the load: under a heavy machine
 * load it now and then loses the trace (NO_NAVSTART, NO_FCP), which says nothing about the page.
 */
async function auditWithRetries(url, cookie, keepReport) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, cookie, keepReport);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof LighthouseRuntimeError)) throw err;
      log(`${err.message} — trying again`);
    }
  }
}

class LighthouseRuntimeError extends Error {}

function printPage(title, runs) {
  const cells = (r) => [
    r.performance ?? '—',
    r.accessibility ?? '—',
    ...METRICS.map(([name, , show]) => (r.metrics[name] === null ? '—' : show(r.metrics[name]))),
  ];
  const med = {
    performance: median(runs.map((r) => r.performance)),
    accessibility: median(runs.map((r) => r.accessibility)),
    metrics: Object.fromEntries(METRICS.map(([name]) => [name, median(runs.map((r) => r.metrics[name]))])),
  };
  printTable(
    title,
    ['run', 'performance', 'accessibility', ...METRICS.map(([name]) => name)],
    [
      ...runs.map((r, i) => [`${i + 1} (load ${r.loadAverage.toFixed(1)})`, ...cells(r)]),
      ...(runs.length > 1 ? [['median', ...cells(med)]] : []),
    ],
  );
  const failed = new Map();
  for (const r of runs) for (const a of r.failedA11y) failed.set(a.id, a);
  for (const a of failed.values())
    console.log(`  accessibility failed: ${a.id} — ${a.title}${a.items.length ? `\n    ${a.items.join('\n    ')}` : ''}`);
  if (!failed.size) console.log('  accessibility: no failed audit');
  if (med.performance !== null && med.performance < TARGET.performance) {
    const costly = new Map();
    for (const r of runs) for (const a of r.costly) costly.set(a.id, a);
    for (const a of costly.values()) console.log(`  performance: ${a.title}${a.display ? ` (${a.display})` : ''}`);
  }
  for (const w of new Set(runs.flatMap((r) => r.warnings ?? []))) console.log(`  Lighthouse warned: ${w}`);
  return med;
}

async function main() {
  const t0 = performance.now();
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium or set CHROMIUM_PATH`);
  const port = Number(process.env.BENCH_PORT || (await freePort()));
  if (port === 8787) throw new Error('port 8787 belongs to `npm run dev`; choose another BENCH_PORT');
  if (!(await portIsFree(port))) throw new Error(`port ${port} is in use; set BENCH_PORT to a free port`);
  const stateDir = join(STATE_DIR, ...(SMOKE ? ['smoke', 'lighthouse'] : ['lighthouse']));
  rmSync(stateDir, { recursive: true, force: true });
  const persistTo = join(stateDir, 'wrangler');
  const reports = join(stateDir, 'reports');
  mkdirSync(reports, { recursive: true });
  const logFile = join(stateDir, 'wrangler.log');

  log(`applying the migrations and bundling the Worker… (logs in ${stateDir.replace(`${ROOT}/`, '')}/)`);
  // Side by side: the two are independent and together are most of the smoke run's time.
  const [script] = await Promise.all([
    buildSnapshot(join(stateDir, 'build'), join(stateDir, 'build.log')),
    runWrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], logFile),
  ]);
  log(`migrations applied, Worker bundled — ${elapsed(t0)}`);
  const token = newSeedToken();
  const server = await startServer({ port, persistTo, logFile, script, vars: { ...DEV_VARS, DEMO_SEED_TOKEN: token } });
  log(`${server.base} serving — ${elapsed(t0)}`);
  try {
    const seeded = await callSeed(port, token);
    const accounts = seeded.body?.accounts ?? [];
    const shifter = accounts.find((a) => a.role === 'shifter' && a.email.startsWith(`${SHIFTER}@`));
    if (seeded.status !== 200 || !shifter)
      throw new Error(`seeding the demo world failed (HTTP ${seeded.status}) or it has no shifter ${SHIFTER}`);
    const cookie = await signIn(server.base, shifter);
    log(`demo world seeded, signed in as ${shifter.email} — ${elapsed(t0)}`);

    const pages = [
      { name: 'find', title: `Find shifts — ${FIND} as the demo shifter ${shifter.email}`, url: `${server.base}${FIND}`, cookie },
      ...(SMOKE ? [] : [{ name: 'landing', title: 'Landing page — / for a visitor', url: `${server.base}/`, cookie: null }]),
    ];
    const runs = Object.fromEntries(pages.map((p) => [p.name, []]));
    const load = { before: loadavg()[0] };
    for (let i = 1; i <= RUNS; i++) {
      for (const p of pages) {
        const loadAverage = loadavg()[0];
        log(`run ${i}/${RUNS}: ${p.name} (load average ${loadAverage.toFixed(1)})…`);
        const r = await auditWithRetries(p.url, p.cookie, join(reports, `${p.name}-${i}.json`));
        if (new URL(r.finalUrl).pathname !== new URL(p.url).pathname)
          throw new Error(`${p.url} ended at ${r.finalUrl}: the audit did not see the page`);
        runs[p.name].push({ ...r, loadAverage });
      }
    }
    load.after = loadavg()[0];

    const summary = {};
    for (const p of pages)
      summary[p.name] = { url: p.url.replace(server.base, ''), median: printPage(p.title, runs[p.name]), runs: runs[p.name] };
    const first = runs[pages[0].name][0];
    console.log(
      `\nLighthouse ${first.lighthouse}, mobile (simulated slow 4G, 4× CPU slowdown), ${first.userAgent?.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}, benchmark index ${first.benchmarkIndex}; ` +
        `${cpus().length} cores, load average ${load.before.toFixed(1)} before, ${load.after.toFixed(1)} after`,
    );
    const unscored = Object.values(runs)
      .flat()
      .filter((r) => r.performance === null || r.accessibility === null);
    if (unscored.length) throw new Error(`${unscored.length} audit(s) without a score in a category`);
    const f = summary.find.median;
    const met = f.performance >= TARGET.performance && f.accessibility >= TARGET.accessibility;
    console.log(
      `Find shifts, median of ${RUNS}: performance ${f.performance} (target ≥ ${TARGET.performance}), accessibility ${f.accessibility} (target ${TARGET.accessibility}) ${met ? '✓' : '✗'}`,
    );
    if (SMOKE) {
      log(`smoke run (the numbers are not figures) — whole run ${elapsed(t0)}`);
      return;
    }
    const out = writeResults('lighthouse-', { runs: RUNS, machine: { cpus: cpus().length, loadAverage: load }, pages: summary });
    log(`results written to ${out}, full reports in ${reports.replace(`${ROOT}/`, '')} — whole run ${elapsed(t0)}`);
  } finally {
    await server.stop();
  }
}

runBench('lighthouse', main);
