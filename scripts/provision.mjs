// `npm run provision`: creates in your Cloudflare account everything wrangler.toml binds, and writes
// the ids into production.json (docs/deploying.md):
// - the D1 database (`database_name`), looked up by name first;
// - the KV namespace of each [[kv_namespaces]] binding, titled `<worker name>-<binding>`
//   (shiftmarket-OAUTH_KV);
// - the R2 bucket(s);
// - every queue: producers, consumers and their dead-letter queues.
// What already exists is reused, so running it again is safe; wrangler.toml is never changed.
//
// It needs wrangler to be logged in (`npx wrangler login`) or CLOUDFLARE_API_TOKEN; with several
// accounts, CLOUDFLARE_ACCOUNT_ID says which. `-- --location <hint>` places a new D1 database and R2
// bucket (weur, eeur, apac, oc, wnam, enam).
import { PRODUCTION_FILE, queueNames, readProduction, readWranglerToml, wrangler, writeProduction } from './production-config.mjs';

/** The JSON in a wrangler command's output (it may print other lines, e.g. "▲ [WARNING] …", around it). */
function jsonIn(out) {
  const end = Math.max(out.lastIndexOf(']'), out.lastIndexOf('}'));
  for (let i = 0; i < end; i++) {
    if (out[i] !== '[' && out[i] !== '{') continue;
    try {
      return JSON.parse(out.slice(i, end + 1));
    } catch {
      /* not the JSON yet: try the next bracket */
    }
  }
  throw new Error(`no JSON in wrangler's answer:\n${out.slice(0, 2000)}`);
}

async function must(args) {
  const r = await wrangler(args, { capture: true });
  if (r.code !== 0) throw new Error(`wrangler ${args.join(' ')} failed:\n${r.out.trim()}`);
  return r.out;
}

const alreadyThere = (out) => /already exists|already taken|already own/i.test(out);

async function account() {
  const who = await wrangler(['whoami', '--json'], { capture: true });
  if (who.code !== 0) {
    throw new Error(
      'wrangler is not logged in to Cloudflare. Run `npx wrangler login` (a browser opens), or set CLOUDFLARE_API_TOKEN ' +
        '(a token with Workers Scripts, D1, Workers KV Storage, Workers R2 Storage and Queues edit rights) and CLOUDFLARE_ACCOUNT_ID.',
    );
  }
  const info = jsonIn(who.out);
  const accounts = info.accounts ?? [];
  const chosen = process.env.CLOUDFLARE_ACCOUNT_ID || readProduction()?.account_id || (accounts.length === 1 ? accounts[0].id : undefined);
  if (!chosen) {
    const list = accounts.map((a) => `  ${a.id}  ${a.name}`).join('\n');
    throw new Error(`wrangler sees several accounts; set CLOUDFLARE_ACCOUNT_ID to one of them:\n${list}`);
  }
  const name = accounts.find((a) => a.id === chosen)?.name;
  console.log(`provision: account ${chosen}${name ? ` (${name})` : ''}, as ${info.email ?? info.authType ?? 'the logged-in user'}`);
  // Every later wrangler call acts on this account without asking.
  process.env.CLOUDFLARE_ACCOUNT_ID = chosen;
  return chosen;
}

async function d1Database(name, location) {
  const find = async () => jsonIn(await must(['d1', 'list', '--json'])).find((d) => d.name === name)?.uuid;
  let id = await find();
  if (id) {
    console.log(`provision: D1 database ${name}: exists (${id})`);
    return id;
  }
  await must(['d1', 'create', name, ...(location ? ['--location', location] : [])]);
  id = await find();
  if (!id) throw new Error(`D1 database ${name} was created but is not listed`);
  console.log(`provision: D1 database ${name}: created (${id})`);
  return id;
}

async function kvNamespace(title) {
  const find = async () => jsonIn(await must(['kv', 'namespace', 'list'])).find((n) => n.title === title)?.id;
  let id = await find();
  if (id) {
    console.log(`provision: KV namespace ${title}: exists (${id})`);
    return id;
  }
  await must(['kv', 'namespace', 'create', title]);
  id = await find();
  if (!id) throw new Error(`KV namespace ${title} was created but is not listed`);
  console.log(`provision: KV namespace ${title}: created (${id})`);
  return id;
}

/** R2 buckets and queues have no id to record: make sure each exists. */
async function ensure(kind, infoArgs, createArgs, name) {
  if ((await wrangler(infoArgs, { capture: true })).code === 0) {
    console.log(`provision: ${kind} ${name}: exists`);
    return;
  }
  const r = await wrangler(createArgs, { capture: true });
  if (r.code !== 0 && !alreadyThere(r.out)) throw new Error(`wrangler ${createArgs.join(' ')} failed:\n${r.out.trim()}`);
  console.log(`provision: ${kind} ${name}: ${r.code === 0 ? 'created' : 'exists'}`);
}

async function main() {
  const args = process.argv.slice(2);
  const li = args.indexOf('--location');
  const location = li >= 0 ? args[li + 1] : undefined;
  const raw = readWranglerToml();
  const accountId = await account();
  const production = readProduction() ?? { vars: {}, config: {} };
  production.account_id = accountId;
  production.d1_databases ??= {};
  production.kv_namespaces ??= {};

  for (const db of raw.d1_databases ?? []) production.d1_databases[db.binding] = await d1Database(db.database_name, location);
  for (const kv of raw.kv_namespaces ?? []) production.kv_namespaces[kv.binding] = await kvNamespace(`${raw.name}-${kv.binding}`);
  for (const b of raw.r2_buckets ?? []) {
    const loc = location ? ['--location', location] : [];
    await ensure('R2 bucket', ['r2', 'bucket', 'info', b.bucket_name], ['r2', 'bucket', 'create', b.bucket_name, ...loc], b.bucket_name);
  }
  for (const q of queueNames(raw)) await ensure('queue', ['queues', 'info', q], ['queues', 'create', q], q);

  writeProduction({
    account_id: production.account_id,
    d1_databases: production.d1_databases,
    kv_namespaces: production.kv_namespaces,
    vars: production.vars ?? {},
    config: production.config ?? {},
    ...production,
  });
  console.log(`\nprovision: ids written to ${PRODUCTION_FILE.split('/').pop()} (wrangler.toml is unchanged).`);
  console.log('Next (docs/deploying.md): put your settings under "vars" in production.json, then `npm run deploy`, then the secrets.');
}

main().catch((err) => {
  console.error(`provision: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
