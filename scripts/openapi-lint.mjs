// `npm run lint:openapi`: lints the OpenAPI document the Worker serves with Redocly CLI.
//
// The document is built by the Worker itself (zod route contracts → @hono/zod-openapi), so this
// starts the Worker locally in-process with wrangler (no network, no account, in-memory state),
// fetches /v1/openapi.json, writes it to a temporary file and runs `redocly lint` on it with the
// rules in redocly.yaml. Exits non-zero on any lint error. `--out <file>` also keeps the document.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unstable_startWorker } from 'wrangler';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

async function fetchDocument() {
  const worker = await unstable_startWorker({
    config: join(ROOT, 'wrangler.toml'),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: false, watch: false, logLevel: 'error' },
  });
  try {
    await worker.ready;
    const res = await worker.fetch('http://127.0.0.1/v1/openapi.json');
    if (!res.ok) throw new Error(`GET /v1/openapi.json answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    return await res.json();
  } finally {
    await worker.dispose();
  }
}

const outIndex = process.argv.indexOf('--out');
const keep = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const dir = mkdtempSync(join(tmpdir(), 'shiftmarket-openapi-'));
const file = keep ?? join(dir, 'openapi.json');
try {
  const doc = await fetchDocument();
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`openapi: ${Object.keys(doc.paths ?? {}).length} paths written to ${file}`);
  const redocly = join(ROOT, 'node_modules', '.bin', 'redocly');
  const run = spawnSync(redocly, ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'codeframe'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
