import { describe, expect, it } from 'vitest';
import { type ApiResult, call, expectError } from '../helpers/api';
import { addTeammate, connect, makeUser } from '../helpers/factory';
import { DAY, expectDeniedWith, insertShift, makeCrewMember, makePair, postShift } from '../helpers/shifts';

/**
 * Broadcast reads (issue 7, Correctness 6): what a shifter sees in list_of_broadcast_requests they
 * can open by id, and what they cannot claim is not in the list read as a shifter.
 */

const LIST = '/v1/shift_request/list_of_broadcast_requests';
const list = (key: string, body: Record<string, unknown> = {}) => call('POST', LIST, { key, body });
const getOne = (id: string, key: string) => call('GET', `/v1/shift_request/${id}`, { key });
const claim = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/claim`, { key });
const accept = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/accept`, { key });

const rows = (res: ApiResult) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<Record<string, unknown> & { id: string }>;
};
const ids = (res: ApiResult) => rows(res).map((r) => r.id);

/** The clock record and cancellation fields: never anything in an open broadcast a crew member reads. */
const CLOCK_AND_CANCEL = [
  'shift_start_at',
  'shift_start_by_id',
  'clock_in_distance_m',
  'clock_in_photo_url',
  'shift_end_at',
  'shift_end_by_id',
  'clock_out_distance_m',
  'clock_out_photo_url',
  'cancelled_at',
  'cancelled_by',
] as const;

describe('a crew member reads an open broadcast by id', () => {
  it('gets exactly the row the list showed them (no clock record), until someone else claims it', async () => {
    const { biz, sh } = await makePair();
    const b = await postShift(biz.key, { is_broadcast: 1, note: 'Bring a black shirt' });
    const listed = rows(await list(sh.key)).find((r) => r.id === b.id);
    expect(listed).toBeDefined();

    const one = await getOne(b.id, sh.key);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    // The crew view is the list row: the same fields, the same values, nothing more.
    expect(one.body).toEqual(listed);
    for (const f of CLOCK_AND_CANCEL) expect(one.body[f], f).toBeNull();
    expect(one.body).not.toHaveProperty('suggested_counter_rate');
    expect(one.body).toMatchObject({ is_broadcast: 1, request_status: 1, shifter_id: null, note: 'Bring a black shirt' });

    // Outside the crew (no connection, or a pending one) it does not exist.
    await expectDeniedWith(await getOne(b.id, (await makeUser({ shifter: true })).key), 404, 'SHFT-NOT-FND-ERR');
    const pending = await makeUser({ shifter: true });
    await connect(biz.businessId!, pending.shifterId!, 'pending');
    await expectDeniedWith(await getOne(b.id, pending.key), 404, 'SHFT-NOT-FND-ERR');

    // Once another crew member claims it, it is theirs and the business's: the rest of the crew get 404.
    const other = await makeCrewMember(biz.businessId!);
    expect((await claim(b.id, other.key)).status).toBe(200);
    await expectDeniedWith(await getOne(b.id, sh.key), 404, 'SHFT-NOT-FND-ERR');
    expect((await getOne(b.id, other.key)).body).toMatchObject({ shifter_id: other.shifterId, request_status: 2 });
    expect(ids(await list(sh.key))).not.toContain(b.id);
  });

  it('a crew member cannot read a targeted request of someone else, nor a cancelled broadcast', async () => {
    const { biz, sh } = await makePair();
    const mate = await makeCrewMember(biz.businessId!);
    const targeted = await postShift(biz.key, { shifter_id: mate.shifterId });
    await expectDeniedWith(await getOne(targeted.id, sh.key), 404, 'SHFT-NOT-FND-ERR');
    const cancelled = await insertShift({ businessId: biz.businessId!, broadcast: true, status: 7, startsAt: Date.now() + 2 * DAY });
    await expectDeniedWith(await getOne(cancelled.id, sh.key), 404, 'SHFT-NOT-FND-ERR');
  });
});

describe('a business owner who is also a shifter', () => {
  /** A dual-profile owner whose shifter profile is crew of another business (and, to be thorough, of their own). */
  async function dualOwner() {
    const me = await makeUser({ business: true, shifter: true });
    const other = await makeUser({ business: true });
    await connect(other.businessId!, me.shifterId!);
    await connect(me.businessId!, me.shifterId!);
    const mine = await postShift(me.key, { is_broadcast: 1 });
    const theirs = await postShift(other.key, { is_broadcast: 1 });
    return { me, other, mine, theirs };
  }

  it('read as a shifter (shifter_id or sort_by_relevance), the list leaves out their own business’s broadcasts', async () => {
    const { me, mine, theirs } = await dualOwner();
    expect(ids(await list(me.key, { shifter_id: me.shifterId }))).toEqual([theirs.id]);
    expect(ids(await list(me.key, { shifter_id: me.shifterId, sort_by_relevance: true }))).toEqual([theirs.id]);
    expect(ids(await list(me.key, { sort_by_relevance: true }))).toEqual([theirs.id]);
    // Read plainly, the owner also manages their own broadcasts.
    expect(ids(await list(me.key)).sort()).toEqual([mine.id, theirs.id].sort());
  });

  it('claiming or accepting their own business’s broadcast is 403 SHFT-OWN-BUSINESS-ERR; another business’s is theirs to claim', async () => {
    const { me, mine, theirs } = await dualOwner();
    await expectDeniedWith(await claim(mine.id, me.key), 403, 'SHFT-OWN-BUSINESS-ERR');
    await expectDeniedWith(await accept(mine.id, me.key), 403, 'SHFT-OWN-BUSINESS-ERR');
    expect((await getOne(mine.id, me.key)).body).toMatchObject({ request_status: 1, shifter_id: null });
    const won = await claim(theirs.id, me.key);
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    expect(won.body).toMatchObject({ shifter_id: me.shifterId, request_status: 2 });
  });

  it('the list read as a shifter and claim agree for teammates: crew may claim, a teammate outside the crew may not', async () => {
    const biz = await makeUser({ business: true });
    const b = await postShift(biz.key, { is_broadcast: 1 });
    // A teammate with a shifter profile, not crew: sees it as the business, never as a shifter.
    const mate = await makeUser({ shifter: true });
    await addTeammate(biz.businessId!, mate.userId, 1);
    expect(ids(await list(mate.key))).toEqual([b.id]);
    expect(ids(await list(mate.key, { sort_by_relevance: true }))).toEqual([]);
    expect(ids(await list(mate.key, { shifter_id: mate.shifterId }))).toEqual([]);
    await expectDeniedWith(await claim(b.id, mate.key), 403, 'SHFT-OWN-BUSINESS-ERR');
    // A teammate who is also crew picks shifts like any crew member.
    const crewMate = await makeCrewMember(biz.businessId!);
    await addTeammate(biz.businessId!, crewMate.userId, 1);
    expect(ids(await list(crewMate.key, { shifter_id: crewMate.shifterId }))).toEqual([b.id]);
    expect((await claim(b.id, crewMate.key)).status).toBe(200);
  });

  it('an admin with a shifter profile outside the crew gets 403, not a claim', async () => {
    const { biz } = await makePair();
    const b = await postShift(biz.key, { is_broadcast: 1 });
    const admin = await makeUser({ admin: true, shifter: true });
    expectError(await claim(b.id, admin.key), 403, 'FORBIDDEN-ERR');
  });
});
