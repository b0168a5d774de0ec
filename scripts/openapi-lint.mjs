// `npm run lint:openapi`: lints the OpenAPI document the Worker serves with Redocly CLI.
//
// The document is built by the Worker itself (zod route contracts → @hono/zod-openapi) and names the
// origin it is fetched from as its server, so this lints it twice, as clients get it:
// - with wrangler.toml's settings (as deployed), fetched at http://127.0.0.1;
// - with the settings `npm run dev` adds (scripts/dev.mjs DEV_VARS), fetched at
//   http://localhost:8787, the document a local run serves.
// Each time it starts the Worker in-process with wrangler (no network, no account, in-memory state),
// fetches /v1/openapi.json and writes it to a temporary file; then `redocly lint` checks both with the
// rules in redocly.yaml. Exits non-zero on any lint error. `--out <file>` also keeps the first document.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unstable_startWorker } from 'wrangler';
import { DEFAULT_PORT, DEV_VARS } from './dev.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const DOCUMENTS = [
  { name: 'openapi.json', settings: "wrangler.toml's settings", vars: {}, url: 'http://127.0.0.1/v1/openapi.json' },
  {
    name: 'openapi.dev.json',
    settings: '`npm run dev` settings',
    vars: DEV_VARS,
    url: `http://localhost:${DEFAULT_PORT}/v1/openapi.json`,
  },
];

async function fetchDocument({ vars, url }) {
  const worker = await unstable_startWorker({
    config: join(ROOT, 'wrangler.toml'),
    bindings: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, { type: 'plain_text', value: v }])),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: false, watch: false, logLevel: 'error' },
  });
  try {
    await worker.ready;
    const res = await worker.fetch(url);
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    return await res.json();
  } finally {
    await worker.dispose();
  }
}

const outIndex = process.argv.indexOf('--out');
const keep = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const dir = mkdtempSync(join(tmpdir(), 'shiftmarket-openapi-'));
try {
  const files = [];
  for (const [i, d] of DOCUMENTS.entries()) {
    const doc = await fetchDocument(d);
    const file = i === 0 && keep ? keep : join(dir, d.name);
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(
      `openapi: ${Object.keys(doc.paths ?? {}).length} paths with ${d.settings} (server ${doc.servers?.[0]?.url}) written to ${file}`,
    );
    files.push(file);
  }
  const redocly = join(ROOT, 'node_modules', '.bin', 'redocly');
  const run = spawnSync(redocly, ['lint', ...files, '--config', join(ROOT, 'redocly.yaml'), '--format', 'codeframe'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
