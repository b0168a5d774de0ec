// The mixed workload: `clients` concurrent clients for a fixed time, each request one of the hot paths
// (broadcast lists both ways, details, claims, clock-in, the business's clock-out, a message), and,
// in soak mode, workerd's memory (RSS) sampled every minute. Every answer is checked; anything but the
// expected status is an error. What a client consumes (broadcasts to claim, shifts to clock) is seeded
// for the run's length (bench/seed.mjs, `pools`).
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { describe, ms, printTable, sleep, summarize } from './common.mjs';
import { groupProcesses } from './server.mjs';

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
 * (`rssMb`), what it is made of, from /proc/<pid>/status on Linux (else null): anonymous memory
 * (the isolates' heaps, SQLite's page caches, the Durable Objects' state, and what the allocator
 * keeps of what was freed), file-backed pages (the binary, and database files read through a
 * mapping) and shared memory; and how it splits between the two processes `wrangler dev` starts:
 * the runtime that runs the Worker, D1 and the Durable Objects (`runtimeRssMb`, the one started with
 * an inspector) and wrangler's proxy in front of it (`proxyRssMb`), through which every request passes.
 */
export function workerdMemory(pgid) {
  try {
    let kb = 0;
    let runtimeKb = 0;
    const parts = { anon: 0, file: 0, shmem: 0 };
    let known = true;
    for (const { pid, rssKb, command, args } of groupProcesses(pgid)) {
      if (!basename(command ?? '').startsWith('workerd')) continue;
      kb += rssKb;
      if (args.some((a) => a.startsWith('--inspector-addr'))) runtimeKb += rssKb;
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
    return {
      rssMb: kb / 1024,
      runtimeRssMb: runtimeKb / 1024,
      proxyRssMb: (kb - runtimeKb) / 1024,
      anonMb: mb(parts.anon),
      fileMb: mb(parts.file),
      shmemMb: mb(parts.shmem),
    };
  } catch {
    return { rssMb: null, runtimeRssMb: null, proxyRssMb: null, anonMb: null, fileMb: null, shmemMb: null };
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
  { seconds = 60, clients = 20, sampleSeconds = null, pgid = null, seed = 1, persistTo = null, heap = null } = {},
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
  let reading = null;
  if (sampleSeconds && pgid) {
    let minute = 0;
    let lastDone = 0;
    let lastErrors = 0;
    // The heaps are read after the resident memory (a collection takes a moment); a sample whose
    // heaps are still being read when the next is due is not overlapped.
    const take = () => {
      const m = {
        minute,
        ...workerdMemory(pgid),
        objects: durableObjectFiles(persistTo),
        requests: done - lastDone,
        errors: errors - lastErrors,
        load: loadavg()[0],
      };
      memory.push(m);
      lastDone = done;
      lastErrors = errors;
      minute++;
      if (heap && !reading)
        reading = heap
          .sample()
          // A probe that failed (the inspector gone) leaves the sample with its resident memory alone.
          .then(
            (h) => Object.assign(m, h),
            () => undefined,
          )
          .finally(() => {
            reading = null;
          });
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
    await reading;
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
    heapProbe: heap !== null,
    collected: heap?.collect ?? false,
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
 * A figure sampled through the soak is flat when, past the warm-up, it stops growing: the median of
 * the run's last quarter of samples is within 5 % (and at least `floorMb`) of the median of its
 * second quarter. workerd's resident memory (`rssMb`, floor 50 MB) climbs for the first minutes of
 * a run, to ~1.5 GB by minute 3 with a full collection each minute (bench/README.md); a leak keeps
 * growing, so it shows between the second quarter and the last. The Worker's heap after a
 * collection (`workerMb`, floor 2 MB) is what our code keeps: ~35 MB all through. Null for fewer
 * than 8 samples of the figure (the smoke run).
 */
export function memoryVerdict(memory, field = 'rssMb', floorMb = 50) {
  const xs = memory.map((m) => m[field]).filter((v) => typeof v === 'number');
  const q = Math.floor(xs.length / 4);
  if (q < 2) return { flat: null, growthMb: null };
  const steadyMb = median(xs.slice(q, 2 * q));
  const lastMb = median(xs.slice(xs.length - q));
  const growthMb = lastMb - steadyMb;
  return {
    flat: growthMb <= Math.max(floorMb, steadyMb * 0.05),
    growthMb,
    startMb: xs[0],
    steadyMb,
    lastMb,
    warmupSamples: q,
    endMb: xs.at(-1),
    peakMb: Math.max(...xs),
  };
}

/** The Worker's heap verdict: meaningful only when each sample followed a full collection. */
export const heapVerdict = (res) => (res.collected ? memoryVerdict(res.memory, 'workerMb', 2) : { flat: null, growthMb: null });

export function printSoak(res) {
  printLoad(res, 'Soak');
  printTable(
    `Soak — workerd's resident memory, sampled every ${res.sampleSeconds === 60 ? 'minute' : `${res.sampleSeconds} s`}`,
    [
      res.sampleSeconds === 60 ? 'minute' : 'sample',
      'RSS MB',
      'runtime',
      'proxy',
      'anon MB',
      'file MB',
      'Worker heap MB',
      'other heaps MB',
      'DO instances',
      'requests',
      'errors',
      'load avg',
    ],
    res.memory.map((m) => [
      m.final ? `${m.minute} (end)` : m.minute,
      ...[m.rssMb, m.runtimeRssMb, m.proxyRssMb, m.anonMb, m.fileMb].map((v) => (typeof v === 'number' ? v.toFixed(0) : '—')),
      typeof m.workerMb === 'number' ? `${m.workerMb.toFixed(1)} of ${m.workerTotalMb.toFixed(0)}` : '—',
      typeof m.runtimeMb === 'number' ? m.runtimeMb.toFixed(1) : '—',
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
  const h = heapVerdict(res);
  if (h.flat !== null)
    console.log(
      `The Worker's heap after a full collection ${h.flat ? 'flat' : 'GROWING'}: ${h.startMb.toFixed(1)} MB at the start; median ${h.steadyMb.toFixed(1)} MB over the second quarter of the samples, ${h.lastMb.toFixed(1)} MB over the last (${h.growthMb >= 0 ? '+' : ''}${h.growthMb.toFixed(1)} MB); peak ${h.peakMb.toFixed(1)} MB.`,
    );
  else if (!res.collected && res.memory.some((m) => typeof m.workerMb === 'number'))
    console.log('The heaps were read without a collection (--no-collect): they include what V8 has yet to collect, so no verdict on them.');
}
