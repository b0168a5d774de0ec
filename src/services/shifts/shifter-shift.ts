import { and, desc, eq } from 'drizzle-orm';
import { cities, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { callerShifter, shiftParty } from '../access';
import { cancelRefusal, type ServiceContext, SHIFT_STATUS } from '../kernel';
import { withClockWindow } from './clock-window';
import { overlapsWithMyShifts } from './conflicts';
import { loadShift, viewLoaded } from './load';
import type { ShiftRequestView } from './schemas';
import { shiftStateWords } from './state-words';

/** Where the shift is worked: the business's name, address and position, and the zone its times are in. */
export interface ShiftVenue {
  business_id: string;
  name: string;
  /** The business's address as it wrote it (null when it gave none). */
  address: string | null;
  /** The city the business is in, for a venue without an address. */
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The business's IANA zone: the shift's date and times are wall-clock there. */
  timezone: string;
}

/** The business's clock rules, as the clock service applies them to a punch (clock.ts). */
export interface ShiftClockRules {
  /** A clock-in farther than this from the venue is marked (null: no radius). */
  geofence_radius_m: number | null;
  require_clock_photo: boolean;
  /** An out-of-radius clock-in is refused unless "I'm here" is sent (SHIFT_CLOCK_GEOFENCE_HARD_FAIL). */
  hard_geofence: boolean;
}

export interface ShifterShift {
  /**
   * The shift as the API shows it, its `state_words` read at this instant (an accepted shift whose
   * start passed without a clock-in is late) and, on the shifter's own accepted shift not yet clocked
   * out, its `clock_window` for the shifter (the clock service's rule).
   */
  shift: ShiftRequestView;
  /** shifter: the shift is theirs (offered to them, or claimed); crew: an open broadcast of a crew they are in. */
  standing: 'shifter' | 'crew';
  venue: ShiftVenue;
  clock_rules: ShiftClockRules;
  /** The reader's own zone (their shifter profile's). */
  shifter_timezone: string;
  /**
   * The reader's own accepted shifts (in progress included) this one overlaps, by the one overlap rule
   * (conflicts.ts): while one stands, accepting or claiming this shift is refused. Only read for a
   * shift they could still accept or claim.
   */
  overlaps: ShiftRequestView[];
  /** What the services would take from this reader now (each service still checks it). */
  can: {
    /** Answer: a pending request offered to them, not yet started: decline takes it (decline.ts). */
    answer: boolean;
    /** Accept: the same, and no accepted shift of theirs overlaps it (accept.ts's guard). */
    accept: boolean;
    /** Claim: an open broadcast of their crew, not yet started, of a business they do not own, overlapping none of theirs (claim.ts). */
    claim: boolean;
    /** Cancel: their accepted shift, not started, worked or marked absent (the kernel's `cancelRefusal`). */
    cancel: boolean;
  };
  /** The business changed this shift into a new request to the same shifter: its id. */
  newer_id: string | null;
}

/**
 * One shift as its shifter reads it (the worker's shift page), by the access rule of a shift's
 * details (services/access `shiftParty`): the shift's own shifter, and the crew of an open broadcast,
 * who may read it before claiming it. Anyone else, the business side included (it has its own shift
 * page), gets 404. The pay is the shifter's to see; a crew member sees the rate the broadcast offers.
 */
export async function shifterShift(ctx: ServiceContext, id: string): Promise<ShifterShift> {
  const s = await loadShift(ctx, id);
  const party = await shiftParty(ctx, s);
  if (!party.isShifter && !party.isCrewOfOpenBroadcast) throw new AppError('SHFT-NOT-FND-ERR');
  const now = ctx.now();
  const row = s.row;
  const [reader, city, newer] = await Promise.all([
    party.isShifter && s.shifter ? Promise.resolve(s.shifter) : callerShifter(ctx),
    s.business.city_id === null
      ? Promise.resolve(null)
      : ctx.db
          .select({ name: cities.name })
          .from(cities)
          .where(eq(cities.id, s.business.city_id))
          .limit(1)
          .then((r) => r[0]?.name ?? null),
    party.isShifter
      ? ctx.db
          .select({ id: shiftRequests.id })
          .from(shiftRequests)
          .where(and(eq(shiftRequests.parent_id, id), eq(shiftRequests.shifter_id, party.callerShifterId!)))
          .orderBy(desc(shiftRequests.created_at))
          .limit(1)
          .then((r) => r[0]?.id ?? null)
      : Promise.resolve(null),
  ]);
  const view = withClockWindow(viewLoaded(s), party.isShifter ? 'shifter' : null, now);
  const pending = row.request_status === SHIFT_STATUS.pending;
  const ahead = row.starts_at > now;
  const answer = party.isShifter && !row.is_broadcast && pending && ahead;
  const claim = party.isCrewOfOpenBroadcast && s.business.user_id !== party.actor.userId && ahead;
  const overlaps = answer || claim ? ((await overlapsWithMyShifts(ctx, [id])).get(id) ?? []) : [];
  return {
    shift: { ...view, state_words: shiftStateWords(view, now) },
    standing: party.isShifter ? 'shifter' : 'crew',
    venue: {
      business_id: s.business.id,
      name: s.business.name,
      address: s.business.address?.trim() || null,
      city,
      latitude: s.business.latitude,
      longitude: s.business.longitude,
      timezone: s.business.timezone,
    },
    clock_rules: {
      geofence_radius_m: s.business.geofence_radius_m,
      require_clock_photo: s.business.require_clock_photo,
      hard_geofence: ctx.settings.SHIFT_CLOCK_GEOFENCE_HARD_FAIL,
    },
    shifter_timezone: reader?.timezone ?? 'UTC',
    overlaps,
    can: {
      answer,
      accept: answer && overlaps.length === 0,
      claim: claim && overlaps.length === 0,
      cancel: party.isShifter && row.request_status === SHIFT_STATUS.accepted && cancelRefusal(row) === null,
    },
    newer_id: newer,
  };
}
