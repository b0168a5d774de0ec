/**
 * The shifter pages the service worker keeps for offline use (src/web/service-worker/offline.ts) and
 * what it changes in a saved copy it answers with: the page renders its saved-copy note hidden, and
 * whatever needs the network (claiming, answering a request, declining, counter-offers) marked; the
 * copy answered offline shows the note and hides those parts, so a phone without network offers
 * nothing it cannot send and says why. No script decides it: the copy is right on its first paint,
 * whatever `navigator.onLine` says and even when the page's script and stylesheet are not at hand.
 *
 * Both markers are attribute text the pages' JSX writes as is; attribute values a person wrote are
 * escaped (quotes become &quot;), so nothing typed can carry a marker.
 */

/** The service worker's cache of kept pages (one per session, offline.ts). */
export const KEPT_PAGES = 'shifter-pages-v1';

/** The saved-copy note's marker (`data-kept-note="saved"`, then `hidden`, in that order) and what the saved copy has instead. */
export const KEPT_NOTE_HIDDEN = 'data-kept-note="saved" hidden=""';
export const KEPT_NOTE_SHOWN = 'data-kept-note="saved"';

/** A part that needs the network: rendered with this attribute, hidden in the saved copy. */
export const NEEDS_NETWORK_ATTR = 'data-needs-network';
const NEEDS_NETWORK = `${NEEDS_NETWORK_ATTR}="yes"`;
const NEEDS_NETWORK_SAVED = `${NEEDS_NETWORK_ATTR}="saved" hidden=""`;

/** A kept page as the service worker answers with it offline: the note shown, the network's parts hidden. */
export function savedCopyHtml(html: string): string {
  return html.replace(KEPT_NOTE_HIDDEN, KEPT_NOTE_SHOWN).replaceAll(NEEDS_NETWORK, NEEDS_NETWORK_SAVED);
}

/** Spread on an element that needs the network (`<form {...NEEDS_NETWORK_PROPS}>`). */
export const NEEDS_NETWORK_PROPS = { [NEEDS_NETWORK_ATTR]: 'yes' } as const;
