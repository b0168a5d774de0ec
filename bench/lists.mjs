// The other lists, at the data's size: POST /v1/shift_request/list_of_requests as the big business's
// owner (every request of a business with 35 % of the worked shifts, newest first) and GET
// /v1/messaging/inbox as the same owner (one thread per shifter, thousands of them), first page and a
// page deep in the list (through the cursor). Latency at concurrency 1.
import { call, describe, LOAD_COLUMNS, loadCells, printTable, runFixed, summarize } from './common.mjs';

export async function benchLists(base, manifest, { requests = 100, warmup = 3 } = {}) {
  const key = manifest.keys.bigOwner;
  const failures = [];
  const rows = [];
  const pageOf = (r) => (r.status === 200 && Array.isArray(r.body?.data) && r.body.data.length > 0 ? { ok: true, status: 200 } : null);
  // A cursor a few pages in, so the deep page is measured too.
  const deep = async (make) => {
    let r = await make(null);
    for (let i = 0; i < 4 && r.body?.next_cursor; i++) r = await make(r.body.next_cursor);
    return r.body?.next_cursor ?? null;
  };
  const listReq = (cursor) =>
    call(base, 'POST', '/v1/shift_request/list_of_requests', key, { as: 'business', limit: 50, ...(cursor ? { cursor } : {}) });
  const inbox = (cursor) =>
    call(base, 'GET', `/v1/messaging/inbox?tab=all&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
  const cases = [
    { name: 'list_of_requests, page 1', make: () => listReq(null) },
    { name: 'list_of_requests, page 6', cursor: await deep(listReq), make: (c) => listReq(c) },
    { name: 'inbox, page 1', make: () => inbox(null) },
    { name: 'inbox, page 6', cursor: await deep(inbox), make: (c) => inbox(c) },
  ];
  for (const c of cases) {
    const once = async () => {
      const r = await c.make(c.cursor ?? null);
      return pageOf(r) ?? { ok: false, status: r.status, detail: describe(r) };
    };
    for (let i = 0; i < warmup; i++) {
      const o = await once();
      if (!o.ok) failures.push(`${c.name} warm-up: ${o.detail}`);
    }
    const run = await runFixed(requests, 1, once);
    rows.push({ name: c.name, concurrency: 1, requests, rps: run.rps, latency: summarize(run.latencies), failed: run.failures.length });
    for (const f of run.failures.slice(0, 5)) failures.push(`${c.name}: ${f.detail}`);
  }
  return { worked: manifest.counts.insightRows, threads: manifest.counts.inboxThreads, rows, failures };
}

export function printLists(res) {
  printTable(
    `Lists — the big business's requests and inbox, ${res.worked.toLocaleString('en-US')} worked shifts, ${res.threads.toLocaleString('en-US')} threads (latency in ms)`,
    ['list', ...LOAD_COLUMNS],
    res.rows.map((r) => [r.name, ...loadCells(r)]),
  );
}
