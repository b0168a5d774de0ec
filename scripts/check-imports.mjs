#!/usr/bin/env node
// The import rules of src/ (README "Architecture"), checked on every file:
// 1. Front doors: a domain (src/services/<domain>/, the kernel included) and a local development tool
//    (src/local/<tool>/) is imported from outside only through its index.ts.
// 2. Layers: the kernel imports no domain and no local tool; access imports only the kernel; no
//    service imports a surface (routes, web pages, MCP tools, jobs, queue consumers, Durable Objects,
//    http) or a local tool.
// 3. No cycle between domains and local tools (type-only imports count: they are dependencies too).
// Prints the layers it found (`--graph`) and exits 1 on any violation.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SRC = path.join(ROOT, 'src');
const SURFACES = ['routes', 'web', 'mcp', 'jobs', 'queues', 'durable-objects', 'http'];

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec.replace(/\?.*$/, ''));
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

const IMPORT_RE =
  /(?:^|[^.\w])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

const problems = [];
const edges = new Map(); // unit -> Map(unit -> example "file -> spec")
const units = new Set();

for (const file of walk(SRC)) {
  const text = fs.readFileSync(file, 'utf8');
  const fromUnit = unitOf(file);
  if (fromUnit) units.add(fromUnit);
  const relFile = path.relative(ROOT, file);
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec?.startsWith('.')) continue;
    const target = resolveImport(file, spec);
    if (!target) {
      problems.push(`${relFile}: cannot resolve '${spec}'`);
      continue;
    }
    const toUnit = unitOf(target);
    const top = path.relative(SRC, target).split(path.sep)[0];
    if (fromUnit?.startsWith('services/') && (SURFACES.includes(top) || top === 'local')) {
      problems.push(`${relFile}: a service imports ${path.relative(ROOT, target)} (services never import a surface or a local tool)`);
    }
    if (!toUnit || toUnit === fromUnit) continue;
    if (!/^index\.tsx?$/.test(path.relative(path.join(SRC, toUnit), target))) {
      problems.push(`${relFile}: imports '${spec}', inside ${toUnit}; import its entry (${toUnit}/index.ts)`);
    }
    if (fromUnit) {
      if (!edges.has(fromUnit)) edges.set(fromUnit, new Map());
      if (!edges.get(fromUnit).has(toUnit)) edges.get(fromUnit).set(toUnit, `${relFile} -> ${spec}`);
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
console.log(`Import rules hold: ${units.size} domains and local tools, no deep import, no cycle.`);
