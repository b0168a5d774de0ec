/**
 * The worker's shift page (shifter-shift.tsx) kept for offline use: registers the one service worker
 * (src/web/service-worker/offline.ts keeps the shifter pages it answers, for their session only), and
 * when this load did not go through it yet (the first page the phone opens), keeps the page now, as
 * the clock island does, so the shift opens without network once seen. The page works without it.
 */
import { eachIsland } from '@/web/client/island';

/** The service worker's cache of kept pages (offline.ts `KEPT_PAGES`). */
const KEPT_PAGES = 'shifter-pages-v1';

eachIsland<Record<string, never>>('shifter-shift', () => {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // A load the worker answered is kept by it already (a copy shown offline is not fetched again).
  if (navigator.serviceWorker.controller || !navigator.onLine || !('caches' in window)) return;
  void caches
    .open(KEPT_PAGES)
    .then((cache) => cache.add(location.pathname))
    .catch(() => undefined);
});
