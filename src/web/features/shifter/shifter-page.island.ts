/**
 * The shifter side's pages that open without network once seen (home, Find shifts, My schedule, a
 * shift's page): registers the one service worker (src/web/service-worker/offline.ts keeps these
 * pages for their session only) and, when this load did not go through it yet (the first page the
 * phone opens), keeps the page now, so it opens offline after one visit. When the phone loses the
 * network with the page open, the parts that need it (claims, answers) give way to the page's note
 * saying why, as in the copy the service worker answers with (kept-page.model.ts). And Decline asks
 * once, in a dialog with an optional reason, where the page has one (without script the same link
 * opens a confirmation page). The pages work without it.
 */
import { eachIsland } from '@/web/client/island';
import { KEPT_PAGES, NEEDS_NETWORK_ATTR } from './kept-page.model';

function keep() {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // A load the worker answered is kept by it already (a copy shown offline is not fetched again).
  if (navigator.serviceWorker.controller || !navigator.onLine || !('caches' in window)) return;
  void caches
    .open(KEPT_PAGES)
    .then((cache) => cache.add(location.pathname))
    .catch(() => undefined);
}

/** Offline with the page open: what needs the network is hidden and the note says so; back online, both as they were. */
function followNetwork(root: HTMLElement) {
  const note = root.querySelector<HTMLElement>('[data-kept-note]');
  // A copy the service worker answered with shows its note already: it is the saved page, not this one going offline.
  if (note && !note.hidden) return;
  const apply = () => {
    const off = !navigator.onLine;
    for (const el of root.querySelectorAll<HTMLElement>(`[${NEEDS_NETWORK_ATTR}="yes"]`)) {
      if (off && !el.hidden) {
        el.hidden = true;
        el.dataset.offlineHidden = 'true';
      } else if (!off && el.dataset.offlineHidden) {
        el.hidden = false;
        delete el.dataset.offlineHidden;
      }
    }
    if (note) note.hidden = !off;
  };
  window.addEventListener('offline', apply);
  window.addEventListener('online', apply);
  if (!navigator.onLine) apply();
}

/**
 * Decline's one question: the page's `<dialog>` (data-decline-dialog) holds the form with the
 * optional reason; each Decline link (data-decline, its href the confirmation page, which is also
 * where the form posts) opens it for its request. A reason typed and then kept for later stays in the
 * box when the same request's dialog opens again.
 */
function mountDecline(root: HTMLElement) {
  const dialog = root.querySelector<HTMLDialogElement>('dialog[data-decline-dialog]');
  const form = dialog?.querySelector<HTMLFormElement>('form');
  const what = dialog?.querySelector<HTMLElement>('[data-decline-what]');
  const reason = dialog?.querySelector<HTMLTextAreaElement>('textarea');
  if (!dialog || !form || !what || !reason || typeof dialog.showModal !== 'function') return;
  let opener: HTMLAnchorElement | null = null;
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-decline]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      if (form.action !== link.href) reason.value = '';
      form.action = link.href;
      what.textContent = link.dataset.decline ?? '';
      opener = link;
      dialog.showModal();
      reason.focus();
    });
  }
  dialog.querySelector<HTMLButtonElement>('[data-decline-keep]')?.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => opener?.focus());
}

eachIsland<Record<string, never>>('shifter-page', (el) => {
  keep();
  followNetwork(el);
  mountDecline(el);
});
