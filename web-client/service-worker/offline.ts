/**
 * The installable shifter app: the shifter pages (their shell and the clock page's shifts of the next
 * days) are kept as they were last loaded, so the phone opens them without network; the hashed assets
 * are kept as they are immutable; punches queued offline are sent by Background Sync where the browser
 * has it (web-client/lib/punch-queue.ts; the page's `online` event sends them too, under one lock).
 * Pages are always asked of the network first: a cached one is shown only when the network fails.
 * Signing out forgets the kept pages (they hold the person's shifts).
 */
import { SYNC_TAG, sendQueuedPunches } from '../lib/punch-queue';

const PAGES = 'shifter-pages-v1';
const ASSETS = 'assets-v1';
/** The pages kept for offline use: the shifter side, read with GET. */
const KEPT = /^\/dashboard\/shifter(\/(clock|earnings|records|schedule))?\/?$/;

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

async function networkFirst(event: FetchEvent): Promise<Response> {
  const path = new URL(event.request.url).pathname;
  try {
    // A plain GET of the address: a navigation request itself cannot always be replayed from here.
    const res = await fetch(event.request.url, { credentials: 'same-origin' });
    if (res.ok && !res.redirected) {
      const copy = res.clone();
      event.waitUntil(
        caches
          .open(PAGES)
          .then((cache) => cache.put(path, copy))
          .catch(() => undefined),
      );
    }
    return res;
  } catch (err) {
    const kept = await (await caches.open(PAGES)).match(path);
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(ASSETS);
  const kept = await cache.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
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
    if (req.method !== 'GET') return;
    if (req.mode === 'navigate' && KEPT.test(url.pathname)) {
      event.respondWith(networkFirst(event));
      return;
    }
    if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(req));
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
