import { eachIsland } from '@/web/client/island';
import { announceLive, followBusiness, type LiveKind, LIVE_KINDS, onAnnounce, onLive } from '@/web/client/live';

/**
 * The live updates of a business's pages (docs/decisions/live-updates.md): rendered by the shell on
 * every page of a business, it opens the page's one socket (`followBusiness`, src/web/client/live.ts)
 * and brings the page's live regions up to date (LiveRegion, features/dashboard/live-region.tsx, and
 * the header's counts). On a signal of a region's kinds, and after every reconnection, it fetches
 * the region's `data-live-src` (the page itself, or the counts' fragment), one fetch for the regions
 * that share it, and puts each region's new content in place when it differs:
 * - focus stays where it was (on the same link, button or field when it is still there, else on the
 *   region), and nothing typed is lost: while a field of a region is being edited the region waits
 *   until focus leaves it, and values changed but not sent are carried over to the new content;
 * - one polite status line says what was brought up to date ("Updated: Today."), gathered so a
 *   burst of changes is said once, at most every few seconds.
 * Without script, or before it connects, the page is what the server rendered.
 */
interface Props {
  businessId: string;
}

/** Announcements are gathered this long, and said at most this often. */
const SAY_AFTER_MS = 600;
const SAY_GAP_MS = 4_000;

function mount(root: HTMLElement, props: Props) {
  const status = root.querySelector<HTMLElement>('[data-live-announce]');
  sayThrough(status);

  const bySrc = new Map<string, HTMLElement[]>();
  for (const region of document.querySelectorAll<HTMLElement>('[data-live-region][data-live-src]')) {
    const src = region.dataset.liveSrc!;
    bySrc.set(src, [...(bySrc.get(src) ?? []), region]);
  }
  for (const [src, regions] of bySrc) {
    const kinds = new Set(regions.flatMap((r) => (r.dataset.liveOn ?? '').split(' ')).filter((k) => LIVE_KINDS.includes(k as LiveKind)));
    onLive([...kinds] as LiveKind[], () => refresh(src, regions));
  }
  followBusiness(props.businessId, (state) => {
    root.dataset.live = state;
  });
}

/** Fetches `src` once and puts each region's new content in place. */
async function refresh(src: string, regions: HTMLElement[]): Promise<void> {
  const res = await fetch(src, { credentials: 'same-origin', headers: { Accept: 'text/html' }, cache: 'no-store' });
  // Signed out meanwhile (the sign-in page), or refused: the page stays as it is.
  if (!res.ok || new URL(res.url).pathname.startsWith('/login')) return;
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  const updated: string[] = [];
  for (const region of regions) {
    const fresh = doc.querySelector<HTMLElement>(`[data-live-region="${CSS.escape(region.dataset.liveRegion ?? '')}"]`);
    if (!fresh || sameContent(region, fresh)) continue;
    if (editing(region)) {
      // Someone is typing here: the region waits until focus leaves it, then fetches again.
      region.addEventListener('focusout', () => window.setTimeout(() => void refresh(src, [region]), 0), { once: true });
      continue;
    }
    swap(region, fresh);
    if (region.dataset.liveLabel && !updated.includes(region.dataset.liveLabel)) updated.push(region.dataset.liveLabel);
  }
  if (updated.length) announceLive(updated.join(', '));
}

/** The same content, but for the forms' fresh idempotency keys (every render mints new ones). */
function sameContent(a: HTMLElement, b: HTMLElement): boolean {
  const plain = (el: HTMLElement) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const key of copy.querySelectorAll('input[name="_idem"]')) key.removeAttribute('value');
    return copy.innerHTML;
  };
  return plain(a) === plain(b);
}

const TEXT_INPUT = /^(text|search|email|tel|url|number|password|date|time|datetime-local|month|week)$/;

/** A field of the region has focus and takes typing. */
function editing(region: HTMLElement): boolean {
  const el = document.activeElement;
  if (!el || !region.contains(el)) return false;
  return (
    el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && TEXT_INPUT.test(el.type))
  );
}

/** A name for an element that survives a new render: its id, else what it is, where it leads and what it says. */
function keyOf(el: Element): string {
  if (el.id) return `#${el.id}`;
  const form = el.closest('form')?.getAttribute('action') ?? '';
  return [el.tagName, el.getAttribute('href'), el.getAttribute('name'), el.getAttribute('value'), form, el.textContent?.trim()].join('|');
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const fieldKey = (f: Field) => `${f.closest('form')?.getAttribute('action') ?? ''}|${f.name}`;

function changedFields(region: HTMLElement): Map<string, Field> {
  const changed = new Map<string, Field>();
  for (const f of region.querySelectorAll<Field>('input, textarea, select')) {
    if (!f.name || f.name.startsWith('_')) continue;
    const dirty =
      f instanceof HTMLSelectElement
        ? [...f.options].some((o) => o.selected !== o.defaultSelected)
        : f instanceof HTMLInputElement && (f.type === 'checkbox' || f.type === 'radio')
          ? f.checked !== f.defaultChecked
          : f.value !== f.defaultValue;
    if (dirty) changed.set(fieldKey(f), f);
  }
  return changed;
}

/** Puts the fresh content in place, keeping focus and the values typed but not sent. */
function swap(region: HTMLElement, fresh: HTMLElement): void {
  const active = document.activeElement && region.contains(document.activeElement) ? document.activeElement : null;
  const focusKey = active && active !== region ? keyOf(active) : null;
  const kept = changedFields(region);
  region.replaceChildren(...[...fresh.childNodes].map((n) => document.importNode(n, true)));
  for (const f of region.querySelectorAll<Field>('input, textarea, select')) {
    const old = kept.get(fieldKey(f));
    if (!old) continue;
    if (f instanceof HTMLInputElement && (f.type === 'checkbox' || f.type === 'radio')) f.checked = (old as HTMLInputElement).checked;
    else f.value = old.value;
  }
  if (!active) return;
  const same = focusKey ? [...region.querySelectorAll<HTMLElement>(active.tagName)].find((el) => keyOf(el) === focusKey) : null;
  if (same) {
    same.focus({ preventScroll: true });
    return;
  }
  // What had focus is gone (the request was answered elsewhere): focus stays in the region.
  if (!region.hasAttribute('tabindex')) region.tabIndex = -1;
  region.focus({ preventScroll: true });
}

/** Says the announcements politely through the status line: gathered, and not more often than every few seconds. */
function sayThrough(status: HTMLElement | null): void {
  if (!status) return;
  const pending: string[] = [];
  let timer: number | undefined;
  let saidAt = 0;
  onAnnounce((label) => {
    if (!pending.includes(label)) pending.push(label);
    if (timer !== undefined) return;
    const wait = Math.max(SAY_AFTER_MS, saidAt + SAY_GAP_MS - Date.now());
    timer = window.setTimeout(() => {
      timer = undefined;
      saidAt = Date.now();
      status.textContent = `Updated: ${pending.splice(0).join(', ')}.`;
    }, wait);
  });
}

eachIsland<Props>('live', mount);
