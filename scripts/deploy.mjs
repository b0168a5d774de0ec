// `npm run deploy`: deploys the Worker to the account `npm run provision` set up (docs/deploying.md).
// 1. Writes wrangler.production.jsonc from wrangler.toml and production.json (scripts/production-config.mjs).
// 2. Applies the D1 migrations not yet applied to the remote database
//    (`wrangler d1 migrations apply DB --remote`; wrangler asks before applying when run in a terminal).
// 3. `wrangler deploy` with that config: the Worker, its static assets, the Durable Object migrations,
//    the queue consumers and the cron triggers.
// Extra arguments go to `wrangler deploy` (e.g. `-- --secrets-file prod.secrets.json`). `-- --dry-run`
// only builds with the production config and skips the migrations: nothing is uploaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWranglerToml, wrangler, writeProductionConfig } from './production-config.mjs';

async function main() {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const config = writeProductionConfig();
  console.log(`deploy: wrote ${config.split('/').pop()} from wrangler.toml and production.json`);
  if (dryRun) {
    const outdir = mkdtempSync(join(tmpdir(), 'shiftmarket-deploy-'));
    try {
      await wrangler(['deploy', '-c', config, '--outdir', outdir, ...args]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    console.log('deploy: dry run only (no migrations applied, nothing uploaded)');
    return;
  }
  for (const db of readWranglerToml().d1_databases ?? []) {
    console.log(`deploy: applying D1 migrations to the remote ${db.database_name} database…`);
    await wrangler(['d1', 'migrations', 'apply', db.binding, '--remote', '-c', config]);
  }
  await wrangler(['deploy', '-c', config, ...args]);
}

main().catch((err) => {
  console.error(`deploy: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
