/**
 * The worker's shift page (shifter-shift.tsx): the page's address, the links that open the venue in a
 * maps app and a zone's name in words. (What the service worker does with its saved copy is the
 * shifter side's, shifter/kept-page.model.ts.)
 */

/** The worker's shift page: `/dashboard/shifter/shifts/{id}`, or one of its forms (`accept`, `decline`, `claim`). */
export const shifterShiftPath = (id: string, action?: 'accept' | 'decline' | 'claim') =>
  `/dashboard/shifter/shifts/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** What the links read of the venue. */
export interface MapPlace {
  name: string;
  address: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface MapLink {
  /** What the link says. */
  label: string;
  href: string;
  /** It opens the phone's own maps app (a `geo:` URI) rather than a web page. */
  app: boolean;
}

/** The venue as the maps' search boxes read it: its address, else its name and city; null with neither. */
export function placeQuery(p: MapPlace): string | null {
  if (p.address) return p.address;
  return p.city ? `${p.name}, ${p.city}` : null;
}

/** Six decimals (about 10 cm): what a map link carries of a coordinate. */
const coord = (n: number) => String(Math.round(n * 1e6) / 1e6);

/**
 * The links to the venue: the phone's maps app (`geo:` URI, RFC 5870, with the venue's name as its
 * label), directions in Google Maps and in Apple Maps, and the spot on OpenStreetMap. From the
 * position when the business gave one (the place clock-ins are measured from), else from the
 * address; none when there is neither. Plain links: no map is drawn on the page, no script of
 * another site runs.
 */
export function mapLinks(p: MapPlace): MapLink[] {
  const hasPosition = p.latitude !== null && p.longitude !== null && Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180;
  if (hasPosition) {
    const lat = coord(p.latitude!);
    const lon = coord(p.longitude!);
    const at = `${lat},${lon}`;
    return [
      // Android's maps apps read `q=` for a labelled pin; the part before `?` is the RFC's own.
      { label: 'Open in my maps app', href: `geo:${at}?q=${encodeURIComponent(`${at}(${p.name})`)}`, app: true },
      {
        label: 'Directions in Google Maps',
        href: `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(at)}`,
        app: false,
      },
      {
        label: 'Directions in Apple Maps',
        href: `https://maps.apple.com/?daddr=${encodeURIComponent(at)}&q=${encodeURIComponent(p.name)}`,
        app: false,
      },
      { label: 'See it on OpenStreetMap', href: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`, app: false },
    ];
  }
  const q = placeQuery(p);
  if (!q) return [];
  const query = encodeURIComponent(q);
  return [
    { label: 'Open in my maps app', href: `geo:0,0?q=${query}`, app: true },
    { label: 'Directions in Google Maps', href: `https://www.google.com/maps/dir/?api=1&destination=${query}`, app: false },
    { label: 'Directions in Apple Maps', href: `https://maps.apple.com/?daddr=${query}`, app: false },
    { label: 'Find it on OpenStreetMap', href: `https://www.openstreetmap.org/search?query=${query}`, app: false },
  ];
}

/** A zone in words: "New York" for America/New_York, "UTC" for UTC. */
export function zoneWords(timeZone: string): string {
  return (timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ');
}
