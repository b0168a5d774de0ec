/**
 * The installable shifter app: the shifter pages (their shell and the clock page's shifts of the next
 * days) are kept as they were last loaded, so the phone opens them without network (the hashed assets
 * come from the browser's own cache: they are served immutable for a year); punches queued offline are sent by Background Sync where the browser
 * has it (web-client/lib/punch-queue.ts; the page's `online` event sends them too, under one lock).
 * Pages are asked of the network while online; the kept copy answers only without network.
 * Signing out forgets the kept pages (they hold the person's shifts).
 */
import { SYNC_TAG, sendQueuedPunches } from '../lib/punch-queue';

const PAGES = 'shifter-pages-v1';
/** The pages kept for offline use: the shifter side, read with GET. */
const KEPT = /^\/dashboard\/shifter(\/(clock|earnings|records|schedule))?\/?$/;

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

/** Without network, the kept copy of a shifter page (the clock page keeps its own copy when it loads). */
async function keptPage(request: Request): Promise<Response> {
  const kept = await (await caches.open(PAGES)).match(new URL(request.url).pathname);
  return kept ?? fetch(request);
}

export const KEPT_PAGES = PAGES;

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
    // Online, pages go to the network untouched; offline, the kept copy answers.
    if (req.mode === 'navigate' && KEPT.test(url.pathname) && !sw.navigator.onLine) {
      event.respondWith(keptPage(req));
      return;
    }
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
