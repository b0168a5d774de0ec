// The web application's one service worker, served at /sw.js with the scope "/" (a browser allows one
// per scope, so every job a worker does in the background lives here, each in its own module): web
// push (push.ts) and the installable, offline-capable shifter app (offline.ts).
import { registerOffline } from './offline';
import { registerPush } from './push';

declare const self: ServiceWorkerGlobalScope;

// A new version takes over at once: the pages it serves are the Worker's, never a stale copy of them.
self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

registerPush(self);
registerOffline(self);
