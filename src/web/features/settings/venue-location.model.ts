/**
 * The venue location's preview sentence, shared by the settings page (from what is stored, or what a
 * refused form sent) and its island (as the fields change or the device fills them), so both say
 * the same. It reads the fields' text as the page posts it; the service checks the bounds on save.
 */

/** A field's text as a number: '' is none (null), anything unreadable undefined. */
export function numberOf(text: string): number | null | undefined {
  const t = text
    .trim()
    .replace(/\u2212/g, '-')
    .replace(/,/g, '');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** 40.7128 and −74.0060: four decimals (about 11 m), the typographic minus. */
export function coordinateText(n: number): string {
  return n.toFixed(4).replace('-', '\u2212');
}

/** Where clock-ins count as on site, in words, from the latitude, longitude and radius fields. */
export function locationSentence(latitude: string, longitude: string, radius: string): string {
  const lat = numberOf(latitude);
  const lon = numberOf(longitude);
  if (lat === null && lon === null) return 'No venue location yet: clock-ins are not checked for being on site.';
  if (lat == null || lon == null || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    return 'Enter a latitude and a longitude, or paste a map link, to check clock-ins for being on site.';
  }
  const at = `${coordinateText(lat)}, ${coordinateText(lon)}`;
  const r = numberOf(radius);
  if (r === null) return `No radius: clock-ins are not checked against the venue at ${at}.`;
  if (r === undefined || r <= 0 || !Number.isInteger(r)) return `Enter the radius as whole meters to check clock-ins around ${at}.`;
  return `Clock-ins count as on site within ${new Intl.NumberFormat('en-US').format(r)} m of ${at}.`;
}
