import { and, eq } from 'drizzle-orm';
import { counterRules, shifters } from '../../db/schema';
import { haversineMeters } from '../../lib/geo';
import { fromMinor } from '../../lib/money';
import { weekdayOf } from '../../lib/shift-time';
import { type ServiceContext, SHIFT_STATUS } from '../kernel';
import type { ShiftRow } from './view';

/**
 * How counter rules turn into a suggested counter-offer rate.
 *
 * A rule says "for shifts like these I take at least X per hour (plus P per hour when the business
 * is farther than D km)". It matches a shift when it is active, in the shift's currency, for the
 * shift's role (null = any), for the weekday of shift_date (null = any) and for a start band that
 * holds shift_in (null = any; from inclusive, to exclusive; from > to wraps midnight). Both date and
 * time are the business's wall clock, as the shift stores them.
 *
 * The floor is the highest of the matching rules' own floors (minimum, plus that rule's premium
 * when the distance is known and beyond its threshold): every matching rule is a floor the shifter
 * set, so the binding one is the largest. A counter is suggested only when the floor is above the
 * shift's hourly rate. Ties go to the lower rule id, so the answer is stable.
 */
export type RuleLike = Pick<
  typeof counterRules.$inferSelect,
  | 'id'
  | 'shiftrole_id'
  | 'weekdays'
  | 'start_from'
  | 'start_to'
  | 'min_hourly_rate_minor'
  | 'currency'
  | 'distance_threshold_km'
  | 'distance_premium_minor'
  | 'is_active'
>;

export interface ShiftLike {
  shiftrole_id: number;
  currency: string;
  hourly_rate_minor: number;
  /** Wall-clock date and start in the business zone; without them only rules with no day/band can match. */
  shift_date?: string | undefined;
  shift_in?: string | undefined;
}

export interface Suggestion {
  rate_minor: number;
  rule_id: string;
}

/** True when HH:MM `t` lies in [from, to); a band with from > to wraps midnight. */
export function inStartBand(t: string, from: string, to: string): boolean {
  return from <= to ? t >= from && t < to : t >= from || t < to;
}

export function ruleMatches(rule: RuleLike, shift: ShiftLike): boolean {
  if (!rule.is_active || rule.currency !== shift.currency) return false;
  if (rule.shiftrole_id !== null && rule.shiftrole_id !== shift.shiftrole_id) return false;
  if (rule.weekdays) {
    if (!shift.shift_date) return false;
    const day = String(weekdayOf(shift.shift_date));
    if (!rule.weekdays.split(',').includes(day)) return false;
  }
  if (rule.start_from !== null && rule.start_to !== null) {
    if (!shift.shift_in || !inStartBand(shift.shift_in, rule.start_from, rule.start_to)) return false;
  }
  return true;
}

/** The binding floor among the matching rules, or null when none matches. */
export function counterFloor(rules: readonly RuleLike[], shift: ShiftLike, opts: { distanceKm: number | null }): Suggestion | null {
  let best: Suggestion | null = null;
  for (const rule of rules) {
    if (!ruleMatches(rule, shift)) continue;
    const far =
      opts.distanceKm !== null &&
      rule.distance_threshold_km !== null &&
      rule.distance_premium_minor !== null &&
      opts.distanceKm > rule.distance_threshold_km;
    const rate = rule.min_hourly_rate_minor + (far ? rule.distance_premium_minor! : 0);
    if (!best || rate > best.rate_minor || (rate === best.rate_minor && rule.id < best.rule_id))
      best = { rate_minor: rate, rule_id: rule.id };
  }
  return best;
}

/** The counter-offer to suggest for a shift: the floor, when it is above the shift's rate. */
export function suggestCounter(rules: readonly RuleLike[], shift: ShiftLike, opts: { distanceKm: number | null }): Suggestion | null {
  const floor = counterFloor(rules, shift, opts);
  return floor && floor.rate_minor > shift.hourly_rate_minor ? floor : null;
}

/** Kilometres between two positions, or null when either is unknown. */
export function distanceKm(aLat: number | null, aLon: number | null, bLat: number | null, bLon: number | null): number | null {
  if (aLat === null || aLon === null || bLat === null || bLon === null) return null;
  return haversineMeters(aLat, aLon, bLat, bLon) / 1000;
}

/** A shifter's active rules and position: what the suggestion needs, in two small queries. */
export async function loadCounterContext(ctx: ServiceContext, shifterId: string) {
  const [rules, [me]] = await Promise.all([
    ctx.db
      .select()
      .from(counterRules)
      .where(and(eq(counterRules.shifter_id, shifterId), eq(counterRules.is_active, true))),
    ctx.db.select({ lat: shifters.latitude, lon: shifters.longitude }).from(shifters).where(eq(shifters.id, shifterId)).limit(1),
  ]);
  return { rules, lat: me?.lat ?? null, lon: me?.lon ?? null };
}

/** An incoming request: pending and targeted (a broadcast is not negotiable) at this shifter. */
export function isIncomingFor(row: Pick<ShiftRow, 'shifter_id' | 'request_status' | 'is_broadcast'>, shifterId: string | null): boolean {
  return shifterId !== null && row.shifter_id === shifterId && row.request_status === SHIFT_STATUS.pending && !row.is_broadcast;
}

/** The API fields a shift request carries for its targeted shifter. */
export function suggestionFields(s: Suggestion | null, currency: string) {
  return { suggested_counter_rate: s ? fromMinor(s.rate_minor, currency) : null, counter_rule_id: s?.rule_id ?? null };
}

interface ShiftWithPlace {
  row: ShiftRow;
  business_lat: number | null;
  business_lon: number | null;
}

/**
 * Suggestions for the rows among `shifts` that are incoming requests of `shifterId` (the caller's
 * own shifter profile). Rows that are not get no entry, so their view carries no suggestion fields.
 */
export async function counterSuggestionsFor(ctx: ServiceContext, shifterId: string | null, shifts: readonly ShiftWithPlace[]) {
  const out = new Map<string, ReturnType<typeof suggestionFields>>();
  const incoming = shifts.filter((s) => isIncomingFor(s.row, shifterId));
  if (!shifterId || incoming.length === 0) return out;
  const c = await loadCounterContext(ctx, shifterId);
  for (const s of incoming) {
    const km = distanceKm(c.lat, c.lon, s.business_lat, s.business_lon);
    out.set(s.row.id, suggestionFields(suggestCounter(c.rules, s.row, { distanceKm: km }), s.row.currency));
  }
  return out;
}

/** As counterSuggestionsFor, for a caller known by user id; their shifter profile is looked up only when a row could need it. */
export async function counterSuggestionsForUser(ctx: ServiceContext, userId: string, shifts: readonly ShiftWithPlace[]) {
  if (!shifts.some((s) => isIncomingFor(s.row, s.row.shifter_id))) return new Map<string, ReturnType<typeof suggestionFields>>();
  const [me] = await ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, userId)).limit(1);
  return counterSuggestionsFor(ctx, me?.id ?? null, shifts);
}
