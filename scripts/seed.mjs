// `npm run seed`: wipes the demo data in the local database, seeds it afresh and prints the demo
// accounts with new keys. Real (non-demo) accounts are left alone. It uses the dev server started
// by `npm run dev` when one is running; otherwise it starts a temporary `wrangler dev` of its own.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import {
  applyMigrations,
  callSeed,
  DEFAULT_PORT,
  newSeedToken,
  PORT_FILE,
  printAccounts,
  relevanceShifter,
  startWrangler,
  TOKEN_FILE,
  waitUntilUp,
} from './dev.mjs';

const readTrimmed = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Seeds through the running `npm run dev` server; null when there is none (or it is not ours). */
async function viaRunningDevServer() {
  const token = readTrimmed(TOKEN_FILE);
  if (!token) return null;
  const port = Number(process.env.PORT || readTrimmed(PORT_FILE) || DEFAULT_PORT);
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
  } catch {
    return null;
  }
  const res = await callSeed(port, token, { force: true });
  // 404: whatever answers there was not started by this checkout's `npm run dev` (stale token).
  if (res.status === 404) return null;
  return { ...res, port, shifter: await relevanceShifter(port, res.body?.accounts) };
}

async function viaTemporaryServer() {
  console.log('[seed] no running `npm run dev` found; applying migrations and starting a temporary wrangler dev…');
  await applyMigrations({ quiet: true });
  const port = await freePort();
  const inspectorPort = await freePort();
  const token = newSeedToken();
  const child = startWrangler({ port, token, ip: '127.0.0.1', quiet: true, extraArgs: ['--inspector-port', String(inspectorPort)] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      stop().then(() => process.exit(130));
    });
  }
  try {
    await waitUntilUp(port, child);
    const res = await callSeed(port, token, { force: true });
    // Asked while the server is up; the id stays valid after it stops.
    return { ...res, port, temporary: true, shifter: await relevanceShifter(port, res.body?.accounts) };
  } catch (err) {
    console.error(output.split('\n').slice(-30).join('\n'));
    throw err;
  } finally {
    await stop();
  }
}

async function main() {
  const res = (await viaRunningDevServer()) ?? (await viaTemporaryServer());
  if (res.status !== 200 || !res.body?.seeded) {
    console.error(`[seed] seeding failed (HTTP ${res.status}): ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`);
    process.exit(1);
  }
  printAccounts(res.body, res.temporary ? DEFAULT_PORT : res.port, res.shifter);
  if (res.temporary)
    console.log('  (Seeded through a temporary server, now stopped. Start the API with `npm run dev`; the keys above stay valid.)\n');
}

main().catch((err) => {
  console.error(`[seed] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
