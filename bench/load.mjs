// The mixed workload: `clients` concurrent clients for a fixed time, each request one of the hot paths
// (broadcast lists both ways, details, claims, clock-in, the business's clock-out, a message), and,
// in soak mode, workerd's memory (RSS) sampled every minute. Every answer is checked; anything but the
// expected status is an error. What a client consumes (broadcasts to claim, shifts to clock) is seeded
// for the run's length (bench/seed.mjs, `pools`).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describe, ms, printTable, sleep, summarize } from './common.mjs';

/** Mix of the workload, in weights. A kind whose pool is empty is replaced by a details read. */
export const MIX = { list_newest: 25, list_relevance: 15, details: 20, claim: 10, clock_in: 10, clock_out: 5, message: 15 };

/** What a run of `seconds` at about 60 requests a second consumes, with a margin (seeded up front). */
export function poolsFor(seconds, clients) {
  const perSecond = 60;
  const claims = Math.ceil(seconds * perSecond * (MIX.claim / 100) * 1.3) + 20;
  const clockIns = Math.ceil((seconds * perSecond * (MIX.clock_in / 100) * 1.3) / clients) + 2;
  return { claims, clockIns, clockOuts: 3, clients };
}

/**
 * workerd's resident memory (MB), every workerd process in the server's process group: the total
 * (`rssMb`) and what it is made of, from /proc/<pid>/status on Linux (else null): anonymous memory
 * (the isolates' heaps, SQLite's page caches, the Durable Objects' state), file-backed pages (the
 * binary, and database files read through a mapping) and shared memory.
 */
export function workerdMemory(pgid) {
  try {
    const out = execFileSync('ps', ['-eo', 'pgid=,pid=,rss=,comm='], { encoding: 'utf8' });
    let kb = 0;
    const parts = { anon: 0, file: 0, shmem: 0 };
    let known = true;
    for (const line of out.trim().split('\n')) {
      const [g, pid, rss, comm] = line.trim().split(/\s+/);
      if (Number(g) !== pgid || !comm?.startsWith('workerd')) continue;
      kb += Number(rss);
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
        parts.anon += field('RssAnon');
        parts.file += field('RssFile');
        parts.shmem += field('RssShmem');
      } catch {
        known = false;
      }
    }
    const mb = (v) => (known && Number.isFinite(v) ? v / 1024 : null);
    return { rssMb: kb / 1024, anonMb: mb(parts.anon), fileMb: mb(parts.file), shmemMb: mb(parts.shmem) };
  } catch {
    return { rssMb: null, anonMb: null, fileMb: null, shmemMb: null };
  }
}

/** The Durable Object instances the run has created: their storage files under the state folder. */
export function durableObjectFiles(persistTo) {
  if (!persistTo) return null;
  let n = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.sqlite') && !dir.includes('miniflare-D1DatabaseObject')) n++;
    }
  };
  try {
    walk(join(persistTo, 'v3', 'do'));
    return n;
  } catch {
    return null;
  }
}

async function request(base, method, path, key, body) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return { status: res.status, body: text, ms: performance.now() - t0 };
}

/**
 * Runs the workload for `seconds`; with `sampleSeconds`, samples workerd's RSS that often (soak).
 * Returns per-kind latency, throughput, errors and the memory samples.
 */
export async function benchLoad(
  base,
  manifest,
  { seconds = 60, clients = 20, sampleSeconds = null, pgid = null, seed = 1, persistTo = null } = {},
) {
  const L = manifest.load;
  const shifter = manifest.ids.relevanceShifter;
  const users = L.clients.slice(0, clients);
  if (users.length < clients) throw new Error(`the data has ${users.length} load clients, ${clients} asked`);
  // The pools are the manifest's own lists: what a run consumes is gone for the next one.
  const claimPool = L.claimPool;
  // Shifts clocked in (seeded, or by this run) that the business may end: a clock-out needs a minute.
  L.clockedIn ??= users.flatMap((u) => u.clockOuts.map((id) => ({ id, at: 0 })));
  const clockedIn = L.clockedIn;
  const clockIns = users.map((u) => u.clockIns);
  const detailIds = users.map((u) => [...u.clockIns, ...u.clockOuts]);
  const samples = { latency: Object.fromEntries(Object.keys(MIX).map((k) => [k, []])), errors: [] };
  const memory = [];
  let done = 0;
  let errors = 0;
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  let rand = seed >>> 0;
  const next = () => {
    rand = (rand * 1664525 + 1013904223) >>> 0;
    return rand / 2 ** 32;
  };
  const pick = () => {
    let x = next() * total;
    for (const [k, w] of Object.entries(MIX)) {
      x -= w;
      if (x < 0) return k;
    }
    return 'details';
  };

  async function one(i) {
    const u = users[i];
    let kind = pick();
    let r;
    let ok;
    if (kind === 'claim' && !claimPool.length) kind = 'details';
    if (kind === 'clock_in' && !clockIns[i].length) kind = 'details';
    const ready = clockedIn.findIndex((c) => c.at < Date.now() - 62_000);
    if (kind === 'clock_out' && ready < 0) kind = 'details';
    switch (kind) {
      case 'list_newest':
      case 'list_relevance': {
        const body = { shifter_id: shifter, limit: 50, ...(kind === 'list_relevance' ? { sort_by_relevance: true } : {}) };
        r = await request(base, 'POST', '/v1/shift_request/list_of_broadcast_requests', manifest.keys.relevance, body);
        ok = r.status === 200;
        break;
      }
      case 'details': {
        const ids = detailIds[i];
        r = await request(base, 'GET', `/v1/shift_request/${ids[Math.floor(next() * ids.length)]}`, u.key);
        ok = r.status === 200;
        break;
      }
      case 'claim':
        r = await request(base, 'POST', `/v1/shift_request/${claimPool.pop()}/claim`, u.key);
        ok = r.status === 200;
        break;
      case 'clock_in': {
        const id = clockIns[i].pop();
        r = await request(base, 'POST', `/v1/shift_request/${id}/clock_in`, u.key, {});
        ok = r.status === 200;
        if (ok) clockedIn.push({ id, at: Date.now() });
        break;
      }
      case 'clock_out': {
        const [c] = clockedIn.splice(ready, 1);
        r = await request(base, 'POST', `/v1/shift_request/${c.id}/clock_out`, manifest.keys.claimsOwner, {});
        ok = r.status === 200;
        break;
      }
      case 'message':
        r = await request(base, 'POST', '/v1/messaging/messages', u.key, {
          to: { kind: 'business', id: L.claimsBusiness },
          as: { kind: 'shifter', id: u.shifterId },
          body: `Running ${Math.floor(next() * 20)} minutes late`,
        });
        ok = r.status === 200 || r.status === 201;
        break;
    }
    samples.latency[kind].push(r.ms);
    done++;
    if (!ok) {
      errors++;
      if (samples.errors.length < 20) samples.errors.push(`${kind}: ${describe({ status: r.status, body: r.body })}`);
    }
  }

  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  let sampler = null;
  if (sampleSeconds && pgid) {
    let minute = 0;
    let lastDone = 0;
    let lastErrors = 0;
    const take = () => {
      memory.push({
        minute,
        ...workerdMemory(pgid),
        objects: durableObjectFiles(persistTo),
        requests: done - lastDone,
        errors: errors - lastErrors,
        load: loadavg()[0],
      });
      lastDone = done;
      lastErrors = errors;
      minute++;
    };
    take();
    sampler = setInterval(take, sampleSeconds * 1000);
  }
  await Promise.all(
    users.map(async (_, i) => {
      while (performance.now() < deadline) {
        try {
          await one(i);
        } catch (err) {
          errors++;
          if (samples.errors.length < 20) samples.errors.push(`client ${i}: ${err instanceof Error ? err.message : String(err)}`);
          await sleep(100);
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  if (sampler) {
    clearInterval(sampler);
    memory.push({
      minute: memory.length,
      ...workerdMemory(pgid),
      objects: durableObjectFiles(persistTo),
      requests: 0,
      errors: 0,
      load: loadavg()[0],
      final: true,
    });
  }
  const all = Object.values(samples.latency).flat();
  return {
    seconds,
    clients,
    requests: done,
    errors,
    rps: done / (wallMs / 1000),
    overall: summarize(all),
    kinds: Object.fromEntries(Object.entries(samples.latency).map(([k, v]) => [k, summarize(v)])),
    memory,
    sampleSeconds,
    failures: samples.errors,
  };
}

export function printLoad(res, title = 'Load') {
  printTable(
    `${title} — ${res.clients} clients for ${Math.round(res.seconds)} s, mixed workload (latency in ms)`,
    ['request', 'n', 'p50', 'p95', 'p99', 'mean', 'max'],
    [
      ...Object.entries(res.kinds).map(([k, s]) => [k, s.n, ms(s.p50), ms(s.p95), ms(s.p99), ms(s.mean), ms(s.max)]),
      ['all', res.overall.n, ms(res.overall.p50), ms(res.overall.p95), ms(res.overall.p99), ms(res.overall.mean), ms(res.overall.max)],
    ],
  );
  console.log(`Throughput ${res.rps.toFixed(1)} requests/s; errors ${res.errors} of ${res.requests}.`);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Memory is flat when, past the warm-up, it stops growing: the median of the run's last quarter of
 * samples is within 5 % (and at least 50 MB) of the median of its second quarter. workerd's memory
 * climbs for the first minutes of a run (caches and heaps filling: 0.3 GB to 2.0 GB in the first 8
 * minutes of a 30-minute soak, then within 2.0–2.08 GB); a leak keeps growing, so it shows between
 * the second quarter and the last. Null for fewer than 8 samples (the smoke run).
 */
export function memoryVerdict(memory) {
  const rss = memory.map((m) => m.rssMb).filter((v) => typeof v === 'number');
  const q = Math.floor(rss.length / 4);
  if (q < 2) return { flat: null, growthMb: null };
  const steadyMb = median(rss.slice(q, 2 * q));
  const lastMb = median(rss.slice(rss.length - q));
  const growthMb = lastMb - steadyMb;
  return {
    flat: growthMb <= Math.max(50, steadyMb * 0.05),
    growthMb,
    startMb: rss[0],
    steadyMb,
    lastMb,
    warmupSamples: q,
    endMb: rss.at(-1),
    peakMb: Math.max(...rss),
  };
}

export function printSoak(res) {
  printLoad(res, 'Soak');
  printTable(
    `Soak — workerd's resident memory, sampled every ${res.sampleSeconds === 60 ? 'minute' : `${res.sampleSeconds} s`}`,
    [
      res.sampleSeconds === 60 ? 'minute' : 'sample',
      'RSS MB',
      'anon MB',
      'file MB',
      'shmem MB',
      'DO instances',
      'requests',
      'errors',
      'load avg',
    ],
    res.memory.map((m) => [
      m.final ? `${m.minute} (end)` : m.minute,
      m.rssMb === null ? '—' : m.rssMb.toFixed(0),
      m.anonMb === null || m.anonMb === undefined ? '—' : m.anonMb.toFixed(0),
      m.fileMb === null || m.fileMb === undefined ? '—' : m.fileMb.toFixed(0),
      m.shmemMb === null || m.shmemMb === undefined ? '—' : m.shmemMb.toFixed(0),
      m.objects === null || m.objects === undefined ? '—' : m.objects,
      m.requests,
      m.errors,
      m.load === undefined ? '—' : m.load.toFixed(1),
    ]),
  );
  const v = memoryVerdict(res.memory);
  if (v.flat !== null)
    console.log(
      `Memory ${v.flat ? 'flat' : 'GROWING'} past the warm-up: ${v.startMb.toFixed(0)} MB at the start; median ${v.steadyMb.toFixed(0)} MB over the second quarter of the samples, ${v.lastMb.toFixed(0)} MB over the last (${v.growthMb >= 0 ? '+' : ''}${v.growthMb.toFixed(0)} MB); ${v.endMb.toFixed(0)} MB at the end, peak ${v.peakMb.toFixed(0)} MB; ${res.errors} errors.`,
    );
}
