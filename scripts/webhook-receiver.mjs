// `npm run webhooks:receive`: a local receiver for partner webhooks, for use beside `npm run dev`.
// It listens on http://localhost:8788/webhooks, verifies every delivery's Shiftmarket-Signature
// (HMAC-SHA256 of "<t>.<raw body>", constant-time compare, 5-minute tolerance) and its Standard
// Webhooks signature (with the standardwebhooks package, as a partner would), and prints it.
//
//   npm run webhooks:receive -- --setup --key smk_…   registers a partner client for the key's user,
//       links it to the user's default business, creates an endpoint pointing here for every event
//       type, sends a test event and keeps printing what arrives (post a broadcast, claim it, …)
//   npm run webhooks:receive -- --secret whsec_…      only listens, for an endpoint made by hand
//   --port 8788   --base http://localhost:8787   --fail N (answer 500 to the first N: watch retries)
//   --status 410 (answer that status to everything: watch the endpoint being disabled)
//
// Plain Node ESM; its one dependency is the project's standardwebhooks (dev). Development only: the Worker sends to http://localhost only
// while LOCAL_DEFAULT_SECRETS is on, as `npm run dev` sets it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOLERANCE_SECONDS = 5 * 60;

function args(argv) {
  const out = { port: 8788, setup: false, fail: 0, status: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--setup') out.setup = true;
    else if (a === '--key') out.key = next();
    else if (a === '--secret') out.secret = next();
    else if (a === '--port') out.port = Number(next());
    else if (a === '--base') out.base = next();
    else if (a === '--fail') out.fail = Number(next());
    else if (a === '--status') out.status = Number(next());
    else {
      console.error(`unknown argument ${a}`);
      process.exit(2);
    }
  }
  return out;
}

const opts = args(process.argv.slice(2));
const portFile = join(ROOT, '.wrangler', 'demo-dev-port');
const devPort = existsSync(portFile) ? readFileSync(portFile, 'utf8').trim() : '8787';
const BASE = (opts.base ?? `http://localhost:${devPort}`).replace(/\/$/, '');
const secrets = new Set([opts.secret ?? process.env.WEBHOOK_SECRET].filter(Boolean));

/** The receiver's side of the contract: any v1 matching under any secret we hold, t within 5 minutes. */
export function verify(header, rawBody, keys, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (!header) return { ok: false, why: 'no Shiftmarket-Signature header' };
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t)) return { ok: false, why: 'no timestamp' };
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return { ok: false, why: `timestamp ${t} is more than 5 minutes away` };
  const given = parts.filter(([k]) => k === 'v1').map(([, v]) => Buffer.from(v ?? '', 'utf8'));
  for (const key of keys) {
    const expected = Buffer.from(createHmac('sha256', key).update(`${t}.${rawBody}`).digest('hex'), 'utf8');
    if (given.some((g) => g.length === expected.length && timingSafeEqual(g, expected))) return { ok: true };
  }
  return { ok: false, why: keys.size ? 'no v1 matches our secret' : 'no secret to check with (--secret or --setup)' };
}

/** The same delivery as Standard Webhooks checks it (webhook-id, webhook-timestamp, webhook-signature), with its library. */
export function verifyStandard(headers, rawBody, keys) {
  if (!headers['webhook-signature']) return { ok: false, why: 'no webhook-signature header' };
  let why = keys.size ? 'no v1 matches our secret' : 'no secret to check with (--secret or --setup)';
  for (const key of keys) {
    try {
      new Webhook(key).verify(rawBody, headers);
      return { ok: true };
    } catch (err) {
      why = err.message;
    }
  }
  return { ok: false, why };
}

const seen = new Set();
let received = 0;

const server = createServer((req, res) => {
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    received++;
    const id = req.headers['shiftmarket-event-id'];
    const type = req.headers['shiftmarket-event-type'];
    const check = verify(req.headers['shiftmarket-signature'], raw, secrets);
    const standard = verifyStandard(req.headers, raw, secrets);
    const duplicate = seen.has(id);
    seen.add(id);
    let status = 200;
    if (!check.ok || !standard.ok) status = 400;
    else if (opts.status) status = opts.status;
    else if (received <= opts.fail) status = 500;
    const mark = [
      check.ok ? 'Shiftmarket-Signature verified' : `Shiftmarket-Signature NOT VERIFIED (${check.why})`,
      standard.ok ? 'Standard Webhooks verified' : `Standard Webhooks NOT VERIFIED (${standard.why})`,
    ].join(', ');
    console.log(
      `\n${new Date().toISOString()}  ${type}  ${id}  ${mark}${duplicate ? '  (again: a retry or redelivery)' : ''}  → ${status}`,
    );
    try {
      console.log(JSON.stringify(JSON.parse(raw), null, 2));
    } catch {
      console.log(raw);
    }
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'refused');
  });
});

async function api(method, path, { key, apiKey, body } = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (apiKey) headers['x-api-key'] = apiKey;
  const res = await fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return json;
}

async function setup() {
  if (!opts.key) throw new Error('--setup needs --key smk_… (a personal API key printed by npm run dev)');
  const businesses = (await api('GET', '/v1/business/of_user', { key: opts.key })).data ?? [];
  const business = businesses.find((b) => b.is_default === 1 || b.is_default === true) ?? businesses[0];
  if (!business) throw new Error("the key's user owns no business: use a business owner's key (e.g. owner@demo.shiftmarket.local)");
  const client = await api('POST', '/v1/partner/clients', {
    key: opts.key,
    body: { name: `Local receiver ${new Date().toISOString()}`, scopes: ['shifts:read', 'webhooks:manage'] },
  });
  await api('POST', `/v1/business/${business.id}/partners`, { key: opts.key, body: { client_id: client.id } });
  const doc = await api('GET', '/v1/openapi.json');
  const types = Object.keys(doc.webhooks ?? {}).filter((t) => t !== 'webhook.test');
  const endpoint = await api('POST', '/v1/partner/webhooks/endpoints', {
    apiKey: client.api_key,
    body: { url: `http://localhost:${opts.port}/webhooks`, event_types: types, description: 'scripts/webhook-receiver.mjs' },
  });
  secrets.add(endpoint.secret);
  console.log(`partner client ${client.id} (x-api-key ${client.api_key}) linked to ${business.name} (${business.id})`);
  console.log(`endpoint ${endpoint.id} → ${endpoint.url}, subscribed to ${types.join(', ')}`);
  const test = await api('POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/test`, { apiKey: client.api_key });
  console.log(`test event ${test.event_id} queued; it arrives here in a second or two`);
  console.log(`delivery log: curl -s ${BASE}/v1/partner/webhooks/endpoints/${endpoint.id}/deliveries -H "x-api-key: ${client.api_key}"`);
}

server.listen(opts.port, () => {
  console.log(`webhook receiver on http://localhost:${opts.port}/webhooks (Shiftmarket at ${BASE})`);
  if (opts.setup)
    setup().catch((err) => {
      console.error(err.message);
      process.exit(1);
    });
});
