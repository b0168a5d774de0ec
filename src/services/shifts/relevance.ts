import { haversineMeters } from '../../lib/geo';

/**
 * Relevance of an open broadcast for one shifter, 0–100, from signals a shifter cares about:
 *
 * | signal        | points | how                                                                   |
 * |---------------|--------|-----------------------------------------------------------------------|
 * | role fit      | 25     | worked shifts in this role in the last year: 0 → 0, 1 → 12, ≥5 → 25      |
 * | pay           | 25     | rate ÷ the shifter's reference rate for the role: ≤0.7 → 0, 1.0 → 12.5, ≥1.3 → 25; below the shifter's counter-rule floor for the shift → 0 |
 * | distance      | 20     | ≤2 km → 20, linear to 0 at 50 km; unknown position → 10                   |
 * | familiarity   | 20     | worked shifts with this business: 0 → 0, then 8 + 3 per shift, max 20; −5 per no-show or own cancel |
 * | availability  | 10     | no overlap with an accepted shift → 10; an overlap caps the whole score at 10 |
 *
 * Reference rate: the shifter's mean rate for the role over 90 days, else their overall mean, else
 * the median rate of the open broadcasts for that role (so a newcomer is ranked against the market).
 * Counter-rule floor: the highest floor of the shifter's active rules matching the shift's role,
 * currency, weekday and start (plus a rule's distance premium when far), as for counter-offers
 * (services/shifts/counter-suggest.ts).
 *
 * `relevanceScore` below is the definition, in plain code. The list itself is ranked in SQL
 * (relevance-signals.ts), so 10,000 candidates never leave the database; a test holds the two to
 * the same scores on generated data.
 */
export interface ShifterSignals {
  lat: number | null;
  lon: number | null;
  roleCounts: Map<number, number>;
  businessHistory: Map<string, { worked: number; bad: number }>;
  referenceRate: (roleId: number, currency: string) => number | null;
  rateFloor: (c: Candidate) => number | null;
  busy: Array<{ startsAt: number; endsAt: number }>;
}

export interface Candidate {
  business_id: string;
  shiftrole_id: number;
  hourly_rate_minor: number;
  currency: string;
  starts_at: number;
  ends_at: number;
  business_lat: number | null;
  business_lon: number | null;
  /** Wall-clock date and start in the business zone, for counter rules with a weekday or start band. */
  shift_date?: string | undefined;
  shift_in?: string | undefined;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Distance points when either position is unknown. */
export const UNKNOWN_DISTANCE_POINTS = 10;

/** Distance points for a known distance: ≤2 km → 20, falling linearly to 0 at 50 km. */
export function distancePoints(km: number): number {
  return km <= 2 ? 20 : clamp(20 * (1 - (km - 2) / 48), 0, 20);
}

export function relevanceScore(c: Candidate, s: ShifterSignals): number {
  const count = s.roleCounts.get(c.shiftrole_id) ?? 0;
  const role = count === 0 ? 0 : clamp(12 + ((count - 1) * 13) / 4, 0, 25);

  let pay = 12.5;
  const floor = s.rateFloor(c);
  const ref = s.referenceRate(c.shiftrole_id, c.currency);
  if (floor !== null && c.hourly_rate_minor < floor) pay = 0;
  else if (ref) pay = clamp(12.5 + ((c.hourly_rate_minor / ref - 1) / 0.3) * 12.5, 0, 25);

  let distance = UNKNOWN_DISTANCE_POINTS;
  if (s.lat !== null && s.lon !== null && c.business_lat !== null && c.business_lon !== null) {
    distance = distancePoints(haversineMeters(s.lat, s.lon, c.business_lat, c.business_lon) / 1000);
  }

  const h = s.businessHistory.get(c.business_id);
  const familiarity = h && h.worked > 0 ? clamp(8 + 3 * h.worked - 5 * h.bad, 0, 20) : 0;

  const overlaps = s.busy.some((b) => b.startsAt < c.ends_at && b.endsAt > c.starts_at);
  const total = role + pay + distance + familiarity + (overlaps ? 0 : 10);
  return Math.round(overlaps ? Math.min(total, 10) : total);
}

/** Median of a numeric list (type-7 interpolation), or null. */
export function median(values: number[]): number | null {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  const pos = (v.length - 1) / 2;
  const lo = Math.floor(pos);
  return v[lo]! + (v[Math.ceil(pos)]! - v[lo]!) * (pos - lo);
}
