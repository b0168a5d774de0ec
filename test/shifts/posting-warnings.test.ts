import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/mcp/tools';
import { EMPTY_CREW_MESSAGE } from '../../src/services/shifts';
import { call } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { connect, makeUser, type TestUser } from '../helpers/factory';
import { dateAhead, insertShift, makeCrewMember, makePair, postShift, shiftBody } from '../helpers/shifts';

// send_request and change_request answer what the poster should know about the shift just made:
// `shifter_busy` (the targeted shifter already booked then, listed exactly as the conflicts operation
// lists it) and `empty_crew` (a broadcast nobody is told of). The shift is posted either way.

const SEND = '/v1/shift_request/send_request';
const CONFLICTS = '/v1/shift_request/conflicts';

/** What the conflicts operation answers the business for the same shifter, date, times and business. */
async function conflictsOf(key: string, shifterId: string, businessId: string, date: string, shiftIn: string, shiftOut: string) {
  const res = await call('GET', CONFLICTS, {
    key,
    query: { shifter_id: shifterId, business_id: businessId, date, shift_in: shiftIn, shift_out: shiftOut },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: unknown[]; busy: unknown[] };
}

describe('send_request warnings', () => {
  it('posts a targeted shift over an accepted one of the same shifter (201) with shifter_busy listing it', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(6);
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '09:00', out: '17:00' });
    const res = await call('POST', SEND, {
      key: biz.key,
      body: shiftBody({ shift_date: date, shift_in: '12:00', shift_out: '20:00', shifter_id: sh.shifterId }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ request_status: 1, shifter_id: sh.shifterId, shift_in: '12:00' });
    expect(res.body.warnings).toHaveLength(1);
    const [w] = res.body.warnings;
    expect(w.code).toBe('shifter_busy');
    expect(w.message).toMatch(/already works 09:00–17:00 that day\./);
    expect(w.conflicts.map((s: { id: string }) => s.id)).toEqual([held.id]);
    // One definition: the warning lists exactly what the conflicts operation answers for the same input.
    const same = await conflictsOf(biz.key, sh.shifterId!, biz.businessId!, date, '12:00', '20:00');
    expect(w.conflicts).toEqual(same.data);
    expect(w.busy).toEqual(same.busy);
  });

  it('warns nothing when the shifter is free then (a shift ending as this one starts is no overlap)', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(6);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '06:00', out: '12:00' });
    // Pending, declined and cancelled shifts do not book the shifter.
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '12:00', out: '20:00', status: 1 });
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '12:00', out: '20:00', status: 7 });
    const posted = await postShift(biz.key, { shift_date: date, shift_in: '12:00', shift_out: '20:00', shifter_id: sh.shifterId });
    expect(posted.warnings).toEqual([]);
  });

  it("lists another business's shift only as a busy window, as the conflicts operation does", async () => {
    const { biz, sh } = await makePair();
    const other = await makeUser({ business: true });
    await connect(other.businessId!, sh.shifterId!);
    const date = dateAhead(7);
    await insertShift({ businessId: other.businessId!, shifterId: sh.shifterId, date, in: '08:00', out: '11:00' });
    const posted = await postShift(biz.key, { shift_date: date, shift_in: '10:00', shift_out: '14:00', shifter_id: sh.shifterId });
    const [w] = posted.warnings;
    expect(w).toMatchObject({ code: 'shifter_busy', conflicts: [] });
    expect(w.busy).toHaveLength(1);
    expect(w.message).toMatch(/already works 08:00–11:00 elsewhere that day\./);
    const same = await conflictsOf(biz.key, sh.shifterId!, biz.businessId!, date, '10:00', '14:00');
    expect(w.busy).toEqual(same.busy);
    expect(w.conflicts).toEqual(same.data);
    expect(JSON.stringify(w)).not.toContain(other.businessId!);
  });

  it('catches an overnight shift from the day before, with its date', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(8);
    const eve = dateAhead(7);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: eve, in: '22:00', out: '06:00' });
    const posted = await postShift(biz.key, { shift_date: date, shift_in: '05:00', shift_out: '09:00', shifter_id: sh.shifterId });
    expect(posted.warnings[0].message).toMatch(new RegExp(`already works 22:00–06:00 \\(from ${eve}\\)\\.`));
  });

  it('warns empty_crew for a broadcast of a business with no crew, and nothing once it has one', async () => {
    const owner = await makeUser({ business: true });
    const lonely = await postShift(owner.key, { is_broadcast: 1 });
    expect(lonely.warnings).toEqual([{ code: 'empty_crew', message: EMPTY_CREW_MESSAGE }]);
    expect(lonely).toMatchObject({ is_broadcast: 1, request_status: 1 });
    // A pending connection is no crew yet; an accepted one is.
    const asked = await makeUser({ shifter: true });
    await connect(owner.businessId!, asked.shifterId!, 'pending');
    expect((await postShift(owner.key, { is_broadcast: 1 })).warnings).toEqual([{ code: 'empty_crew', message: EMPTY_CREW_MESSAGE }]);
    await makeCrewMember(owner.businessId!);
    expect((await postShift(owner.key, { is_broadcast: 1 })).warnings).toEqual([]);
  });

  it('replays the warnings with the shift on a retry with the same Idempotency-Key', async () => {
    const owner = await makeUser({ business: true });
    const key = crypto.randomUUID();
    const body = shiftBody({ is_broadcast: 1 });
    const first = await call('POST', SEND, { key: owner.key, body, headers: { 'Idempotency-Key': key } });
    const again = await call('POST', SEND, { key: owner.key, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.warnings).toEqual(first.body.warnings);
    expect(first.body.warnings[0].code).toBe('empty_crew');
  });
});

describe('change_request warnings', () => {
  it("answers the child with shifter_busy when the new times meet the shifter's accepted shift", async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(6);
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '14:00', out: '18:00' });
    const pending = await postShift(biz.key, { shift_date: date, shift_in: '08:00', shift_out: '12:00', shifter_id: sh.shifterId });
    expect(pending.warnings).toEqual([]);
    const res = await call('PUT', '/v1/shift_request/change_request', {
      key: biz.key,
      body: { shift_request_id: pending.id, shift_in: '13:00', shift_out: '17:00' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.superseded).not.toHaveProperty('warnings');
    const [w] = res.body.shift_request.warnings;
    expect(w.code).toBe('shifter_busy');
    expect(w.conflicts.map((s: { id: string }) => s.id)).toEqual([held.id]);
    expect(w.conflicts).toEqual((await conflictsOf(biz.key, sh.shifterId!, biz.businessId!, date, '13:00', '17:00')).data);

    const free = await call('PUT', '/v1/shift_request/change_request', {
      key: biz.key,
      body: { shift_request_id: res.body.shift_request.id, shift_in: '19:00', shift_out: '22:00' },
    });
    expect(free.status).toBe(201);
    expect(free.body.shift_request.warnings).toEqual([]);
  });
});

describe('the post_shift agent tool', () => {
  const postTool = ALL_TOOLS.find((t) => t.name === 'post_shift')!;
  const agentCtx = (u: TestUser) => {
    const base = contextAt(Date.now(), u);
    return { ...base, actor: { kind: 'agent' as const, userId: u.userId, tokenId: `tok_${u.keyId}`, scopes: ['write'], isAdmin: false } };
  };
  const extras = {
    tokenId: 'tok_test',
    requestOrigin: 'https://mcp.test',
    clientSupportsUrlElicitation: false,
    elicitUrl: async () => false,
  };

  it('carries the warnings in its output, which its output schema accepts, and says them in its summary', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(6);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '09:00', out: '17:00' });
    const args = postTool.input.parse({
      shift_date: date,
      shift_in: '16:00',
      shift_out: '20:00',
      shiftrole_id: 1,
      hourly_rate: 20,
      shifter_id: sh.shifterId,
    });
    const out = (await postTool.run(agentCtx(biz), args, extras)) as { shift_request: { warnings: Array<{ code: string }> } };
    expect(postTool.output.parse(out)).toEqual(out);
    expect(out.shift_request.warnings.map((w) => w.code)).toEqual(['shifter_busy']);
    expect(postTool.summarize(out)).toMatch(/Warning \(shifter_busy\): .*already works 09:00–17:00 that day/);
  });
});
