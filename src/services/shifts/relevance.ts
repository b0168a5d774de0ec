import { haversineMeters } from '../../lib/geo';

/**
 * Relevance of an open broadcast for one shifter, 0–100, from signals a shifter cares about:
 *
 * | signal        | points | how                                                                   |
 * |---------------|--------|-----------------------------------------------------------------------|
 * | role fit      | 25     | worked shifts in this role in the last year: 0 → 0, 1 → 12, ≥5 → 25; a role on the shifter's profile counts as at least 1 |
 * | pay           | 25     | rate ÷ the reference rate: ≤0.7 → 0, 1.0 → 12.5, ≥1.3 → 25; no reference → 12.5; below the shifter's floor for the shift (their minimum hourly rate, or a counter rule's) → 0 |
 * | distance      | 20     | ≤2 km → 20, linear to 0 at 50 km; unknown position → 10; with a travel distance on the profile: beyond it → 0, within it at least 10 |
 * | familiarity   | 20     | worked shifts with this business: 0 → 0, then 8 + 3 per shift, max 20; −5 per no-show or own cancel |
 * | start         | 15     | only for a newcomer (fewer than HISTORY_MIN_WORKED worked shifts ever): ≤24 h ahead → 15, linear to 0 at 7 days |
 * | availability  | 10     | no overlap with an accepted shift → 10; an overlap caps the whole score at 10 |
 *
 * Reference rate: the shifter's usual rate when they have one in the shift's currency, that is at
 * least HISTORY_MIN_WORKED worked shifts in that currency in the last 90 days (their mean rate for
 * the role over those days, else their overall mean); without it, the going rate of the business's
 * city for the role in that currency (GET /v1/going_rate: the median of the worked shifts of the
 * last GOING_RATE_WINDOW_DAYS, when at least GOING_RATE_MIN_SAMPLE make it); else none.
 * A newcomer has no role or business history to rank by, so what is known of the shift itself
 * ranks it: the rate against the going rate, how soon it starts and, when both positions are
 * known, the distance. (With fewer than 3 worked shifts the history parts reach at most 29.25
 * points, so the score stays within 100.)
 * Counter-rule floor: the highest floor of the shifter's active rules matching the shift's role,
 * currency, weekday and start (plus a rule's distance premium when far), as for counter-offers
 * (services/shifts/counter-suggest.ts). The profile's minimum hourly rate is a floor too, for shifts
 * in its currency; the higher of the two counts.
 * The profile's fields (roles, home area, travel distance, minimum rate) are true of a newcomer as
 * of anyone: they rank a shifter's first shifts before any history does.
 *
 * `relevanceScore` below is the definition, in plain code. The list itself is ranked in SQL
 * (relevance-signals.ts), so 10,000 candidates never leave the database; a test holds the two to
 * the same scores on generated data.
 */
export interface ShifterSignals {
  lat: number | null;
  lon: number | null;
  roleCounts: Map<number, number>;
  /** Every business the shifter has a shift row with (all time): worked shifts and bad ones. */
  businessHistory: Map<string, { worked: number; bad: number }>;
  /** The usual rate, else the going rate (see above), in minor units; null when there is neither. */
  referenceRate: (c: Candidate) => number | null;
  rateFloor: (c: Candidate) => number | null;
  busy: Array<{ startsAt: number; endsAt: number }>;
  /** The instant the list is ranked at (epoch ms): the start signal counts from it. */
  now: number;
  /** The roles on the shifter's profile: each counts as at least one worked shift in it. */
  listedRoles?: ReadonlySet<number> | undefined;
  /** How far the shifter travels (km, from their position): farther scores no distance points. */
  travelKm?: number | null | undefined;
  /** The profile's minimum hourly rate (minor units), a floor for shifts in its currency. */
  minRate?: { minor: number; currency: string } | null | undefined;
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
  /** The business's city, where its going rate is read; null or absent when it has none. */
  business_city_id?: number | null | undefined;
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

/**
 * Distance points with the shifter's travel distance (null: none set): beyond it 0, within it at
 * least the unknown-distance points (a venue they said they would travel to never ranks below one
 * whose distance is unknown), else as distancePoints.
 */
export function travelPoints(km: number, travelKm: number | null | undefined): number {
  if (travelKm === null || travelKm === undefined) return distancePoints(km);
  return km > travelKm ? 0 : Math.max(distancePoints(km), UNKNOWN_DISTANCE_POINTS);
}

/** The pay floor of a shift: the counter rules' (`ruleFloor`) or the profile's minimum in its currency, the higher. */
export function payFloor(c: Pick<Candidate, 'currency'>, ruleFloor: number | null, minRate: ShifterSignals['minRate']): number | null {
  const min = minRate && minRate.currency === c.currency ? minRate.minor : null;
  if (min === null) return ruleFloor;
  return ruleFloor === null ? min : Math.max(ruleFloor, min);
}

/**
 * How much of a shifter's own history counts: at least this many worked shifts. With fewer in a
 * currency over the last 90 days they have no usual rate there (the going rate is the reference);
 * with fewer ever, they are a newcomer (the start signal counts instead of a history they lack).
 */
export const HISTORY_MIN_WORKED = 3;

/** The start signal's most points (a newcomer's shift that starts within START_FULL_HOURS). */
export const START_POINTS_MAX = 15;
const START_FULL_HOURS = 24;
/** Hours over which the start points fall from full to 0 (to 7 days ahead). */
const START_FALL_HOURS = 144;
const HOUR = 3_600_000;

/** Start points for a shift starting `aheadMs` from now: ≤24 h → 15, falling linearly to 0 at 7 days. */
export function startPoints(aheadMs: number): number {
  return clamp(START_POINTS_MAX * (1 - (aheadMs / HOUR - START_FULL_HOURS) / START_FALL_HOURS), 0, START_POINTS_MAX);
}

/** Worked shifts of the shifter ever, from their history per business. */
export function workedShifts(s: Pick<ShifterSignals, 'businessHistory'>): number {
  let n = 0;
  for (const h of s.businessHistory.values()) n += h.worked;
  return n;
}

export function relevanceScore(c: Candidate, s: ShifterSignals): number {
  const worked = s.roleCounts.get(c.shiftrole_id) ?? 0;
  const count = s.listedRoles?.has(c.shiftrole_id) ? Math.max(worked, 1) : worked;
  const role = count === 0 ? 0 : clamp(12 + ((count - 1) * 13) / 4, 0, 25);

  let pay = 12.5;
  const floor = payFloor(c, s.rateFloor(c), s.minRate);
  const ref = s.referenceRate(c);
  if (floor !== null && c.hourly_rate_minor < floor) pay = 0;
  else if (ref) pay = clamp(12.5 + ((c.hourly_rate_minor / ref - 1) / 0.3) * 12.5, 0, 25);

  let distance = UNKNOWN_DISTANCE_POINTS;
  if (s.lat !== null && s.lon !== null && c.business_lat !== null && c.business_lon !== null) {
    distance = travelPoints(haversineMeters(s.lat, s.lon, c.business_lat, c.business_lon) / 1000, s.travelKm);
  }

  const h = s.businessHistory.get(c.business_id);
  const familiarity = h && h.worked > 0 ? clamp(8 + 3 * h.worked - 5 * h.bad, 0, 20) : 0;

  const start = workedShifts(s) < HISTORY_MIN_WORKED ? startPoints(c.starts_at - s.now) : 0;

  const overlaps = s.busy.some((b) => b.startsAt < c.ends_at && b.endsAt > c.starts_at);
  const total = role + pay + distance + familiarity + start + (overlaps ? 0 : 10);
  return Math.round(overlaps ? Math.min(total, 10) : total);
}
