import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiResult, call, expectError } from '../helpers/api';
import { addTeammate, makeUser } from '../helpers/factory';
import { loseNextBatchAnswer } from '../helpers/failures';
import { itRejectsBadCredentials } from '../helpers/security';
import {
  auditFor,
  childrenOf,
  DAY,
  expectDeniedWith,
  HOUR,
  insertShift,
  type InsertSpec,
  makeCrewMember,
  makePair,
  MINUTE,
  outboxFor,
  readShift,
} from '../helpers/shifts';

// POST /v1/shift_request/{id}/unassign (docs/decisions/shift-requests.md "Unassign"): the business
// takes the shifter off an accepted targeted shift; the assignment is cancelled and the same shift
// goes out to the crew as an open broadcast, in one guarded write.

const unassign = (id: string, key: string, body?: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', `/v1/shift_request/${id}/unassign`, { key, ...(body ? { body } : {}), ...(headers ? { headers } : {}) });

function ok(res: ApiResult, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A business whose shifter holds an accepted targeted shift two days ahead, with two more crew members (one takes no requests). */
async function assigned(set: Partial<InsertSpec> = {}) {
  const { biz, sh } = await makePair();
  const mate = await makeCrewMember(biz.businessId!);
  const paused = await makeCrewMember(biz.businessId!, { accept_shift_req: false });
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: Date.now() + 2 * DAY,
    minutes: 5 * 60,
    role: 2,
    rateMinor: 2475,
    set: { note: 'Closing duties', is_flexible: true },
    ...set,
  });
  return { biz, sh, mate, paused, shift };
}

/** The shift and the rows made of it are as they were: nothing was written. */
async function expectUntouched(id: string, status: number) {
  expect((await readShift(id))!.request_status).toBe(status);
  expect(await childrenOf(id)).toEqual([]);
  expect(await auditFor(id, 'shift_request.unassign')).toEqual([]);
}

describe('POST /v1/shift_request/{id}/unassign', () => {
  afterEach(() => vi.restoreAllMocks());

  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/unassign', body: {} });

  it('cancels the assignment (the shifter told) and sends the same shift to the crew as an open broadcast, in one write', async () => {
    const { biz, sh, mate, paused, shift } = await assigned();
    const body = ok(await unassign(shift.id, biz.key, { reason: 'Needs a closer with keys' }));
    expect(body.shift_request).toMatchObject({ id: shift.id, request_status: 7, status: 'cancelled', cancelled_by: 'business' });
    expect(body.broadcast).toMatchObject({
      request_status: 1,
      status: 'pending',
      is_broadcast: 1,
      shifter_id: null,
      parent_id: shift.id,
      shift_date: shift.shift_date,
      shift_in: shift.shift_in,
      shift_out: shift.shift_out,
      shiftrole_id: 2,
      hourly_rate: 24.75,
      note: 'Closing duties',
      is_flexible: 1,
    });
    const row = (await readShift(shift.id))!;
    expect(row).toMatchObject({ request_status: 7, cancelled_by: 'business', cancel_reason: 'Needs a closer with keys' });
    const children = await childrenOf(shift.id);
    expect(children.map((c) => c.id)).toEqual([body.broadcast.id]);
    expect(children[0]).toMatchObject({ starts_at: shift.starts_at, ends_at: shift.ends_at, accepted_at: null, cancelled_at: null });

    // The shifter hears they were taken off; the crew (not them, not a member who takes no requests) hears of the open shift.
    const [told] = await outboxFor(shift.id, { kind: 'cancellation' });
    expect(told!.body.user_ids).toEqual([sh.userId]);
    expect(told!.body.title).toContain('took you off a shift');
    const [open, ...more] = await outboxFor(body.broadcast.id, { topic: 'notifications', kind: 'open_shift' });
    expect(more).toHaveLength(0);
    expect(open!.body.user_ids).toEqual([mate.userId]);
    expect(open!.body.user_ids).not.toContain(paused.userId);
    const hooks = (await outboxFor(shift.id, { topic: 'webhooks' })).map((h) => h.body);
    const cancelled = hooks.find((h) => h.type === 'shift_request.cancelled');
    expect(cancelled, JSON.stringify(hooks)).toBeDefined();
    expect(JSON.stringify(cancelled)).toContain(body.broadcast.id);
    expect((await outboxFor(body.broadcast.id, { topic: 'webhooks' })).some((h) => h.body.type === 'broadcast.created')).toBe(true);
    const [audit, ...again] = await auditFor(shift.id, 'shift_request.unassign');
    expect(again).toHaveLength(0);
    expect(audit).toMatchObject({ actor_user_id: biz.userId });
    expect(await auditFor(shift.id, 'shift_request.cancel')).toEqual([]);

    // The broadcast is a real open shift: the crew lists it and the first claim takes it.
    const listed = ok(await call('POST', '/v1/shift_request/list_of_broadcast_requests', { key: mate.key, body: {} }));
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([body.broadcast.id]);
    expect(ok(await call('POST', `/v1/shift_request/${body.broadcast.id}/claim`, { key: mate.key }))).toMatchObject({
      shifter_id: mate.shifterId,
      status: 'accepted',
    });
  });

  it('is the business side’s whoever acts for it: an active teammate may, with no body at all', async () => {
    const { biz, shift } = await assigned();
    const mate = await makeUser({});
    await addTeammate(biz.businessId!, mate.userId);
    const body = ok(await unassign(shift.id, mate.key));
    expect(body.shift_request.status).toBe('cancelled');
    expect((await readShift(shift.id))!.cancel_reason).toBeNull();
    const [audit] = await auditFor(shift.id, 'shift_request.unassign');
    expect(audit!.actor_user_id).toBe(mate.userId);
  });

  it('refuses every shift that is not an accepted targeted one still ahead, writing nothing', async () => {
    const { biz, sh } = await makePair();
    const b = biz.businessId!;
    const ahead = Date.now() + 2 * DAY;
    const cases: { what: string; spec: InsertSpec; code: string }[] = [
      { what: 'a pending request', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 1 }, code: 'SHFT-STATE-ERR' },
      { what: 'an open broadcast', spec: { businessId: b, startsAt: ahead, status: 1, broadcast: true }, code: 'SHFT-STATE-ERR' },
      {
        what: 'a shift claimed from the crew',
        spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, broadcast: true },
        code: 'SHFT-STATE-ERR',
      },
      { what: 'a cancelled one', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 7 }, code: 'SHFT-CANCELLED-ERR' },
      { what: 'a declined one', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 3 }, code: 'SHFT-DECLINED-ERR' },
      {
        what: 'one whose start passed without a clock-in',
        spec: { businessId: b, shifterId: sh.shifterId, startsAt: Date.now() - 20 * MINUTE },
        code: 'SHFT-STATE-ERR',
      },
      {
        what: 'one clocked in',
        spec: { businessId: b, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, set: { shift_start_at: Date.now() - 50 * MINUTE } },
        code: 'SHFT-STARTED-ERR',
      },
      {
        what: 'one worked',
        spec: {
          businessId: b,
          shifterId: sh.shifterId,
          startsAt: Date.now() - 6 * HOUR,
          set: { shift_start_at: Date.now() - 6 * HOUR, shift_end_at: Date.now() - 2 * HOUR },
        },
        code: 'SHFT-WORKED-ERR',
      },
      {
        what: 'a no-show',
        spec: { businessId: b, shifterId: sh.shifterId, startsAt: Date.now() - 2 * HOUR, set: { is_noshow: true } },
        code: 'SHFT-STATE-ERR',
      },
      {
        what: 'a completed one',
        spec: {
          businessId: b,
          shifterId: sh.shifterId,
          startsAt: Date.now() - 3 * DAY,
          status: 5,
          set: { shift_start_at: Date.now() - 3 * DAY, shift_end_at: Date.now() - 3 * DAY + 4 * HOUR },
        },
        code: 'SHFT-COMPLETED-ERR',
      },
    ];
    for (const c of cases) {
      const shift = await insertShift(c.spec);
      const res = await unassign(shift.id, biz.key);
      expect(res.status, `${c.what}: ${JSON.stringify(res.body)}`).toBe(409);
      expectError(res, 409, c.code);
      await expectUntouched(shift.id, shift.request_status);
    }
  });

  it('is not the shifter’s (403) and another business’s shift does not exist for it (404)', async () => {
    const { sh, shift } = await assigned();
    await expectDeniedWith(await unassign(shift.id, sh.key), 403, 'FORBIDDEN-ERR');
    const other = await makeUser({ business: true });
    await expectDeniedWith(await unassign(shift.id, other.key), 404, 'SHFT-NOT-FND-ERR');
    const stranger = await makeUser({ shifter: true });
    await expectDeniedWith(await unassign(shift.id, stranger.key), 404, 'SHFT-NOT-FND-ERR');
    await expectUntouched(shift.id, 2);
    expectError(await unassign('sr_doesnotexist', other.key), 404, 'SHFT-NOT-FND-ERR');
  });

  it('acts once for a retry with the same Idempotency-Key, also when the first answer was lost after the commit', async () => {
    const { biz, shift } = await assigned();
    const headers = { 'Idempotency-Key': `unassign-${crypto.randomUUID()}` };
    const first = ok(await unassign(shift.id, biz.key, { reason: 'Swap' }, headers));
    const again = await unassign(shift.id, biz.key, { reason: 'Swap' }, headers);
    expect(ok(again)).toEqual(first);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await childrenOf(shift.id)).toHaveLength(1);
    expect(await auditFor(shift.id, 'shift_request.unassign')).toHaveLength(1);
    // Without the key, a second unassign is refused: the assignment is already cancelled.
    expectError(await unassign(shift.id, biz.key), 409, 'SHFT-CANCELLED-ERR');

    // The batch commits, then its answer is lost: the retry answers from what was written, writing nothing more.
    const second = await assigned();
    const key = { 'Idempotency-Key': `unassign-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'shift_requests' });
    expectError(await unassign(second.shift.id, second.biz.key, {}, key), 500, 'INTERNAL-ERR');
    const made = await childrenOf(second.shift.id);
    expect(made).toHaveLength(1);
    const retry = ok(await unassign(second.shift.id, second.biz.key, {}, key));
    expect(retry.shift_request).toMatchObject({ id: second.shift.id, status: 'cancelled' });
    expect(retry.broadcast.id).toBe(made[0]!.id);
    expect(await childrenOf(second.shift.id)).toHaveLength(1);
    expect(await auditFor(second.shift.id, 'shift_request.unassign')).toHaveLength(1);
    expect(await outboxFor(second.shift.id, { kind: 'cancellation' })).toHaveLength(1);
  });
});
