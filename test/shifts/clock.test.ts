import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clockPhotos, shiftRequests } from '../../src/db/schema';
import { haversineMeters } from '../../src/lib/geo';
import {
  CLOCK_PHOTO_UNUSED_HOURS,
  clockOut as clockOutAt,
  MAX_CLOCK_PHOTOS_PER_SIDE,
  sweepUnusedClockPhotos,
} from '../../src/services/shifts';
import { isWorked } from '../../src/services/kernel';
import { type ApiResult, call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';
import {
  auditFor,
  callWithEnv,
  expectDeniedWith,
  HOUR,
  insertShift,
  makeCrewMember,
  makePair,
  MINUTE,
  NYC,
  outboxFor,
  photoForm,
  pngBytes,
  readShift,
  runCron,
  windowFromNow,
} from '../helpers/shifts';

const clockIn = (id: string, key: string, body?: unknown) => call('POST', `/v1/shift_request/${id}/clock_in`, { key, body });
const clockOut = (id: string, key: string, body?: unknown) => call('POST', `/v1/shift_request/${id}/clock_out`, { key, body });
const upload = (id: string, key: string, form: FormData | unknown, side = 'in') =>
  call('POST', `/v1/shift_request/${id}/clock_photo`, { key, body: form, query: { side } });
const HARD = { SHIFT_CLOCK_GEOFENCE_HARD_FAIL: 'true' };
/** About 5.4 km from the business (Times Square), and about 20 m from it. */
const FAR = { lat: 40.758, lon: -73.9855 };
const NEAR = { lat: 40.7129, lon: -74.0062 };

function ok(res: ApiResult, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A connected pair and an accepted shift starting `startsIn` minutes from now (4 hours long). */
async function clockCase(business: Record<string, unknown> = {}, startsIn = 30) {
  const { biz, sh } = await makePair({ business: { ...business } });
  const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + startsIn * MINUTE });
  return { biz, sh, shift };
}

/**
 * A shift in its last minutes (4 hours long, ending 10 minutes from now): clock-in is still open and
 * the shifter's clock-out window (from 15 minutes before the end) already is.
 */
const ENDING = -(3 * 60 + 50);

/** Moves a clock-in back in time, as if it had been punched `minutes` earlier (a clock-out needs 1 minute). */
async function clockedInAgo(id: string, minutes: number) {
  const row = (await readShift(id))!;
  await db()
    .update(shiftRequests)
    .set({ shift_start_at: row.shift_start_at! - minutes * MINUTE })
    .where(eq(shiftRequests.id, id));
}

describe('clock_in and clock_out', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/clock_in', body: {} });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/clock_out', body: {} });

  it('the shifter clocks in within the window, idempotently, then out near the end: the shift is worked', async () => {
    const { biz, sh, shift } = await clockCase({}, ENDING);
    const before = Date.now();
    const first = ok(await clockIn(shift.id, sh.key, {}));
    // The punch is attributed to the shifter's own user id (DECISIONS.md "Clock actor").
    expect(first).toMatchObject({
      request_status: 2,
      shift_start_by_id: sh.userId,
      clock_in_distance_m: null,
      clock_in_override: false,
      shift_end_at: null,
    });
    expect(Date.parse(first.shift_start_at)).toBeGreaterThanOrEqual(before - 1000);
    const [note] = await outboxFor(shift.id, { kind: 'clock_in' });
    expect(note!.body.user_ids).toEqual([biz.userId]);

    const again = ok(await clockIn(shift.id, sh.key, {}));
    expect(again.shift_start_at).toBe(first.shift_start_at);
    expect(await auditFor(shift.id, 'shift.clock_in')).toHaveLength(1);

    // A clock-out comes at least a minute after the clock-in.
    expectError(await clockOut(shift.id, sh.key), 422, 'SHFT-CLOCK-WINDOW-ERR');
    await clockedInAgo(shift.id, 2);
    const started = (await readShift(shift.id))!.shift_start_at!;
    const out = ok(await clockOut(shift.id, sh.key));
    expect(out.shift_end_at).not.toBeNull();
    expect(out).toMatchObject({ shift_start_at: new Date(started).toISOString(), shift_end_by_id: sh.userId, request_status: 2 });
    expect(isWorked((await readShift(shift.id))!)).toBe(true);
    const outAgain = ok(await clockOut(shift.id, sh.key));
    expect(outAgain.shift_end_at).toBe(out.shift_end_at);
    expect(await auditFor(shift.id, 'shift.clock_out')).toHaveLength(1);
    // A worked shift can no longer be cancelled.
    expectError(await call('POST', `/v1/shift_request/${shift.id}/cancel`, { key: sh.key, body: {} }), 409, 'SHFT-WORKED-ERR');
  });

  it('end to end: posted through the API, accepted, clocked in and out by the shifter', async () => {
    const { biz, sh } = await makePair();
    const posted = ok(
      await call('POST', '/v1/shift_request/send_request', {
        key: biz.key,
        body: { ...windowFromNow(30, 4 * 60), shiftrole_id: 1, hourly_rate: 20, shifter_id: sh.shifterId },
      }),
      201,
    );
    expect(posted.duration_minutes).toBe(240);
    expect(ok(await call('POST', `/v1/shift_request/${posted.id}/accept`, { key: sh.key })).request_status).toBe(2);
    expect(ok(await clockIn(posted.id, sh.key)).shift_start_by_id).toBe(sh.userId);
    // Within a minute of the clock-in nobody clocks out; after it, the worker leaves when they stop.
    const early = expectError(await clockOut(posted.id, sh.key), 422, 'SHFT-CLOCK-WINDOW-ERR');
    const inAt = (await readShift(posted.id))!.shift_start_at!;
    expect(early.details).toEqual({ opens_at: new Date(inAt + MINUTE).toISOString() });
    const endsAt = Date.parse(posted.ends_at);
    const done = await clockOutAt(contextAt(endsAt - 90 * MINUTE, sh), posted.id, {});
    expect(done.shift_end_at).toBe(new Date(endsAt - 90 * MINUTE).toISOString());
    expect(isWorked((await readShift(posted.id))!)).toBe(true);
  });

  it('refuses a clock-in more than 60 minutes before the start or after the end (422 SHFT-CLOCK-WINDOW-ERR)', async () => {
    const { sh, shift } = await clockCase({}, 3 * 60);
    expectError(await clockIn(shift.id, sh.key), 422, 'SHFT-CLOCK-WINDOW-ERR');
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
    const ended = await insertShift({
      businessId: shift.business_id,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 5 * HOUR,
      minutes: 4 * 60,
    });
    expectError(await clockIn(ended.id, sh.key), 422, 'SHFT-CLOCK-WINDOW-ERR');
    const soon = await insertShift({ businessId: shift.business_id, shifterId: sh.shifterId, startsAt: Date.now() + 55 * MINUTE });
    ok(await clockIn(soon.id, sh.key));
  });

  it('refuses clock-out before clock-in, and clocking a shift that is not accepted', async () => {
    const { biz, sh, shift } = await clockCase();
    expectError(await clockOut(shift.id, sh.key), 409, 'SHFT-STATE-ERR');
    expect((await readShift(shift.id))!.shift_end_at).toBeNull();
    const pending = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 10 * MINUTE,
      status: 1,
    });
    expectError(await clockIn(pending.id, sh.key), 409, 'SHFT-STATE-ERR');
    const cancelled = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 10 * MINUTE,
      status: 7,
    });
    expectError(await clockIn(cancelled.id, sh.key), 409, 'SHFT-CANCELLED-ERR');
    expectError(await clockOut(cancelled.id, sh.key), 409, 'SHFT-CANCELLED-ERR');
  });

  it('a kiosk (the business key) passes the shifter id as actor_id: the punch is the shifter’s', async () => {
    const { biz, sh, shift } = await clockCase({}, ENDING);
    expectError(await clockIn(shift.id, biz.key, { actor_id: biz.userId }), 400, 'VALIDATION-ERR');
    expectError(await clockIn(shift.id, biz.key, { actor_id: 'shf_someoneelse' }), 400, 'VALIDATION-ERR');
    const other = await makeCrewMember(biz.businessId!);
    expectError(await clockIn(shift.id, sh.key, { actor_id: other.shifterId }), 400, 'VALIDATION-ERR');
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();

    const res = ok(await clockIn(shift.id, biz.key, { actor_id: sh.shifterId }));
    expect(res.shift_start_by_id).toBe(sh.userId);
    await clockedInAgo(shift.id, 2);
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId, 1);
    expect(ok(await clockOut(shift.id, mate.key, { actor_id: sh.shifterId })).shift_end_by_id).toBe(sh.userId);
    // The audit rows name the real callers.
    expect((await auditFor(shift.id, 'shift.clock_in'))[0]).toMatchObject({ actor_user_id: biz.userId });
    expect((await auditFor(shift.id, 'shift.clock_out'))[0]).toMatchObject({ actor_user_id: mate.userId });
  });

  it("strangers and other shifters get 404; the shift's own parties do not", async () => {
    const { biz, sh, shift } = await clockCase();
    await expectDeniedWith(await clockIn(shift.id, (await makeUser({ shifter: true, business: true })).key), 404, 'SHFT-NOT-FND-ERR');
    const crew = await makeCrewMember(biz.businessId!);
    await expectDeniedWith(await clockIn(shift.id, crew.key), 404, 'SHFT-NOT-FND-ERR');
    // The crew may read an open broadcast, but there is nothing of it to clock.
    const open = await insertShift({ businessId: biz.businessId!, broadcast: true, status: 1, startsAt: Date.now() + 30 * MINUTE });
    await expectDeniedWith(await clockIn(open.id, crew.key), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await upload(open.id, crew.key, photoForm(pngBytes())), 404, 'SHFT-NOT-FND-ERR');
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    await expectDeniedWith(await clockIn(shift.id, suspended.key, { actor_id: sh.shifterId }), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await clockIn('sr_doesnotexist', sh.key), 404, 'SHFT-NOT-FND-ERR');
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
  });
});

describe('geofence', () => {
  const fence = { geofence_radius_m: 100 };
  const farMeters = Math.round(haversineMeters(FAR.lat, FAR.lon, NYC.lat, NYC.lon) * 10) / 10;

  it('soft mode (default) records the distance and blocks nothing', async () => {
    const { sh, shift } = await clockCase(fence, ENDING);
    const res = ok(await clockIn(shift.id, sh.key, FAR));
    expect(res.shift_start_at).not.toBeNull();
    expect(res.clock_in_distance_m).toBe(farMeters);
    expect(farMeters).toBeGreaterThan(5000);
    const row = (await readShift(shift.id))!;
    expect(row).toMatchObject({ clock_in_lat: FAR.lat, clock_in_lon: FAR.lon, clock_in_override: false });
    await clockedInAgo(shift.id, 2);
    expect(ok(await clockOut(shift.id, sh.key, FAR)).clock_out_distance_m).toBe(farMeters);
  });

  it('hard mode refuses an out-of-radius clock-in (422 GEOFENCE-ERR) unless the shifter says "I\'m here"', async () => {
    const { sh, shift } = await clockCase(fence, ENDING);
    const path = `/v1/shift_request/${shift.id}/clock_in`;
    const err = expectError(await callWithEnv('POST', path, { key: sh.key, body: FAR }, HARD), 422, 'GEOFENCE-ERR');
    expect(err.details).toMatchObject({ distance_m: farMeters, geofence_radius_m: 100 });
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();

    const res = await callWithEnv('POST', path, { key: sh.key, body: { ...FAR, im_here: true } }, HARD);
    expect(ok(res)).toMatchObject({ clock_in_override: true, clock_in_distance_m: farMeters });
    expect(res.body.shift_start_at).not.toBeNull();
    await clockedInAgo(shift.id, 2);
    // Clock-out is never blocked by the fence.
    expect(
      ok(await callWithEnv('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: FAR }, HARD)).shift_end_at,
    ).not.toBeNull();
  });

  it('hard mode lets an in-radius clock-in through, and a client that sends nothing', async () => {
    const inside = await clockCase(fence);
    const res = ok(await callWithEnv('POST', `/v1/shift_request/${inside.shift.id}/clock_in`, { key: inside.sh.key, body: NEAR }, HARD));
    expect(res.clock_in_override).toBe(false);
    expect(res.clock_in_distance_m).toBeLessThan(100);
    expect(res.clock_in_distance_m).toBeGreaterThan(0);

    const legacy = await clockCase(fence);
    const bare = ok(await callWithEnv('POST', `/v1/shift_request/${legacy.shift.id}/clock_in`, { key: legacy.sh.key }, HARD));
    expect(bare.shift_start_at).not.toBeNull();
    expect(bare.clock_in_distance_m).toBeNull();
  });

  it('without a geofence, hard mode does not block either', async () => {
    const { sh, shift } = await clockCase();
    const res = ok(await callWithEnv('POST', `/v1/shift_request/${shift.id}/clock_in`, { key: sh.key, body: FAR }, HARD));
    expect(res.clock_in_distance_m).toBe(farMeters);
  });
});

describe('clock photos', () => {
  itRejectsBadCredentials({
    method: 'POST',
    path: '/v1/shift_request/sr_doesnotexist/clock_photo',
    query: { side: 'in' },
    body: photoForm(pngBytes()),
  });

  const r2Keys = async (shiftId: string) => (await env.UPLOADS.list({ prefix: `clock-photos/${shiftId}/` })).objects.map((o) => o.key);

  it('a business that requires a photo refuses a clock-in without one (422 SHFT-PHOTO-REQ-ERR)', async () => {
    const { sh, shift } = await clockCase({ require_clock_photo: true });
    expectError(await clockIn(shift.id, sh.key), 422, 'SHFT-PHOTO-REQ-ERR');
    expectError(await clockIn(shift.id, sh.key, { lat: NEAR.lat, lon: NEAR.lon }), 422, 'SHFT-PHOTO-REQ-ERR');
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
  });

  it('uploads to R2, clocks in with the url, and serves the photo to the parties only', async () => {
    const { biz, sh, shift } = await clockCase({ require_clock_photo: true }, ENDING);
    const bytes = pngBytes();
    const up = ok(await upload(shift.id, sh.key, photoForm(bytes)), 201);
    expect(up).toMatchObject({ content_type: 'image/png', size: bytes.byteLength });
    expect(up.url).toMatch(new RegExp(`^/v1/uploads/clock-photos/${shift.id}/in/[^/]+\\.png$`));
    const key = up.url.replace('/v1/uploads/', '');
    const stored = await env.UPLOADS.get(key);
    expect(stored).not.toBeNull();
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);
    expect(stored!.httpMetadata?.contentType).toBe('image/png');

    // A url of another shift, or of the other side, is refused.
    const other = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 2 * HOUR + 30 * MINUTE,
    });
    const foreign = ok(await upload(other.id, sh.key, photoForm(bytes)), 201);
    expectError(await clockIn(shift.id, sh.key, { photo_url: foreign.url }), 400, 'VALIDATION-ERR');
    const outSide = ok(await upload(shift.id, sh.key, photoForm(bytes), 'out'), 201);
    expect(outSide.url).toContain(`/clock-photos/${shift.id}/out/`);
    expectError(await clockIn(shift.id, sh.key, { photo_url: outSide.url }), 400, 'VALIDATION-ERR');
    expectError(await clockIn(shift.id, sh.key, { photo_url: 'https://example.com/me.png' }), 400, 'VALIDATION-ERR');

    const res = ok(await clockIn(shift.id, sh.key, { photo_url: up.url }));
    expect(res.clock_in_photo_url).toBe(up.url);
    await clockedInAgo(shift.id, 2);
    // Clock-out needs its own photo too.
    expectError(await clockOut(shift.id, sh.key), 422, 'SHFT-PHOTO-REQ-ERR');
    expect(ok(await clockOut(shift.id, sh.key, { photo_url: outSide.url })).clock_out_photo_url).toBe(outSide.url);

    for (const key of [sh.key, biz.key]) {
      const got = await call('GET', up.url, { key });
      expect(got.status).toBe(200);
      expect(got.headers.get('Content-Type')).toBe('image/png');
      expect(new Uint8Array(await got.raw.arrayBuffer())).toEqual(bytes);
    }
    await expectDeniedWith(
      await call('GET', up.url, { key: (await makeUser({ shifter: true, business: true })).key }),
      404,
      'SHFT-NOT-FND-ERR',
    );
    expectError(await call('GET', up.url, {}), 401, 'AUTH-REQ-ERR');
    await expectDeniedWith(
      await call('GET', `/v1/uploads/clock-photos/${shift.id}/in/missing.png`, { key: sh.key }),
      404,
      'UPLOAD-NOT-FND-ERR',
    );
  });

  it('refuses a photo_url that names no stored photo of this shift and side (attacks)', async () => {
    const { biz, sh, shift } = await clockCase({ require_clock_photo: true });
    const refused = async (photo_url: string) => {
      const err = expectError(await clockIn(shift.id, sh.key, { photo_url }), 400, 'VALIDATION-ERR');
      expect(err.details).toEqual([{ field: 'photo_url', message: 'unknown photo' }]);
    };
    // Made up under the right prefix: the shape is right, but R2 holds no such object.
    await refused(`/v1/uploads/clock-photos/${shift.id}/in/upl_madeUpButWellFormed1.png`);
    await refused(`/v1/uploads/clock-photos/${shift.id}/in/../out/x.png`);
    await refused(`/v1/uploads/clock-photos/${shift.id}/in/`);
    // A real upload of the other side, renamed under this side's prefix: no such object either.
    const outSide = ok(await upload(shift.id, sh.key, photoForm(pngBytes()), 'out'), 201);
    await refused(outSide.url.replace('/out/', '/in/'));
    await refused(outSide.url);
    // A real upload of another shift, copied under this shift's prefix: its metadata names the other shift.
    const other = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 2 * HOUR + 30 * MINUTE,
    });
    const foreign = ok(await upload(other.id, sh.key, photoForm(pngBytes())), 201);
    await refused(foreign.url);
    const foreignKey = foreign.url.replace('/v1/uploads/', '');
    const copied = await env.UPLOADS.get(foreignKey);
    const planted = `clock-photos/${shift.id}/in/${foreignKey.split('/').at(-1)}`;
    await env.UPLOADS.put(planted, await copied!.arrayBuffer(), { customMetadata: copied!.customMetadata! });
    await refused(`/v1/uploads/${planted}`);
    // An object under the right key without the upload's metadata is refused as well.
    const bare = `clock-photos/${shift.id}/in/upl_plantedWithoutMeta1.png`;
    await env.UPLOADS.put(bare, pngBytes());
    await refused(`/v1/uploads/${bare}`);
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();

    // A real upload for this shift and side passes.
    const mine = ok(await upload(shift.id, sh.key, photoForm(pngBytes())), 201);
    expect(ok(await clockIn(shift.id, sh.key, { photo_url: mine.url })).clock_in_photo_url).toBe(mine.url);
  });

  it(`keeps at most ${MAX_CLOCK_PHOTOS_PER_SIDE} photos per shift and side, even when 12 arrive at once (422 CLOCK-PHOTO-LIMIT-ERR)`, async () => {
    const { biz, sh, shift } = await clockCase();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => upload(shift.id, i % 2 ? sh.key : biz.key, photoForm(pngBytes(), `p${i}.png`))),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(MAX_CLOCK_PHOTOS_PER_SIDE);
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(expectError(r, 422, 'CLOCK-PHOTO-LIMIT-ERR').details).toEqual({ limit: MAX_CLOCK_PHOTOS_PER_SIDE, side: 'in' });
    }
    // Exactly the kept ones are in R2 and in D1: a refused upload leaves no object behind.
    const kept = answers.filter((r) => r.status === 201).map((r) => r.body.url.replace('/v1/uploads/', '') as string);
    expect((await r2Keys(shift.id)).sort()).toEqual(kept.sort());
    const rows = await db().select().from(clockPhotos).where(eq(clockPhotos.shift_request_id, shift.id));
    expect(rows.map((r) => r.object_key).sort()).toEqual(kept.sort());
    // The other side has its own allowance.
    ok(await upload(shift.id, sh.key, photoForm(pngBytes()), 'out'), 201);
  });

  it('ties the photo a punch used to the punch, and removes photos no punch used after a day', async () => {
    const { sh, shift } = await clockCase({ require_clock_photo: true }, ENDING);
    const [used, spare] = [
      ok(await upload(shift.id, sh.key, photoForm(pngBytes())), 201),
      ok(await upload(shift.id, sh.key, photoForm(pngBytes())), 201),
    ];
    const before = Date.now();
    ok(await clockIn(shift.id, sh.key, { photo_url: used.url }));
    const keyOf = (u: { url: string }) => u.url.replace('/v1/uploads/', '');
    const row = async (u: { url: string }) =>
      (
        await db()
          .select()
          .from(clockPhotos)
          .where(eq(clockPhotos.object_key, keyOf(u)))
      )[0]!;
    expect((await row(used)).used_at).toBeGreaterThanOrEqual(before);
    expect((await row(spare)).used_at).toBeNull();

    // A day later nothing changes; past the delay the cron removes the spare, object first, and keeps the used one.
    const sweepAt = (ms: number) => sweepUnusedClockPhotos(contextAt(ms, sh));
    await sweepAt(Date.now() + CLOCK_PHOTO_UNUSED_HOURS * HOUR - MINUTE);
    expect((await r2Keys(shift.id)).sort()).toEqual([keyOf(used), keyOf(spare)].sort());
    await db()
      .update(clockPhotos)
      .set({ created_at: Date.now() - CLOCK_PHOTO_UNUSED_HOURS * HOUR - MINUTE })
      .where(eq(clockPhotos.shift_request_id, shift.id));
    await runCron('*/5 * * * *');
    expect(await r2Keys(shift.id)).toEqual([keyOf(used)]);
    expect((await row(spare)).removed_at).not.toBeNull();
    expect((await row(used)).removed_at).toBeNull();
    // A removed photo no longer serves; the used one stays however long it waits.
    expectError(await call('GET', spare.url, { key: sh.key }), 404, 'UPLOAD-NOT-FND-ERR');
    await sweepAt(Date.now() + 30 * CLOCK_PHOTO_UNUSED_HOURS * HOUR);
    expect(await r2Keys(shift.id)).toEqual([keyOf(used)]);
    expect((await call('GET', used.url, { key: sh.key })).status).toBe(200);
  });

  it('refuses a punch whose photo was removed before it', async () => {
    const { sh, shift } = await clockCase({ require_clock_photo: true }, ENDING);
    const up = ok(await upload(shift.id, sh.key, photoForm(pngBytes())), 201);
    expect(await sweepUnusedClockPhotos(contextAt(Date.now() + CLOCK_PHOTO_UNUSED_HOURS * HOUR + MINUTE, sh))).toBeGreaterThanOrEqual(1);
    const err = expectError(await clockIn(shift.id, sh.key, { photo_url: up.url }), 400, 'VALIDATION-ERR');
    expect(err.details).toEqual([{ field: 'photo_url', message: 'unknown photo' }]);
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
  });

  it('accepts a JPEG and an upload by the business kiosk', async () => {
    const { biz, shift } = await clockCase();
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
    const up = ok(await upload(shift.id, biz.key, photoForm(jpeg, 'me.jpg', 'image/jpeg')), 201);
    expect(up).toMatchObject({ content_type: 'image/jpeg', size: jpeg.byteLength });
    expect(up.url).toMatch(/\.jpg$/);
  });

  it('refuses wrong types (415), oversized files (413) and strangers (404), storing nothing', async () => {
    const { sh, shift } = await clockCase({ require_clock_photo: true });
    const text = new TextEncoder().encode('just some text, not an image at all');
    expectError(await upload(shift.id, sh.key, photoForm(text, 'photo.png', 'image/png')), 415, 'UNSUPPORTED-MEDIA-ERR');
    const pdf = new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n');
    expectError(await upload(shift.id, sh.key, photoForm(pdf, 'photo.pdf', 'application/pdf')), 415, 'UNSUPPORTED-MEDIA-ERR');
    expectError(await upload(shift.id, sh.key, { file: 'iVBORw0KGgo=' }), 415, 'UNSUPPORTED-MEDIA-ERR');

    const big = new Uint8Array(8 * 1024 * 1024 + 1);
    big.set(pngBytes());
    expectError(await upload(shift.id, sh.key, photoForm(big)), 413, 'PAYLOAD-TOO-LARGE-ERR');

    await expectDeniedWith(await upload(shift.id, (await makeUser({ shifter: true })).key, photoForm(pngBytes())), 404, 'SHFT-NOT-FND-ERR');
    expectError(await upload(shift.id, sh.key, photoForm(pngBytes()), 'sideways'), 400, 'VALIDATION-ERR');
    expectError(await upload(shift.id, sh.key, new FormData()), 400, 'VALIDATION-ERR');
    expect(await r2Keys(shift.id)).toEqual([]);
  });
});
