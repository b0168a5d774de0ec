// Bundles the stdio tool server into one Node script (dist/shiftmarket-mcp.mjs) with esbuild: the MCP
// SDK, zod and the shared tool specs (src/mcp/tool-specs.ts of the Worker) all go in, so the script
// runs with nothing but Node 20+.
import { chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, 'dist', 'shiftmarket-mcp.mjs');

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
  // Some bundled CommonJS packages call require(); give the ES module one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __smCreateRequire } from 'node:module';\nconst require = __smCreateRequire(import.meta.url);",
  },
});
await chmod(outfile, 0o755);
console.log(`built ${outfile}`);
