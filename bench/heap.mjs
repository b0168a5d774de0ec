// The JavaScript heaps of the local runtime's isolates, read through the V8 inspector: what the soak
// samples beside workerd's resident memory, to tell the Worker's own objects (a leak in our code)
// from memory the runtime holds outside them (SQLite, the objects' storage, V8's reserved pages).
//
// `wrangler dev` runs the Worker in a workerd started with an inspector; wrangler connects to the
// Worker's target (`core:user:<name>`) and serves it to DevTools at `--inspector-port`, so the
// Worker is read through that proxy (which wants an Origin it knows). The runtime's own isolates
// (D1's database object, its entry, the caches, the outbound service…) are read at workerd's
// inspector directly: it is one of the group's listening ports, the one whose `/json` lists them.
// Each sample asks every isolate for a full collection first (`HeapProfiler.collectGarbage`, which
// workerd carries out once the isolate next runs, so only while requests flow) and then for its
// heap (`Runtime.getHeapUsage`, answered at once).
import { execFileSync } from 'node:child_process';
import { groupProcesses } from './server.mjs';

const mb = (bytes) => bytes / 2 ** 20;

/** The local ports the processes of the group `pgid` listen on (from `ss`; none where it is absent). */
function listeningPorts(pgid) {
  try {
    const pids = new Set(groupProcesses(pgid).map((p) => p.pid));
    const ports = [];
    for (const line of execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' }).split('\n')) {
      const port = /127\.0\.0\.1:(\d+)/.exec(line)?.[1];
      const pid = /pid=(\d+)/.exec(line)?.[1];
      if (port && pid && pids.has(pid)) ports.push(Number(port));
    }
    return ports;
  } catch {
    return [];
  }
}

async function targets(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(1000) });
    const list = await res.json();
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** One inspector session: `send` resolves with the answer's result, or null after `timeoutMs`. */
async function session(url, headers) {
  const ws = new WebSocket(url, { headers });
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', () => reject(new Error(`inspector ${url} did not open`)), { once: true });
  });
  let id = 0;
  const pending = new Map();
  ws.addEventListener('message', (ev) => {
    const m = JSON.parse(String(ev.data));
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m.result ?? null);
      pending.delete(m.id);
    }
  });
  const send = (method, timeoutMs = 20_000) =>
    new Promise((resolve) => {
      const i = ++id;
      const timer = setTimeout(() => {
        pending.delete(i);
        resolve(null);
      }, timeoutMs);
      pending.set(i, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      ws.send(JSON.stringify({ id: i, method, params: {} }));
    });
  return { send, close: () => ws.close() };
}

/**
 * Opens the heap probe of a `wrangler dev` started by bench/server.mjs (`pgid` its process group,
 * `inspectorPort` wrangler's); with `collect` false it reads the heaps without collecting first.
 * Null when the inspector cannot be reached (no `ss`, another OS): the soak then samples the
 * resident memory alone.
 */
export async function openHeapProbe({ pgid, inspectorPort, collect = true }) {
  const worker = (await targets(inspectorPort))[0];
  let runtimePort = null;
  let runtimeTargets = [];
  for (const port of listeningPorts(pgid)) {
    const list = await targets(port);
    if (list.some((t) => String(t.id).startsWith('core:user:'))) {
      runtimePort = port;
      runtimeTargets = list.filter((t) => !String(t.id).startsWith('core:user:'));
      break;
    }
  }
  if (!worker?.webSocketDebuggerUrl || !runtimePort) return null;
  const sessions = [];
  try {
    sessions.push({ name: 'worker', ...(await session(worker.webSocketDebuggerUrl, { Origin: 'http://127.0.0.1' })) });
    for (const t of runtimeTargets) sessions.push({ name: t.id, ...(await session(`ws://127.0.0.1:${runtimePort}/${t.id}`)) });
  } catch {
    for (const s of sessions) s.close();
    return null;
  }

  /**
   * The heaps after a full collection (as they are with `collect` false), in MB: the Worker's
   * (`workerMb`, and what V8 holds for it, `workerTotalMb`) and the runtime's other isolates
   * together (`runtimeMb`). A figure is null when its isolate did not answer in time.
   */
  async function sample() {
    const heaps = await Promise.all(
      sessions.map(async (s) => {
        // The Worker runs all through the soak; an isolate of the runtime that is idle would keep the
        // collection waiting, so it gets a few seconds and is then read as it is.
        if (collect) await s.send('HeapProfiler.collectGarbage', s.name === 'worker' ? 20_000 : 3_000);
        const h = await s.send('Runtime.getHeapUsage', 5_000);
        return { name: s.name, used: h?.usedSize ?? null, total: h?.totalSize ?? null };
      }),
    );
    const w = heaps.find((h) => h.name === 'worker');
    const others = heaps.filter((h) => h.name !== 'worker');
    return {
      workerMb: w.used === null ? null : mb(w.used),
      workerTotalMb: w.total === null ? null : mb(w.total),
      runtimeMb: others.some((h) => h.used === null) ? null : mb(others.reduce((a, h) => a + h.used, 0)),
      isolates: heaps.length,
    };
  }

  return {
    sample,
    collect,
    close: () => {
      for (const s of sessions) s.close();
    },
  };
}
