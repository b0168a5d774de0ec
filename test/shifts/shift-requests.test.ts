import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, shiftRequests } from '../../src/db/schema';
import { addDays } from '../../src/lib/shift-time';
import { call, expectError } from '../helpers/api';
import { nextDstChangeFromNow, nextMonthDay } from '../helpers/clock';
import { addTeammate, connect, db, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';
import {
  auditFor,
  consumeNotifications,
  dateAhead,
  expectDeniedWith,
  expectValidation,
  HOUR,
  insertShift,
  makeCrewMember,
  makePair,
  NY,
  outboxFor,
  postShift,
  readShift,
  shiftBody,
} from '../helpers/shifts';

const SEND = '/v1/shift_request/send_request';

async function rowsOfBusiness(businessId: string) {
  return db().select().from(shiftRequests).where(eq(shiftRequests.business_id, businessId));
}

describe('POST /v1/shift_request/send_request', () => {
  itRejectsBadCredentials({ method: 'POST', path: SEND, body: shiftBody({ is_broadcast: 1 }) });

  it('creates a targeted request: pending, with the real instants of the wall-clock times in the business zone', async () => {
    const { biz, sh } = await makePair();
    const jan15 = nextMonthDay('01-15'); // the next 15 January ahead, whichever year the tests run in
    const res = await call('POST', SEND, {
      key: biz.key,
      body: {
        shift_date: jan15,
        shift_in: '09:00',
        shift_out: '17:00',
        shiftrole_id: 2,
        hourly_rate: 21.5,
        shifter_id: sh.shifterId,
        note: 'Use the back door',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      business_id: biz.businessId,
      shifter_id: sh.shifterId,
      timezone: NY,
      shift_date: jan15,
      shift_in: '09:00',
      shift_out: '17:00',
      // January: New York is UTC-5.
      starts_at: `${jan15}T14:00:00.000Z`,
      ends_at: `${jan15}T22:00:00.000Z`,
      duration_minutes: 480,
      shiftrole_id: 2,
      role: 'Bartender',
      hourly_rate: 21.5,
      currency: 'USD',
      is_broadcast: 0,
      request_status: 1,
      status: 'pending',
      parent_id: null,
      note: 'Use the back door',
    });
    const row = await readShift(res.body.id);
    expect(row).toMatchObject({ hourly_rate_minor: 2150, created_by_user_id: biz.userId, request_status: 1 });
    expect(await auditFor(res.body.id, 'shift_request.create')).toHaveLength(1);
  });

  it('creates a broadcast with no target', async () => {
    const { biz } = await makePair();
    const jul15 = nextMonthDay('07-15');
    const res = await call('POST', SEND, { key: biz.key, body: { ...shiftBody(), shift_date: jul15, is_broadcast: 1 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // July: New York is UTC-4.
    expect(res.body).toMatchObject({ is_broadcast: 1, shifter_id: null, request_status: 1, starts_at: `${jul15}T13:00:00.000Z` });
    expect(await auditFor(res.body.id, 'broadcast.create')).toHaveLength(1);
  });

  it('an overnight shift (shift_out before shift_in) ends the next day', async () => {
    const { biz, sh } = await makePair();
    const jul15 = nextMonthDay('07-15');
    const s = await postShift(biz.key, { shift_date: jul15, shift_in: '22:00', shift_out: '06:00', shifter_id: sh.shifterId });
    expect(s).toMatchObject({
      starts_at: `${addDays(jul15, 1)}T02:00:00.000Z`,
      ends_at: `${addDays(jul15, 1)}T10:00:00.000Z`,
      duration_minutes: 480,
    });
    // Over the next spring-forward night the same wall-clock shift is 7 real hours.
    const springSunday = nextDstChangeFromNow(NY, 'spring');
    const dst = await postShift(biz.key, { shift_date: addDays(springSunday, -1), shift_in: '22:00', shift_out: '06:00', is_broadcast: 1 });
    expect(dst).toMatchObject({
      starts_at: `${springSunday}T03:00:00.000Z`,
      ends_at: `${springSunday}T10:00:00.000Z`,
      duration_minutes: 420,
    });
  });

  it('validates the fields (400 VALIDATION-ERR with details) and creates nothing', async () => {
    const { biz, sh } = await makePair();
    const send = (body: Record<string, unknown>) =>
      call('POST', SEND, { key: biz.key, body: shiftBody({ shifter_id: sh.shifterId, ...body }) });
    expectValidation(await send({ shift_date: '2026-02-30' }), 'shift_date');
    expectValidation(await send({ shift_date: '27-01-15' }), 'shift_date');
    expectValidation(await send({ shift_in: '25:00' }), 'shift_in');
    expectValidation(await send({ shift_out: '9:00' }), 'shift_out');
    // Equal times would read as a 24-hour overnight shift: refused as a zero-length window.
    expectValidation(await send({ shift_in: '09:00', shift_out: '09:00' }), 'shift_out');
    // Over the fall-back night 03:00 → 02:59 is 24 h 59 min of real time: longer than a day.
    expectValidation(
      await send({ shift_date: addDays(nextDstChangeFromNow(NY, 'fall'), -1), shift_in: '03:00', shift_out: '02:59' }),
      'shift_out',
    );
    expectValidation(await send({ shift_date: dateAhead(-1) }), 'shift_date');
    expectValidation(await send({ shift_date: dateAhead(0), shift_in: '00:00', shift_out: '00:30' }), 'shift_date');
    expectValidation(await send({ shiftrole_id: 999 }), 'shiftrole_id');
    expectValidation(await send({ hourly_rate: 0 }), 'hourly_rate');
    expectValidation(await send({ hourly_rate: -5 }), 'hourly_rate');
    // Positive but below one cent: nothing to pay.
    expectValidation(await send({ hourly_rate: 0.001 }), 'hourly_rate');
    expectValidation(await send({ currency: 'XYZ' }), 'currency');
    expectValidation(await send({ is_broadcast: 1 }), 'shifter_id');
    expectValidation(await send({ shifter_id: null }), 'shifter_id');
    expectValidation(await send({ shifter_id: '' }), 'shifter_id');
    expect(await rowsOfBusiness(biz.businessId!)).toHaveLength(0);
  });

  it('accepts another supported currency', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId, currency: 'cad', hourly_rate: 25.25 });
    expect(s).toMatchObject({ currency: 'CAD', hourly_rate: 25.25 });
  });

  it('refuses a shifter who is not connected (422 SHFT-NOT-CONNECTED-ERR)', async () => {
    const biz = await makeUser({ business: true });
    const stranger = await makeUser({ shifter: true });
    const pending = await makeUser({ shifter: true });
    await connect(biz.businessId!, pending.shifterId!, 'pending');
    for (const shifterId of [stranger.shifterId, pending.shifterId, 'shf_doesnotexist']) {
      expectError(await call('POST', SEND, { key: biz.key, body: shiftBody({ shifter_id: shifterId }) }), 422, 'SHFT-NOT-CONNECTED-ERR');
    }
    expect(await rowsOfBusiness(biz.businessId!)).toHaveLength(0);
  });

  it('refuses a paused shifter (422 SHIFTER-PAUSED-ERR)', async () => {
    const { biz, sh } = await makePair({ shifter: { accept_shift_req: false } });
    expectError(await call('POST', SEND, { key: biz.key, body: shiftBody({ shifter_id: sh.shifterId }) }), 422, 'SHIFTER-PAUSED-ERR');
    // A broadcast is still fine.
    await postShift(biz.key, { is_broadcast: 1 });
  });

  it('posts only for a business the caller owns or is an active teammate of', async () => {
    const { biz, sh } = await makePair();
    const other = await makeUser({ business: true });
    const body = shiftBody({ business_id: biz.businessId, shifter_id: sh.shifterId });
    await expectDeniedWith(await call('POST', SEND, { key: other.key, body }), 404, 'BUSINESS-NOT-FND-ERR');

    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    await expectDeniedWith(await call('POST', SEND, { key: suspended.key, body }), 404, 'BUSINESS-NOT-FND-ERR');
    expect(await rowsOfBusiness(biz.businessId!)).toHaveLength(0);

    const active = await makeUser();
    await addTeammate(biz.businessId!, active.userId, 1);
    const s = await postShift(active.key, body);
    expect(s.business_id).toBe(biz.businessId);
    expect((await readShift(s.id))!.created_by_user_id).toBe(active.userId);
    // Without business_id the teammate has no default business of their own.
    expectValidation(await call('POST', SEND, { key: active.key, body: shiftBody({ is_broadcast: 1 }) }), 'business_id');
  });

  it('needs business_id from a caller without a business (400)', async () => {
    const u = await makeUser({ shifter: true });
    expectValidation(await call('POST', SEND, { key: u.key, body: shiftBody({ is_broadcast: 1 }) }), 'business_id');
  });

  it('a retry with the same Idempotency-Key creates no second row', async () => {
    const { biz, sh } = await makePair();
    const opts = {
      key: biz.key,
      body: shiftBody({ shifter_id: sh.shifterId }),
      headers: { 'Idempotency-Key': `send-${crypto.randomUUID()}` },
    };
    const first = await call('POST', SEND, opts);
    expect(first.status).toBe(201);
    const again = await call('POST', SEND, opts);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(await rowsOfBusiness(biz.businessId!)).toHaveLength(1);
    expect(await outboxFor(first.body.id, { topic: 'notifications' })).toHaveLength(1);
  });

  it('notifies the targeted shifter: outbox row sent to the queue, recorded by the consumer', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const [note, ...more] = await outboxFor(s.id, { topic: 'notifications' });
    expect(more).toHaveLength(0);
    expect(note!.sent_at).not.toBeNull();
    expect(note!.body).toMatchObject({ type: 'notify', kind: 'shift_request', user_ids: [sh.userId], data: { shift_request_id: s.id } });
    const [hook] = await outboxFor(s.id, { topic: 'webhooks' });
    expect(hook).toMatchObject({
      body: { type: 'shift_request.created', business_id: biz.businessId, data: { shift_request: { id: s.id } } },
    });
    expect(hook!.sent_at).not.toBeNull();

    // The consumer records it once, however often the message is delivered.
    const result = await consumeNotifications([note!.body, note!.body]);
    expect(result.explicitAcks).toHaveLength(2);
    const rows = await db().select().from(notifications).where(eq(notifications.user_id, sh.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'shift_request' });
    expect(rows[0]!.dedupe_key).toMatch(new RegExp(`^shift_request:${s.id}:op_[0-9A-Za-z]+:${sh.userId}$`));
    expect(JSON.parse(rows[0]!.data!)).toMatchObject({ shift_request_id: s.id, business_id: biz.businessId });
  });

  it('a broadcast notifies the connected crew that accepts requests', async () => {
    const { biz, sh } = await makePair();
    const second = await makeCrewMember(biz.businessId!);
    const paused = await makeCrewMember(biz.businessId!, { accept_shift_req: false });
    const outsider = await makeUser({ shifter: true });
    const b = await postShift(biz.key, { is_broadcast: 1 });
    const [note] = await outboxFor(b.id, { topic: 'notifications' });
    expect(note!.body.kind).toBe('open_shift');
    expect([...note!.body.user_ids].sort()).toEqual([sh.userId, second.userId].sort());
    expect(note!.body.user_ids).not.toContain(paused.userId);
    expect(note!.body.user_ids).not.toContain(outsider.userId);
  });
});

describe('accept and decline', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/accept' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/decline' });

  const accept = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/accept`, { key });
  const decline = (id: string, key: string, body?: unknown) => call('POST', `/v1/shift_request/${id}/decline`, { key, body });

  it('the targeted shifter accepts a pending request (→ 2 with accepted_at) and the business is told', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const before = Date.now();
    const res = await accept(s.id, sh.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, request_status: 2, status: 'accepted' });
    expect(Date.parse(res.body.accepted_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(await auditFor(s.id, 'shift_request.accept')).toHaveLength(1);
    const [note] = await outboxFor(s.id, { kind: 'shift_accepted' });
    expect(note!.body.user_ids).toEqual([biz.userId]);

    // Accepting again is a state conflict.
    expectError(await accept(s.id, sh.key), 409, 'SHFT-STATE-ERR');
    expect(await auditFor(s.id, 'shift_request.accept')).toHaveLength(1);
  });

  it('refuses to accept a request overlapping an accepted shift (409 SHFT-CONFLICT-ERR)', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(3);
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '12:00', out: '18:00' });
    const s = await postShift(biz.key, { shifter_id: sh.shifterId, shift_date: date, shift_in: '17:00', shift_out: '21:00' });
    const err = expectError(await accept(s.id, sh.key), 409, 'SHFT-CONFLICT-ERR');
    expect(err.details).toEqual({ conflicting_shift_request_ids: [held.id] });
    expect((await readShift(s.id))!.request_status).toBe(1);
    // Back to back is fine.
    const next = await postShift(biz.key, { shifter_id: sh.shifterId, shift_date: date, shift_in: '18:00', shift_out: '22:00' });
    expect((await accept(next.id, sh.key)).status).toBe(200);
  });

  it('the shifter declines (→ 3); then it can be neither accepted nor declined', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const res = await decline(s.id, sh.key, { reason: 'Busy that day' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ request_status: 3, status: 'declined' });
    expect((await readShift(s.id))!.cancel_reason).toBe('Busy that day');
    expectError(await accept(s.id, sh.key), 409, 'SHFT-DECLINED-ERR');
    expectError(await decline(s.id, sh.key), 409, 'SHFT-DECLINED-ERR');
    const [note] = await outboxFor(s.id, { kind: 'shift_declined' });
    expect(note!.body.user_ids).toEqual([biz.userId]);
  });

  it('only the targeted shifter may answer: the business gets 403, another shifter 404', async () => {
    const { biz, sh } = await makePair();
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    await expectDeniedWith(await accept(s.id, biz.key), 403, 'FORBIDDEN-ERR');
    await expectDeniedWith(await decline(s.id, biz.key), 403, 'FORBIDDEN-ERR');
    const other = await makeCrewMember(biz.businessId!);
    await expectDeniedWith(await accept(s.id, other.key), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await decline(s.id, other.key), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await accept('sr_doesnotexist', sh.key), 404, 'SHFT-NOT-FND-ERR');
    expect((await readShift(s.id))!.request_status).toBe(1);
  });

  it('accepting a broadcast is claiming it; a broadcast cannot be declined (409)', async () => {
    const { biz, sh } = await makePair();
    const b = await postShift(biz.key, { is_broadcast: 1 });
    expectError(await decline(b.id, sh.key), 409, 'SHFT-STATE-ERR');
    // Someone outside the crew does not learn it exists.
    const outsider = await makeUser({ shifter: true });
    await expectDeniedWith(await accept(b.id, outsider.key), 404, 'SHFT-NOT-FND-ERR');
    expect((await readShift(b.id))!.request_status).toBe(1);
    // The crew member's accept runs the claim: the row is theirs and accepted.
    const won = await accept(b.id, sh.key);
    expect(won.status).toBe(200);
    expect(won.body).toMatchObject({ id: b.id, shifter_id: sh.shifterId, request_status: 2 });
    // Accepting again answers like claiming again: the won shift; declining stays refused.
    expect((await accept(b.id, sh.key)).body).toMatchObject({ id: b.id, shifter_id: sh.shifterId });
    expectError(await decline(b.id, sh.key), 409, 'SHFT-STATE-ERR');
    // A second crew member's accept loses like a claim.
    const rival = await makeUser({ shifter: true });
    await connect(biz.businessId!, rival.shifterId!);
    expectError(await accept(b.id, rival.key), 409, 'CLAIM-LOST-ERR');
  });

  it('a request whose start passed cannot be accepted', async () => {
    const { biz, sh } = await makePair();
    const s = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, status: 1 });
    expectError(await accept(s.id, sh.key), 409, 'SHFT-STATE-ERR');
  });
});

describe('the shift request view', () => {
  it('a row whose request_status is outside the status table is a generic 500, never a view off the contract', async () => {
    const { biz, sh } = await makePair();
    const s = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 24 * HOUR, status: 99 });
    const res = await call('GET', `/v1/shift_request/${s.id}`, { key: biz.key });
    expectError(res, 500, 'INTERNAL-ERR');
    expect(JSON.stringify(res.body)).not.toContain(s.id);
  });
});
