/**
 * The installable shifter app: the shifter pages (their shell and the clock page's shifts of the next
 * days) are kept as they were last loaded, so the phone opens them without network (the hashed assets
 * come from the browser's own cache: they are served immutable for a year); punches queued offline are sent by Background Sync where the browser
 * has it (src/web/features/shifter-clock/punch-queue.client.ts; the page's `online` event sends them too, under one lock).
 *
 * A kept page is asked of the network first; the kept copy answers when the network fails or has not
 * answered in NETWORK_WAIT_MS (a connection that reports itself online but carries nothing, which
 * `navigator.onLine` cannot tell), and the network's late answer still refreshes the copy.
 *
 * Kept pages belong to one cookie session: every page says which (`X-Page-Session`, a digest of the
 * session's id, or `none`; src/web/render.tsx), and each navigation's answer drops the kept pages of
 * any other session. So after the session ends any way (signing out, cookies cleared, another person
 * signing in, the session revoked elsewhere), the next page loaded online forgets the last person's
 * pages; signing out with the form forgets them at once.
 *
 * A shift's page (/dashboard/shifter/shifts/{id}) is kept once seen, the latest MAX_SHIFT_PAGES of
 * them. The home, Find shifts (the last list seen) and My schedule are kept too: their island keeps
 * the first load, the worker every load after. A page answered from its kept copy shows the note it
 * carries hidden, saying when it was saved, and leaves out what needs the network (claims, answers):
 * src/web/features/shifter/kept-page.model.ts `savedCopyHtml`.
 */
import { SYNC_TAG, sendQueuedPunches } from '../features/shifter-clock/punch-queue.client';
import { KEPT_PAGES as PAGES, savedCopyHtml } from '../features/shifter/kept-page.model';

/** The pages kept for offline use: the shifter side, read with GET. */
const KEPT = /^\/dashboard\/shifter(\/(clock|earnings|find|records|schedule|shifts\/[^/]+))?\/?$/;
/** A shift's page: one per shift seen, so only the latest MAX_SHIFT_PAGES are kept. */
const SHIFT_PAGE = /^\/dashboard\/shifter\/shifts\//;
const MAX_SHIFT_PAGES = 40;
/** Which session a page was made for (src/web/render.tsx). */
const SESSION_HEADER = 'X-Page-Session';
/** How long a kept page's navigation waits for the network before the kept copy answers. */
const NETWORK_WAIT_MS = 4_000;

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

/**
 * The kept copy of a shifter page, if there is one, its saved-copy note shown and what needs the
 * network hidden (kept-page.model.ts `savedCopyHtml`; a page without them is answered as kept).
 */
async function keptPage(path: string): Promise<Response | undefined> {
  const kept = await (await caches.open(PAGES)).match(path);
  if (!kept?.headers.get('Content-Type')?.startsWith('text/html')) return kept;
  const html = await kept.text();
  return new Response(savedCopyHtml(html), {
    status: kept.status,
    statusText: kept.statusText,
    headers: kept.headers,
  });
}

/** After a page of `session` was loaded: drops the kept pages of every other session, and keeps this one. */
async function noteSession(session: string, page: { path: string; res: Response } | null): Promise<void> {
  const cache = await caches.open(PAGES);
  for (const req of await cache.keys()) {
    const kept = await cache.match(req);
    if (kept?.headers.get(SESSION_HEADER) !== session) await cache.delete(req);
  }
  if (page && session !== 'none') {
    await cache.put(page.path, page.res);
    // The oldest shift pages go first (a page put again moves to the end of the keys).
    const shifts = (await cache.keys()).filter((r) => SHIFT_PAGE.test(new URL(r.url).pathname));
    for (const old of shifts.slice(0, Math.max(0, shifts.length - MAX_SHIFT_PAGES))) await cache.delete(old);
  }
}

/** Resolves with the answer, or rejects after `ms` (the answer may still come, for the caller to use). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the network is slow')), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function navigate(event: FetchEvent, path: string): Promise<Response> {
  const kept = KEPT.test(path);
  // The answer, and for a kept page a copy taken before the browser reads it.
  const answer = fetch(event.request).then((res) => ({ res, copy: kept && res.status === 200 ? res.clone() : null }));
  // Called now, while the event is being dispatched: what the answer says of its session is noted
  // (and a late answer still refreshes the kept copy) after the page has it.
  event.waitUntil(
    answer
      .then(({ res, copy }) => {
        const session = res.headers.get(SESSION_HEADER);
        return session ? noteSession(session, copy ? { path, res: copy } : null) : undefined;
      })
      .catch(() => undefined),
  );
  const page = answer.then(({ res }) => res);
  if (!kept) return page;
  return within(page, NETWORK_WAIT_MS).catch(async (err: unknown) => {
    const copy = await keptPage(path);
    if (copy) return copy;
    // No copy: wait for the network after all (a slow answer), or fail as the browser would.
    if (err instanceof Error && err.message === 'the network is slow') return page;
    throw err;
  });
}

export function registerOffline(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('fetch', (event) => {
    const req = event.request;
    const url = new URL(req.url);
    if (url.origin !== sw.location.origin) return;
    if (req.method === 'POST' && url.pathname === '/logout') {
      event.waitUntil(caches.delete(PAGES));
      return;
    }
    if (req.method !== 'GET' || req.mode !== 'navigate') return;
    event.respondWith(navigate(event, url.pathname));
  });

  sw.addEventListener('sync', (event) => {
    const e = event as SyncEvent;
    if (e.tag !== SYNC_TAG) return;
    e.waitUntil(
      sendQueuedPunches().then(async (out) => {
        for (const client of await sw.clients.matchAll({ type: 'window' }))
          client.postMessage({ type: 'clock-punches-sent', sent: out.sent.length });
        // Still waiting: rejecting asks the browser to try the sync again later.
        if (out.waiting) throw new Error('punches still waiting for the network');
      }),
    );
  });
}
