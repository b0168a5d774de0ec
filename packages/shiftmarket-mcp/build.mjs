// Bundles the stdio tool server into one Node script (dist/shiftmarket-mcp.mjs) with esbuild: the MCP
// SDK, zod and the tool specs shared with the Worker (`@shiftmarket/tool-specs`, the folder
// src/mcp/tool-specs/, which esbuild finds through the `paths` of this package's tsconfig.json) all go
// in, so the script runs with nothing but Node 20+.
import { chmod } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, 'dist', 'shiftmarket-mcp.mjs');
const workerSrc = join(here, '..', '..', 'src') + sep;

/**
 * The tool specs reach the response schemas through the domains' entries (src/services/<domain>/index.ts),
 * which also export the services and what they import (Stripe among them). None of the Worker's modules
 * acts on import for the tools, so they are marked free of side effects: esbuild then keeps what the
 * tools use, not the rest of each domain (a quarter smaller script, no payment client in it). The stdio
 * tests run the bundle, so a module the tools need and esbuild dropped would fail them.
 */
const workerModulesArePure = {
  name: 'worker-modules-are-pure',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const r = await b.resolve(args.path, {
        importer: args.importer,
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: { resolving: true },
      });
      if (r.errors.length > 0 || !r.path.startsWith(workerSrc)) return r;
      return { ...r, sideEffects: false };
    });
  },
};

await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [workerModulesArePure],
  // Some bundled CommonJS packages call require(); give the ES module one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __smCreateRequire } from 'node:module';\nconst require = __smCreateRequire(import.meta.url);",
  },
});
await chmod(outfile, 0o755);
console.log(`built ${outfile}`);
