/**
 * The clock's words, the same on the page (src/web/features/shifter-clock/clock.tsx) and in its
 * island (clock.island.ts): a punch's time on the business's clock, the line of a punch kept on the
 * phone, and a refused punch said as what to do next. The service's messages speak to programs
 * ("send the I'm-here override", "device_time", "photo_url"); the worker reads what happened and
 * what they can do, from the error's code and details. A code not listed keeps the service's message.
 * And where the worker stands before and after the tap: the distance to the venue and what the
 * business makes of it, read from the one geofence rule (lib/geo.ts `geofenceCheck`, the service's own).
 */
import type { GeofenceCheck } from '@/lib/geo';

/** HH:MM of an instant on the business's wall clock (as src/web/format.ts timeIn says it). */
export const clockTime = (iso: string, timeZone: string | undefined): string =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));

/** "Clocked in at" / "Clocked out at": the card's words for a punch, recorded or waiting. */
export const punchedWords = (side: 'in' | 'out'): string => (side === 'in' ? 'Clocked in at' : 'Clocked out at');

/** After the time of a punch kept on the phone: it is not recorded yet. */
export const WAITING_WORDS = 'waiting to send';

/** Under it: why it waits and what happens next. */
export const WAITING_HINT = 'No network: it is saved on this phone and sent when you are back online, with the time you tapped.';

/** What a refusal carries: the envelope's code, message and details (the queue keeps the same). */
export interface PunchRefusal {
  code?: string | undefined;
  message: string;
  details?: unknown;
}

export interface PunchPlace {
  business: string;
  side: 'in' | 'out';
  /** The business's zone: every time is said on its clock. */
  timeZone: string;
  /** Whether the business asks for a photo with each punch. */
  photoRequired: boolean;
  /** Whether the page's script runs (the camera button needs it). */
  script: boolean;
  now: number;
}

/** "350 m", "4.2 km": a distance as the clock says it (never "1000 m"). */
export const distanceWords = (m: number): string => (m < 999.5 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`);

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);

/** The field a validation error names first (details: [{ field, message }]). */
function fieldOf(details: unknown): { field: string; message: string } | null {
  const first = Array.isArray(details) ? (details[0] as { field?: unknown; message?: unknown } | undefined) : undefined;
  return typeof first?.field === 'string' ? { field: first.field, message: String(first.message ?? '') } : null;
}

/** Without script (the plain form) the photo cannot be taken: what to do instead. */
export const noScriptPhotoWords = (business: string): string =>
  `${business} asks for a photo with each punch, and the camera button needs JavaScript, which is off in this browser: turn it on, or ask ${business} to record your time.`;

/** A refused punch (or its photo) in words: what happened and what the worker can do. */
export function refusalWords(r: PunchRefusal, at: PunchPlace): string {
  const d = (r.details ?? {}) as Record<string, unknown>;
  const askBusiness = `ask ${at.business} to record your time`;
  switch (r.code) {
    case 'GEOFENCE-ERR': {
      const m = num(d.distance_m);
      const radius = num(d.geofence_radius_m);
      const far =
        m !== null && radius !== null
          ? `Your phone puts you ${distanceWords(m)} from ${at.business}, farther than the ${radius} m it asks for.`
          : `Your phone puts you farther from ${at.business} than it asks for.`;
      return `${far} If you are there, tick "I'm here" and tap Clock in again: ${at.business} sees that you said so.`;
    }
    case 'SHFT-PHOTO-REQ-ERR':
      return at.script ? `${at.business} asks for a photo with each punch: tap "Take a photo" first.` : noScriptPhotoWords(at.business);
    case 'CLOCK-PHOTO-LIMIT-ERR':
      return at.photoRequired
        ? `This punch already has as many photos as a shift keeps, from earlier tries: ${askBusiness}.`
        : 'This punch already has as many photos as a shift keeps, from earlier tries: remove your photo and tap again.';
    case 'UNSUPPORTED-MEDIA-ERR':
      return 'That file is not a picture we can keep: take the photo with the camera, or choose a photo.';
    case 'PAYLOAD-TOO-LARGE-ERR':
      return `${r.message} Take the photo again, or choose a smaller one.`;
    case 'SHFT-CLOCK-WINDOW-ERR': {
      const opens = str(d.opens_at);
      const closes = str(d.closes_at);
      if (at.side === 'out')
        return opens
          ? `Too soon to clock out: you can from ${clockTime(opens, at.timeZone)}. If ${at.business} lets you go earlier, they end the shift for you.`
          : r.message;
      if (closes && Date.parse(closes) <= at.now)
        return `Clock-in closed at ${clockTime(closes, at.timeZone)}, when the shift ended: ask ${at.business} to record the shift.`;
      return opens ? `Too early to clock in: you can from ${clockTime(opens, at.timeZone)}.` : r.message;
    }
    case 'VALIDATION-ERR': {
      const f = fieldOf(r.details);
      if (f?.field === 'device_time')
        return f.message === 'in the future'
          ? `Your phone's clock was ahead of the real time when you tapped, so this punch cannot be recorded: ${askBusiness}.`
          : `${r.message} This one was sent too late to be recorded: ${askBusiness}.`;
      if (f?.field === 'photo_url') return 'The photo did not go with the punch: take it again and tap again.';
      if (f?.field === 'file') return 'The photo is empty: take it again.';
      return r.message;
    }
    case 'AUTH-REQ-ERR':
      return 'You are signed out on this phone: sign in again, then tap again.';
    case 'SHFT-NOT-FND-ERR':
      return 'This shift is no longer on your clock (it may have been cancelled): reload the page to see your shifts.';
    default:
      return r.message;
  }
}

/** The business's clock rules as the card says them before a position is known (the plain form's words too). */
export function placeWords(p: { business: string; side: 'in' | 'out'; radius: number | null; hard: boolean }): string {
  if (p.side === 'in' && p.radius) {
    const base = `When you tap, your phone tells ${p.business} where you are: clock in within ${p.radius} m of it.`;
    return p.hard ? `${base} Farther away, a clock-in is refused unless you say "I'm here".` : base;
  }
  return `When you tap, your phone tells ${p.business} where you are, if you allow it.`;
}

/**
 * Where the phone puts the worker, once it knows, before the tap: the distance and, for a clock-in
 * against the business's radius, what the business will make of it (the geofence rule's verdict):
 * within it, outside it but allowed and seen (soft mode), or refused unless "I'm here" (hard mode).
 */
export function whereWords(
  check: GeofenceCheck | null,
  at: { business: string; side: 'in' | 'out'; accuracyM: number | null; imHere: boolean },
): string {
  const acc = at.accuracyM === null ? '' : ` (accuracy ±${Math.round(at.accuracyM)} m)`;
  if (!check) return `Location found${acc}.`;
  const you = `You are ${distanceWords(check.distance_m)} from ${at.business}${acc}`;
  if (at.side === 'out' || check.radius_m === null) return `${you}.`;
  if (!check.outside) return `${you}, within the ${check.radius_m} m it asks for.`;
  const far = `${you}, farther than the ${check.radius_m} m it asks for`;
  if (check.refused) return `${far}: a clock-in from here is refused. If you are there, tick "I'm here".`;
  if (at.imHere) return `${far}: with "I'm here" ticked, ${at.business} sees that you said you are there.`;
  return `${far}. You can still clock in: ${at.business} will see it was made ${distanceWords(check.distance_m)} away.`;
}

/** The punch button's words: "Clock in", or, where hard mode refuses this position, that it would be refused. */
export const punchButtonWords = (side: 'in' | 'out', check: GeofenceCheck | null): string =>
  side === 'out' ? 'Clock out' : check?.refused ? 'Refused from here: tick "I\'m here"' : 'Clock in';

/**
 * After the punch, what the business sees of where it was made: "4.2 km from the venue — the business
 * will see this" when it was outside the radius (a recorded distance and radius: outsideRadius, the
 * rule's own test), with "you said you were there" when "I'm here" was sent; null otherwise.
 */
export function punchDistanceWords(p: { distanceM: number | null; outside: boolean; override: boolean }): string | null {
  if (p.distanceM === null || !p.outside) return null;
  const said = p.override ? ', and that you said you were there' : '';
  return `${distanceWords(p.distanceM)} from the venue — the business will see this${said}`;
}
