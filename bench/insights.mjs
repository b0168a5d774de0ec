// Insights on the worked shift rows (100,000 by default): GET /v1/going_rate for the city of the big
// business (every worked shift of the city in the 90-day window), GET /v1/business/{id}/labor_costs
// (eight weeks of its worked shifts) and GET /v1/business/{id}/crew/analytics (its crew of 300 over 90
// days), answered from the rollups. Latency over a fixed number of requests at concurrency 1 (and
// throughput at 4).
import { call, describe, LOAD_COLUMNS, loadCells, printTable, runFixed, summarize } from './common.mjs';

export async function benchInsights(base, manifest, { requests = 100, concurrencies = [1, 4], warmup = 3 } = {}) {
  const key = manifest.keys.bigOwner;
  const goingRatePath = `/v1/going_rate?city_id=${manifest.ids.bigCity}`;
  const laborPath = `/v1/business/${manifest.ids.bigBusiness}/labor_costs?week=${manifest.week}`;
  const crewPath = `/v1/business/${manifest.ids.bigBusiness}/crew/analytics`;
  const endpoints = [
    { name: 'going_rate', path: goingRatePath, ok: (b) => typeof b?.sample_size === 'number' && b.sample_size > 0 },
    { name: 'labor_costs', path: laborPath, ok: (b) => Array.isArray(b?.last_8_weeks) },
    { name: 'crew_analytics', path: crewPath, ok: (b) => Array.isArray(b?.per_shifter) && b.per_shifter.length > 0 },
  ];
  const failures = [];
  const rows = [];
  const answers = {};
  for (const e of endpoints) {
    const check = (r) =>
      r.status === 200 && e.ok(r.body) ? { ok: true, status: 200 } : { ok: false, status: r.status, detail: describe(r) };
    for (let i = 0; i < warmup; i++) {
      const r = await call(base, 'GET', e.path, key);
      if (i === 0) answers[e.name] = r.body;
      const c = check(r);
      if (!c.ok) failures.push(`${e.name} warm-up: ${c.detail}`);
    }
    for (const concurrency of concurrencies) {
      const run = await runFixed(requests, concurrency, async () => check(await call(base, 'GET', e.path, key)));
      rows.push({
        endpoint: e.name,
        path: e.path,
        concurrency,
        requests,
        rps: run.rps,
        latency: summarize(run.latencies),
        failed: run.failures.length,
      });
      for (const f of run.failures.slice(0, 5)) failures.push(`${e.name} c=${concurrency}: ${f.detail}`);
    }
  }
  const g = answers.going_rate ?? {};
  const l = answers.labor_costs ?? {};
  const c = answers.crew_analytics ?? {};
  const coverage = {
    going_rate: {
      city_id: manifest.ids.bigCity,
      sample_size: g.sample_size ?? null,
      currency: g.currency ?? null,
      window_days: g.window_days ?? null,
      median: g.median ?? null,
    },
    labor_costs: {
      business_id: manifest.ids.bigBusiness,
      week_start: l.week_start ?? null,
      this_week_shifts: l.this_week_shifts ?? null,
      shifts_in_8_weeks: Array.isArray(l.last_8_weeks) ? l.last_8_weeks.reduce((a, w) => a + w.shifts, 0) : null,
    },
    crew_analytics: { crew_size: c.crew_size ?? null, shifts_90d: c.total_completed_shifts_90d ?? null },
  };
  return { totalRows: manifest.counts.insightRows, rowsByCity: { ...manifest.counts.insightRowsByCity }, rows, coverage, failures };
}

export function printInsights(res) {
  printTable(
    `Insights — ${res.totalRows.toLocaleString('en-US')} worked shift rows (latency in ms)`,
    ['endpoint', ...LOAD_COLUMNS],
    res.rows.map((r) => [r.endpoint, ...loadCells(r)]),
  );
  const g = res.coverage.going_rate;
  const l = res.coverage.labor_costs;
  console.log(
    `going_rate city ${g.city_id}: sample_size ${g.sample_size} worked shifts in the ${g.window_days}-day window ` +
      `(${res.rowsByCity[g.city_id]} seeded in the city over 120 days), median ${g.median} ${g.currency}`,
  );
  console.log(
    `labor_costs week of ${l.week_start}: ${l.this_week_shifts} shifts this week, ${l.shifts_in_8_weeks} shifts over the 8 weeks it reads`,
  );
  const c = res.coverage.crew_analytics;
  console.log(`crew_analytics: ${c.crew_size} crew members, ${c.shifts_90d} worked shifts in 90 days`);
}
