/**
 * A venue's position read from a pasted map link: Google Maps, Apple Maps and OpenStreetMap
 * addresses that carry coordinates, a `geo:` URI (RFC 5870), or a bare "latitude, longitude" pair.
 * Pure: nothing is fetched, so a short link (maps.app.goo.gl, maps.apple) that only says where it
 * points once opened is refused with a message saying what to paste instead.
 */

export type MapLinkSource = 'google' | 'apple' | 'openstreetmap' | 'geo' | 'coordinates';

export type MapLinkResult =
  | { ok: true; latitude: number; longitude: number; source: MapLinkSource }
  | { ok: false; reason: 'not-a-map-link' | 'short-link' | 'no-position'; message: string };

const MESSAGES = {
  'not-a-map-link': 'Paste a link from Google Maps, Apple Maps or OpenStreetMap, or a position such as 40.7128, -74.0060.',
  'short-link': 'A short link does not say where it points until it is opened: open it, then copy the full link from the address bar.',
  'no-position': 'This map link names no position: open it, put the pin on the venue, then copy the link from the address bar again.',
} as const;

const refuse = (reason: keyof typeof MESSAGES): MapLinkResult => ({ ok: false, reason, message: MESSAGES[reason] });

/** A coordinate as links write it: an optional sign (the typographic minus too) and decimals. */
const NUMBER = String.raw`[+\-\u2212]?\d{1,3}(?:\.\d+)?`;
const PAIR = new RegExp(String.raw`^\s*(?:loc:)?\s*(${NUMBER})\s*,\s*(${NUMBER})(?![\d.])`);

const toNumber = (text: string) => Number(text.replace('\u2212', '-').replace(/^\+/, ''));
const round = (n: number) => Math.round(n * 1e7) / 1e7;

function position(lat: string | undefined, lon: string | undefined): { latitude: number; longitude: number } | null {
  if (lat === undefined || lon === undefined) return null;
  const latitude = toNumber(lat);
  const longitude = toNumber(lon);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude: round(latitude) + 0, longitude: round(longitude) + 0 };
}

/** "40.7,-74.0" at the start of a text ("40.7,-74.0(Bistro)", "loc:40.7+-74.0" once decoded). */
function pairIn(text: string | null | undefined) {
  if (!text) return null;
  const m = PAIR.exec(text);
  return m ? position(m[1], m[2]) : null;
}

function firstPair(params: URLSearchParams, names: readonly string[]) {
  for (const name of names) {
    const found = pairIn(params.get(name));
    if (found) return found;
  }
  return null;
}

/** A path with its escapes undone (a malformed escape is left as it is). */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function google(url: URL) {
  const path = decoded(url.pathname);
  // A place's pin (`!3d<lat>!4d<lon>` in its data) is where the venue is; `@` is only the view's centre.
  const pin = /!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)/.exec(path + url.hash);
  return (
    (pin ? position(pin[1], pin[2]) : null) ??
    firstPair(url.searchParams, ['q', 'query', 'll', 'center', 'destination', 'daddr', 'sll']) ??
    pairIn(/\/maps\/(?:place|search|dir)\/([^/@]+)/.exec(path)?.[1]?.replace(/\+/g, ' ')) ??
    (() => {
      const at = /\/@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/.exec(path);
      return at ? position(at[1], at[2]) : null;
    })()
  );
}

function apple(url: URL) {
  return firstPair(url.searchParams, ['coordinate', 'll', 'q', 'daddr', 'sll', 'center']);
}

function openStreetMap(url: URL) {
  const p = url.searchParams;
  const hash = /(?:^#|&)map=\d+(?:\.\d+)?\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)/.exec(url.hash);
  return (
    position(p.get('mlat') ?? undefined, p.get('mlon') ?? undefined) ??
    (hash ? position(hash[1], hash[2]) : null) ??
    position(p.get('lat') ?? undefined, p.get('lon') ?? undefined)
  );
}

/** `geo:40.7,-74.0;u=35` or Android's `geo:0,0?q=40.7,-74.0(Bistro)`. */
function geoUri(text: string) {
  const rest = text.slice(4);
  const query = rest.indexOf('?');
  const main = pairIn(query === -1 ? rest : rest.slice(0, query));
  const q = query === -1 ? null : pairIn(new URLSearchParams(rest.slice(query + 1)).get('q'));
  if (main && (main.latitude !== 0 || main.longitude !== 0)) return main;
  return q ?? main;
}

type Site = 'google' | 'google-short' | 'apple' | 'apple-short' | 'openstreetmap' | 'osm-short' | null;

function siteOf(url: URL): Site {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (host === 'maps.app.goo.gl' || (host === 'goo.gl' && url.pathname.startsWith('/maps'))) return 'google-short';
  if (/^(maps\.)?google\.[a-z]{2,3}(\.[a-z]{2})?$/.test(host)) {
    return host.startsWith('maps.') || url.pathname.startsWith('/maps') ? 'google' : null;
  }
  if (host === 'maps.apple.com') return 'apple';
  if (host === 'maps.apple') return 'apple-short';
  if (host === 'openstreetmap.org') return 'openstreetmap';
  if (host === 'osm.org') return url.pathname.startsWith('/go/') ? 'osm-short' : 'openstreetmap';
  return null;
}

/** The position a pasted map link (or "latitude, longitude") points at, or why none can be read. */
export function parseMapLink(pasted: string): MapLinkResult {
  const text = pasted.trim();
  if (!text) return refuse('not-a-map-link');
  const bare = new RegExp(String.raw`^(${NUMBER})\s*,\s*(${NUMBER})$`).exec(text);
  if (bare) {
    const found = position(bare[1], bare[2]);
    return found ? { ok: true, ...found, source: 'coordinates' } : refuse('no-position');
  }
  if (/^geo:/i.test(text)) {
    const found = geoUri(text);
    return found ? { ok: true, ...found, source: 'geo' } : refuse('no-position');
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return refuse('not-a-map-link');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('not-a-map-link');
  const site = siteOf(url);
  if (site === 'google-short' || site === 'apple-short' || site === 'osm-short') return refuse('short-link');
  const found = site === 'google' ? google(url) : site === 'apple' ? apple(url) : site === 'openstreetmap' ? openStreetMap(url) : undefined;
  if (found === undefined) return refuse('not-a-map-link');
  return found ? { ok: true, ...found, source: site as MapLinkSource } : refuse('no-position');
}
