// The business web application's server render: GET /dashboard (today at a glance) and GET
// /dashboard/schedule (the week) for a business with a week of ~850 shifts, as its owner signed in on
// the web (the session cookie), against the least authenticated read (the probe route /__bench/user)
// measured beside them, interleaved round by round so a change in the machine's load touches all
// three alike. Latency at concurrency 1, the ratio of each page to the least read, and the page size.
import { describe, ms, printTable, summarize } from './common.mjs';

async function get(base, path, headers) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { headers, redirect: 'manual', signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text, ms: performance.now() - t0 };
}

export async function benchDashboard(base, manifest, { rounds = 100, warmup = 5 } = {}) {
  const d = manifest.dashboard;
  const q = `business_id=${encodeURIComponent(d.businessId)}`;
  const page = { Cookie: d.cookie };
  const cases = [
    {
      name: 'least authenticated read',
      path: '/__bench/user',
      headers: { Authorization: `Bearer ${manifest.keys.relevance}` },
      marker: '"id"',
    },
    // Marks of a full render: the today table and the labor card (owner) on the home page, the week grid on the schedule.
    { name: 'GET /dashboard', path: `/dashboard?${q}`, headers: page, marker: 'Shifts of today', also: 'Labor costs and invoices' },
    // Every shift of the week is in the island's props (and the overnight ones of the Sunday before).
    {
      name: 'GET /dashboard/schedule',
      path: `/dashboard/schedule?${q}`,
      headers: page,
      marker: 'data-island="schedule"',
      check: (body) => (body.match(/&quot;shift_in&quot;/g) ?? []).length >= d.week.shifts,
    },
  ];
  const failures = [];
  const samples = cases.map(() => []);
  const bytes = cases.map(() => 0);
  const once = async (i) => {
    const c = cases[i];
    const r = await get(base, c.path, c.headers);
    const ok = r.status === 200 && r.body.includes(c.marker) && (!c.also || r.body.includes(c.also)) && (!c.check || c.check(r.body));
    if (!ok && failures.length < 20) failures.push(`${c.path}: ${describe({ status: r.status, body: r.body.slice(0, 200) })}`);
    bytes[i] = r.body.length;
    return r.ms;
  };
  for (let w = 0; w < warmup; w++) for (let i = 0; i < cases.length; i++) await once(i);
  for (let round = 0; round < rounds; round++) for (let i = 0; i < cases.length; i++) samples[i].push(await once(i));
  const rows = cases.map((c, i) => ({ name: c.name, path: c.path.split('?')[0], latency: summarize(samples[i]), bytes: bytes[i] }));
  return {
    rounds,
    worked: manifest.counts.insightRows,
    week: d.week,
    historyShifts: d.historyShifts,
    rows,
    failures,
  };
}

export function printDashboard(res) {
  const least = res.rows[0].latency.p50;
  const w = res.week;
  printTable(
    `Dashboard server render — a business with ${w.shifts} shifts this week (${w.worked} worked, ${w.running} running of which ${w.clockedIn} clocked in, ${w.claimed} claimed and ${w.open} open broadcasts ahead, ${w.pending} pending) and ${res.historyShifts.toLocaleString('en-US')} before it; ${res.worked.toLocaleString('en-US')} worked shifts in the table; ${res.rounds} requests each at concurrency 1, interleaved (latency in ms)`,
    ['request', 'path', 'p50', 'p95', 'p99', 'mean', 'KB', '÷ least (p50)'],
    res.rows.map((r, i) => [
      r.name,
      r.path,
      ms(r.latency.p50),
      ms(r.latency.p95),
      ms(r.latency.p99),
      ms(r.latency.mean),
      (r.bytes / 1024).toFixed(1),
      i === 0 ? '' : `${(r.latency.p50 / least).toFixed(2)}×`,
    ]),
  );
}
