// The import checker (check-imports.mjs) on small trees built in a temporary folder: a tree that keeps
// the rules passes, and each kind of violation fails with a message naming it. Run by `npm run lint`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHECKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-imports.mjs');
const made = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tree that keeps every rule: a kernel, one domain with an internal/ file, a route, a test, a bench script. */
const BASE = {
  'src/lib/money.ts': 'export const cents = (n: number) => n * 100;\n',
  'src/db/client.ts': 'export type Db = object;\n',
  'src/services/kernel/index.ts': "export { type Ctx, now } from './context';\n",
  'src/services/kernel/context.ts': 'export interface Ctx { at: number }\nexport const now = () => 0;\n',
  'src/services/shifts/index.ts': "export { claim } from './claim';\n",
  'src/services/shifts/claim.ts':
    "import { type Ctx, now } from '../kernel';\nimport { pick } from './internal/pick';\nexport const claim = (c: Ctx) => pick(now() + c.at);\n",
  'src/services/shifts/internal/pick.ts': 'export const pick = (n: number) => n;\n',
  'src/routes/shifts.ts': "import { claim } from '../services/shifts';\nexport const route = claim;\n",
  'test/shifts/claim.test.ts':
    "import { cents } from '../../src/lib/money';\nimport { claim } from '../../src/services/shifts';\nexport const t = [cents, claim];\n",
  'bench/probe.ts': "import { now } from '../src/services/kernel';\nexport const p = now;\n",
};

/** Writes BASE with `changes` over it (a null removes a file) into a new temporary folder. */
function tree(changes = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-imports-'));
  made.push(root);
  for (const [rel, text] of Object.entries({ ...BASE, ...changes })) {
    if (text === null) continue;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

function check(root) {
  const r = spawnSync(process.execPath, [CHECKER, '--root', root], { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

function fails(changes, ...expected) {
  const { status, output } = check(tree(changes));
  assert.equal(status, 1, `expected a refusal, got:\n${output}`);
  for (const e of expected) assert.match(output, e);
}

function passes(changes) {
  const { status, output } = check(tree(changes));
  assert.equal(status, 0, output);
}

describe('check-imports', () => {
  it('passes a tree that keeps the rules, tests and benchmarks importing entries and non-domain folders', () => {
    passes({});
  });

  it('refuses an entry that re-exports a whole file', () => {
    fails({ 'src/services/shifts/index.ts': "export * from './claim';\n" }, /src\/services\/shifts\/index\.ts: `export \*` in an entry/);
    fails({ 'src/services/kernel/index.ts': "export * from './context';\n" }, /src\/services\/kernel\/index\.ts: `export \*`/);
  });

  it("refuses an import of another domain's internal/ folder", () => {
    fails(
      {
        'src/services/pay/index.ts': "export { charge } from './charge';\n",
        'src/services/pay/charge.ts': "import { pick } from '../shifts/internal/pick';\nexport const charge = pick;\n",
      },
      /src\/services\/pay\/charge\.ts: imports '\.\.\/shifts\/internal\/pick', in services\/shifts\/internal\//,
    );
    fails(
      { 'src/routes/shifts.ts': "import { pick } from '../services/shifts/internal/pick';\nexport const route = pick;\n" },
      /src\/routes\/shifts\.ts: imports .*in services\/shifts\/internal\//,
    );
  });

  it('refuses a deep import between domains', () => {
    fails(
      { 'src/services/shifts/claim.ts': "import { now } from '../kernel/context';\nexport const claim = now;\n" },
      /src\/services\/shifts\/claim\.ts: imports '\.\.\/kernel\/context', inside services\/kernel; import its entry/,
    );
  });

  it("refuses a test, a benchmark or a package reaching past a domain's entry", () => {
    fails(
      { 'test/shifts/claim.test.ts': "import { claim } from '../../src/services/shifts/claim';\nexport const t = claim;\n" },
      /test\/shifts\/claim\.test\.ts: imports '\.\.\/\.\.\/src\/services\/shifts\/claim', inside services\/shifts; import its entry/,
    );
    fails(
      { 'bench/probe.ts': "import { now } from '../src/services/kernel/context';\nexport const p = now;\n" },
      /bench\/probe\.ts: imports/,
    );
    fails(
      { 'packages/tool/src/main.ts': "import { claim } from '../../../src/services/shifts/claim';\nexport const m = claim;\n" },
      /packages\/tool\/src\/main\.ts: imports/,
    );
  });

  it("lets a test that declares a domain's insides import its files, that domain only", () => {
    const inside = (imports) => ({ 'test/shifts/claim.test.ts': `// inside: services/shifts\n${imports}export const t = 1;\n` });
    passes(
      inside("import { claim } from '../../src/services/shifts/claim';\nimport { pick } from '../../src/services/shifts/internal/pick';\n"),
    );
    fails(
      inside("import { claim } from '../../src/services/shifts/claim';\nimport { now } from '../../src/services/kernel/context';\n"),
      /test\/shifts\/claim\.test\.ts: imports '\.\.\/\.\.\/src\/services\/kernel\/context', inside services\/kernel/,
    );
    passes({
      'test/shifts/claim.test.ts':
        "// inside: services/shifts, services/kernel\nimport { claim } from '../../src/services/shifts/claim';\nimport { now } from '../../src/services/kernel/context';\nexport const t = [claim, now];\n",
    });
  });

  it('refuses a declaration that is not needed, names no domain, or sits outside a test', () => {
    fails(
      {
        'test/shifts/claim.test.ts':
          "// inside: services/shifts\nimport { claim } from '../../src/services/shifts';\nexport const t = claim;\n",
      },
      /declares inside services\/shifts but imports none of its files/,
    );
    fails(
      {
        'test/shifts/claim.test.ts':
          "// inside: services/nothing\nimport { claim } from '../../src/services/shifts';\nexport const t = claim;\n",
      },
      /declares inside services\/nothing, which is no domain/,
    );
    fails(
      { 'bench/probe.ts': "// inside: services/kernel\nimport { now } from '../src/services/kernel/context';\nexport const p = now;\n" },
      /bench\/probe\.ts: declares `\/\/ inside:`, which only a test may/,
    );
  });

  it('refuses two files that import each other, type-only imports included', () => {
    fails(
      {
        'src/lib/a.ts': "import type { B } from './b';\nexport const a = (b: B) => b;\n",
        'src/lib/b.ts': "import { a } from './a';\nexport type B = number;\nexport const b = a;\n",
      },
      /src\/lib\/a\.ts and src\/lib\/b\.ts import each other/,
    );
    fails(
      {
        'src/services/shifts/claim.ts':
          "import { pick } from './internal/pick';\nexport const claim = pick;\nexport type Claim = number;\n",
        'src/services/shifts/internal/pick.ts': "import type { Claim } from '../claim';\nexport const pick = (n: Claim) => n;\n",
      },
      /src\/services\/shifts\/claim\.ts and src\/services\/shifts\/internal\/pick\.ts import each other/,
    );
  });

  it('refuses a cycle between domains', () => {
    fails(
      {
        'src/services/pay/index.ts': "export { charge } from './charge';\n",
        'src/services/pay/charge.ts': "import { claim } from '../shifts';\nexport const charge = claim;\n",
        'src/services/shifts/claim.ts':
          "import { charge } from '../pay';\nimport { pick } from './internal/pick';\nexport const claim = (n: number) => pick(n) + Number(charge);\n",
      },
      /cycle: services\/(pay|shifts) -> /,
    );
  });

  it('refuses a surface that queries D1 itself, and http importing a page', () => {
    fails(
      {
        'src/routes/shifts.ts':
          "import { eq } from 'drizzle-orm';\nimport { claim } from '../services/shifts';\nexport const route = [eq, claim];\n",
      },
      /src\/routes\/shifts\.ts: imports 'drizzle-orm'; a surface reaches D1 through a domain entry/,
    );
    fails(
      {
        'src/db/schema.ts': 'export const shifts = {};\n',
        'src/routes/shifts.ts': "import { shifts } from '../db/schema';\nexport const route = shifts;\n",
      },
      /src\/routes\/shifts\.ts: imports '\.\.\/db\/schema' \(src\/db\/ beyond client\.ts\)/,
    );
    passes({
      'src/routes/shifts.ts':
        "import type { Db } from '../db/client';\nimport { claim } from '../services/shifts';\nexport const route = (d: Db) => [d, claim];\n",
    });
    fails(
      {
        'src/web/page.ts': 'export const page = 1;\n',
        'src/http/app.ts': "import { page } from '../web/page';\nexport const app = page;\n",
      },
      /src\/http\/app\.ts: imports '\.\.\/web\/page', in src\/web\/; src\/http\/ imports no page code/,
    );
  });

  it('checks an import of @shiftmarket/tool-specs as one of the folder the name stands for', () => {
    const specs = { 'src/mcp/tool-specs/index.ts': 'export const specs = 1;\n' };
    passes({ ...specs, 'src/mcp/server.ts': "import { specs } from '@shiftmarket/tool-specs';\nexport const s = specs;\n" });
    fails(
      { ...specs, 'src/services/shifts/claim.ts': "import { specs } from '@shiftmarket/tool-specs';\nexport const claim = specs;\n" },
      /src\/services\/shifts\/claim\.ts: a service imports src\/mcp\/tool-specs\/index\.ts/,
    );
  });

  it('reads @/ as src/: an aliased deep import is refused like a relative one', () => {
    passes({ 'src/web/page.ts': "import { claim } from '@/services/shifts';\nexport const page = claim;\n" });
    fails(
      { 'src/web/page.ts': "import { pick } from '@/services/shifts/internal/pick';\nexport const page = pick;\n" },
      /src\/web\/page\.ts: imports '@\/services\/shifts\/internal\/pick', in services\/shifts\/internal\//,
    );
  });

  it('keeps the browser and the Worker apart: islands import browser files and models, nothing imports an island', () => {
    const web = {
      'src/web/format.ts': 'export const fmt = (n: number) => String(n);\n',
      'src/web/client/api.ts': 'export const api = () => 1;\n',
      'src/web/features/clock/clock.model.ts': 'export const opens = (n: number) => n + 1;\n',
      'src/web/features/clock/clock.island.ts':
        "import { api } from '@/web/client/api';\nimport { opens } from './clock.model';\nexport const i = [api, opens];\n",
      'src/web/features/clock/clock.tsx': "import { opens } from './clock.model';\nexport const page = opens;\n",
    };
    passes(web);
    fails(
      { ...web, 'src/web/features/clock/clock.island.ts': "import { fmt } from '@/web/format';\nexport const i = fmt;\n" },
      /clock\.island\.ts: a browser file imports '@\/web\/format', which is neither a browser file nor a model/,
    );
    fails(
      { ...web, 'src/web/features/clock/clock.model.ts': "import { fmt } from '../../format';\nexport const opens = fmt;\n" },
      /clock\.model\.ts: a model imports '\.\.\/\.\.\/format'; a model \(\*\.model\.ts\) runs on both sides/,
    );
    fails(
      { ...web, 'src/web/features/clock/clock.tsx': "import { i } from './clock.island';\nexport const page = i;\n" },
      /clock\.tsx: imports '\.\/clock\.island', a browser file; the Worker finds an island by name/,
    );
    // The ground floor's both-sides file (the geofence rule) is open to models and islands; the rest of src/lib/ is not.
    const geo = { ...web, 'src/lib/geo.ts': 'export const km = (m: number) => m / 1000;\n' };
    passes({ ...geo, 'src/web/features/clock/clock.model.ts': "import { km } from '@/lib/geo';\nexport const opens = km;\n" });
    fails(
      { ...geo, 'src/web/features/clock/clock.model.ts': "import { cents } from '@/lib/money';\nexport const opens = cents;\n" },
      /clock\.model\.ts: a model imports '@\/lib\/money'/,
    );
    const typed = "import type { AppType } from '@generated/types/src/app';\nexport const api = (a?: AppType) => a;\n";
    passes({ ...web, 'src/web/client/api.ts': typed });
    fails(
      { ...web, 'src/web/client/api.ts': typed.replace('import type', 'import') },
      /src\/web\/client\/api\.ts: a browser file imports '@generated\/types\/src\/app'/,
    );
  });
});
