// Broadcast listing: POST /v1/shift_request/list_of_broadcast_requests as the bench shifter, who
// sees every open broadcast of the data. With sort_by_relevance the page is ranked in D1 (the
// shifter's signals, a threshold over the score's upper bound, the window scored in full); without
// it the list is a page newest first. At concurrency 1 the two orders are measured interleaved,
// request by request, so a change in the machine's load touches both alike and their ratio holds;
// at concurrency 4 each runs on its own (throughput).
import { call, describe, LOAD_COLUMNS, loadCells, printTable, runFixed, summarize } from './common.mjs';

const PATH = '/v1/shift_request/list_of_broadcast_requests';

export async function benchBroadcasts(base, manifest, { requests = 200, concurrencies = [1, 4], warmup = 5 } = {}) {
  const key = manifest.keys.relevance;
  const shifterId = manifest.ids.relevanceShifter;
  const modes = [
    { name: 'relevance', body: { sort_by_relevance: true, shifter_id: shifterId, limit: 50 } },
    { name: 'newest first', body: { shifter_id: shifterId, limit: 50 } },
  ];
  const rows = [];
  const failures = [];
  const firstPages = {};
  for (const mode of modes) {
    const check = (r) => {
      if (r.status !== 200) return { ok: false, status: r.status, detail: describe(r) };
      const data = r.body?.data;
      if (!Array.isArray(data) || data.length !== 50)
        return { ok: false, status: r.status, detail: `expected 50 rows, got ${data?.length}` };
      if (mode.body.sort_by_relevance && typeof data[0].relevance_score !== 'number')
        return { ok: false, status: r.status, detail: 'no relevance_score' };
      return { ok: true, status: r.status };
    };
    for (let i = 0; i < warmup; i++) {
      const r = await call(base, 'POST', PATH, key, mode.body);
      const c = check(r);
      if (!c.ok) failures.push(`${mode.name} warm-up: ${c.detail}`);
      if (i === 0 && c.ok) {
        const scores = r.body.data.map((d) => d.relevance_score).filter((s) => s !== undefined);
        firstPages[mode.name] = {
          rows: r.body.data.length,
          has_next_page: r.body.next_cursor !== null,
          ...(scores.length
            ? { score_first: scores[0], score_last: scores.at(-1), sorted_desc: scores.every((s, j) => j === 0 || scores[j - 1] >= s) }
            : {}),
        };
      }
    }
    mode.check = check;
  }
  for (const concurrency of concurrencies) {
    if (concurrency === 1) {
      // One request of each order in turn.
      const samples = modes.map(() => []);
      const failed = modes.map(() => 0);
      for (let i = 0; i < requests; i++)
        for (const [k, mode] of modes.entries()) {
          const t0 = performance.now();
          let c;
          try {
            c = mode.check(await call(base, 'POST', PATH, key, mode.body));
          } catch (err) {
            c = { ok: false, detail: err instanceof Error ? err.message : String(err) };
          }
          samples[k].push(performance.now() - t0);
          if (!c.ok) {
            failed[k]++;
            if (failed[k] <= 5) failures.push(`${mode.name} c=1: ${c.detail}`);
          }
        }
      for (const [k, mode] of modes.entries()) {
        const busyMs = samples[k].reduce((a, b) => a + b, 0);
        rows.push({
          mode: mode.name,
          concurrency,
          requests,
          rps: requests / (busyMs / 1000),
          wallMs: busyMs,
          latency: summarize(samples[k]),
          failed: failed[k],
        });
      }
      continue;
    }
    for (const mode of modes) {
      const run = await runFixed(requests, concurrency, async () => mode.check(await call(base, 'POST', PATH, key, mode.body)));
      rows.push({
        mode: mode.name,
        concurrency,
        requests,
        rps: run.rps,
        wallMs: run.wallMs,
        latency: summarize(run.latencies),
        failed: run.failures.length,
      });
      for (const f of run.failures.slice(0, 5)) failures.push(`${mode.name} c=${concurrency}: ${f.detail}`);
    }
  }
  rows.sort(
    (a, b) => modes.findIndex((m) => m.name === a.mode) - modes.findIndex((m) => m.name === b.mode) || a.concurrency - b.concurrency,
  );
  return { openBroadcasts: manifest.counts.openBroadcasts, rows, firstPages, failures };
}

export function printBroadcasts(res) {
  printTable(
    `Broadcast listing — POST ${PATH}, limit 50, ${res.openBroadcasts.toLocaleString('en-US')} open broadcasts visible (latency in ms)`,
    ['order', ...LOAD_COLUMNS],
    res.rows.map((r) => [r.mode, ...loadCells(r)]),
  );
  const rel = res.firstPages.relevance;
  if (rel)
    console.log(`Relevance page 1: scores ${rel.score_first} → ${rel.score_last}, sorted best first: ${rel.sorted_desc ? 'yes' : 'NO'}`);
}
