#!/usr/bin/env node
// The import rules of src/ (docs/decisions/code-layout.md, "Front doors"), checked on every file:
// 1. Front doors: a domain (src/services/<domain>/, the kernel included) and a local development tool
//    (src/local/<tool>/) is imported from outside only through its index.ts.
// 2. Layers: the kernel imports no domain and no local tool; access imports only the kernel; no
//    service imports a surface (routes, web pages, MCP tools, jobs, queue consumers, Durable Objects,
//    http) or a local tool.
// 3. No cycle between domains and local tools (type-only imports count: they are dependencies too).
// 4. Entries name what they export: no `export *` in services/<domain>/index.ts or local/<tool>/index.ts.
// 5. A domain's internal/ folder is imported by that domain's own files only.
// 6. Tests, benchmarks and packages (test/, bench/, packages/, src/**/*.test.ts) are callers like any
//    other: they import a domain through its entry. A test that checks a domain's insides declares it
//    at its top, `// inside: services/shifts` (several separated by commas), and may then import that
//    domain's files, internal/ included.
// 7. No two files of src/ import each other (type-only imports count).
// Surfaces don't query, and src/http/ imports no src/web/ code: the block of that name below.
// The browser and the Worker: the block of that name below.
// Prints the layers it found (`--graph`) and exits 1 on any violation. `--root <dir>` (or
// CHECK_IMPORTS_ROOT) checks another tree laid out the same way (the checker's own test does).
import fs from 'node:fs';
import path from 'node:path';

const rootArg = process.argv.indexOf('--root');
const ROOT = path.resolve(
  rootArg > 0 && process.argv[rootArg + 1]
    ? process.argv[rootArg + 1]
    : (process.env.CHECK_IMPORTS_ROOT ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..')),
);
const SRC = path.join(ROOT, 'src');
/** Folders whose files call src/ from outside it. */
const CALLER_DIRS = ['test', 'bench', 'packages'];
const SURFACES = ['routes', 'web', 'mcp', 'jobs', 'queues', 'durable-objects', 'http'];

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The files of test/, bench/ and packages/ (their dependencies and builds left out), and src/'s own tests. */
function callerFiles() {
  const all = (dir) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : all(p);
          return /\.(tsx?|mts|mjs|js)$/.test(e.name) ? [p] : [];
        })
      : [];
  return [...CALLER_DIRS.flatMap((d) => all(path.join(ROOT, d))), ...all(SRC).filter((f) => /\.test\.tsx?$/.test(f))];
}

/** Names that stand for a folder of src/ (tsconfig.json `paths`): checked like a relative import of it. */
const ALIASES = { '@shiftmarket/tool-specs': path.join(SRC, 'mcp', 'tool-specs') };
/** Prefixes that stand for a folder (tsconfig.json `paths`): `@/web/format` is src/web/format. */
const PREFIXES = { '@/': SRC, '@generated/': path.join(ROOT, 'generated') };
const prefixOf = (spec) => Object.keys(PREFIXES).find((p) => spec?.startsWith(p));
/** An import of the project's own files: relative, one of ALIASES, or under one of PREFIXES. */
const isLocal = (spec) => spec?.startsWith('.') || Object.hasOwn(ALIASES, spec ?? '') || prefixOf(spec) !== undefined;

function resolveImport(from, spec) {
  const prefix = prefixOf(spec);
  const base = Object.hasOwn(ALIASES, spec)
    ? ALIASES[spec]
    : prefix
      ? path.join(PREFIXES[prefix], spec.slice(prefix.length).replace(/\?.*$/, ''))
      : path.resolve(path.dirname(from), spec.replace(/\?.*$/, ''));
  if (base.startsWith(path.join(ROOT, 'generated') + path.sep)) return `${base}.ts`; // built, maybe not yet
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}

/** The unit a file belongs to: `services/<domain>`, `local/<tool>`, or null (surfaces, db, lib). */
function unitOf(file) {
  const rel = path.relative(SRC, file).split(path.sep);
  if ((rel[0] === 'services' || rel[0] === 'local') && rel.length > 2) return `${rel[0]}/${rel[1]}`;
  return null;
}

/** Where a file sits in its unit, with / separators: `index.ts` for the entry, `internal/…` for internal files. */
const placeIn = (unit, file) => path.relative(path.join(SRC, unit), file).split(path.sep).join('/');
const isEntry = (unit, file) => /^index\.tsx?$/.test(placeIn(unit, file));
const isInternal = (unit, file) => placeIn(unit, file).startsWith('internal/');
const isTestFile = (rel) => /(^|\/)test\//.test(rel) || /\.test\.[cm]?[jt]sx?$/.test(rel);

/** The domains a test declares it checks the insides of: `// inside: services/a, local/b` above its imports. */
function declaredInside(text) {
  const head = text.slice(0, text.search(/^(?:import|export)\s/m) >>> 0);
  return new Set(
    [...head.matchAll(/^\/\/\s*inside:\s*(.+)$/gm)].flatMap((m) =>
      m[1]
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    ),
  );
}

const IMPORT_RE =
  /(?:^|[^.\w])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

const problems = [];
const edges = new Map(); // unit -> Map(unit -> example "file -> spec")
const units = new Set();
const fileImports = new Map(); // file -> Set(file), for the pair rule

for (const file of walk(SRC)) {
  const text = fs.readFileSync(file, 'utf8');
  const fromUnit = unitOf(file);
  if (fromUnit) units.add(fromUnit);
  const relFile = path.relative(ROOT, file);
  if (fromUnit && isEntry(fromUnit, file) && /^\s*export\s*\*/m.test(text)) {
    problems.push(`${relFile}: \`export *\` in an entry; name what the domain exports (export { a, type B } from './file')`);
  }
  const imported = new Set();
  fileImports.set(file, imported);
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!isLocal(spec)) continue;
    const target = resolveImport(file, spec);
    if (!target) {
      problems.push(`${relFile}: cannot resolve '${spec}'`);
      continue;
    }
    imported.add(target);
    const toUnit = unitOf(target);
    const top = path.relative(SRC, target).split(path.sep)[0];
    if (fromUnit?.startsWith('services/') && (SURFACES.includes(top) || top === 'local')) {
      problems.push(`${relFile}: a service imports ${path.relative(ROOT, target)} (services never import a surface or a local tool)`);
    }
    if (!toUnit || toUnit === fromUnit) continue;
    if (isInternal(toUnit, target)) {
      problems.push(`${relFile}: imports '${spec}', in ${toUnit}/internal/; only ${toUnit}'s own files import it`);
    } else if (!isEntry(toUnit, target)) {
      problems.push(`${relFile}: imports '${spec}', inside ${toUnit}; import its entry (${toUnit}/index.ts)`);
    }
    if (fromUnit) {
      if (!edges.has(fromUnit)) edges.set(fromUnit, new Map());
      if (!edges.get(fromUnit).has(toUnit)) edges.get(fromUnit).set(toUnit, `${relFile} -> ${spec}`);
    }
  }
}

// Callers outside src/ (tests, benchmarks, packages) go through the entries too, save what a test declares.
for (const file of callerFiles()) {
  const text = fs.readFileSync(file, 'utf8');
  const relFile = path.relative(ROOT, file).split(path.sep).join('/');
  const inside = declaredInside(text);
  if (inside.size && !isTestFile(relFile)) problems.push(`${relFile}: declares \`// inside:\`, which only a test may`);
  for (const u of inside) {
    if (unitOf(path.join(SRC, u, 'x.ts')) !== u || !fs.existsSync(path.join(SRC, u))) {
      problems.push(`${relFile}: declares inside ${u}, which is no domain (services/<domain>) or local tool (local/<tool>)`);
    }
  }
  const reached = new Set();
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!isLocal(spec)) continue;
    const target = resolveImport(file, spec);
    const toUnit = target && unitOf(target);
    if (!toUnit || isEntry(toUnit, target)) continue;
    if (inside.has(toUnit) && isTestFile(relFile)) {
      reached.add(toUnit);
      continue;
    }
    problems.push(
      `${relFile}: imports '${spec}', inside ${toUnit}; import its entry (${toUnit}/index.ts), or, if the test checks ${toUnit}'s insides, declare \`// inside: ${toUnit}\` at its top`,
    );
  }
  for (const u of inside) if (!reached.has(u)) problems.push(`${relFile}: declares inside ${u} but imports none of its files; drop it`);
}

// Pairs: no two files import each other (a shared type or constant goes to a third file).
for (const [a, tos] of fileImports) {
  for (const b of tos) {
    if (a < b && fileImports.get(b)?.has(a)) {
      problems.push(`${path.relative(ROOT, a)} and ${path.relative(ROOT, b)} import each other; move what both need to a third file`);
    }
  }
}

for (const [from, tos] of edges) {
  for (const [to, where] of tos) {
    if (from === 'services/kernel') problems.push(`the kernel imports ${to} (${where}); the kernel imports no domain`);
    if (from === 'services/access' && to !== 'services/kernel')
      problems.push(`access imports ${to} (${where}); access sits on the kernel alone`);
  }
}

// Cycles: depth-first search over the unit graph, reporting each back edge's cycle once.
const state = new Map();
const stack = [];
const seenCycles = new Set();
function visit(u) {
  state.set(u, 'open');
  stack.push(u);
  for (const v of edges.get(u)?.keys() ?? []) {
    if (state.get(v) === 'open') {
      const cycle = [...stack.slice(stack.indexOf(v)), v];
      const key = [...cycle].sort().join(',');
      if (!seenCycles.has(key)) {
        seenCycles.add(key);
        const hops = cycle.slice(0, -1).map((a, i) => `  ${edges.get(a).get(cycle[i + 1])}`);
        problems.push(`cycle: ${cycle.join(' -> ')}\n${hops.join('\n')}`);
      }
    } else if (!state.has(v)) visit(v);
  }
  stack.pop();
  state.set(u, 'done');
}
for (const u of [...units].sort()) if (!state.has(u)) visit(u);

// ── Surfaces don't query; http imports no page (docs/decisions/code-layout.md "Surfaces don't query") ──
// - A surface (the SURFACES folders, and the Worker's top files src/app.ts, src/index.ts, src/docs.ts)
//   reaches D1 only through a domain entry: it imports neither `drizzle-orm` (nor `drizzle-orm/…`) nor
//   anything of src/db/ but src/db/client.ts (createDb and the Db type, to build a service context).
//   Type-only imports count. The Durable Objects keep their own SQLite storage through `ctx.storage`,
//   which needs neither import; none of them reads D1.
// - Not surfaces, so not held to it: src/services/ and src/db/ (where the queries live), src/lib/
//   (src/lib/log.test.ts, a test, reads a drizzle error class), and the local development tools of
//   src/local/ (the demo seeder and the local payment simulator), which write storage directly: they
//   are tools run on a development or demo deployment, not a way in for requests.
// - src/http/ imports nothing of src/web/: what both need sits in src/http/ (the app's cookies and the
//   CSRF header name in http/cookies.ts, requestOrigin in http/origin.ts) and the pages import it there.
{
  const TOP_FILES = ['app.ts', 'index.ts', 'docs.ts'];
  const DB_DIR = path.join(SRC, 'db');
  const DB_CLIENT = path.join(DB_DIR, 'client.ts');
  for (const file of walk(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep);
    const surface = SURFACES.includes(rel[0]) || (rel.length === 1 && TOP_FILES.includes(rel[0]));
    if (!surface) continue;
    const relFile = path.relative(ROOT, file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      if (spec === 'drizzle-orm' || spec.startsWith('drizzle-orm/')) {
        problems.push(
          `${relFile}: imports '${spec}'; a surface reaches D1 through a domain entry (move the query into the domain that owns the rows)`,
        );
        continue;
      }
      if (!isLocal(spec)) continue;
      const target = resolveImport(file, spec);
      if (!target) continue; // reported above
      if (target.startsWith(DB_DIR + path.sep) && target !== DB_CLIENT) {
        problems.push(`${relFile}: imports '${spec}' (src/db/ beyond client.ts); a surface reaches D1 through a domain entry`);
      }
      if (rel[0] === 'http' && path.relative(SRC, target).split(path.sep)[0] === 'web') {
        problems.push(
          `${relFile}: imports '${spec}', in src/web/; src/http/ imports no page code (move what both need to src/http/ or src/lib/)`,
        );
      }
    }
  }
}

// ── The browser and the Worker (docs/decisions/code-layout.md "The web application by feature") ──
// The web application's browser files are the islands (src/web/features/<feature>/<name>.island.ts(x)),
// the client-only libraries beside them (*.client.ts), the shared client (src/web/client/) and the
// service worker (src/web/service-worker/). They are bundled for the browser, so:
// - a browser file imports only browser files and models (*.model.ts: pure code both sides use), and
//   the Worker's emitted declarations (generated/types/, type-only: the typed client's route types);
// - a model imports only models (it runs on both sides);
// - both may import the ground floor's files that run on both sides (BOTH_SIDES: pure, importing
//   nothing), so a rule the services apply and the page shows is one function (the geofence);
// - nothing else imports a browser file (the Worker finds an island by name, WEB_ENTRIES.islands).
{
  const WEB = path.join(SRC, 'web');
  const rel = (f) => path.relative(WEB, f).split(path.sep).join('/');
  const inWeb = (f) => f.startsWith(WEB + path.sep);
  const isBrowser = (f) => inWeb(f) && (/\.(island\.tsx?|client\.ts)$/.test(f) || /^(client|service-worker)\//.test(rel(f)));
  const isModel = (f) => inWeb(f) && /\.model\.ts$/.test(f);
  const BOTH_SIDES = new Set([path.join(SRC, 'lib', 'geo.ts')]);
  const GENERATED_TYPES = path.join(ROOT, 'generated', 'types') + path.sep;
  for (const file of walk(SRC)) {
    const relFile = path.relative(ROOT, file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!isLocal(spec)) continue;
      const target = resolveImport(file, spec);
      if (!target) continue;
      // The typed client's one link to the Worker: its route types, from the emitted declarations.
      const typeOnly = /^\s*import\s+type\s/.test(m[0].replace(/^[^i]*/, ''));
      if (target.startsWith(GENERATED_TYPES) && typeOnly) continue;
      if (BOTH_SIDES.has(target)) continue;
      if (isBrowser(file) && !isBrowser(target) && !isModel(target)) {
        problems.push(`${relFile}: a browser file imports '${spec}', which is neither a browser file nor a model (*.model.ts)`);
      } else if (isModel(file) && !isModel(target)) {
        problems.push(`${relFile}: a model imports '${spec}'; a model (*.model.ts) runs on both sides and imports only models`);
      } else if (!isBrowser(file) && isBrowser(target)) {
        problems.push(`${relFile}: imports '${spec}', a browser file; the Worker finds an island by name (WEB_ENTRIES.islands)`);
      }
    }
  }
}

if (process.argv.includes('--graph') && seenCycles.size === 0) {
  // Layers: a unit's layer is one more than the highest layer it imports.
  const layer = new Map();
  const depth = (u) => {
    if (layer.has(u)) return layer.get(u);
    const d = Math.max(-1, ...[...(edges.get(u)?.keys() ?? [])].map(depth)) + 1;
    layer.set(u, d);
    return d;
  };
  for (const u of units) depth(u);
  const byLayer = [];
  for (const [u, d] of layer) {
    byLayer[d] = [...(byLayer[d] ?? []), u];
  }
  for (const [d, us] of byLayer.entries()) console.log(`layer ${d}: ${us.sort().join(', ')}`);
}

if (problems.length) {
  console.error(`Import rules: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Import rules hold: ${units.size} domains and local tools, named entries, no deep import, no cycle, no file pair.`);
