import { HEIGHT_MESSAGE, type WidgetName } from './names';

/**
 * The host side of a widget, run on the partner's page. It finds the mount elements
 * (`<div data-shiftmarket-widget="profile" data-kind="business" data-slug="…" data-theme="dark">`),
 * puts a sandboxed iframe served by the Worker in each, and sets the iframe's height from the frame's
 * messages. The frame has no access to the host page and the host page none to the frame: the
 * sandbox has no allow-same-origin, so the frame runs in an opaque origin.
 *
 * A message is believed only when it comes from that iframe's own window (`event.source`), from the
 * frame's origin (a sandboxed document's origin is opaque: "null", or the Worker's origin if a partner
 * loosened the sandbox), and carries the random id this script gave that iframe.
 */

const LABELS: Record<WidgetName, string> = {
  connect: 'connect',
  schedule: 'schedule',
  profile: 'profile',
  shifts: 'open shifts',
  reviews: 'reviews',
  rate: 'going rate',
};
const SLUG = /^[a-z0-9][a-z0-9-]{0,79}$/;
const ROLE = /^[a-z0-9][a-z0-9_-]{0,59}$/;
const MAX_HEIGHT = 20000;

interface Mounted {
  frame: HTMLIFrameElement;
  id: string;
}

function nonce(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
  return out;
}

function pick(value: string | null | undefined, allowed: readonly string[], fallback: string): string {
  return value && allowed.indexOf(value) >= 0 ? value : fallback;
}

export function startWidget(name: WidgetName): void {
  const script = document.currentScript as HTMLScriptElement | null;
  // The frame is served by the same Worker as this script: its address is the script's own.
  const base = new URL(script?.src ? script.src : location.href);
  const frameOrigin = base.origin;
  const mounted: Mounted[] = [];

  function mount(el: HTMLElement): void {
    if (el.getAttribute('data-shiftmarket-mounted') === '1') return;
    el.setAttribute('data-shiftmarket-mounted', '1');
    const id = nonce();
    const params = new URLSearchParams();
    params.set('kind', pick(el.getAttribute('data-kind'), ['business', 'shifter'], 'business'));
    const slug = (el.getAttribute('data-slug') || '').trim().toLowerCase();
    params.set('slug', SLUG.test(slug) ? slug : '');
    params.set('theme', pick(el.getAttribute('data-theme'), ['light', 'dark'], 'light'));
    const role = (el.getAttribute('data-role') || '').trim().toLowerCase();
    if (name === 'rate' && ROLE.test(role)) params.set('role', role);
    params.set('id', id);
    if (location.origin && location.origin !== 'null') params.set('origin', location.origin);

    const frame = document.createElement('iframe');
    frame.src = `${frameOrigin}/embed/v1/frame/${name}?${params.toString()}`;
    frame.title = `Shiftmarket ${LABELS[name]}`;
    // Scripts for the height messages; popups (escaping the sandbox) for links that open Shiftmarket
    // itself, e.g. connect's sign-in window, which needs its own cookies. No allow-same-origin.
    frame.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
    frame.setAttribute('loading', 'lazy');
    frame.setAttribute('referrerpolicy', 'strict-origin');
    frame.setAttribute('data-shiftmarket-frame', name);
    frame.style.cssText = 'display:block;width:100%;border:0;height:80px;overflow:hidden;color-scheme:normal';
    el.appendChild(frame);
    mounted.push({ frame, id });
  }

  function scan(): void {
    const els = document.querySelectorAll<HTMLElement>(`[data-shiftmarket-widget="${name}"]`);
    for (let i = 0; i < els.length; i++) mount(els[i] as HTMLElement);
  }

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== 'null' && event.origin !== frameOrigin) return;
    const data = event.data as { type?: unknown; id?: unknown; height?: unknown } | null;
    if (!data || typeof data !== 'object' || data.type !== HEIGHT_MESSAGE) return;
    for (let i = 0; i < mounted.length; i++) {
      const m = mounted[i] as Mounted;
      if (m.frame.contentWindow !== event.source || m.id !== data.id) continue;
      const h = data.height;
      if (typeof h === 'number' && Number.isFinite(h) && h > 0) m.frame.style.height = `${Math.min(Math.ceil(h), MAX_HEIGHT)}px`;
      return;
    }
  });

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
}
