// `npm run deploy:check` (CI): proves the Worker still deploys, without an account.
//
// 1. `wrangler deploy --dry-run --outdir <tmp>` bundles the Worker exactly as `npm run deploy` would
//    and runs wrangler's own checks (every Durable Object class wrangler.toml binds is exported, the
//    bindings, the static assets); it fails on any error. Then it prints the bundle's size, total and
//    gzipped, as wrangler counts it for the upload (Cloudflare's Worker size limit applies to the
//    gzipped figure: 3 MiB on Workers Free, 10 MiB on Workers Paid).
// 2. The tests run on the workerd that `npm run dev` and deploy use: @cloudflare/vitest-plugin must
//    resolve the project's own wrangler, miniflare and workerd (package.json `overrides`); it fails
//    when they differ, e.g. after an upgrade of wrangler without the override.
//
// `-- --config <file>` checks another wrangler config (e.g. wrangler.production.jsonc).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const WRANGLER = join(BIN, process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler');
const KiB = 1024;

/** The dry run; returns wrangler's own "Total Upload" figures (KiB) and the bundle's files. */
function dryRun(extraArgs) {
  const outdir = mkdtempSync(join(tmpdir(), 'shiftmarket-deploy-check-'));
  try {
    const run = spawnSync(WRANGLER, ['deploy', '--dry-run', '--outdir', outdir, ...extraArgs], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.status !== 0) {
      console.error(output);
      throw new Error(`wrangler deploy --dry-run failed (exit ${run.status ?? run.signal})`);
    }
    const m = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(output);
    // The modules wrangler would upload (source maps stay local unless upload_source_maps is on).
    const files = readdirSync(outdir)
      .filter((f) => /\.(m?js|wasm|bin|txt|html|sql)$/.test(f))
      .map((f) => {
        const bytes = readFileSync(join(outdir, f));
        return { file: f, bytes: statSync(join(outdir, f)).size, gzip: gzipSync(bytes).length };
      });
    return { total: m ? Number(m[1]) : null, gzip: m ? Number(m[2]) : null, files };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The version of `name` that Node's resolution finds from `dir` (walking up its node_modules). */
function resolvedVersion(name, dir) {
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, 'node_modules', ...name.split('/'), 'package.json');
    if (existsSync(file)) return { version: JSON.parse(readFileSync(file, 'utf8')).version, dir: dirname(file) };
    if (dirname(d) === d) return null;
  }
}

/** What the project runs (wrangler → its miniflare → its workerd). */
function projectRuntime() {
  const wrangler = resolvedVersion('wrangler', ROOT);
  const miniflare = wrangler && resolvedVersion('miniflare', wrangler.dir);
  const workerd = miniflare && resolvedVersion('workerd', miniflare.dir);
  return { wrangler: wrangler?.version, miniflare: miniflare?.version, workerd: workerd?.version };
}

/** What the vitest plugin runs: the wrangler and miniflare it imports, and that miniflare's workerd. */
function testRuntime(pluginDir) {
  const wrangler = resolvedVersion('wrangler', pluginDir);
  const miniflare = resolvedVersion('miniflare', pluginDir);
  const workerd = miniflare && resolvedVersion('workerd', miniflare.dir);
  return { wrangler: wrangler?.version, miniflare: miniflare?.version, workerd: workerd?.version };
}

const args = process.argv.slice(2);
const { total, gzip, files } = dryRun(args);
const mib = (kib) => (kib / KiB).toFixed(2);
if (total !== null) {
  console.log(`deploy check: wrangler deploy --dry-run passed`);
  console.log(
    `deploy check: Worker bundle ${total.toFixed(1)} KiB (${mib(total)} MiB), ${gzip.toFixed(1)} KiB gzipped (wrangler's upload figures)`,
  );
} else {
  // Wrangler did not print its figures: count the bundle's modules ourselves.
  const sum = (k) => files.reduce((a, f) => a + f[k], 0) / KiB;
  console.log(`deploy check: wrangler deploy --dry-run passed`);
  console.log(
    `deploy check: Worker bundle ${sum('bytes').toFixed(1)} KiB, ${sum('gzip').toFixed(1)} KiB gzipped (${files.length} module(s))`,
  );
}

const project = projectRuntime();
const pluginDir = resolvedVersion('@cloudflare/vitest-plugin', ROOT)?.dir;
const tests = pluginDir ? testRuntime(pluginDir) : null;
const show = (c) => `wrangler ${c.wrangler}, miniflare ${c.miniflare}, workerd ${c.workerd}`;
console.log(`deploy check: dev and deploy run ${show(project)}`);
if (tests) {
  const same = ['wrangler', 'miniflare', 'workerd'].every((k) => tests[k] === project[k]);
  console.log(`deploy check: the tests (@cloudflare/vitest-plugin) run ${show(tests)}${same ? ': the same' : ''}`);
  if (!same) {
    console.error(
      "deploy check: the tests would run another workerd than dev and deploy. Align the `overrides` of @cloudflare/vitest-plugin in package.json with the project's wrangler (and its miniflare), then `npm install` and `npm run lock:complete`.",
    );
    process.exitCode = 1;
  }
}
