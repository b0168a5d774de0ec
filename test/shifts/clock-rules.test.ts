import { describe, expect, it } from 'vitest';
import { isWorked, type ServiceContext } from '../../src/services/kernel';
import { CLOCK_IN_EARLY_MINUTES, clockIn, clockOut, markNoShow, MIN_CLOCKED_MINUTES } from '../../src/services/shifts';
import { type ApiResult, call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { addTeammate, makeUser, type TestUser } from '../helpers/factory';
import { auditFor, callWithEnv, HOUR, insertShift, makePair, MINUTE, readShift, type ShiftRow } from '../helpers/shifts';
import { expectAppError } from '../helpers/two-factor';

/**
 * The clock rules (docs/decisions/shift-requests.md, "Clock-in and clock-out"), tested on injected clocks: the
 * services read time only through ctx.now(), and rows are placed relative to the real now.
 */

const SECOND = 1000;
const apiClockIn = (id: string, key: string, body?: unknown) => call('POST', `/v1/shift_request/${id}/clock_in`, { key, body });
const apiClockOut = (id: string, key: string, body?: unknown) => call('POST', `/v1/shift_request/${id}/clock_out`, { key, body });
const noShow = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/no_show`, { key });

function ok(res: ApiResult, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** An accepted 8-hour shift starting a day from now, far from the real clock, so every instant is injected. */
async function dayShift(business: Record<string, unknown> = {}) {
  const { biz, sh } = await makePair({ business });
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: Date.now() + 24 * HOUR,
    minutes: 8 * 60,
  });
  return { biz, sh, shift };
}

const at = (when: number, user: TestUser, opts: { isAdmin?: boolean } = {}): ServiceContext => contextAt(when, user, opts);
/** The services answer with the API view: instants as ISO strings. */
const iso = (ms: number) => new Date(ms).toISOString();

describe('clock-in window', () => {
  it(`opens ${CLOCK_IN_EARLY_MINUTES} minutes before the start and closes at the scheduled end`, async () => {
    const { sh, shift } = await dayShift();
    const opens = shift.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE;
    const tooEarly = await expectAppError(clockIn(at(opens - SECOND, sh), shift.id, {}), 'SHFT-CLOCK-WINDOW-ERR');
    expect(tooEarly.status).toBe(422);
    expect(tooEarly.details).toEqual({ opens_at: new Date(opens).toISOString(), closes_at: new Date(shift.ends_at).toISOString() });
    await expectAppError(clockIn(at(shift.ends_at + SECOND, sh), shift.id, {}), 'SHFT-CLOCK-WINDOW-ERR');
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
    const s = await clockIn(at(opens, sh), shift.id, {});
    expect(s.shift_start_at).toBe(iso(opens));

    const last = await dayShift();
    expect((await clockIn(at(last.shift.ends_at, last.sh), last.shift.id, {})).shift_start_at).toBe(iso(last.shift.ends_at));
  });
});

describe('clock-out rules', () => {
  it('an early clock-in and a clock-out a second later is refused: clock-out opens a minute after the clock-in', async () => {
    const { sh, shift } = await dayShift();
    const inAt = shift.starts_at - 55 * MINUTE;
    await clockIn(at(inAt, sh), shift.id, {});
    const err = await expectAppError(clockOut(at(inAt + SECOND, sh), shift.id, {}), 'SHFT-CLOCK-WINDOW-ERR');
    expect(err.details).toEqual({ opens_at: new Date(inAt + MIN_CLOCKED_MINUTES * MINUTE).toISOString() });
    const row = (await readShift(shift.id))!;
    expect(row.shift_end_at).toBeNull();
    expect(isWorked(row)).toBe(false);
    expect(await auditFor(shift.id, 'shift.clock_out')).toHaveLength(0);
  });

  it('the worker clocks out whenever they stop working: before the scheduled end too (marked ended early), and after it', async () => {
    const { sh, shift } = await dayShift();
    await clockIn(at(shift.starts_at - 5 * MINUTE, sh), shift.id, {});
    const early = shift.starts_at + 3 * HOUR;
    const out = await clockOut(at(early, sh), shift.id, {});
    expect(out).toMatchObject({ shift_end_at: iso(early), shift_end_by_id: sh.userId });
    expect(isWorked((await readShift(shift.id))!)).toBe(true);
    expect((await auditFor(shift.id, 'shift.clock_out'))[0]!.data).toContain('"ended_early":true');

    const late = await dayShift();
    await clockIn(at(late.shift.starts_at, late.sh), late.shift.id, {});
    const after = await clockOut(at(late.shift.ends_at + 3 * HOUR, late.sh), late.shift.id, {});
    expect(after.shift_end_at).toBe(iso(late.shift.ends_at + 3 * HOUR));
  });

  it('a kiosk punching for the shifter follows the shifter’s rules', async () => {
    const { biz, sh, shift } = await dayShift();
    await clockIn(at(shift.starts_at, biz), shift.id, { actor_id: sh.shifterId! });
    await expectAppError(clockOut(at(shift.starts_at + 30 * SECOND, biz), shift.id, { actor_id: sh.shifterId! }), 'SHFT-CLOCK-WINDOW-ERR');
    const out = await clockOut(at(shift.ends_at - 20 * MINUTE, biz), shift.id, { actor_id: sh.shifterId! });
    expect(out.shift_end_by_id).toBe(sh.userId);
  });

  it(`the business acting as itself may end a shift early, but not within ${MIN_CLOCKED_MINUTES} minute of the clock-in; the audit row says so`, async () => {
    const { biz, sh, shift } = await dayShift();
    const inAt = shift.starts_at + 2 * MINUTE;
    await clockIn(at(inAt, sh), shift.id, {});
    const tooSoon = await expectAppError(clockOut(at(inAt + 59 * SECOND, biz), shift.id, {}), 'SHFT-CLOCK-WINDOW-ERR');
    expect(tooSoon.details).toEqual({ opens_at: new Date(inAt + MIN_CLOCKED_MINUTES * MINUTE).toISOString() });
    const endAt = inAt + 2 * HOUR;
    const out = await clockOut(at(endAt, biz), shift.id, {});
    expect(out).toMatchObject({ shift_end_at: iso(endAt), shift_end_by_id: biz.userId });
    const [audit] = await auditFor(shift.id, 'shift.clock_out');
    expect(audit).toMatchObject({ actor_user_id: biz.userId });
    expect(JSON.parse(audit!.data!)).toMatchObject({ punched_as: 'manager', attributed_to: biz.userId, ended_early: true });
  });

  it(`nobody clocks out less than ${MIN_CLOCKED_MINUTES} minute after the clock-in, even at the end of the shift`, async () => {
    const { biz, sh, shift } = await dayShift();
    const inAt = shift.ends_at - 2 * MINUTE;
    await clockIn(at(inAt, sh), shift.id, {});
    await expectAppError(clockOut(at(inAt + 30 * SECOND, sh), shift.id, {}), 'SHFT-CLOCK-WINDOW-ERR');
    await expectAppError(clockOut(at(inAt + 30 * SECOND, biz), shift.id, {}), 'SHFT-CLOCK-WINDOW-ERR');
    expect((await clockOut(at(inAt + MINUTE, sh), shift.id, {})).shift_end_at).toBe(iso(inAt + MINUTE));
  });

  it('over HTTP the refusal is 422 SHFT-CLOCK-WINDOW-ERR in the envelope', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 20 * MINUTE });
    ok(await apiClockIn(shift.id, sh.key));
    // Clock-out opens a minute after the clock-in.
    expectError(await apiClockOut(shift.id, sh.key), 422, 'SHFT-CLOCK-WINDOW-ERR');
    expect((await readShift(shift.id))!.shift_end_at).toBeNull();
  });
});

describe('clock actor: shift_start_by_id and shift_end_by_id hold the user the punch is attributed to', () => {
  it('shifter → own user id; kiosk → the shifter’s user id; manager, teammate or admin acting as itself → their own user id', async () => {
    const { biz, sh } = await makePair();
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId, 1);
    const admin = await makeUser({ admin: true });
    const cases: Array<{ who: TestUser; body: Record<string, unknown>; expected: string; as: string; isAdmin?: boolean }> = [
      { who: sh, body: {}, expected: sh.userId, as: 'shifter' },
      { who: biz, body: { actor_id: sh.shifterId }, expected: sh.userId, as: 'kiosk' },
      { who: mate, body: { actor_id: sh.shifterId }, expected: sh.userId, as: 'kiosk' },
      { who: biz, body: {}, expected: biz.userId, as: 'manager' },
      { who: mate, body: {}, expected: mate.userId, as: 'manager' },
      { who: admin, body: {}, expected: admin.userId, as: 'manager' },
    ];
    for (const c of cases) {
      const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 24 * HOUR });
      const s = await clockIn(at(shift.starts_at, c.who, { isAdmin: c.as === 'manager' && c.who === admin }), shift.id, c.body);
      expect(s.shift_start_by_id, `${c.as} ${c.who.userId}`).toBe(c.expected);
      const out = await clockOut(at(shift.ends_at, c.who, { isAdmin: c.who === admin }), shift.id, c.body);
      expect(out.shift_end_by_id).toBe(c.expected);
      for (const action of ['shift.clock_in', 'shift.clock_out']) {
        const [audit] = await auditFor(shift.id, action);
        // The audit row records the real caller, whoever the punch is attributed to.
        expect(audit).toMatchObject({ actor_user_id: c.who.userId });
        expect(JSON.parse(audit!.data!)).toMatchObject({ punched_as: c.as, attributed_to: c.expected });
      }
    }
    // Never a shifter id again.
    expect(cases.every((c) => c.expected.startsWith('usr_'))).toBe(true);
  });

  it('"I\'m here" counts only from the shifter or a kiosk: a manager\'s override is refused (400), so hard mode still blocks', async () => {
    const { biz, sh } = await makePair({ business: { geofence_radius_m: 100 } });
    const HARD = { SHIFT_CLOCK_GEOFENCE_HARD_FAIL: 'true' };
    const FAR = { lat: 40.758, lon: -73.9855 };
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 30 * MINUTE });
    const path = `/v1/shift_request/${shift.id}/clock_in`;
    const err = expectError(
      await callWithEnv('POST', path, { key: biz.key, body: { ...FAR, im_here: true } }, HARD),
      400,
      'VALIDATION-ERR',
    );
    expect(err.details).toEqual([{ field: 'im_here', message: 'only the shifter or a kiosk acting for them may send it' }]);
    expectError(await callWithEnv('POST', path, { key: biz.key, body: FAR }, HARD), 422, 'GEOFENCE-ERR');
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();
    // im_here: false from a manager is harmless.
    expectError(await callWithEnv('POST', path, { key: biz.key, body: { ...FAR, im_here: false } }, HARD), 422, 'GEOFENCE-ERR');

    // A kiosk acting for the shifter may send it.
    const kiosk = ok(await callWithEnv('POST', path, { key: biz.key, body: { ...FAR, im_here: true, actor_id: sh.shifterId } }, HARD));
    expect(kiosk).toMatchObject({ clock_in_override: true, shift_start_by_id: sh.userId });
  });
});

describe('no-show and clock-in race', () => {
  /** An accepted shift that started 10 minutes ago, not clocked in: both a clock-in and a no-show are possible. */
  async function startedShift() {
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - 10 * MINUTE });
    return { biz, sh, shift };
  }
  const neverBoth = (row: ShiftRow) => expect(row.shift_start_at !== null && row.is_noshow, JSON.stringify(row)).toBe(false);

  it('a clock-in after the no-show is refused (409), and a no-show after the clock-in is refused (409)', async () => {
    const a = await startedShift();
    ok(await noShow(a.shift.id, a.biz.key));
    expectError(await apiClockIn(a.shift.id, a.sh.key), 409, 'SHFT-STATE-ERR');
    neverBoth((await readShift(a.shift.id))!);

    const b = await startedShift();
    ok(await apiClockIn(b.shift.id, b.sh.key));
    expectError(await noShow(b.shift.id, b.biz.key), 409, 'SHFT-STATE-ERR');
    neverBoth((await readShift(b.shift.id))!);
  });

  it('10 rounds of a clock-in and a no-show sent at the same moment: exactly one wins, the other gets 409', async () => {
    const winners = { clock_in: 0, no_show: 0 };
    for (let round = 0; round < 10; round++) {
      const { biz, sh, shift } = await startedShift();
      // Alternate which request is sent first, so both orders meet the guards.
      const [inRes, nsRes] =
        round % 2 === 0
          ? await Promise.all([apiClockIn(shift.id, sh.key), noShow(shift.id, biz.key)])
          : await Promise.all([noShow(shift.id, biz.key), apiClockIn(shift.id, sh.key)]).then(([n, i]) => [i, n] as const);
      const row = (await readShift(shift.id))!;
      neverBoth(row);
      if (inRes.status === 200) {
        winners.clock_in++;
        expectError(nsRes, 409, 'SHFT-STATE-ERR');
        expect(row.shift_start_at).not.toBeNull();
        expect(await auditFor(shift.id, 'shift.clock_in')).toHaveLength(1);
        expect(await auditFor(shift.id, 'shift_request.no_show')).toHaveLength(0);
      } else {
        winners.no_show++;
        expectError(inRes, 409, 'SHFT-STATE-ERR');
        expect(ok(nsRes).is_noshow).toBe(1);
        expect(row).toMatchObject({ is_noshow: true, shift_start_at: null });
        expect(await auditFor(shift.id, 'shift.clock_in')).toHaveLength(0);
      }
    }
    expect(winners.clock_in + winners.no_show).toBe(10);
  });

  /**
   * A context whose guarded write first lets `meanwhile` commit: the service has read the row and
   * passed its checks, then the other side's change lands, then its own batch runs. Only the guard's
   * WHERE can refuse it now.
   */
  function staleContext(ctx: ServiceContext, meanwhile: () => Promise<unknown>): ServiceContext {
    const db = new Proxy(ctx.db, {
      get(target, prop, receiver) {
        if (prop !== 'batch') return Reflect.get(target, prop, receiver);
        return async (...args: unknown[]) => {
          await meanwhile();
          return (target.batch as (...a: unknown[]) => Promise<unknown>)(...args);
        };
      },
    });
    return { ...ctx, db };
  }

  it('the guards hold on stale reads: a no-show landing after clock-in read the row, and a clock-in after no-show read it', async () => {
    const a = await startedShift();
    const now = Date.now();
    const clockInCtx = staleContext(at(now, a.sh), () => markNoShow(at(now, a.biz), a.shift.id));
    await expectAppError(clockIn(clockInCtx, a.shift.id, {}), 'SHFT-STATE-ERR');
    expect((await readShift(a.shift.id))!).toMatchObject({ is_noshow: true, shift_start_at: null });

    const b = await startedShift();
    const noShowCtx = staleContext(at(now, b.biz), () => clockIn(at(now, b.sh), b.shift.id, {}));
    await expectAppError(markNoShow(noShowCtx, b.shift.id), 'SHFT-STATE-ERR');
    const row = (await readShift(b.shift.id))!;
    expect(row.is_noshow).toBe(false);
    expect(row.shift_start_at).toBe(now);
    expect(await auditFor(b.shift.id, 'shift_request.no_show')).toHaveLength(0);
  });
});
