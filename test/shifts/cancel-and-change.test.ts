import { describe, expect, it } from 'vitest';
import { type ApiResult, call, expectError } from '../helpers/api';
import { addTeammate, makeUser } from '../helpers/factory';
import { nextMonthDay } from '../helpers/clock';
import { itRejectsBadCredentials } from '../helpers/security';
import {
  auditFor,
  callWithEnv,
  childrenOf,
  dateAhead,
  DAY,
  expectDeniedWith,
  HOUR,
  insertShift,
  makeCrewMember,
  makePair,
  MINUTE,
  outboxFor,
  postShift,
  readShift,
  runCron,
} from '../helpers/shifts';

const cancel = (id: string, key: string, body: Record<string, unknown> = {}) =>
  call('POST', `/v1/shift_request/${id}/cancel`, { key, body });
const change = (key: string, body: Record<string, unknown>) => call('PUT', '/v1/shift_request/change_request', { key, body });

function ok(res: ApiResult, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A business with auto-fill on, the shifter holding an accepted shift, and a second crew member. */
async function autoFillCase(startsInMinutes = 2 * 24 * 60, autoFill = true) {
  const { biz, sh } = await makePair({ business: { auto_fill_on_cancel: autoFill } });
  const mate = await makeCrewMember(biz.businessId!);
  const paused = await makeCrewMember(biz.businessId!, { accept_shift_req: false });
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: Date.now() + startsInMinutes * MINUTE,
    minutes: 6 * 60,
    role: 3,
    rateMinor: 2350,
    set: { note: 'Bring whites', is_flexible: true },
  });
  return { biz, sh, mate, paused, shift };
}

describe('POST /v1/shift_request/{id}/cancel', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/cancel', body: {} });

  it('the business cancels a pending request (→ 7, cancelled_by business) and the shifter is told', async () => {
    const { biz, sh } = await makePair({ business: { auto_fill_on_cancel: true } });
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const body = ok(await cancel(s.id, biz.key, { reason: 'Closed for inventory' }));
    expect(body.shift_request).toMatchObject({ id: s.id, request_status: 7, status: 'cancelled', cancelled_by: 'business' });
    expect(body.shift_request.cancelled_at).not.toBeNull();
    expect(body.auto_fill_shift_request_id).toBeNull();
    expect((await readShift(s.id))!.cancel_reason).toBe('Closed for inventory');
    expect(await auditFor(s.id, 'shift_request.cancel')).toHaveLength(1);
    const [note] = await outboxFor(s.id, { kind: 'cancellation' });
    expect(note!.body.user_ids).toEqual([sh.userId]);
  });

  it('a shifter cancelling an accepted shift with auto-fill on re-broadcasts it to the rest of the crew', async () => {
    const { biz, sh, mate, paused, shift } = await autoFillCase();
    const body = ok(await cancel(shift.id, sh.key, { reason: 'Sick' }));
    expect(body.shift_request).toMatchObject({ request_status: 7, cancelled_by: 'shifter' });
    const children = await childrenOf(shift.id);
    expect(children).toHaveLength(1);
    const child = children[0]!;
    expect(body.auto_fill_shift_request_id).toBe(child.id);
    expect(child).toMatchObject({
      request_status: 1,
      is_broadcast: true,
      shifter_id: null,
      parent_id: shift.id,
      business_id: biz.businessId,
      shift_date: shift.shift_date,
      shift_in: shift.shift_in,
      shift_out: shift.shift_out,
      starts_at: shift.starts_at,
      ends_at: shift.ends_at,
      shiftrole_id: 3,
      hourly_rate_minor: 2350,
      currency: 'USD',
      is_flexible: true,
      note: 'Bring whites',
      accepted_at: null,
      cancelled_at: null,
      cancelled_by: null,
      shift_start_at: null,
    });

    // The crew hears about the open shift (not the one who cancelled, not a paused member); the business hears of the cancel.
    const [crewNote, ...more] = await outboxFor(child.id, { topic: 'notifications', kind: 'open_shift' });
    expect(more).toHaveLength(0);
    expect(crewNote!.body.user_ids).toEqual([mate.userId]);
    expect(crewNote!.body.user_ids).not.toContain(paused.userId);
    expect(crewNote!.sent_at).not.toBeNull();
    const [bizNote] = await outboxFor(shift.id, { kind: 'cancellation' });
    expect(bizNote!.body.user_ids).toEqual([biz.userId]);
    const hooks = (await outboxFor(child.id, { topic: 'webhooks' })).filter((h) => h.body.type === 'broadcast.created');
    expect(hooks).toHaveLength(1);

    // The re-broadcast is a real open shift: listed and claimable by the crew.
    const listed = ok(await call('POST', '/v1/shift_request/list_of_broadcast_requests', { key: mate.key, body: {} }));
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([child.id]);
    expect(ok(await call('POST', `/v1/shift_request/${child.id}/claim`, { key: mate.key }))).toMatchObject({
      shifter_id: mate.shifterId,
      parent_id: shift.id,
    });
  });

  it('does not auto-fill when the business has it off', async () => {
    const { sh, shift } = await autoFillCase(2 * 24 * 60, false);
    const body = ok(await cancel(shift.id, sh.key));
    expect(body.auto_fill_shift_request_id).toBeNull();
    expect(await childrenOf(shift.id)).toEqual([]);
    expect(await outboxFor(shift.id, { kind: 'open_shift' })).toEqual([]);
  });

  it('does not auto-fill when the start is closer than the operator minimum (default 120 minutes)', async () => {
    const { sh, shift } = await autoFillCase(60);
    const body = ok(await cancel(shift.id, sh.key));
    expect(body.shift_request.request_status).toBe(7);
    expect(body.auto_fill_shift_request_id).toBeNull();
    expect(await childrenOf(shift.id)).toEqual([]);

    // With the minimum lowered to 30 minutes, the same lead is enough.
    const other = await autoFillCase(60);
    const res = await callWithEnv(
      'POST',
      `/v1/shift_request/${other.shift.id}/cancel`,
      { key: other.sh.key, body: {} },
      { AUTO_FILL_MIN_LEAD_MINUTES: '30' },
    );
    expect(ok(res).auto_fill_shift_request_id).not.toBeNull();
    expect(await childrenOf(other.shift.id)).toHaveLength(1);
  });

  it('does not auto-fill when the business cancels', async () => {
    const { biz, sh, shift } = await autoFillCase();
    const body = ok(await cancel(shift.id, biz.key));
    expect(body.shift_request).toMatchObject({ request_status: 7, cancelled_by: 'business' });
    expect(body.auto_fill_shift_request_id).toBeNull();
    expect(await childrenOf(shift.id)).toEqual([]);
    const [note] = await outboxFor(shift.id, { kind: 'cancellation' });
    expect(note!.body.user_ids).toEqual([sh.userId]);
  });

  it('refuses final, worked and started shifts, each with its own code', async () => {
    const { biz, sh } = await makePair();
    const future = Date.now() + 2 * DAY;
    const past = Date.now() - 2 * DAY;
    const cases: Array<[string, Parameters<typeof insertShift>[0]]> = [
      [
        'SHFT-COMPLETED-ERR',
        {
          businessId: biz.businessId!,
          shifterId: sh.shifterId,
          startsAt: past,
          status: 5,
          set: { shift_start_at: past, shift_end_at: past + 4 * HOUR },
        },
      ],
      ['SHFT-EXPIRED-ERR', { businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: past, status: 6 }],
      ['SHFT-DECLINED-ERR', { businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: future, status: 3 }],
      ['SHFT-SUPERSEDED-ERR', { businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: future, status: 4 }],
      ['SHFT-CANCELLED-ERR', { businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: future, status: 7 }],
      [
        'SHFT-WORKED-ERR',
        {
          businessId: biz.businessId!,
          shifterId: sh.shifterId,
          startsAt: past,
          set: { shift_start_at: past, shift_end_at: past + 4 * HOUR },
        },
      ],
      [
        'SHFT-STARTED-ERR',
        { businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, set: { shift_start_at: Date.now() - HOUR } },
      ],
    ];
    for (const [code, spec] of cases) {
      const row = await insertShift(spec);
      expectError(await cancel(row.id, biz.key), 409, code);
      if (row.request_status === 2) expectError(await cancel(row.id, sh.key), 409, code);
      expect(await readShift(row.id)).toEqual(row);
    }
  });

  it('a shifter cannot cancel a pending request (409); strangers get 404; active teammates may cancel', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    expectError(await cancel(s.id, sh.key), 409, 'SHFT-STATE-ERR');
    await expectDeniedWith(await cancel(s.id, (await makeUser({ shifter: true, business: true })).key), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await cancel(s.id, (await makeCrewMember(biz.businessId!)).key), 404, 'SHFT-NOT-FND-ERR');
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    await expectDeniedWith(await cancel(s.id, suspended.key), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await cancel(s.id, sh.key, { as: 'business' }), 403, 'FORBIDDEN-ERR');
    expect((await readShift(s.id))!.request_status).toBe(1);
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId, 1);
    expect(ok(await cancel(s.id, mate.key)).shift_request).toMatchObject({ request_status: 7, cancelled_by: 'business' });
  });

  it('10 concurrent shifter cancels of one auto-fill shift: one cancel, one re-broadcast', async () => {
    const { sh, shift } = await autoFillCase();
    const results = await Promise.all(Array.from({ length: 10 }, () => cancel(shift.id, sh.key)));
    const oks = results.filter((r) => r.status === 200);
    expect(oks, results.map((r) => `${r.status} ${r.body?.error?.code ?? ''}`).join(', ')).toHaveLength(1);
    for (const r of results) if (r.status !== 200) expectError(r, 409, 'SHFT-CANCELLED-ERR');
    const children = await childrenOf(shift.id);
    expect(children).toHaveLength(1);
    expect(oks[0]!.body.auto_fill_shift_request_id).toBe(children[0]!.id);
    expect(await auditFor(shift.id, 'shift_request.cancel')).toHaveLength(1);
    expect(await outboxFor(children[0]!.id, { kind: 'open_shift' })).toHaveLength(1);
  });
});

describe('PUT /v1/shift_request/change_request', () => {
  itRejectsBadCredentials({ method: 'PUT', path: '/v1/shift_request/change_request', body: { shift_request_id: 'sr_doesnotexist' } });

  it('supersedes a pending request (→ 4) with a pending child carrying the changes', async () => {
    const { biz, sh } = await makePair();
    const jan15 = nextMonthDay('01-15'); // always ahead, and in January: New York is UTC-5
    const s = await postShift(biz.key, {
      shifter_id: sh.shifterId,
      shift_date: jan15,
      shift_in: '09:00',
      shift_out: '17:00',
      shiftrole_id: 2,
      note: 'Original',
    });
    const body = ok(await change(biz.key, { shift_request_id: s.id, shift_in: '10:00', hourly_rate: 24 }), 201);
    expect(body.superseded).toMatchObject({ id: s.id, request_status: 4, status: 'superseded' });
    const child = body.shift_request;
    expect(child).toMatchObject({
      parent_id: s.id,
      request_status: 1,
      business_id: biz.businessId,
      shifter_id: sh.shifterId,
      is_broadcast: 0,
      shift_date: jan15,
      shift_in: '10:00',
      shift_out: '17:00',
      starts_at: `${jan15}T15:00:00.000Z`,
      ends_at: `${jan15}T22:00:00.000Z`,
      duration_minutes: 420,
      shiftrole_id: 2,
      hourly_rate: 24,
      currency: 'USD',
      note: 'Original',
    });
    expect(child.id).not.toBe(s.id);
    expect((await readShift(s.id))!.request_status).toBe(4);
    expect((await childrenOf(s.id)).map((c) => c.id)).toEqual([child.id]);
    const [note] = await outboxFor(s.id, { kind: 'shift_changed' });
    expect(note!.body.user_ids).toEqual([sh.userId]);
    expect(note!.body.data.new_shift_request_id).toBe(child.id);

    // The child is the live request: the shifter can accept it; the original is gone for good.
    expect(ok(await call('POST', `/v1/shift_request/${child.id}/accept`, { key: sh.key })).request_status).toBe(2);
    expectError(await call('POST', `/v1/shift_request/${s.id}/accept`, { key: sh.key }), 409, 'SHFT-SUPERSEDED-ERR');
    expectError(await change(biz.key, { shift_request_id: s.id, hourly_rate: 30 }), 409, 'SHFT-SUPERSEDED-ERR');
  });

  it('refuses a request that is not pending, with its state code', async () => {
    const { biz, sh } = await makePair();
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 2 * DAY });
    expectError(await change(biz.key, { shift_request_id: accepted.id, hourly_rate: 30 }), 409, 'SHFT-STATE-ERR');
    const cancelled = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 2 * DAY,
      status: 7,
    });
    expectError(await change(biz.key, { shift_request_id: cancelled.id, hourly_rate: 30 }), 409, 'SHFT-CANCELLED-ERR');
    const expired = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - DAY, status: 6 });
    expectError(await change(biz.key, { shift_request_id: expired.id, hourly_rate: 30 }), 409, 'SHFT-EXPIRED-ERR');
    expect(await childrenOf(accepted.id)).toEqual([]);
  });

  it('only the business side may change; invalid changes leave the original untouched', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    await expectDeniedWith(await change(sh.key, { shift_request_id: s.id, hourly_rate: 99 }), 403, 'FORBIDDEN-ERR');
    await expectDeniedWith(
      await change((await makeUser({ business: true })).key, { shift_request_id: s.id, hourly_rate: 99 }),
      404,
      'SHFT-NOT-FND-ERR',
    );
    expectError(await change(biz.key, { shift_request_id: s.id, shift_date: dateAhead(-1) }), 400, 'VALIDATION-ERR');
    expectError(await change(biz.key, { shift_request_id: s.id, shift_in: '25:00' }), 400, 'VALIDATION-ERR');
    expectError(await change(biz.key, { shift_request_id: s.id, shift_out: '09:00', shift_in: '09:00' }), 400, 'VALIDATION-ERR');
    expect((await readShift(s.id))!.request_status).toBe(1);
    expect(await childrenOf(s.id)).toEqual([]);
  });

  it('10 concurrent changes of one request: exactly one succeeds, exactly one child', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => change(biz.key, { shift_request_id: s.id, hourly_rate: 21 + i })),
    );
    const oks = results.filter((r) => r.status === 201);
    expect(oks, results.map((r) => `${r.status} ${r.body?.error?.code ?? ''}`).join(', ')).toHaveLength(1);
    for (const r of results) if (r.status !== 201) expectError(r, 409, 'SHFT-SUPERSEDED-ERR');
    const children = await childrenOf(s.id);
    expect(children).toHaveLength(1);
    expect(children[0]!.id).toBe(oks[0]!.body.shift_request.id);
    expect(children[0]!.hourly_rate_minor).toBe(Math.round(oks[0]!.body.shift_request.hourly_rate * 100));
    expect(await auditFor(s.id, 'shift_request.change')).toHaveLength(1);
  });
});

describe('POST /v1/shift_request/{id}/no_show', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/no_show' });

  const noShow = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/no_show`, { key });

  it('the business marks an accepted shift whose start passed without a clock-in', async () => {
    const { biz, sh } = await makePair();
    const s = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - 30 * MINUTE });
    await expectDeniedWith(await noShow(s.id, sh.key), 403, 'FORBIDDEN-ERR');
    await expectDeniedWith(await noShow(s.id, (await makeUser({ business: true })).key), 404, 'SHFT-NOT-FND-ERR');
    expect(ok(await noShow(s.id, biz.key))).toMatchObject({ request_status: 2, is_noshow: 1 });
    expect(await auditFor(s.id, 'shift_request.no_show')).toHaveLength(1);
    const [note] = await outboxFor(s.id, { kind: 'no_show' });
    expect(note!.body.user_ids).toEqual([sh.userId]);
    // Repeating it changes nothing; the shift can then be neither cancelled nor clocked.
    expect(ok(await noShow(s.id, biz.key)).is_noshow).toBe(1);
    expect(await auditFor(s.id, 'shift_request.no_show')).toHaveLength(1);
    expectError(await cancel(s.id, biz.key), 409, 'SHFT-STATE-ERR');
    expectError(await call('POST', `/v1/shift_request/${s.id}/clock_in`, { key: sh.key }), 409, 'SHFT-STATE-ERR');
  });

  it('is refused before the start, after a clock-in, and for rows that are not accepted', async () => {
    const { biz, sh } = await makePair();
    const future = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + HOUR });
    expectError(await noShow(future.id, biz.key), 409, 'SHFT-STATE-ERR');
    const clocked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - HOUR,
      set: { shift_start_at: Date.now() - HOUR },
    });
    expectError(await noShow(clocked.id, biz.key), 409, 'SHFT-STATE-ERR');
    const pending = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, status: 1 });
    expectError(await noShow(pending.id, biz.key), 409, 'SHFT-STATE-ERR');
    const cancelled = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, status: 7 });
    expectError(await noShow(cancelled.id, biz.key), 409, 'SHFT-CANCELLED-ERR');
    for (const row of [future, clocked, pending, cancelled]) expect((await readShift(row.id))!.is_noshow).toBe(false);
  });
});

describe('expiry (the */5 cron)', () => {
  it('moves pending requests whose start passed to 6 and leaves future and accepted rows alone', async () => {
    const { biz, sh } = await makePair();
    const late = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - 5 * MINUTE, status: 1 });
    const lateBroadcast = await insertShift({ businessId: biz.businessId!, broadcast: true, startsAt: Date.now() - DAY, status: 1 });
    const upcoming = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 10 * MINUTE,
      status: 1,
    });
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - HOUR });
    const cancelled = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, status: 7 });

    await runCron('*/5 * * * *');

    expect((await readShift(late.id))!.request_status).toBe(6);
    expect((await readShift(lateBroadcast.id))!.request_status).toBe(6);
    expect((await readShift(upcoming.id))!.request_status).toBe(1);
    expect((await readShift(accepted.id))!.request_status).toBe(2);
    expect((await readShift(cancelled.id))!.request_status).toBe(7);
    expectError(await call('POST', `/v1/shift_request/${late.id}/accept`, { key: sh.key }), 409, 'SHFT-EXPIRED-ERR');
    expectError(await cancel(late.id, biz.key), 409, 'SHFT-EXPIRED-ERR');
  });
});
