import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { haversineMeters } from '../../lib/geo';
import { newId } from '../../lib/ids';
import { inspectFile } from '../../lib/uploads';
import { businessRecipients, shiftParty } from '../access';
import type { ServiceContext } from '../context';
import { type LoadedShift, loadShift } from './load';
import { SHIFT_STATUS } from './status';
import { committedSubject } from '../guarded-write';
import { shiftWhen, stateError } from './rules';
import { shiftWrite } from './write';

export const CLOCK_PHOTO_MAX_BYTES = 8 * 1024 * 1024;
/** Clock-in opens this long before the start and closes at the shift's end. */
export const CLOCK_IN_EARLY_MINUTES = 60;

export interface ClockInput {
  lat?: number | undefined;
  lon?: number | undefined;
  photo_url?: string | undefined;
  /** The "I'm here" override: clock in although out of the geofence in hard mode. */
  im_here?: boolean | undefined;
  /** Kiosk: the business's device passes the shifter's id as the actor. */
  actor_id?: string | undefined;
}

type Side = 'in' | 'out';

export function clockPhotoPrefix(shiftId: string, side: Side) {
  return `clock-photos/${shiftId}/${side}/`;
}

/** Who may clock: the shift's shifter, or the business (owner/teammate/admin) as a kiosk. Returns the actor id to record. */
async function clockActor(ctx: ServiceContext, s: LoadedShift, input: ClockInput): Promise<string> {
  const party = await shiftParty(ctx, s);
  if (party.isShifter) {
    if (input.actor_id && input.actor_id !== s.row.shifter_id) throw new AppError('VALIDATION-ERR', 'actor_id must be your own shifter id.');
    return s.row.shifter_id!;
  }
  if (party.businessRole) {
    if (input.actor_id !== undefined && input.actor_id !== s.row.shifter_id) {
      throw new AppError('VALIDATION-ERR', "A kiosk must pass the shift's shifter id as actor_id.", [{ field: 'actor_id', message: 'not the shift’s shifter' }]);
    }
    return input.actor_id ?? party.actor.userId;
  }
  throw new AppError('SHFT-NOT-FND-ERR');
}

function checkPhoto(s: LoadedShift, side: Side, photoUrl: string | undefined) {
  if (photoUrl !== undefined && !photoUrl.startsWith(`/v1/uploads/${clockPhotoPrefix(s.row.id, side)}`)) {
    throw new AppError('VALIDATION-ERR', `photo_url must be a URL returned by clock_photo for this shift (side=${side}).`, [{ field: 'photo_url', message: 'unknown photo' }]);
  }
  if (s.business.require_clock_photo && !photoUrl) throw new AppError('SHFT-PHOTO-REQ-ERR');
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

/** Clock-in: accepted → in progress. Repeating it returns the same result (idempotent). */
export async function clockIn(ctx: ServiceContext, id: string, input: ClockInput) {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadShift(ctx, done);
  const s = await loadShift(ctx, id);
  const actorId = await clockActor(ctx, s, input);
  if (s.row.shift_start_at !== null && s.row.request_status === SHIFT_STATUS.accepted) return s;
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  if (s.row.is_noshow) throw new AppError('SHFT-STATE-ERR', 'The shift is marked as a no-show.');
  const now = ctx.now();
  if (now < s.row.starts_at - CLOCK_IN_EARLY_MINUTES * 60_000 || now > s.row.ends_at) {
    throw new AppError('SHFT-CLOCK-WINDOW-ERR', `Clock-in opens ${CLOCK_IN_EARLY_MINUTES} minutes before the start and closes at the end.`);
  }
  checkPhoto(s, 'in', input.photo_url);
  const distance = geofence(ctx, s, input, true);
  const w = shiftWrite(ctx, id);
  await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        shift_start_at: now,
        shift_start_by_id: actorId,
        clock_in_lat: input.lat ?? null,
        clock_in_lon: input.lon ?? null,
        clock_in_distance_m: distance,
        clock_in_photo_url: input.photo_url ?? null,
        clock_in_override: input.im_here ?? false,
        last_op_id: w.op,
        updated_at: now,
      })
      .where(
        and(
          eq(shiftRequests.id, id),
          eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
          isNull(shiftRequests.shift_start_at),
          eq(shiftRequests.is_noshow, false),
        ),
      ),
    audit: { action: 'shift.clock_in', data: { distance_m: distance, override: input.im_here ?? false } },
    notify: [
      {
        kind: 'clock_in',
        userIds: await businessRecipients(ctx, s.business.id),
        title: `${s.shifter?.display_name ?? 'Your shifter'} clocked in`,
        body: shiftWhen(s.row),
      },
    ],
  });
  // Whether this call or a concurrent twin wrote it, the stored clock-in is the result.
  return loadShift(ctx, id);
}

/** Clock-out: sets shift_end_at (the shift is then worked). Repeating it returns the same result. */
export async function clockOut(ctx: ServiceContext, id: string, input: ClockInput) {
  const done = committedSubject(ctx, 'shift_request');
  if (done) return loadShift(ctx, done);
  const s = await loadShift(ctx, id);
  const actorId = await clockActor(ctx, s, input);
  if (s.row.shift_end_at !== null && s.row.request_status !== SHIFT_STATUS.cancelled) return s;
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  if (s.row.shift_start_at === null) throw new AppError('SHFT-STATE-ERR', 'Clock in before clocking out.');
  checkPhoto(s, 'out', input.photo_url);
  const distance = geofence(ctx, s, input, false);
  const now = ctx.now();
  const w = shiftWrite(ctx, id);
  await w.commit({
    guard: ctx.db
      .update(shiftRequests)
      .set({
        shift_end_at: now,
        shift_end_by_id: actorId,
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
        ),
      ),
    audit: { action: 'shift.clock_out', data: { distance_m: distance } },
  });
  return loadShift(ctx, id);
}

/** Stores a clock photo in R2 (images only, sniffed; at most 8 MB) and returns its URL. */
export async function uploadClockPhoto(ctx: ServiceContext, id: string, side: Side, upload: File) {
  const s = await loadShift(ctx, id);
  await clockActor(ctx, s, {});
  if (s.row.request_status !== SHIFT_STATUS.accepted) throw stateError(s.row, 'accepted');
  const file = await inspectFile(upload, { maxBytes: CLOCK_PHOTO_MAX_BYTES, accept: (t) => t.mime.startsWith('image/'), what: 'clock photo' });
  const key = `${clockPhotoPrefix(id, side)}${newId('upload')}.${file.type.ext}`;
  await ctx.env.UPLOADS.put(key, file.bytes, {
    httpMetadata: { contentType: file.type.mime },
    customMetadata: { shift_request_id: id, side, uploaded_by: ctx.actor.kind === 'user' ? ctx.actor.userId : 'unknown' },
  });
  return { url: `/v1/uploads/${key}`, content_type: file.type.mime, size: file.bytes.byteLength };
}

/** Serves a clock photo to the parties of its shift only. */
export async function readClockPhoto(ctx: ServiceContext, key: string) {
  const m = /^clock-photos\/(sr_[0-9A-Za-z]+)\/(in|out)\/[^/]+$/.exec(key);
  if (!m) throw new AppError('UPLOAD-NOT-FND-ERR');
  await shiftParty(ctx, await loadShift(ctx, m[1]!));
  const obj = await ctx.env.UPLOADS.get(key);
  if (!obj) throw new AppError('UPLOAD-NOT-FND-ERR');
  return obj;
}
