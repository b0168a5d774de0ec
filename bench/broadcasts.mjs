// Broadcast listing: POST /v1/shift_request/list_of_broadcast_requests as the bench shifter, who
// sees all 10,000 open broadcasts. With sort_by_relevance every request ranks the whole set (one
// query for the candidates, the shifter's signals, a score per row, a sort); without it the list is
// a keyset page, newest first. Throughput and latency at concurrency 1 and 4.
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
    for (const concurrency of concurrencies) {
      const run = await runFixed(requests, concurrency, async () => check(await call(base, 'POST', PATH, key, mode.body)));
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
