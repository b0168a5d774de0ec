// Copies the API reference viewers (Scalar for /v1/docs, Redoc for /v1/redoc) from their npm packages
// into the Worker's static assets, so the docs pages load nothing from another host. File names carry
// the package version, which lets the Worker serve them with a year-long immutable cache; manifest.json
// tells the Worker the current names. Runs on `npm install`/`npm ci` (postinstall) and on demand.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** wrangler.toml [assets] directory; generated, not committed. */
export const ASSETS_DIR = join(ROOT, 'generated', 'docs-assets');

const BUNDLES = [
  { key: 'scalar', pkg: '@scalar/api-reference', file: 'dist/browser/standalone.js', name: (v) => `scalar-api-reference-${v}.js` },
  { key: 'redoc', pkg: 'redoc', file: 'bundles/redoc.standalone.js', name: (v) => `redoc-${v}.standalone.js` },
];

export function buildDocsAssets({ quiet = false } = {}) {
  rmSync(ASSETS_DIR, { recursive: true, force: true });
  mkdirSync(ASSETS_DIR, { recursive: true });
  const manifest = {};
  for (const b of BUNDLES) {
    const dir = join(ROOT, 'node_modules', ...b.pkg.split('/'));
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const name = b.name(version);
    copyFileSync(join(dir, b.file), join(ASSETS_DIR, name));
    manifest[b.key] = name;
  }
  writeFileSync(join(ASSETS_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (!quiet) {
    for (const f of readdirSync(ASSETS_DIR)) console.log(`docs assets: ${f} ${(statSync(join(ASSETS_DIR, f)).size / 1e6).toFixed(2)} MB`);
  }
  return manifest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildDocsAssets();
