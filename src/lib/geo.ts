// Pure code of the ground floor that runs on both sides: the clock service (services/shifts) and the
// shifter's clock in the browser (features/shifter-clock) use these very functions, so the distance
// the page shows before a tap and the one the punch records are the same figure, by the same rule.
// It imports nothing (scripts/check-imports.mjs lets models and islands import this file alone of src/lib/).

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres (Haversine). */
export function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Where a business's clock-ins are measured from, and how (its settings and the operator's hard mode). */
export interface GeofencePlace {
  latitude: number | null;
  longitude: number | null;
  /** null: no radius, so no punch is marked outside. */
  geofence_radius_m: number | null;
  /** SHIFT_CLOCK_GEOFENCE_HARD_FAIL: an out-of-radius clock-in is refused unless "I'm here" is sent. */
  hard_geofence: boolean;
}

/** What the geofence rule makes of a position. */
export interface GeofenceCheck {
  /** The distance to the venue in metres, to 0.1 m: what the punch records. */
  distance_m: number;
  radius_m: number | null;
  /** Farther than the radius: the business sees the punch as outside it. */
  outside: boolean;
  /** Hard mode refuses this clock-in (outside, without "I'm here"). */
  refused: boolean;
}

/** Outside the radius (none: never outside), for a distance already measured or stored. */
export const outsideRadius = (distanceM: number, radiusM: number | null): boolean => radiusM !== null && distanceM > radiusM;

/**
 * The clock-in geofence rule (spec 4.2 clock-in rules 1–3), once: the Haversine distance between the
 * reported position and the business's; outside when beyond its radius; refused in hard mode unless
 * the worker says "I'm here". Null when either position is unknown (nothing is measured or enforced).
 */
export function geofenceCheck(
  place: GeofencePlace,
  lat: number | null | undefined,
  lon: number | null | undefined,
  imHere = false,
): GeofenceCheck | null {
  if (lat == null || lon == null || place.latitude === null || place.longitude === null) return null;
  const distance = Math.round(haversineMeters(lat, lon, place.latitude, place.longitude) * 10) / 10;
  const outside = outsideRadius(distance, place.geofence_radius_m);
  return { distance_m: distance, radius_m: place.geofence_radius_m, outside, refused: outside && place.hard_geofence && !imHere };
}
