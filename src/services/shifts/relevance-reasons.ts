import type { RelevanceSignals, ShiftRequestView } from './schemas';

/**
 * The reasons beside a ranked broadcast's score, in words for the shifter: only what is true of them
 * and of the shift (docs/decisions/shift-requests.md, "Relevance score").
 *
 * - About what the shifter's profile says, true from their first day: "You do … shifts" (a role they
 *   listed), "3 km from home" (their home area, within how far they travel), "Farther than you
 *   travel" (beyond it), "Below your minimum $20.00/h" (under their lowest rate).
 * - About the shifter's own history, only when they have it: "You often work as …" (at least 5 worked
 *   shifts in the role in the last year) or "You have worked as …" (at least one); "You have worked at
 *   …" (at least one worked shift there); pay against "your usual" rate only when the reference is
 *   theirs, i.e. at least HISTORY_MIN_WORKED (relevance.ts) worked shifts in the currency in the last 90 days.
 * - About the shift, for anyone: "New to you" (a business they never worked a shift for), the pay
 *   against the going rate of the city and role (when that is the reference), "Starts soon" (within
 *   SOON_HOURS), "Close to you" (within CLOSE_KM, only when both positions are known; farther, the
 *   distance itself), "Your crew" (the ranked list holds only broadcasts of the shifter's crews).
 * - The shifter's own rules and calendar: an overlap with an accepted shift (first: it caps the
 *   score), a rate under their counter-rule minimum.
 *
 * At most three, the strongest first, as the score weighs them.
 */

/** What the ranking knew of a broadcast beyond its API signals (relevance-signals.ts `ranked_signals`). */
export interface RankFacts {
  /** What reference_rate is: the shifter's usual rate, the going rate of the city and role, or nothing. */
  reference: 'usual' | 'going_rate' | null;
  /** Shifts the shifter has worked at the business, all time. */
  workedHere: number;
  /** A newcomer's start points (0 for a shifter with history: the start does not count for them). */
  startPoints: number;
  /** The shift's role is one the shifter's profile lists. */
  roleListed?: boolean | undefined;
  /** Distances count from the profile's home area. */
  fromHome?: boolean | undefined;
  /** How far the shifter travels (km); null: no limit given. */
  travelKm?: number | null | undefined;
  /** The profile's minimum hourly rate in the shift's currency (a decimal); null: none in it. */
  minRate?: number | null | undefined;
}

/** "3 km", "3.4 km", "12 km": a distance as a reason says it. */
export function kmWords(km: number): string {
  const shown = km < 10 ? Math.round(km * 10) / 10 : Math.round(km);
  return `${shown} km`;
}

/** "Starts soon": the shift starts within this many hours. */
export const SOON_HOURS = 48;
/** "Close to you": the business is within this many kilometres. */
export const CLOSE_KM = 10;
const MAX_REASONS = 3;

/** "$24.50/h", as the pages write money (en-US grouping, the currency's own digits). */
function perHour(amount: number, currency: string): string {
  let text: string;
  try {
    text = new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    text = `${amount.toFixed(2)} ${currency}`;
  }
  return `${text}/h`;
}

/** The reasons for one ranked broadcast at `now` (epoch ms), strongest first, at most three. */
export function relevanceReasons(s: ShiftRequestView, sig: RelevanceSignals, facts: RankFacts, now: number): string[] {
  const parts: { weight: number; text: string }[] = [];
  const role = s.role ?? 'this role';
  const business = s.business_name ?? 'this business';

  if (sig.role_points >= 25) parts.push({ weight: sig.role_points, text: `You often work as ${role}` });
  else if (facts.roleListed) parts.push({ weight: sig.role_points, text: `You do ${role.toLowerCase()} shifts` });
  else if (sig.role_points > 0) parts.push({ weight: sig.role_points, text: `You have worked as ${role}` });

  const min = facts.minRate ?? null;
  if (min !== null && s.hourly_rate < min) {
    parts.push({ weight: 30, text: `Below your minimum ${perHour(min, s.currency)}` });
  } else if (sig.rate_floor !== null && s.hourly_rate < sig.rate_floor) {
    parts.push({ weight: 30, text: `Under your counter-rule minimum of ${perHour(sig.rate_floor, s.currency)}` });
  } else if (sig.reference_rate !== null && sig.reference_rate > 0 && facts.reference !== null) {
    const pct = Math.round((s.hourly_rate / sig.reference_rate - 1) * 100);
    const rate = perHour(sig.reference_rate, s.currency);
    const weight = Math.abs(sig.pay_points - 12.5) + 5;
    if (facts.reference === 'usual') {
      const text =
        Math.abs(pct) < 3 ? `Pays about your usual ${rate}` : `Pays ${Math.abs(pct)}% ${pct > 0 ? 'above' : 'below'} your usual ${rate}`;
      parts.push({ weight, text });
    } else {
      const text =
        Math.abs(pct) < 3
          ? `Pays about the going rate here (${rate})`
          : `Pays ${Math.abs(pct)}% ${pct > 0 ? 'above' : 'below'} the going rate here (${rate})`;
      parts.push({ weight, text });
    }
  }

  const aheadHours = (Date.parse(s.starts_at) - now) / 3_600_000;
  if (aheadHours >= 0 && aheadHours <= SOON_HOURS) parts.push({ weight: Math.max(facts.startPoints, 4), text: 'Starts soon' });

  const km = sig.distance_km;
  if (km !== null) {
    const travel = facts.travelKm ?? null;
    if (travel !== null && km > travel) parts.push({ weight: 20, text: 'Farther than you travel' });
    else if (facts.fromHome) parts.push({ weight: sig.distance_points, text: `${kmWords(km)} from home` });
    else parts.push({ weight: sig.distance_points, text: km <= CLOSE_KM ? `Close to you (${km} km)` : `${km} km away` });
  }

  if (facts.workedHere > 0) parts.push({ weight: Math.max(sig.familiarity_points, 1), text: `You have worked at ${business}` });
  else parts.push({ weight: 3, text: 'New to you' });
  parts.push({ weight: 1, text: 'Your crew' });

  parts.sort((a, b) => b.weight - a.weight);
  const lead = sig.overlaps_accepted_shift ? ['Overlaps a shift you accepted'] : [];
  return [...lead, ...parts.slice(0, MAX_REASONS - lead.length).map((p) => p.text)];
}
