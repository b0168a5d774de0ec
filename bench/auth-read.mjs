// The cost of an authenticated read, layer by layer: the probe routes of bench/probe-worker.ts (a bare
// answer; + the API key lookup; + the rate-limit Durable Object call; + the user's row, the least an
// authenticated read of one's account needs), the app's middleware on an unauthenticated route, and
// the whole GET /v1/user/details. Latency at concurrency 1, the layers interleaved round by round so
// a change in the machine's load touches them all alike.
import { call, describe, ms, printTable, summarize } from './common.mjs';

const LAYERS = [
  { name: 'bare route (Worker, no app)', path: '/__bench/bare', auth: false },
  { name: 'app middleware, no auth (GET /)', path: '/', auth: false },
  { name: '+ API key lookup (1 D1 query)', path: '/__bench/key', auth: true },
  { name: '+ rate-limit Durable Object call', path: '/__bench/limit', auth: true },
  { name: "+ the user's row = the least", path: '/__bench/user', auth: true },
  { name: 'GET /v1/user/details (full stack)', path: '/v1/user/details', auth: true },
];

export async function benchAuthRead(base, manifest, { rounds = 300, warmup = 10 } = {}) {
  const key = manifest.keys.relevance;
  const failures = [];
  const samples = LAYERS.map(() => []);
  const once = async (i) => {
    const layer = LAYERS[i];
    const t0 = performance.now();
    const r = await call(base, 'GET', layer.path, layer.auth ? key : undefined);
    const elapsed = performance.now() - t0;
    if (r.status !== 200) failures.push(`${layer.path}: ${describe(r)}`);
    return elapsed;
  };
  for (let w = 0; w < warmup; w++) for (let i = 0; i < LAYERS.length; i++) await once(i);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < LAYERS.length; i++) samples[i].push(await once(i));
  }
  const rows = LAYERS.map((layer, i) => ({ layer: layer.name, path: layer.path, latency: summarize(samples[i]) }));
  return { rounds, rows, failures: failures.slice(0, 20) };
}

export function printAuthRead(res) {
  const p50 = (name) => res.rows.find((r) => r.layer.startsWith(name))?.latency.p50 ?? null;
  const bare = p50('bare');
  printTable(
    `Authenticated read, layer by layer — ${res.rounds} requests each at concurrency 1, interleaved (latency in ms)`,
    ['layer', 'path', 'p50', 'p95', 'mean', 'adds (p50)'],
    res.rows.map((r, i) => {
      const prev = i === 0 ? null : i === 2 ? bare : res.rows[i - 1].latency.p50;
      const adds = i === 0 || i === 1 || i === res.rows.length - 1 ? (i === 1 ? r.latency.p50 - bare : '') : r.latency.p50 - prev;
      return [r.layer, r.path, ms(r.latency.p50), ms(r.latency.p95), ms(r.latency.mean), typeof adds === 'number' ? `+${ms(adds)}` : adds];
    }),
  );
  const least = p50('+ the user');
  const full = p50('GET /v1/user/details');
  if (least && full)
    console.log(
      `GET /v1/user/details costs ${(full / least).toFixed(2)}× the least (key lookup + Durable Object call + the user's row): ${ms(full)} vs ${ms(least)} ms p50.`,
    );
}
