import { and, eq, gte, isNotNull, isNull, lte } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { haversineMeters } from '../../lib/geo';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { inspectFile } from '../../lib/uploads';
import { shiftParty } from '../access';
import { invoiceInsertWhere } from '../invoices';
import { completeIfPrepaid } from '../payments';
import { committedSubject, type ServiceContext, SHIFT_STATUS, shiftWhen, stateError } from '../kernel';
import { shiftEvent } from '../webhooks';
import { type LoadedShift, loadShift, loadView, viewLoaded } from './load';
import type { ClockInput, ClockPhotoParams, ClockPhotoUpload, ClockSide, ShiftRequestView } from './schemas';
import { shiftWrite } from './write';
import { businessRecipients } from '../notifications';

export const CLOCK_PHOTO_MAX_BYTES = 8 * 1024 * 1024;
/** Clock-in opens this long before the scheduled start and closes at the scheduled end. */
export const CLOCK_IN_EARLY_MINUTES = 60;
/** The shifter (or a kiosk for them) may clock out from this long before the scheduled end. */
export const CLOCK_OUT_GRACE_MINUTES = 15;
/** A clock-out comes at least this long after the clock-in, whoever punches. */
export const MIN_CLOCKED_MINUTES = 1;

const MINUTE = 60_000;

export function clockPhotoPrefix(shiftId: string, side: ClockSide) {
  return `clock-photos/${shiftId}/${side}/`;
}

/**
 * Who punches, and whom the punch is attributed to (DECISIONS.md "Clock actor"):
 * - `shifter`: the shift's shifter, on their own account;
 * - `kiosk`: the business's device (owner, active teammate or admin) passing the shifter's id as
 *   actor_id: the shifter punches through it;
 * - `manager`: the business side acting as itself, on the shifter's behalf.
 * `attributedTo` is a user id: the shifter's own for `shifter` and `kiosk`, the manager's for
 * `manager`. The audit row records the real caller either way.
 */
export interface Puncher {
  as: 'shifter' | 'kiosk' | 'manager';
  attributedTo: string;
}

async function puncher(ctx: ServiceContext, s: LoadedShift, input: ClockInput): Promise<Puncher> {
  const party = await shiftParty(ctx, s);
  const shifterUser = s.shifter?.user_id;
  if (party.isShifter && shifterUser) {
    if (input.actor_id !== undefined && input.actor_id !== s.row.shifter_id) {
      throw new AppError('VALIDATION-ERR', 'actor_id must be your own shifter id.', [
        { field: 'actor_id', message: 'not your shifter id' },
      ]);
    }
    return { as: 'shifter', attributedTo: shifterUser };
  }
  if (party.businessRole) {
    if (input.actor_id !== undefined) {
      if (input.actor_id !== s.row.shifter_id || !shifterUser) {
        throw new AppError('VALIDATION-ERR', "A kiosk must pass the shift's shifter id as actor_id.", [
          { field: 'actor_id', message: 'not the shift’s shifter' },
        ]);
      }
      return { as: 'kiosk', attributedTo: shifterUser };
    }
    // Spec 4.2 rule 3: the override is the shifter's statement; a manager cannot make it for them.
    if (input.im_here) {
      throw new AppError('VALIDATION-ERR', '"I\'m here" counts only from the shifter, or a kiosk passing their id as actor_id.', [
        { field: 'im_here', message: 'only the shifter or a kiosk acting for them may send it' },
      ]);
    }
    return { as: 'manager', attributedTo: party.actor.userId };
  }
  throw new AppError('SHFT-NOT-FND-ERR');
}

const PHOTO_URL = /^\/v1\/uploads\/(clock-photos\/(sr_[0-9A-Za-z]+)\/(in|out)\/upl_[0-9A-Za-z]+\.[a-z]{3,4})$/;

/**
 * A photo_url must name a photo clock_photo stored for this shift and side: the key has the right
 * shape, and the R2 object exists with matching customMetadata (a made-up name under the right prefix,
 * or a real upload of another shift or side, is refused). A missing photo where the business requires
 * one is SHFT-PHOTO-REQ-ERR.
 */
async function checkPhoto(ctx: ServiceContext, s: LoadedShift, side: ClockSide, photoUrl: string | undefined) {
  if (photoUrl === undefined) {
    if (s.business.require_clock_photo) throw new AppError('SHFT-PHOTO-REQ-ERR');
    return;
  }
  const refuse = () =>
    new AppError('VALIDATION-ERR', `photo_url must be a URL returned by clock_photo for this shift (side=${side}).`, [
      { field: 'photo_url', message: 'unknown photo' },
    ]);
  const m = PHOTO_URL.exec(photoUrl);
  if (!m || m[2] !== s.row.id || m[3] !== side) throw refuse();
  const head = await ctx.env.UPLOADS.head(m[1]!);
  if (!head || head.customMetadata?.shift_request_id !== s.row.id || head.customMetadata?.side !== side) throw refuse();
}

/**
 * Distance to the business when it has a geofence and the client sent a position. Soft mode only
 * records it; hard mode (SHIFT_CLOCK_GEOFENCE_HARD_FAIL) refuses an out-of-radius clock-in unless
 * the "I'm here" override is sent. A client that sends no position keeps the old, unenforced behaviour.
 */
function geofence(ctx: ServiceContext, s: LoadedShift, input: ClockInput, enforce: boolean): number | null {
  const { geofence_radius_m: radius, latitude, longitude } = s.business;
  if (input.lat === undefined || input.lon === undefined || latitude === null || longitude === null) return null;
  const distance = Math.round(haversineMeters(input.lat, input.lon, latitude, longitude) * 10) / 10;
  if (radius !== null && enforce && ctx.settings.SHIFT_CLOCK_GEOFENCE_HARD_FAIL && distance > radius && !input.im_here) {
    throw new AppError('GEOFENCE-ERR', undefined, { distance_m: distance, geofence_radius_m: radius });
  }
  return distance;
}

function clockInWindowError(row: LoadedShift['row']) {
  return new AppError('SHFT-CLOCK-WINDOW-ERR', `Clock-in opens ${CLOCK_IN_EARLY_MINUTES} minutes before the start and closes at the end.`, {
    opens_at: toIso(row.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE),
    closes_at: toIso(row.ends_at),
  });
}

/**
 * Clock-in: accepted → in progress. Allowed from CLOCK_IN_EARLY_MINUTES before the start until the
 * scheduled end, never on a no-show; these conditions are in the guarded update itself, so a no-show
 * marked at the same moment and a clock-in cannot both win. Repeating it returns the stored result.
 */
export async function clockIn(ctx: ServiceContext, id: string, input: ClockInput): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const s = await loadShift(ctx, id);
  const who = await puncher(ctx, s, input);
  if (s.row.shift_start_at !== null && s.row.request_status === SHIFT_STATUS.accepted) return viewLoaded(s);
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  if (s.row.is_noshow) throw new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  const now = ctx.now();
  if (now < s.row.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE || now > s.row.ends_at) throw clockInWindowError(s.row);
  await checkPhoto(ctx, s, 'in', input.photo_url);
  const distance = geofence(ctx, s, input, true);
  const override = who.as !== 'manager' && input.im_here === true;
  const w = shiftWrite(ctx, id);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        shift_start_at: now,
        shift_start_by_id: who.attributedTo,
        clock_in_lat: input.lat ?? null,
        clock_in_lon: input.lon ?? null,
        clock_in_distance_m: distance,
        clock_in_photo_url: input.photo_url ?? null,
        clock_in_override: override,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
          isNull(shiftRequests.shift_start_at),
          eq(shiftRequests.is_noshow, false),
          lte(shiftRequests.starts_at, now + CLOCK_IN_EARLY_MINUTES * MINUTE),
          gte(shiftRequests.ends_at, now),
        ),
      ),
    audit: { action: 'shift.clock_in', data: { distance_m: distance, override, punched_as: who.as, attributed_to: who.attributedTo } },
    notify: [
      {
        kind: 'clock_in',
        userIds: await businessRecipients(ctx, s.business.id, 'clock_in'),
        title: `${s.shifter?.display_name ?? 'Your shifter'} clocked in`,
        body: shiftWhen(s.row),
      },
    ],
    events: [shiftEvent('shift_request.clocked_in', { ...s.row, shift_start_at: now }, now)],
  });
  const fresh = await loadShift(ctx, r.subject.id);
  if (r.applied) return viewLoaded(fresh);
  // The guard did not hold: a concurrent twin clocked in (its result is ours), or the row changed.
  if (fresh.row.shift_start_at !== null && fresh.row.request_status === SHIFT_STATUS.accepted) return viewLoaded(fresh);
  if (fresh.row.request_status !== SHIFT_STATUS.accepted) throw stateError(fresh.row, 'accepted');
  if (fresh.row.is_noshow) throw new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  throw clockInWindowError(fresh.row);
}

/**
 * Clock-out: sets shift_end_at (the shift is then worked). At least MIN_CLOCKED_MINUTES after the
 * clock-in, whoever punches. The shifter (or a kiosk for them) may clock out from
 * CLOCK_OUT_GRACE_MINUTES before the scheduled end; the business acting as itself may end the shift
 * early at any time, and the audit row says so. The time conditions are in the guarded update.
 * Repeating it returns the stored result.
 */
export async function clockOut(ctx: ServiceContext, id: string, input: ClockInput): Promise<ShiftRequestView> {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadView(ctx, done);
  const s = await loadShift(ctx, id);
  const who = await puncher(ctx, s, input);
  if (s.row.shift_end_at !== null && s.row.request_status !== SHIFT_STATUS.cancelled) return viewLoaded(s);
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  if (s.row.shift_start_at === null) throw new AppError('SHFT-STATE-ERR', 'Clock in before clocking out.');
  const now = ctx.now();
  const earliest = clockOutOpensAt(s.row, who);
  if (now < earliest) throw clockOutWindowError(s.row, who);
  await checkPhoto(ctx, s, 'out', input.photo_url);
  const distance = geofence(ctx, s, input, false);
  const endedEarly = now < s.row.ends_at;
  const w = shiftWrite(ctx, id);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        shift_end_at: now,
        shift_end_by_id: who.attributedTo,
        clock_out_lat: input.lat ?? null,
        clock_out_lon: input.lon ?? null,
        clock_out_distance_m: distance,
        clock_out_photo_url: input.photo_url ?? null,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
          isNotNull(shiftRequests.shift_start_at),
          isNull(shiftRequests.shift_end_at),
          eq(shiftRequests.is_noshow, false),
          lte(shiftRequests.shift_start_at, now - MIN_CLOCKED_MINUTES * MINUTE),
          ...(who.as === 'manager' ? [] : [lte(shiftRequests.ends_at, now + CLOCK_OUT_GRACE_MINUTES * MINUTE)]),
        ),
      ),
    // The shift is worked from here: its invoice is written in the same batch, only if the guard held;
    // a shift pre-paid already (its invoice paid) completes (2 → 5) in the same batch.
    follow: [invoiceInsertWhere(ctx.db, s.row, now, w.applied!), completeIfPrepaid(ctx.db, id, now, w.applied!)],
    audit: {
      action: 'shift.clock_out',
      data: { distance_m: distance, punched_as: who.as, attributed_to: who.attributedTo, ended_early: endedEarly },
    },
    events: [shiftEvent('shift_request.clocked_out', { ...s.row, shift_end_at: now }, now)],
  });
  const fresh = await loadShift(ctx, r.subject.id);
  if (r.applied) return viewLoaded(fresh);
  if (fresh.row.shift_end_at !== null && fresh.row.request_status !== SHIFT_STATUS.cancelled) return viewLoaded(fresh);
  if (fresh.row.request_status !== SHIFT_STATUS.accepted) throw stateError(fresh.row, 'accepted');
  if (fresh.row.shift_start_at === null) throw new AppError('SHFT-STATE-ERR', 'Clock in before clocking out.');
  throw clockOutWindowError(fresh.row, who);
}

/** The earliest instant this puncher may clock the shift out. */
function clockOutOpensAt(row: LoadedShift['row'], who: Puncher): number {
  const afterIn = (row.shift_start_at ?? row.starts_at) + MIN_CLOCKED_MINUTES * MINUTE;
  return who.as === 'manager' ? afterIn : Math.max(afterIn, row.ends_at - CLOCK_OUT_GRACE_MINUTES * MINUTE);
}

function clockOutWindowError(row: LoadedShift['row'], who: Puncher) {
  const message =
    who.as === 'manager'
      ? `A clock-out comes at least ${MIN_CLOCKED_MINUTES} minute after the clock-in.`
      : `The shifter may clock out from ${CLOCK_OUT_GRACE_MINUTES} minutes before the scheduled end (and at least ${MIN_CLOCKED_MINUTES} minute after clocking in); the business may end the shift earlier.`;
  return new AppError('SHFT-CLOCK-WINDOW-ERR', message, { opens_at: toIso(clockOutOpensAt(row, who)) });
}

/** Stores a clock photo in R2 (images only, sniffed; at most 8 MB) and returns its URL. */
export async function uploadClockPhoto(ctx: ServiceContext, id: string, side: ClockSide, upload: File): Promise<ClockPhotoUpload> {
  const s = await loadShift(ctx, id);
  await puncher(ctx, s, {});
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  const file = await inspectFile(upload, {
    maxBytes: CLOCK_PHOTO_MAX_BYTES,
    accept: (t) => t.mime.startsWith('image/'),
    what: 'clock photo',
  });
  const key = `${clockPhotoPrefix(id, side)}${newId('upload')}.${file.type.ext}`;
  await ctx.env.UPLOADS.put(key, file.bytes, {
    httpMetadata: { contentType: file.type.mime },
    customMetadata: { shift_request_id: id, side, uploaded_by: ctx.actor.kind === 'user' ? ctx.actor.userId : 'unknown' },
  });
  return { url: `/v1/uploads/${key}`, content_type: file.type.mime, size: file.bytes.byteLength };
}

/**
 * Serves a clock photo (GET /v1/uploads/clock-photos/{shift_request_id}/{side}/{file}) to the parties
 * of its shift only: the bytes and their stored type.
 */
export async function readClockPhoto(ctx: ServiceContext, p: ClockPhotoParams): Promise<{ body: ReadableStream; content_type: string }> {
  const key = `${clockPhotoPrefix(p.shift_request_id, p.side)}${p.file}`;
  const m = /^clock-photos\/(sr_[0-9A-Za-z]+)\/(in|out)\/[^/]+$/.exec(key);
  if (!m) throw new AppError('UPLOAD-NOT-FND-ERR');
  await shiftParty(ctx, await loadShift(ctx, m[1]!));
  const obj = await ctx.env.UPLOADS.get(key);
  if (!obj) throw new AppError('UPLOAD-NOT-FND-ERR');
  return { body: obj.body, content_type: obj.httpMetadata?.contentType ?? 'application/octet-stream' };
}
