// What each hot request asks of the platform, counted by the probe Worker (bench/probe-worker.ts):
// D1 statements and round trips (a batch is one), the time waiting on them, Durable Object calls and
// queue messages, per request until its answer. And the database's own work: every statement the
// request sent is run again on a copy of the local database with Node's SQLite (node:sqlite, Node 22),
// each prepared afresh (as the local runtime's D1 prepares every query) in a transaction rolled back, the
// median of several runs: "SQL ms", the time D1 spends on the request (D1 runs one query at a time), and
// how much of it is preparing the statements. The scale plan (docs/scale.md) is built on these.
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { databaseFile, describe, printTable } from './common.mjs';

/** Opens a copy of the local database (the server keeps the original open), or null without node:sqlite. */
async function copyOfDatabase(persistTo, workDir) {
  let DatabaseSync;
  try {
    ({ DatabaseSync } = await import('node:sqlite'));
  } catch {
    return null;
  }
  const src = databaseFile(persistTo);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const dst = join(workDir, 'db.sqlite');
  for (const ext of ['', '-wal', '-shm']) if (existsSync(`${src}${ext}`)) copyFileSync(`${src}${ext}`, `${dst}${ext}`);
  return new DatabaseSync(dst);
}

/**
 * Median time (ms) of running `stmts` in order inside a rolled-back transaction, over `runs` runs, and
 * each statement's median (in the order sent). Each run prepares every statement afresh, as the local
 * runtime's D1 does for every query it is sent; `prepare` is the part of `total` spent preparing. (A
 * statement whose plan read a bound value is prepared again when its values are bound: that second
 * preparation counts in `total`, not in `prepare`; see src/services/kernel/planned-values.ts.)
 */
function sqlTime(db, stmts, runs = 9) {
  const bound = stmts.map((s) => ({ sql: s.sql, params: s.params.map((p) => (typeof p === 'boolean' ? Number(p) : p)) }));
  const times = [];
  const prepares = [];
  const each = bound.map(() => []);
  for (let i = 0; i < runs; i++) {
    db.exec('BEGIN');
    let total = 0;
    let prepare = 0;
    for (const [k, s] of bound.entries()) {
      const t0 = performance.now();
      const st = db.prepare(s.sql);
      const t1 = performance.now();
      st.all(...s.params);
      const t2 = performance.now();
      prepare += t1 - t0;
      total += t2 - t0;
      each[k].push(t2 - t0);
    }
    times.push(total);
    prepares.push(prepare);
    db.exec('ROLLBACK');
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { total: median(times), prepare: median(prepares), each: each.map(median) };
}

let traceSeq = 0;
/** `auth` is an API key (sent as bearer) or the headers of a web session (`{ Cookie }`). */
async function counted(base, method, path, auth, body) {
  const trace = `t${Date.now()}-${traceSeq++}`;
  const res = await fetch(`${base}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(typeof auth === 'string' ? { Authorization: `Bearer ${auth}` } : auth),
      'x-bench-trace': trace,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  const h = (n) => Number(res.headers.get(`x-bench-${n}`) ?? Number.NaN);
  const traced = await (await fetch(`${base}/__bench/trace/${trace}`)).json();
  return {
    status: res.status,
    text,
    statements: traced.statements ?? [],
    counts: { d1: h('d1-statements'), trips: h('d1-round-trips'), d1Ms: h('d1-ms'), dos: h('do-calls'), queue: h('queue-messages') },
  };
}

export async function benchCounts(base, manifest, { persistTo, workDir } = {}) {
  const L = manifest.load;
  const client = L.clients[0];
  const failures = [];
  const shifter = manifest.ids.relevanceShifter;
  const claimId = L.claimPool.at(-1);
  const clockInId = client.clockIns.at(-1);
  const clockOutId = client.clockOuts.at(-1);
  const paths = [
    [
      'list, newest first',
      'POST',
      '/v1/shift_request/list_of_broadcast_requests',
      manifest.keys.relevance,
      { shifter_id: shifter, limit: 50 },
    ],
    [
      'list, by relevance',
      'POST',
      '/v1/shift_request/list_of_broadcast_requests',
      manifest.keys.relevance,
      { shifter_id: shifter, limit: 50, sort_by_relevance: true },
    ],
    ['details', 'GET', `/v1/shift_request/${clockOutId}`, client.key],
    ['claim', 'POST', `/v1/shift_request/${claimId}/claim`, client.key],
    ['clock-in', 'POST', `/v1/shift_request/${clockInId}/clock_in`, client.key, {}],
    ['clock-out (the business)', 'POST', `/v1/shift_request/${clockOutId}/clock_out`, manifest.keys.claimsOwner, {}],
    [
      'send message',
      'POST',
      '/v1/messaging/messages',
      client.key,
      { to: { kind: 'business', id: L.claimsBusiness }, as: { kind: 'shifter', id: client.shifterId }, body: 'On my way' },
    ],
    ['list_of_requests', 'POST', '/v1/shift_request/list_of_requests', manifest.keys.bigOwner, { as: 'business', limit: 50 }],
    ['inbox', 'GET', '/v1/messaging/inbox?tab=all&limit=50', manifest.keys.bigOwner],
    ['labor costs', 'GET', `/v1/business/${manifest.ids.bigBusiness}/labor_costs`, manifest.keys.bigOwner],
    ['going rate', 'GET', `/v1/going_rate?city_id=${manifest.ids.bigCity}`, manifest.keys.bigOwner],
    ...(manifest.dashboard
      ? [
          ['dashboard (web page)', 'GET', `/dashboard?business_id=${manifest.dashboard.businessId}`, { Cookie: manifest.dashboard.cookie }],
          [
            'schedule, week (web page)',
            'GET',
            `/dashboard/schedule?business_id=${manifest.dashboard.businessId}`,
            { Cookie: manifest.dashboard.cookie },
          ],
        ]
      : []),
    ['authenticated read (user details)', 'GET', '/v1/user/details', manifest.keys.relevance],
  ];
  // A copy taken before the writes below, so their statements replay as they ran.
  const db = persistTo ? await copyOfDatabase(persistTo, workDir) : null;
  const rows = [];
  // Reads are repeated (the D1 time is the median of 15); a write consumes its row, so it runs once.
  const once = new Set(['claim', 'clock-in', 'clock-out (the business)']);
  for (const [name, method, path, key, body] of paths) {
    const times = [];
    let r;
    for (let i = 0; i < (once.has(name) ? 1 : 15); i++) {
      r = await counted(base, method, path, key, body);
      if (r.status >= 300) failures.push(`${name}: ${describe({ status: r.status, body: r.text })}`);
      times.push(r.counts.d1Ms);
    }
    times.sort((a, b) => a - b);
    rows.push({ name, status: r.status, ...r.counts, d1Ms: times[Math.floor(times.length / 2)], statements: r.statements });
  }
  // The database's own work per request, on the copy (writes rolled back).
  for (const row of rows) {
    try {
      const t = db ? sqlTime(db, row.statements) : null;
      row.sqlMs = t ? t.total : null;
      row.prepareMs = t ? t.prepare : null;
      // The three slowest statements, for the results file: where a request's database time goes.
      row.slowest = t
        ? row.statements
            .map((st, k) => ({ ms: Number(t.each[k].toFixed(2)), sql: st.sql.replace(/\s+/g, ' ').slice(0, 240) }))
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 3)
        : [];
    } catch (err) {
      row.sqlMs = null;
      row.prepareMs = null;
      failures.push(`${row.name}: statements could not be replayed (${err instanceof Error ? err.message : String(err)})`);
    }
    delete row.statements;
  }
  db?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  // Consumed above: the load benchmark does not count on them.
  L.claimPool.pop();
  client.clockIns.pop();
  client.clockOuts.pop();
  return { rows, failures };
}

export function printCounts(res) {
  printTable(
    'Platform calls per request — counted in the probe Worker until the answer',
    ['request', 'status', 'D1 statements', 'D1 round trips', 'D1 wait ms', 'SQL ms', 'of which prepare', 'DO calls', 'queue msgs'],
    res.rows.map((r) => [
      r.name,
      r.status,
      r.d1,
      r.trips,
      r.d1Ms.toFixed(1),
      r.sqlMs === null ? '—' : r.sqlMs.toFixed(2),
      r.prepareMs === null ? '—' : r.prepareMs.toFixed(2),
      r.dos,
      r.queue,
    ]),
  );
}
