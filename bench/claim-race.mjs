// `npm run bench:claims`: the claim race over HTTP. 1,000 claims on one open broadcast sent at
// once under `wrangler dev` (by 250 shifters, 4 claims each, so the winner's repeated claims race its
// own commit), for a few rounds. Checks every answer: exactly one shifter wins, every one of the
// winner's answers is 200 with the committed row (shifter_id = the winner, request_status 2), every
// other answer is 409 CLAIM-LOST-ERR, and D1 agrees. Prints the answers by status, the time to the
// winner's first 200 and to the last answer, and the latency percentiles.
//
// It seeds its own small state (bench/.state/claim-race/, git-ignored) and serves a bundled snapshot
// of the Worker on its own port, like `npm run bench` (see bench/README.md).
// Environment: BENCH_PORT (default 8792), CLAIMS (1000), CLAIMERS (250), ROUNDS (3).
// `--smoke`: 40 claims from 10 shifters, one round, in bench/.state/smoke/claim-race/ on a free port,
// checked the same way, no results file: a check that the race still runs (`npm run bench:smoke`, in CI).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { freePort, ms, portIsFree, printTable, STATE_DIR, summarize, writeResults } from './common.mjs';
import { load } from './seed.mjs';
import { BENCH_VARS, buildSnapshot, runBench, startServer } from './server.mjs';

const SMOKE = process.argv.includes('--smoke');
const CLAIMS = Number(process.env.CLAIMS || (SMOKE ? 40 : 1000));
const CLAIMERS = Number(process.env.CLAIMERS || (SMOKE ? 10 : 250));
const ROUNDS = Number(process.env.ROUNDS || (SMOKE ? 1 : 3));
const TZ = 'America/New_York';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const sqlValue = (v) =>
  v === null || v === undefined
    ? 'NULL'
    : typeof v === 'number'
      ? String(v)
      : typeof v === 'boolean'
        ? v
          ? '1'
          : '0'
        : `'${String(v).replaceAll("'", "''")}'`;
function inserts(table, rows, perStatement = 200) {
  const cols = Object.keys(rows[0]);
  const out = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const tuples = rows.slice(i, i + perStatement).map((r) => `(${cols.map((c) => sqlValue(r[c])).join(',')})`);
    out.push(`INSERT INTO ${table} (${cols.join(', ')}) VALUES\n${tuples.join(',\n')};`);
  }
  return out;
}
const rand = (n) => Array.from(randomBytes(n), (b) => BASE62[b % 62]).join('');
const id = (prefix) => `${prefix}_${rand(20)}`;
/** A personal API key in the service's format and the sha256 hex that api_keys stores. */
function mintKey() {
  const key = `smk_${rand(32)}`;
  return { key, hash: createHash('sha256').update(key).digest('hex'), prefix: key.slice(0, 12) };
}

/** One business, its crew of CLAIMERS shifters with keys, and one open broadcast per round (plus a warm-up). */
function generate(dir, now) {
  mkdirSync(dir, { recursive: true });
  const created = now - 30 * 86_400_000;
  const users = [];
  const keys = [];
  const shifters = [];
  const connections = [];
  const user = (label) => {
    const u = {
      id: id('usr'),
      email: `${label}@claim-race.bench.local`,
      password_hash: 'pbkdf2_sha256$1$bench$bench',
      display_name: label,
      email_verified_at: created,
      is_demo: 0,
      created_at: created,
      updated_at: created,
    };
    const k = mintKey();
    users.push(u);
    keys.push({ id: id('key'), user_id: u.id, kind: 'personal', prefix: k.prefix, key_hash: k.hash, created_at: created });
    return { user: u, key: k.key };
  };
  const owner = user('race-owner');
  const biz = {
    id: id('biz'),
    user_id: owner.user.id,
    slug: 'claim-race',
    name: 'Claim Race Co',
    is_default: 1,
    timezone: TZ,
    city_id: 1,
    state_id: 1,
    country_id: 1,
    latitude: 40.7128,
    longitude: -74.006,
    currency: 'USD',
    created_at: created,
    updated_at: created,
  };
  const claimers = [];
  for (let i = 0; i < CLAIMERS; i++) {
    const u = user(`racer-${i}`);
    const s = {
      id: id('shf'),
      user_id: u.user.id,
      slug: `racer-${i}`,
      display_name: `Racer ${i}`,
      timezone: TZ,
      accept_shift_req: 1,
      currency: 'USD',
      created_at: created,
      updated_at: created,
    };
    shifters.push(s);
    connections.push({
      id: id('con'),
      business_id: biz.id,
      shifter_id: s.id,
      initiated_by: 'business',
      status: 'accepted',
      responded_at: created,
      created_at: created,
      updated_at: created,
    });
    claimers.push({ shifterId: s.id, key: u.key });
  }
  // Broadcasts on separate days, so no claimer's earlier win overlaps a later round.
  const today = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(TZ).toPlainDate();
  const broadcasts = Array.from({ length: ROUNDS + 1 }, (_, n) => {
    const date = today.add({ days: 2 + n }).toString();
    const startsAt = Temporal.PlainDateTime.from(`${date}T09:00`).toZonedDateTime(TZ).epochMilliseconds;
    const endsAt = Temporal.PlainDateTime.from(`${date}T17:00`).toZonedDateTime(TZ).epochMilliseconds;
    return {
      id: id('sr'),
      business_id: biz.id,
      shifter_id: null,
      created_by_user_id: owner.user.id,
      shift_date: date,
      shift_in: '09:00',
      shift_out: '17:00',
      starts_at: startsAt,
      ends_at: endsAt,
      shiftrole_id: 1,
      hourly_rate_minor: 2500,
      currency: 'USD',
      is_broadcast: 1,
      request_status: 1,
      is_noshow: 0,
      created_at: now - 1000,
      updated_at: now - 1000,
    };
  });
  const sql = [
    ...inserts('users', users),
    ...inserts('api_keys', keys),
    ...inserts('businesses', [biz]),
    ...inserts('shifters', shifters),
    ...inserts('request_authorizations', connections),
    ...inserts('shift_requests', broadcasts),
  ];
  const file = join(dir, 'claim-race.sql');
  writeFileSync(file, `${sql.join('\n')}\n`);
  return {
    files: [{ file, rows: users.length + keys.length + 1 + shifters.length + connections.length + broadcasts.length }],
    ownerKey: owner.key,
    claimers,
    broadcasts: broadcasts.map((b) => b.id),
  };
}

async function claimOnce(base, broadcastId, key, t0) {
  try {
    const res = await fetch(`${base}/v1/shift_request/${broadcastId}/claim`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(120_000),
    });
    const body = await res.json().catch(() => null);
    return { status: res.status, body, at: performance.now() - t0 };
  } catch (err) {
    return { status: 0, body: { error: { code: err instanceof Error ? err.name : 'ERROR' } }, at: performance.now() - t0 };
  }
}

/** One race: CLAIMS claims at once, claimer i sending claim i mod CLAIMERS. */
async function race(base, broadcastId, claimers, ownerKey) {
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: CLAIMS }, (_, i) => {
      const c = claimers[i % claimers.length];
      return claimOnce(base, broadcastId, c.key, t0).then((a) => ({ ...a, shifterId: c.shifterId }));
    }),
  );
  const byStatus = {};
  for (const a of answers) {
    const k = a.status === 200 ? '200' : `${a.status} ${a.body?.error?.code ?? ''}`.trim();
    byStatus[k] = (byStatus[k] ?? 0) + 1;
  }
  const winnerIds = [...new Set(answers.filter((a) => a.status === 200).map((a) => a.shifterId))];
  const problems = [];
  if (winnerIds.length !== 1) problems.push(`${winnerIds.length} shifters got a 200`);
  const winner = winnerIds[0] ?? null;
  const winnerAnswers = answers.filter((a) => a.shifterId === winner);
  for (const a of answers) {
    if (a.shifterId === winner) {
      if (a.status !== 200 || a.body?.shifter_id !== winner || a.body?.request_status !== 2)
        problems.push(`winner answer ${a.status} shifter_id=${a.body?.shifter_id} request_status=${a.body?.request_status}`);
    } else if (!(a.status === 409 && a.body?.error?.code === 'CLAIM-LOST-ERR')) {
      problems.push(`rival answer ${a.status} ${JSON.stringify(a.body?.error ?? a.body).slice(0, 120)}`);
    }
  }
  // D1 agrees: the business reads the row.
  const row = await (await fetch(`${base}/v1/shift_request/${broadcastId}`, { headers: { Authorization: `Bearer ${ownerKey}` } })).json();
  if (row.shifter_id !== winner || row.request_status !== 2)
    problems.push(`stored row: shifter_id=${row.shifter_id} request_status=${row.request_status}`);
  const winnerOk = winnerAnswers.filter((a) => a.status === 200 && a.body?.request_status === 2).length;
  return {
    broadcastId,
    answered: answers.length,
    byStatus,
    winner,
    winnerAnswers: winnerAnswers.length,
    winnerAnswersCommitted: winnerOk,
    firstWinnerMs: Math.min(...answers.filter((a) => a.status === 200).map((a) => a.at)),
    lastAnswerMs: Math.max(...answers.map((a) => a.at)),
    latency: summarize(answers.map((a) => a.at)),
    problems,
  };
}

const elapsed = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

async function main() {
  const port = Number(process.env.BENCH_PORT || (SMOKE ? await freePort() : 8792));
  if (port === 8787) throw new Error('port 8787 belongs to `npm run dev`; choose another BENCH_PORT');
  if (!(await portIsFree(port))) throw new Error(`port ${port} is in use; set BENCH_PORT to a free port`);
  const t0 = performance.now();
  const dir = SMOKE ? join(STATE_DIR, 'smoke', 'claim-race') : join(STATE_DIR, 'claim-race');
  const persistTo = join(dir, 'wrangler');
  const logFile = join(dir, 'wrangler.log');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const data = generate(join(dir, 'sql'), Date.now());
  await load(persistTo, data.files, logFile, (m) => console.log(`[claim-race] ${m} — ${elapsed(t0)}`));
  const script = await buildSnapshot(join(dir, 'build'), logFile);
  const server = await startServer({ port, persistTo, logFile, script });
  console.log(`[claim-race] wrangler dev answers on ${server.base} — ${elapsed(t0)}`);
  const rounds = [];
  try {
    // Warm-up: a small race on its own broadcast, so the first measured round does not pay for cold starts.
    const warm = await Promise.all(
      data.claimers.slice(0, 20).map((c) => claimOnce(server.base, data.broadcasts[0], c.key, performance.now())),
    );
    if (warm.filter((a) => a.status === 200).length !== 1) console.warn('[claim-race] warm-up race did not have exactly one winner');
    for (const id of data.broadcasts.slice(1)) {
      const r = await race(server.base, id, data.claimers, data.ownerKey);
      rounds.push(r);
      console.log(
        `[claim-race] round ${rounds.length}: ${JSON.stringify(r.byStatus)}, last answer after ${ms(r.lastAnswerMs)} ms — ${elapsed(t0)}`,
      );
    }
  } finally {
    if (server.reloads())
      console.warn(`[claim-race] wrangler dev reloaded the Worker ${server.reloads()} time(s): the figures are not reliable`);
    await server.stop();
  }
  const cpu = cpus();
  console.log(
    `\nClaim race under \`wrangler dev\` (local D1/DO), ${new Date().toISOString()}; ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), Node ${process.version}; settings ${Object.entries(
      BENCH_VARS,
    )
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}.`,
  );
  console.log(`${CLAIMS} claims at once on one open broadcast, from ${CLAIMERS} shifters (${CLAIMS / CLAIMERS} claims each).`);
  printTable(
    'Claim race — POST /v1/shift_request/{id}/claim (ms from the start of the round)',
    ['round', 'answered', 'by status', 'winners', "winner's 200s", 'first 200', 'last answer', 'p50', 'p99'],
    rounds.map((r, i) => [
      i + 1,
      r.answered,
      Object.entries(r.byStatus)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
      r.problems.some((p) => p.includes('got a 200')) ? 'NOT ONE' : '1',
      `${r.winnerAnswersCommitted}/${r.winnerAnswers}`,
      ms(r.firstWinnerMs),
      ms(r.lastAnswerMs),
      ms(r.latency.p50),
      ms(r.latency.p99),
    ]),
  );
  const problems = rounds.flatMap((r, i) => r.problems.map((p) => `round ${i + 1}: ${p}`));
  console.log(
    problems.length
      ? `\n${problems.length} unexpected answer(s):\n  ${problems.slice(0, 20).join('\n  ')}`
      : '\nEvery round: exactly one winner, all its answers 200 with the committed row, every other answer 409 CLAIM-LOST-ERR, D1 agrees ✓',
  );
  if (SMOKE) {
    console.log(`[claim-race] smoke run (the numbers are not figures) — whole run ${elapsed(t0)}`);
    if (problems.length) process.exitCode = 1;
    return;
  }
  const out = writeResults('claim-race-', { claims: CLAIMS, claimers: CLAIMERS, rounds });
  console.log(`Results written to ${out} — whole run ${elapsed(t0)}`);
  if (problems.length) process.exitCode = 1;
}

runBench('claim-race', main);
