import type { shiftRequests } from '../../db/schema';
import { newId } from '../../lib/ids';
import { addDays, dateInZone, shiftInstants, timeInZone, todayIn, wallClockToInstant, weekdayOf } from '../../lib/shift-time';
import { SHIFT_STATUS } from '../../services/kernel';
import { ALL, CANCEL_REASONS, FLOOR_ASK, NOTES, PLANS, RATES, type Slot } from './plans';

/**
 * Demo shift history and schedule: 100 days of past shifts (mostly worked, with the usual
 * cancellations, no-shows, declines and expiries), a shift in progress when the hour allows, and
 * the next 14 days of accepted shifts, pending requests (one always below its shifter's counter-rule
 * floor, see plans.ts FLOOR_ASK) and open broadcasts. Times are wall-clock in each business's zone
 * and converted with shiftInstants, so overnight and DST shifts are real. A fixed-seed generator
 * keeps the shape stable from one seed to the next.
 */
export type ShiftRow = typeof shiftRequests.$inferInsert;

export interface HistoryBusiness {
  key: string;
  id: string;
  timezone: string;
  currency: 'USD' | 'GBP';
  latitude: number;
  longitude: number;
  geofence_radius_m: number | null;
  /** Users who create requests: the owner first, then active teammates. */
  creators: string[];
  /** Shifter keys with an accepted connection. */
  crew: string[];
  /** Former teammate whose old requests remain (created before the suspension). */
  formerCreator?: string;
}

export interface HistoryShifter {
  id: string;
  user_id: string;
  accept_shift_req: boolean;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
export const HISTORY_DAYS = 100;
export const SCHEDULE_DAYS = 14;
export const MIN_OPEN_BROADCASTS = 8;
/** Worked shifts older than this have been invoiced and paid (status 5). */
const SETTLED_AFTER_DAYS = 14;

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A shifter's stable rate for a role (same person, same role, same pay), in 25-minor-unit steps. */
function rateFor(role: number, currency: 'USD' | 'GBP', shifterKey: string | null): number {
  const [lo, hi] = RATES[role]![currency];
  const steps = Math.floor((hi - lo) / 25);
  const step = shifterKey ? hash(`${shifterKey}:${role}`) % (steps + 1) : Math.floor(steps / 2);
  return lo + step * 25;
}

/** A point `meters` from (lat, lon); good enough at these distances to record the distance as given. */
function offsetPoint(lat: number, lon: number, meters: number, bearing: number) {
  const dLat = (meters * Math.cos(bearing)) / 111_320;
  const dLon = (meters * Math.sin(bearing)) / (111_320 * Math.cos((lat * Math.PI) / 180));
  return { lat: Math.round((lat + dLat) * 1e6) / 1e6, lon: Math.round((lon + dLon) * 1e6) / 1e6 };
}

/** True when the zone's UTC offset changes during the night after `date`. */
function clocksChangeAfter(date: string, tz: string): boolean {
  return wallClockToInstant(addDays(date, 1), '12:00', tz) - wallClockToInstant(date, '12:00', tz) !== DAY;
}

export function buildShiftHistory(now: number, businesses: HistoryBusiness[], shifters: Map<string, HistoryShifter>): ShiftRow[] {
  const rnd = mulberry32(20_261_101);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const busy = new Map<string, Array<[number, number]>>();
  const isFree = (key: string, s: number, e: number) => !(busy.get(key) ?? []).some(([a, b]) => a < e && s < b);
  const occupy = (key: string, s: number, e: number) => busy.set(key, [...(busy.get(key) ?? []), [s, e]]);
  const rows: ShiftRow[] = [];

  /** The first free crew member of the pool, in a shuffled order; null when nobody is free. */
  const assign = (b: HistoryBusiness, slot: Slot, s: number, e: number, targeted: boolean): string | null => {
    const pool = slot.pool.filter((k) => b.crew.includes(k) && (!targeted || shifters.get(k)!.accept_shift_req));
    const order = rnd() < 0.5 ? pool : [...pool].reverse();
    return order.find((k) => isFree(k, s, e)) ?? null;
  };

  const base = (b: HistoryBusiness, slot: Slot, date: string, shifterKey: string | null, createdAt: number, creator: string): ShiftRow => {
    const t = shiftInstants(date, slot.in, slot.out, b.timezone);
    return {
      id: newId('shiftRequest'),
      business_id: b.id,
      shifter_id: shifterKey ? shifters.get(shifterKey)!.id : null,
      created_by_user_id: creator,
      shift_date: date,
      shift_in: slot.in,
      shift_out: slot.out,
      starts_at: t.startsAt,
      ends_at: t.endsAt,
      shiftrole_id: slot.role,
      // Nights and weekends pay a little more, so going-rate percentiles have some spread.
      hourly_rate_minor: rateFor(slot.role, b.currency, shifterKey) + (slot.out < slot.in ? 150 : 0) + (weekdayOf(date) >= 6 ? 50 : 0),
      currency: b.currency,
      is_broadcast: false,
      is_flexible: false,
      request_status: SHIFT_STATUS.pending,
      note: rnd() < 0.15 ? pick(NOTES) : null,
      created_at: createdAt,
      updated_at: createdAt,
    };
  };

  const clock = (b: HistoryBusiness, side: 'in' | 'out') => {
    // Now and then someone clocks in from down the street with the "I'm here" override.
    const far = side === 'in' && b.geofence_radius_m !== null && rnd() < 0.05;
    const meters = far ? between(b.geofence_radius_m! + 40, b.geofence_radius_m! + 200) : between(4, 60);
    const p = offsetPoint(b.latitude, b.longitude, meters, rnd() * 2 * Math.PI);
    return { lat: p.lat, lon: p.lon, distance: meters, override: far };
  };

  const creatorFor = (b: HistoryBusiness, daysAgo: number) =>
    b.formerCreator && daysAgo > 60 && rnd() < 0.15 ? b.formerCreator : rnd() < 0.7 ? b.creators[0]! : pick(b.creators);

  // Past: oldest first, so the busy map fills in time order.
  for (const b of businesses) {
    const today = todayIn(b.timezone, now);
    for (let daysAgo = HISTORY_DAYS; daysAgo >= 1; daysAgo--) {
      const date = addDays(today, -daysAgo);
      const weekday = weekdayOf(date);
      const dstNight = clocksChangeAfter(date, b.timezone);
      // On the night the clocks change, the slots that cross it go first, so their crew is free and
      // history always holds a worked shift over the change (7 or 9 real hours).
      const slots = PLANS[b.key]!.map((slot, i) => ({ slot, i }));
      if (dstNight) slots.sort((x, y) => Number(y.slot.dst === true) - Number(x.slot.dst === true));
      slots.forEach(({ slot, i }) => {
        // The oldest day always has a worked shift, so history spans the whole window.
        const forced = (dstNight && slot.dst === true) || (daysAgo === HISTORY_DAYS && i === 0);
        if (!forced && (!slot.days.includes(weekday) || rnd() >= slot.prob)) return;
        const t = shiftInstants(date, slot.in, slot.out, b.timezone);
        if (t.endsAt > now) return;
        const roll = forced ? 1 : rnd();
        let kind: 'worked' | 'cancelled' | 'noshow' | 'declined' | 'expired' =
          roll < 0.04 ? 'cancelled' : roll < 0.07 ? 'noshow' : roll < 0.11 ? 'declined' : roll < 0.15 ? 'expired' : 'worked';
        const unclaimedBroadcast = kind === 'expired' && rnd() < 0.5;
        const shifterKey = unclaimedBroadcast ? null : assign(b, slot, t.startsAt, t.endsAt, false);
        if (!unclaimedBroadcast && !shifterKey) return;
        // A paused shifter gets no targeted requests; his shifts are claimed broadcasts.
        const paused = shifterKey !== null && !shifters.get(shifterKey)!.accept_shift_req;
        if (paused && (kind === 'declined' || kind === 'expired')) kind = 'worked';
        const isBroadcast = unclaimedBroadcast || paused || (kind === 'worked' && rnd() < 0.2);
        const lead =
          kind === 'cancelled' ? between(3 * 24, 10 * 24) * HOUR : isBroadcast ? between(20, 96) * HOUR : between(30, 240) * HOUR;
        const created = t.startsAt - lead - between(0, 59) * MIN;
        const row = base(b, slot, date, shifterKey, created, creatorFor(b, daysAgo));
        row.is_broadcast = isBroadcast;
        if (isBroadcast) row.is_flexible = rnd() < 0.2;
        const acceptedAt = created + Math.min(between(1, 30) * HOUR, Math.floor(lead / 2));
        if (shifterKey && kind !== 'declined' && kind !== 'expired') occupy(shifterKey, t.startsAt, t.endsAt);
        const shifterUser = shifterKey ? shifters.get(shifterKey)!.user_id : null;
        switch (kind) {
          case 'worked': {
            const start = t.startsAt + between(-6, 4) * MIN;
            const end = t.endsAt + between(-3, 8) * MIN;
            const cin = clock(b, 'in');
            const cout = clock(b, 'out');
            const settled = now - end > SETTLED_AFTER_DAYS * DAY;
            Object.assign(row, {
              request_status: settled ? SHIFT_STATUS.completed : SHIFT_STATUS.accepted,
              accepted_at: acceptedAt,
              shift_start_at: start,
              shift_start_by_id: shifterUser,
              clock_in_lat: cin.lat,
              clock_in_lon: cin.lon,
              clock_in_distance_m: cin.distance,
              clock_in_override: cin.override,
              shift_end_at: end,
              shift_end_by_id: shifterUser,
              clock_out_lat: cout.lat,
              clock_out_lon: cout.lon,
              clock_out_distance_m: cout.distance,
              updated_at: settled ? Math.min(end + between(2, 6) * DAY, now) : end,
            });
            break;
          }
          case 'noshow':
            Object.assign(row, {
              request_status: SHIFT_STATUS.accepted,
              accepted_at: acceptedAt,
              is_noshow: true,
              updated_at: t.startsAt + between(30, 90) * MIN,
            });
            break;
          case 'cancelled': {
            const at = Math.max(t.startsAt - between(2, 48) * HOUR, acceptedAt + HOUR);
            const by = rnd() < 0.5 ? 'business' : 'shifter';
            Object.assign(row, {
              request_status: SHIFT_STATUS.cancelled,
              accepted_at: acceptedAt,
              cancelled_at: at,
              cancelled_by: by,
              cancel_reason: pick(CANCEL_REASONS),
              updated_at: at,
            });
            break;
          }
          case 'declined':
            Object.assign(row, { request_status: SHIFT_STATUS.declined, updated_at: created + between(1, 20) * HOUR });
            break;
          case 'expired':
            Object.assign(row, { request_status: SHIFT_STATUS.expired, updated_at: t.startsAt + between(0, 5) * MIN });
            break;
        }
        rows.push(row);
      });
    }
  }

  // In progress: clocked in about an hour and a half ago, when that falls in opening hours.
  const bistro = businesses.find((b) => b.key === 'bistro');
  if (bistro) {
    const startGuess = Math.floor((now - 90 * MIN) / (15 * MIN)) * 15 * MIN;
    const hhmm = timeInZone(startGuess, bistro.timezone);
    if (hhmm >= '09:00' && hhmm <= '17:00') {
      const date = dateInZone(startGuess, bistro.timezone);
      const out = timeInZone(startGuess + 6 * HOUR, bistro.timezone);
      const slot: Slot = { days: ALL, in: hhmm, out, role: 1, prob: 1, pool: ['taylor', 'jordan', 'alex'] };
      const t = shiftInstants(date, hhmm, out, bistro.timezone);
      const key = assign(bistro, slot, t.startsAt, t.endsAt, true);
      if (key) {
        occupy(key, t.startsAt, t.endsAt);
        const row = base(bistro, slot, date, key, t.startsAt - 3 * DAY, bistro.creators[0]!);
        const start = Math.min(t.startsAt + 3 * MIN, now);
        const cin = clock(bistro, 'in');
        Object.assign(row, {
          request_status: SHIFT_STATUS.accepted,
          accepted_at: t.startsAt - 2 * DAY,
          shift_start_at: start,
          shift_start_by_id: shifters.get(key)!.user_id,
          clock_in_lat: cin.lat,
          clock_in_lon: cin.lon,
          clock_in_distance_m: cin.distance,
          clock_in_override: cin.override,
          updated_at: start,
        });
        rows.push(row);
      }
    }
  }

  // Upcoming: accepted shifts, pending targeted requests and open broadcasts.
  let openBroadcasts = 0;
  for (const b of businesses) {
    const today = todayIn(b.timezone, now);
    for (let ahead = 1; ahead <= SCHEDULE_DAYS; ahead++) {
      const date = addDays(today, ahead);
      const weekday = weekdayOf(date);
      for (const slot of PLANS[b.key]!) {
        if (!slot.days.includes(weekday) || rnd() >= slot.prob) continue;
        const t = shiftInstants(date, slot.in, slot.out, b.timezone);
        const roll = rnd();
        const kind = roll < (ahead <= 7 ? 0.55 : 0.25) ? 'accepted' : roll < (ahead <= 7 ? 0.75 : 0.5) ? 'pending' : 'broadcast';
        const key = kind === 'broadcast' ? null : assign(b, slot, t.startsAt, t.endsAt, kind === 'pending');
        const created = now - between(1, 72) * HOUR;
        const row = base(b, slot, date, key, created, creatorFor(b, 0));
        // A paused shifter's accepted shifts are broadcasts he claimed.
        if (key && !shifters.get(key)!.accept_shift_req) row.is_broadcast = true;
        if (key === null) {
          Object.assign(row, { is_broadcast: true, is_flexible: rnd() < 0.3 });
          openBroadcasts++;
        } else {
          occupy(key, t.startsAt, t.endsAt);
          if (kind === 'accepted') {
            const accepted = Math.min(created + between(1, 20) * HOUR, now - MIN);
            Object.assign(row, { request_status: SHIFT_STATUS.accepted, accepted_at: accepted, updated_at: accepted });
          }
        }
        rows.push(row);
      }
    }
  }
  // However the dice fell, one incoming request sits below its shifter's counter-rule floor.
  const askBiz = businesses.find((b) => b.key === FLOOR_ASK.business);
  const asked = shifters.get(FLOOR_ASK.shifter);
  if (askBiz && asked?.accept_shift_req && askBiz.crew.includes(FLOOR_ASK.shifter)) {
    const { slot } = FLOOR_ASK;
    const today = todayIn(askBiz.timezone, now);
    const dates = Array.from({ length: SCHEDULE_DAYS }, (_, i) => addDays(today, i + 1)).filter((d) => slot.days.includes(weekdayOf(d)));
    const times = (d: string) => shiftInstants(d, slot.in, slot.out, askBiz.timezone);
    // A free evening if there is one; otherwise the first, as a conflict the shifter would see.
    const date = dates.find((d) => isFree(FLOOR_ASK.shifter, times(d).startsAt, times(d).endsAt)) ?? dates[0];
    if (date) {
      occupy(FLOOR_ASK.shifter, times(date).startsAt, times(date).endsAt);
      rows.push(base(askBiz, slot, date, FLOOR_ASK.shifter, now - between(2, 20) * HOUR, askBiz.creators[0]!));
    }
  }

  // However the dice fell, the market has open work to show.
  for (let i = 0; openBroadcasts < MIN_OPEN_BROADCASTS && businesses[0]; i++, openBroadcasts++) {
    const b = businesses[0];
    const slot: Slot = { days: ALL, in: '17:00', out: '22:00', role: 1, prob: 1, pool: [] };
    const row = base(b, slot, addDays(todayIn(b.timezone, now), 2 + (i % (SCHEDULE_DAYS - 2))), null, now - HOUR, b.creators[0]!);
    row.is_broadcast = true;
    rows.push(row);
  }
  return rows;
}
