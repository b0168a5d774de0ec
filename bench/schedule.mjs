// The schedule page's server render for a week of ~850 shifts (issue 34: within 3× the least
// authenticated read): GET /dashboard/schedule?business_id=… as the dashboard business's owner with
// the session cookie a browser sends, and the calendar's own feed of a week (what the island reads
// when it moves to another week: POST /v1/shift_request/list_of_requests with the page's cookie and
// CSRF token, 200 a page until the cursor ends, as schedule.island.ts `loadWeek` asks), against the
// least authenticated read (/__bench/user, the dashboard benchmark's base), interleaved round by
// round so a change in the machine's load touches all three alike. Latency at concurrency 1, each
// one's ratio to the least read, the page's size and the feed's pages.
import { describe, ms, printTable, summarize } from './common.mjs';

/** The statuses the schedule shows (src/web/features/schedule/schedule.model.ts SCHEDULE_STATUSES). */
const SCHEDULE_STATUSES = [1, 2, 5, 6, 7];
/** What the bench sends as the page's CSRF token: the cookie and the header agree, as on a real page. */
const CSRF = 'bench-csrf-token-schedule';

const addDays = (date, n) => new Date(Date.parse(`${date}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function timed(base, path, init) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(60_000), ...init });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - t0 };
}

export async function benchSchedule(base, manifest, { rounds = 100, warmup = 5 } = {}) {
  const d = manifest.dashboard;
  const page = { Cookie: d.cookie };
  const failures = [];
  const fail = (what, r) => failures.length < 20 && failures.push(`${what}: ${describe({ status: r.status, body: r.body.slice(0, 200) })}`);

  const least = async () => {
    const r = await timed(base, '/__bench/user', { headers: { Authorization: `Bearer ${manifest.keys.relevance}` } });
    if (r.status !== 200 || !r.body.includes('"id"')) fail('/__bench/user', r);
    return { ms: r.ms, bytes: r.body.length };
  };
  const render = async () => {
    const r = await timed(base, `/dashboard/schedule?business_id=${encodeURIComponent(d.businessId)}`, { headers: page });
    // Every shift of the week is in the island's props (and the overnight ones of the Sunday before).
    const shifts = (r.body.match(/&quot;shift_in&quot;/g) ?? []).length;
    if (r.status !== 200 || !r.body.includes('data-island="schedule"') || shifts < d.week.shifts) fail('GET /dashboard/schedule', r);
    return { ms: r.ms, bytes: r.body.length };
  };
  const feed = async () => {
    const headers = {
      Cookie: `${d.cookie}; sm_csrf=${CSRF}`,
      'X-CSRF-Token': CSRF,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    let cursor = null;
    let total = 0;
    let pages = 0;
    let bytes = 0;
    const t0 = performance.now();
    do {
      const body = {
        as: 'business',
        business_id: d.businessId,
        status: SCHEDULE_STATUSES,
        date_from: addDays(d.monday, -1),
        date_to: addDays(d.monday, 6),
        limit: 200,
        ...(cursor ? { cursor } : {}),
      };
      const r = await timed(base, '/v1/shift_request/list_of_requests', { method: 'POST', headers, body: JSON.stringify(body) });
      if (r.status !== 200) {
        fail('POST /v1/shift_request/list_of_requests', r);
        break;
      }
      const answer = JSON.parse(r.body);
      total += answer.data.length;
      bytes += r.body.length;
      cursor = answer.next_cursor;
      pages++;
    } while (cursor && pages < 5);
    if (!failures.length && total < d.week.shifts) failures.push(`the week's feed answered ${total} shifts of ${d.week.shifts}`);
    return { ms: performance.now() - t0, bytes, pages, total };
  };

  const cases = [
    { name: 'least authenticated read', path: '/__bench/user', run: least },
    { name: 'the schedule page (the week)', path: 'GET /dashboard/schedule', run: render },
    { name: "the calendar's feed of a week", path: 'POST /v1/shift_request/list_of_requests', run: feed },
  ];
  const samples = cases.map(() => []);
  const last = cases.map(() => null);
  for (let w = 0; w < warmup; w++) for (const c of cases) await c.run();
  for (let round = 0; round < rounds; round++)
    for (const [i, c] of cases.entries()) {
      const r = await c.run();
      samples[i].push(r.ms);
      last[i] = r;
    }
  return {
    rounds,
    worked: manifest.counts.insightRows,
    week: d.week,
    rows: cases.map((c, i) => ({
      name: c.name,
      path: c.path,
      latency: summarize(samples[i]),
      bytes: last[i]?.bytes ?? 0,
      pages: last[i]?.pages,
    })),
    failures,
  };
}

export function printSchedule(res) {
  const least = res.rows[0].latency.p50;
  const w = res.week;
  printTable(
    `Schedule server render — the dashboard business's week of ${w.shifts} shifts (${w.worked} worked, ${w.running} running, ${w.claimed} claimed and ${w.open} open broadcasts ahead, ${w.pending} pending); ${res.worked.toLocaleString('en-US')} worked shifts in the table; ${res.rounds} rounds at concurrency 1, interleaved (latency in ms; the feed is all of its pages one after another)`,
    ['request', 'path', 'p50', 'p95', 'p99', 'mean', 'KB', '÷ least (p50)'],
    res.rows.map((r, i) => [
      r.pages ? `${r.name} (${r.pages} pages)` : r.name,
      r.path,
      ms(r.latency.p50),
      ms(r.latency.p95),
      ms(r.latency.p99),
      ms(r.latency.mean),
      (r.bytes / 1024).toFixed(1),
      i === 0 ? '' : `${(r.latency.p50 / least).toFixed(2)}×`,
    ]),
  );
  const page = res.rows[1].latency.p50 / least;
  console.log(`The schedule page renders in ${page.toFixed(2)}× the least authenticated read (target: within 3×)${page <= 3 ? ' ✓' : ''}.`);
}
