import { describe, expect, it } from 'vitest';
import {
  CLOCK_IN_EARLY_MINUTES,
  clockIn,
  clockOut,
  MIN_CLOCKED_MINUTES,
  OFFLINE_PUNCH_MAX_AGE_HOURS,
  OFFLINE_PUNCH_MAX_SKEW_SECONDS,
} from '../../src/services/shifts';
import { call } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import type { TestUser } from '../helpers/factory';
import { auditFor, HOUR, insertShift, MINUTE, makePair, readShift } from '../helpers/shifts';
import { expectAppError } from '../helpers/two-factor';

/**
 * Offline punches (docs/decisions/shift-requests.md "Offline punches"): a clock-in or clock-out
 * queued on a device without network carries device_time; it is recorded at that time within the
 * bounds, its arrival kept beside it and the shift marked, and a resend never punches twice.
 */

const SECOND = 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** An accepted 8-hour shift starting `startsIn` from now. */
async function shiftFrom(startsIn: number) {
  const { biz, sh } = await makePair();
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: Date.now() + startsIn,
    minutes: 8 * 60,
  });
  return { biz, sh, shift };
}

const at = (when: number, user: TestUser) => contextAt(when, user);

describe('offline punches: the bounds', () => {
  it('a clock-in made offline is recorded at the device time, its arrival kept and the shift marked', async () => {
    const { sh, shift } = await shiftFrom(24 * HOUR);
    const made = shift.starts_at - 5 * MINUTE;
    const arrives = made + 40 * MINUTE;
    const view = await clockIn(at(arrives, sh), shift.id, { device_time: iso(made) });
    expect(view).toMatchObject({ shift_start_at: iso(made), clock_in_offline: true, clock_in_received_at: iso(arrives) });
    const row = (await readShift(shift.id))!;
    expect(row.shift_start_at).toBe(made);
    expect(row.clock_in_received_at).toBe(arrives);
    expect((await auditFor(shift.id, 'shift.clock_in'))[0]!.data).toContain('"offline":true');

    const out = await clockOut(at(shift.ends_at + 2 * HOUR, sh), shift.id, { device_time: iso(shift.ends_at) });
    expect(out).toMatchObject({
      shift_end_at: iso(shift.ends_at),
      clock_out_offline: true,
      clock_out_received_at: iso(shift.ends_at + 2 * HOUR),
    });
  });

  it('a punch made online is not marked', async () => {
    const { sh, shift } = await shiftFrom(24 * HOUR);
    const view = await clockIn(at(shift.starts_at, sh), shift.id, {});
    expect(view).toMatchObject({ shift_start_at: iso(shift.starts_at), clock_in_offline: false, clock_in_received_at: null });
  });

  it(`refuses a device time more than ${OFFLINE_PUNCH_MAX_SKEW_SECONDS} s ahead, and records one ahead within the skew at its arrival`, async () => {
    const { sh, shift } = await shiftFrom(24 * HOUR);
    const now = shift.starts_at;
    const ahead = await expectAppError(
      clockIn(at(now, sh), shift.id, { device_time: iso(now + (OFFLINE_PUNCH_MAX_SKEW_SECONDS + 1) * SECOND) }),
      'VALIDATION-ERR',
    );
    expect(ahead.details).toEqual([{ field: 'device_time', message: 'in the future' }]);
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
    const view = await clockIn(at(now, sh), shift.id, { device_time: iso(now + 30 * SECOND) });
    expect(view.shift_start_at).toBe(iso(now));
    expect(view.clock_in_offline).toBe(true);
  });

  it(`refuses a punch sent more than ${OFFLINE_PUNCH_MAX_AGE_HOURS} hours after it was made`, async () => {
    const { sh, shift } = await shiftFrom(24 * HOUR);
    const made = shift.starts_at;
    const err = await expectAppError(
      clockIn(at(made + OFFLINE_PUNCH_MAX_AGE_HOURS * HOUR + SECOND, sh), shift.id, { device_time: iso(made) }),
      'VALIDATION-ERR',
    );
    expect(err.details).toEqual([{ field: 'device_time', message: 'too old' }]);
    const view = await clockIn(at(made + OFFLINE_PUNCH_MAX_AGE_HOURS * HOUR, sh), shift.id, { device_time: iso(made) });
    expect(view.shift_start_at).toBe(iso(made));
  });

  it('the clock window is checked at the device time: before it opens or after the end is refused, even if it arrives inside', async () => {
    const { sh, shift } = await shiftFrom(24 * HOUR);
    const opens = shift.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE;
    await expectAppError(clockIn(at(shift.starts_at, sh), shift.id, { device_time: iso(opens - SECOND) }), 'SHFT-CLOCK-WINDOW-ERR');
    // Arriving after the window closed is fine when it was made inside it.
    const late = await shiftFrom(24 * HOUR);
    await expectAppError(
      clockIn(at(late.shift.ends_at + HOUR, late.sh), late.shift.id, { device_time: iso(late.shift.ends_at + SECOND) }),
      'SHFT-CLOCK-WINDOW-ERR',
    );
    const ok = await clockIn(at(late.shift.ends_at + HOUR, late.sh), late.shift.id, { device_time: iso(late.shift.ends_at - MINUTE) });
    expect(ok.shift_start_at).toBe(iso(late.shift.ends_at - MINUTE));
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
  });

  it(`an offline clock-out is held to the window at the device time (from ${MIN_CLOCKED_MINUTES} minute after the clock-in)`, async () => {
    const { sh, shift } = await shiftFrom(24 * HOUR);
    await clockIn(at(shift.starts_at, sh), shift.id, {});
    const opens = shift.starts_at + MIN_CLOCKED_MINUTES * MINUTE;
    await expectAppError(clockOut(at(shift.ends_at, sh), shift.id, { device_time: iso(opens - SECOND) }), 'SHFT-CLOCK-WINDOW-ERR');
    expect((await readShift(shift.id))!.shift_end_at).toBeNull();
    const out = await clockOut(at(shift.ends_at, sh), shift.id, { device_time: iso(opens) });
    expect(out.shift_end_at).toBe(iso(opens));
  });
});

describe('offline punches: sent twice', () => {
  it('the same punch sent again (same key, or a new one) is punched once, at the first arrival', async () => {
    const { sh, shift } = await shiftFrom(20 * MINUTE);
    const made = Date.now() - 2 * MINUTE;
    const body = { device_time: iso(made) };
    const key = crypto.randomUUID();
    const first = await call('POST', `/v1/shift_request/${shift.id}/clock_in`, { key: sh.key, body, headers: { 'Idempotency-Key': key } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ shift_start_at: iso(made), clock_in_offline: true });
    const replay = await call('POST', `/v1/shift_request/${shift.id}/clock_in`, { key: sh.key, body, headers: { 'Idempotency-Key': key } });
    expect(replay.status).toBe(200);
    expect(replay.body.clock_in_received_at).toBe(first.body.clock_in_received_at);
    // A second sender (the page and the background sync both trying) with its own key: the stored punch.
    const twin = await call('POST', `/v1/shift_request/${shift.id}/clock_in`, {
      key: sh.key,
      body: { device_time: iso(made + MINUTE) },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(twin.status).toBe(200);
    expect(twin.body).toMatchObject({ shift_start_at: iso(made), clock_in_received_at: first.body.clock_in_received_at });
    expect(await auditFor(shift.id, 'shift.clock_in')).toHaveLength(1);
  });

  it('the business sees the mark on the shift it reads', async () => {
    const { biz, sh, shift } = await shiftFrom(20 * MINUTE);
    const made = Date.now() - MINUTE;
    await call('POST', `/v1/shift_request/${shift.id}/clock_in`, { key: sh.key, body: { device_time: iso(made) } });
    const seen = await call('GET', `/v1/shift_request/${shift.id}`, { key: biz.key });
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body).toMatchObject({ clock_in_offline: true, shift_start_at: iso(made), clock_out_offline: false });
    expect(Date.parse(seen.body.clock_in_received_at)).toBeGreaterThanOrEqual(made);
  });
});
