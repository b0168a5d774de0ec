import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { businesses, clockPhotos, shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type GeofencePlace, geofenceCheck } from '../../lib/geo';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { toIso } from '../../lib/time';
import { inspectFile } from '../../lib/uploads';
import { shiftParty } from '../access';
import { checkBreaks, policyOf, timesheetOnClockIn, timesheetOnClockOut } from '../timesheets';
import { committedSubject, prepareWrite, type ServiceContext, SHIFT_STATUS, shiftWhen, stateError } from '../kernel';
import { shiftEvent } from '../webhooks';
import {
  CLOCK_IN_EARLY_MINUTES,
  type ClockTimes,
  clockInOpensAt,
  clockOutOpensAt,
  clockWindow,
  MIN_CLOCKED_MINUTES,
  type PunchAs,
} from './clock-window';
import { type LoadedShift, loadShift, loadView, viewLoaded } from './load';
import type { ClockInput, ClockPhotoParams, ClockPhotoUpload, ClockSide, ShiftRequestView } from './schemas';
import { shiftWrite } from './write';
import { businessRecipients } from '../notifications';

export const CLOCK_PHOTO_MAX_BYTES = 8 * 1024 * 1024;
/** Photos stored per shift and side, ever: a retake or two for the one punch, never a flood. */
export const MAX_CLOCK_PHOTOS_PER_SIDE = 3;
/** A photo no punch has used is removed from R2 this long after its upload (the maintenance cron). */
export const CLOCK_PHOTO_UNUSED_HOURS = 24;
/** Photos the cron removes per run (one R2 delete call takes up to 1,000 keys). */
const SWEEP_BATCH = 200;
/**
 * A punch queued on a device without network (device_time): it may be sent this long after it was
 * made, and its device clock may run this far ahead of ours (a time ahead within the skew is recorded
 * as the arrival time, never as a future instant). See docs/decisions/shift-requests.md "Offline punches".
 */
export const OFFLINE_PUNCH_MAX_AGE_HOURS = 12;
export const OFFLINE_PUNCH_MAX_SKEW_SECONDS = 120;

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
  as: PunchAs;
  attributedTo: string;
}

/** The clock window's view of a stored row (clock-window.ts). */
export function clockTimesOfRow(row: LoadedShift['row']): ClockTimes {
  return {
    accepted: row.request_status === SHIFT_STATUS.accepted,
    noShow: row.is_noshow,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    clockedInAt: row.shift_start_at,
    clockedOutAt: row.shift_end_at,
  };
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
 * A photo_url must name a photo clock_photo stored for this shift and side and not yet removed: the
 * key has the right shape, its clock_photos row names this shift and side, and the R2 object exists
 * (a made-up name under the right prefix, an object planted there, or a real upload of another shift
 * or side, is refused). A missing photo where the business requires one is SHFT-PHOTO-REQ-ERR.
 * Returns the photo's row id, for the punch to claim it in its own batch (`photoClaim`).
 */
async function checkPhoto(ctx: ServiceContext, s: LoadedShift, side: ClockSide, photoUrl: string | undefined): Promise<string | null> {
  if (photoUrl === undefined) {
    if (s.business.require_clock_photo) throw new AppError('SHFT-PHOTO-REQ-ERR');
    return null;
  }
  const m = PHOTO_URL.exec(photoUrl);
  if (!m || m[2] !== s.row.id || m[3] !== side) throw unknownPhoto(side);
  const cp = clockPhotos;
  const [row] = await ctx.db
    .select({ id: cp.id })
    .from(cp)
    .where(and(eq(cp.object_key, m[1]!), eq(cp.shift_request_id, s.row.id), eq(cp.side, side), isNull(cp.removed_at)))
    .limit(1);
  if (!row || !(await ctx.env.UPLOADS.head(m[1]!))) throw unknownPhoto(side);
  return row.id;
}

const unknownPhoto = (side: ClockSide) =>
  new AppError('VALIDATION-ERR', `photo_url must be a URL returned by clock_photo for this shift (side=${side}).`, [
    { field: 'photo_url', message: 'unknown photo' },
  ]);

/**
 * The punch's hold on its photo: `live` (for the guard: the photo is still there, so the cron cannot
 * remove it under the punch) and `claim` (a follow-up statement stamping `used_at` once the guard held).
 */
function photoClaim(ctx: ServiceContext, photoId: string | null, now: number, applied: SQL) {
  if (!photoId) return { live: [], claim: [] };
  const cp = clockPhotos;
  return {
    live: [sql`EXISTS (SELECT 1 FROM ${cp} WHERE ${cp.id} = ${photoId} AND ${cp.removed_at} IS NULL)`],
    claim: [
      ctx.db
        .update(cp)
        .set({ used_at: now })
        .where(and(eq(cp.id, photoId), isNull(cp.removed_at), applied)),
    ],
  };
}

/** After a refused guard: the photo's removal (by the cron, meanwhile) is the reason to tell. */
async function photoGone(ctx: ServiceContext, photoId: string | null): Promise<boolean> {
  if (!photoId) return false;
  const [row] = await ctx.db.select({ removed: clockPhotos.removed_at }).from(clockPhotos).where(eq(clockPhotos.id, photoId)).limit(1);
  return !row || row.removed !== null;
}

/**
 * Distance to the business when the client sent a position, by the one geofence rule (lib/geo.ts
 * `geofenceCheck`, which the shifter's clock page runs before the tap too). Soft mode only records it;
 * hard mode (SHIFT_CLOCK_GEOFENCE_HARD_FAIL) refuses an out-of-radius clock-in unless the "I'm here"
 * override is sent. A client that sends no position keeps the old, unenforced behaviour.
 */
function geofence(ctx: ServiceContext, s: LoadedShift, input: ClockInput, enforce: boolean): number | null {
  const place = { ...s.business, hard_geofence: ctx.settings.SHIFT_CLOCK_GEOFENCE_HARD_FAIL };
  const check = geofenceCheck(place, input.lat, input.lon, input.im_here === true);
  if (check?.refused && enforce) {
    throw new AppError('GEOFENCE-ERR', undefined, { distance_m: check.distance_m, geofence_radius_m: check.radius_m });
  }
  return check?.distance_m ?? null;
}

/**
 * The instant a punch is recorded at, and when it arrived if it was queued offline: without
 * device_time, now; with it, the device's time, once it is within the bounds (not ahead of our clock
 * beyond OFFLINE_PUNCH_MAX_SKEW_SECONDS, not older than OFFLINE_PUNCH_MAX_AGE_HOURS). The clock
 * window is then checked against that instant, as if the punch had arrived when it was made.
 */
export function punchTime(ctx: ServiceContext, input: ClockInput): { at: number; receivedAt: number | null } {
  const now = ctx.now();
  if (input.device_time === undefined) return { at: now, receivedAt: null };
  const device = Date.parse(input.device_time);
  if (device > now + OFFLINE_PUNCH_MAX_SKEW_SECONDS * 1000) {
    throw new AppError(
      'VALIDATION-ERR',
      `device_time is ahead of the service's clock by more than ${OFFLINE_PUNCH_MAX_SKEW_SECONDS} seconds.`,
      [{ field: 'device_time', message: 'in the future' }],
    );
  }
  if (device < now - OFFLINE_PUNCH_MAX_AGE_HOURS * 3_600_000) {
    throw new AppError('VALIDATION-ERR', `An offline punch is accepted up to ${OFFLINE_PUNCH_MAX_AGE_HOURS} hours after it was made.`, [
      { field: 'device_time', message: 'too old' },
    ]);
  }
  return { at: Math.min(device, now), receivedAt: now };
}

/** Where and how a shift is clocked: the business's position and geofence, hard mode (the geofence rule's place), the photo rule. */
export interface ClockPlace extends GeofencePlace {
  require_clock_photo: boolean;
}

/**
 * The clock settings of the businesses of the caller's own shifts (the shifter's clock page shows the
 * distance to each and asks for a photo where one is required), by business id. Shifts of others are
 * ignored, so the positions read are only those of the caller's own businesses of work.
 */
export async function clockPlaces(ctx: ServiceContext, shifts: readonly ShiftRequestView[]): Promise<Map<string, ClockPlace>> {
  const ids = [...new Set(shifts.map((s) => s.id))];
  const out = new Map<string, ClockPlace>();
  if (!ids.length) return out;
  const person = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
  if (!person) return out;
  const rows = await ctx.db
    .selectDistinct({
      id: businesses.id,
      latitude: businesses.latitude,
      longitude: businesses.longitude,
      geofence_radius_m: businesses.geofence_radius_m,
      require_clock_photo: businesses.require_clock_photo,
    })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .where(
      and(
        inArray(shiftRequests.id, ids.slice(0, 100)),
        inArray(shiftRequests.shifter_id, ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, person))),
      ),
    );
  for (const r of rows) {
    out.set(r.id, {
      latitude: r.latitude,
      longitude: r.longitude,
      geofence_radius_m: r.geofence_radius_m,
      require_clock_photo: r.require_clock_photo,
      hard_geofence: ctx.settings.SHIFT_CLOCK_GEOFENCE_HARD_FAIL,
    });
  }
  return out;
}

function clockInWindowError(row: LoadedShift['row']) {
  return new AppError('SHFT-CLOCK-WINDOW-ERR', `Clock-in opens ${CLOCK_IN_EARLY_MINUTES} minutes before the start and closes at the end.`, {
    opens_at: toIso(clockInOpensAt(row.starts_at)),
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
  const { at, receivedAt } = punchTime(ctx, input);
  if (clockWindow(clockTimesOfRow(s.row), at, who.as).can !== 'in') throw clockInWindowError(s.row);
  const photo = await checkPhoto(ctx, s, 'in', input.photo_url);
  const distance = geofence(ctx, s, input, true);
  const override = who.as !== 'manager' && input.im_here === true;
  const w = shiftWrite(ctx, id);
  const held = photoClaim(ctx, photo, now, w.applied!);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        shift_start_at: at,
        shift_start_by_id: who.attributedTo,
        clock_in_received_at: receivedAt,
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
          // The clock window (clock-window.ts) again, in the guard: clock-in opens CLOCK_IN_EARLY_MINUTES
          // before the start and closes at the end.
          lte(shiftRequests.starts_at, at + CLOCK_IN_EARLY_MINUTES * MINUTE),
          gte(shiftRequests.ends_at, at),
          ...held.live,
        ),
      ),
    // The shift's timesheet opens with the punch, in the same batch.
    follow: [timesheetOnClockIn(ctx.db, s.row, at, now, w.applied!), ...held.claim],
    audit: {
      action: 'shift.clock_in',
      data: { distance_m: distance, override, punched_as: who.as, attributed_to: who.attributedTo, offline: receivedAt !== null },
    },
    notify: [
      {
        kind: 'clock_in',
        userIds: await businessRecipients(ctx, s.business.id, 'clock_in'),
        title: `${s.shifter?.display_name ?? 'Your shifter'} clocked in`,
        body: shiftWhen(s.row),
      },
    ],
    events: [shiftEvent('shift_request.clocked_in', { ...s.row, shift_start_at: at }, now)],
  });
  const fresh = await loadShift(ctx, r.subject.id);
  if (r.applied) return viewLoaded(fresh);
  // The guard did not hold: a concurrent twin clocked in (its result is ours), or the row changed.
  if (fresh.row.shift_start_at !== null && fresh.row.request_status === SHIFT_STATUS.accepted) return viewLoaded(fresh);
  if (fresh.row.request_status !== SHIFT_STATUS.accepted) throw stateError(fresh.row, 'accepted');
  if (fresh.row.is_noshow) throw new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  if (await photoGone(ctx, photo)) throw unknownPhoto('in');
  throw clockInWindowError(fresh.row);
}

/**
 * Clock-out: sets shift_end_at (the shift is then worked) and submits its timesheet in the same batch,
 * with the breaks the worker attests and their note. At least MIN_CLOCKED_MINUTES after the clock-in,
 * whoever punches: a worker who stops before the scheduled end clocks out all the same, and the
 * timesheet records it as left early. Nothing is invoiced here: the invoice follows the timesheet's
 * approval (services/timesheets). Repeating it returns the stored result.
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
  const { at, receivedAt } = punchTime(ctx, input);
  if (clockWindow(clockTimesOfRow(s.row), at, who.as).can !== 'out') throw clockOutWindowError(s.row);
  const photo = await checkPhoto(ctx, s, 'out', input.photo_url);
  const distance = geofence(ctx, s, input, false);
  const endedEarly = at < s.row.ends_at;
  const inAt = s.row.shift_start_at;
  const breaks = checkBreaks(input.breaks, inAt, at);
  const w = shiftWrite(ctx, id);
  const held = photoClaim(ctx, photo, now, w.applied!);
  const r = await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        shift_end_at: at,
        shift_end_by_id: who.attributedTo,
        clock_out_received_at: receivedAt,
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
          // The clock window (clock-window.ts) again, in the guard.
          lte(shiftRequests.shift_start_at, at - MIN_CLOCKED_MINUTES * MINUTE),
          ...held.live,
        ),
      ),
    // The shift is worked from here: its timesheet is submitted in the same batch, only if the guard
    // held; its approval writes the invoice.
    follow: [
      ...timesheetOnClockOut(
        ctx.db,
        {
          shift: s.row,
          inAt,
          outAt: at,
          breaks,
          attestation: input.break_attestation,
          note: input.note,
          policy: policyOf(s.business),
          now,
        },
        w.applied!,
      ),
      ...held.claim,
    ],
    audit: {
      action: 'shift.clock_out',
      data: {
        distance_m: distance,
        punched_as: who.as,
        attributed_to: who.attributedTo,
        ended_early: endedEarly,
        offline: receivedAt !== null,
      },
    },
    notify: [
      {
        kind: 'timesheet_submitted',
        userIds: await businessRecipients(ctx, s.business.id, 'timesheet_submitted'),
        title: `${s.shifter?.display_name ?? 'Your shifter'} clocked out${endedEarly ? ' early' : ''}: their timesheet awaits you`,
        body: shiftWhen(s.row),
      },
    ],
    events: [shiftEvent('shift_request.clocked_out', { ...s.row, shift_end_at: at }, now)],
  });
  const fresh = await loadShift(ctx, r.subject.id);
  if (r.applied) return viewLoaded(fresh);
  if (fresh.row.shift_end_at !== null && fresh.row.request_status !== SHIFT_STATUS.cancelled) return viewLoaded(fresh);
  if (fresh.row.request_status !== SHIFT_STATUS.accepted) throw stateError(fresh.row, 'accepted');
  if (fresh.row.shift_start_at === null) throw new AppError('SHFT-STATE-ERR', 'Clock in before clocking out.');
  if (await photoGone(ctx, photo)) throw unknownPhoto('out');
  throw clockOutWindowError(fresh.row);
}

function clockOutWindowError(row: LoadedShift['row']) {
  return new AppError('SHFT-CLOCK-WINDOW-ERR', `A clock-out comes at least ${MIN_CLOCKED_MINUTES} minute after the clock-in.`, {
    opens_at: toIso(clockOutOpensAt(clockTimesOfRow(row))),
  });
}

/**
 * Stores a clock photo in R2 (images only, sniffed; at most 8 MB) and returns its URL. At most
 * MAX_CLOCK_PHOTOS_PER_SIDE per shift and side: the object is stored first, then its row, guarded in
 * SQL on that count (so concurrent uploads cannot pass it together); when the row is not written the
 * object is deleted, so no object is left that no row references.
 */
export async function uploadClockPhoto(ctx: ServiceContext, id: string, side: ClockSide, upload: File): Promise<ClockPhotoUpload> {
  const s = await loadShift(ctx, id);
  await puncher(ctx, s, {});
  const done = committedSubject(ctx, 'clock_photo');
  if (done) return photoView(await onePhoto(ctx, done));
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  const file = await inspectFile(upload, {
    maxBytes: CLOCK_PHOTO_MAX_BYTES,
    accept: (t) => t.mime.startsWith('image/'),
    what: 'clock photo',
  });
  if ((await photosOf(ctx, id, side)) >= MAX_CLOCK_PHOTOS_PER_SIDE) throw tooManyPhotos(side);
  const photoId = newId('upload');
  const key = `${clockPhotoPrefix(id, side)}${photoId}.${file.type.ext}`;
  const uploadedBy = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
  await ctx.env.UPLOADS.put(key, file.bytes, {
    httpMetadata: { contentType: file.type.mime },
    customMetadata: { shift_request_id: id, side, uploaded_by: uploadedBy ?? 'unknown' },
  });
  const row: PhotoRow = {
    id: photoId,
    shift_request_id: id,
    side,
    object_key: key,
    content_type: file.type.mime,
    size: file.bytes.byteLength,
    uploaded_by_user_id: uploadedBy,
    created_at: ctx.now(),
    used_at: null,
    removed_at: null,
  };
  const cp = clockPhotos;
  const count = sql`(SELECT COUNT(*) FROM ${cp} WHERE ${cp.shift_request_id} = ${id} AND ${cp.side} = ${side})`;
  let applied: boolean;
  try {
    const r = await prepareWrite(
      ctx,
      { type: 'clock_photo', id: photoId },
      () => sql`EXISTS (SELECT 1 FROM ${cp} WHERE ${cp.id} = ${photoId})`,
    ).commit({
      guard: insertWhere(ctx.db, cp, row, sql`${count} < ${MAX_CLOCK_PHOTOS_PER_SIDE}`),
      audit: { action: 'shift.clock_photo', data: { shift_request_id: id, side, type: row.content_type, size: row.size } },
    });
    applied = r.applied;
  } catch (err) {
    const stored = await photoStored(ctx, photoId);
    if (stored === false) await removePhotoObjects(ctx, [key]);
    if (!stored) throw err;
    applied = true; // the write committed; only its answer was lost
  }
  if (!applied) {
    await removePhotoObjects(ctx, [key]);
    throw tooManyPhotos(side);
  }
  return photoView(row);
}

type PhotoRow = typeof clockPhotos.$inferSelect;
const photoView = (r: PhotoRow): ClockPhotoUpload => ({ url: `/v1/uploads/${r.object_key}`, content_type: r.content_type, size: r.size });

const photosOf = (ctx: ServiceContext, id: string, side: ClockSide) =>
  ctx.db.$count(clockPhotos, and(eq(clockPhotos.shift_request_id, id), eq(clockPhotos.side, side)));

const tooManyPhotos = (side: ClockSide) =>
  new AppError(
    'CLOCK-PHOTO-LIMIT-ERR',
    `A shift keeps at most ${MAX_CLOCK_PHOTOS_PER_SIDE} clock photos per side; use one already uploaded as photo_url.`,
    { limit: MAX_CLOCK_PHOTOS_PER_SIDE, side },
  );

async function onePhoto(ctx: ServiceContext, photoId: string): Promise<PhotoRow> {
  const [row] = await ctx.db.select().from(clockPhotos).where(eq(clockPhotos.id, photoId)).limit(1);
  if (!row) throw new Error(`clock photo ${photoId} is committed but not found`);
  return row;
}

/** After the row write failed with an error: whether it committed all the same; null when even that read fails. */
async function photoStored(ctx: ServiceContext, photoId: string): Promise<boolean | null> {
  try {
    const [row] = await ctx.db.select({ id: clockPhotos.id }).from(clockPhotos).where(eq(clockPhotos.id, photoId)).limit(1);
    return row !== undefined;
  } catch (err) {
    ctx.log.error('clock photo: cannot tell whether the row was written', { photo_id: photoId, ...errorFields(err) });
    return null;
  }
}

/** Deletes stored objects; a failure only leaves unreferenced objects behind, so it is logged, not raised. */
async function removePhotoObjects(ctx: ServiceContext, keys: string[]): Promise<boolean> {
  try {
    await ctx.env.UPLOADS.delete(keys);
    return true;
  } catch (err) {
    ctx.log.error('clock photo delete failed', { keys: keys.join(' '), ...errorFields(err) });
    return false;
  }
}

/**
 * The maintenance cron (src/jobs): removes from R2 the clock photos no punch used within
 * CLOCK_PHOTO_UNUSED_HOURS of their upload (retakes, abandoned punches), SWEEP_BATCH a run, oldest
 * first. Each row is marked removed before its object goes, and only while no punch has used it, so a
 * punch and the sweep cannot both win (the punch's guard needs the photo unremoved); when the delete
 * fails, the marks are lifted for the next run. Used photos stay with their shift. Returns how many.
 */
export async function sweepUnusedClockPhotos(ctx: ServiceContext): Promise<number> {
  const cp = clockPhotos;
  const before = ctx.now() - CLOCK_PHOTO_UNUSED_HOURS * 3_600_000;
  const due = await ctx.db
    .select({ id: cp.id })
    .from(cp)
    .where(and(isNull(cp.used_at), isNull(cp.removed_at), lt(cp.created_at, before)))
    .orderBy(asc(cp.created_at))
    .limit(SWEEP_BATCH);
  if (!due.length) return 0;
  const now = ctx.now();
  const marked = await ctx.db
    .update(cp)
    .set({ removed_at: now })
    .where(
      and(
        inArray(
          cp.id,
          due.map((d) => d.id),
        ),
        isNull(cp.used_at),
        isNull(cp.removed_at),
      ),
    )
    .returning({ id: cp.id, key: cp.object_key });
  if (!marked.length) return 0;
  if (
    !(await removePhotoObjects(
      ctx,
      marked.map((m) => m.key),
    ))
  ) {
    await ctx.db
      .update(cp)
      .set({ removed_at: null })
      .where(
        and(
          inArray(
            cp.id,
            marked.map((m) => m.id),
          ),
          eq(cp.removed_at, now),
        ),
      );
    throw new Error(`clock photo sweep: ${marked.length} objects could not be deleted; the next run retries`);
  }
  return marked.length;
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
