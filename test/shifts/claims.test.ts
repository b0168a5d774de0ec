import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shiftRequests } from '../../src/db/schema';
import type { ClaimLock } from '../../src/durable-objects/claim-lock';
import { call, expectError } from '../helpers/api';
import { connect, db, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';
import {
  auditFor,
  DAY,
  dateAhead,
  expectDeniedWith,
  HOUR,
  insertShift,
  makeCrewMember,
  makePair,
  outboxFor,
  postShift,
  readShift,
} from '../helpers/shifts';

const claim = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/claim`, { key });

describe('POST /v1/shift_request/{id}/claim', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/shift_request/sr_doesnotexist/claim' });

  it('50 shifters claim one broadcast at once: exactly one wins, every other claim loses', async () => {
    const biz = await makeUser({ business: true });
    const crew = await Promise.all(Array.from({ length: 50 }, () => makeCrewMember(biz.businessId!)));
    const b = await postShift(biz.key, { is_broadcast: 1 });

    const results = await Promise.all(crew.map((s) => claim(b.id, s.key)));

    const won = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(won, results.map((r) => `${r.status} ${r.body?.error?.code ?? ''}`).join(', ')).toHaveLength(1);
    for (const r of results) if (r.status !== 200) expectError(r, 409, 'CLAIM-LOST-ERR');
    const winner = crew[won[0]!]!;
    expect(results[won[0]!]!.body).toMatchObject({
      id: b.id,
      request_status: 2,
      status: 'accepted',
      shifter_id: winner.shifterId,
      is_broadcast: 1,
    });

    const accepted = await db()
      .select()
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, biz.businessId!), eq(shiftRequests.request_status, 2)));
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({ id: b.id, shifter_id: winner.shifterId });
    expect(accepted[0]!.accepted_at).not.toBeNull();
    expect(await auditFor(b.id, 'broadcast.claim')).toHaveLength(1);
    const notes = await outboxFor(b.id, { topic: 'notifications', kind: 'broadcast_claimed' });
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body.user_ids).toEqual([biz.userId]);
    expect(notes[0]!.sent_at).not.toBeNull();
    const hooks = (await outboxFor(b.id, { topic: 'webhooks' })).filter((h) => h.body.type === 'shift_request.claimed');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.body.data.shift_request.shifter_id).toBe(winner.shifterId);

    // The broadcast's ClaimLock object holds the same winner.
    const lock = env.CLAIM_LOCK.get(env.CLAIM_LOCK.idFromName(b.id));
    expect(await runInDurableObject(lock, (_obj: ClaimLock, state) => state.storage.kv.get<string>('winner'))).toBe(winner.shifterId);

    // The winner may retry safely; a loser retrying still loses.
    const again = await claim(b.id, winner.key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ request_status: 2, shifter_id: winner.shifterId });
    const loser = crew.find((s) => s !== winner)!;
    expectError(await claim(b.id, loser.key), 409, 'CLAIM-LOST-ERR');
    expect(await auditFor(b.id, 'broadcast.claim')).toHaveLength(1);
    expect(await outboxFor(b.id, { kind: 'broadcast_claimed' })).toHaveLength(1);
  });

  it('only the crew may claim: an unconnected or pending shifter gets 404, a non-shifter 403', async () => {
    const { biz, sh } = await makePair();
    const b = await postShift(biz.key, { is_broadcast: 1 });
    await expectDeniedWith(await claim(b.id, (await makeUser({ shifter: true })).key), 404, 'SHFT-NOT-FND-ERR');
    const pending = await makeUser({ shifter: true });
    await connect(biz.businessId!, pending.shifterId!, 'pending');
    await expectDeniedWith(await claim(b.id, pending.key), 404, 'SHFT-NOT-FND-ERR');
    await expectDeniedWith(await claim(b.id, biz.key), 403, 'FORBIDDEN-ERR');
    await expectDeniedWith(await claim('sr_doesnotexist', sh.key), 404, 'SHFT-NOT-FND-ERR');
    expect((await readShift(b.id))!.request_status).toBe(1);
    expect((await claim(b.id, sh.key)).status).toBe(200);
  });

  it('refuses a shifter with an overlapping accepted shift (409 SHFT-CONFLICT-ERR)', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(10);
    const held = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '08:00', out: '12:00' });
    const b = await postShift(biz.key, { is_broadcast: 1, shift_date: date, shift_in: '11:30', shift_out: '15:00' });
    const err = expectError(await claim(b.id, sh.key), 409, 'SHFT-CONFLICT-ERR');
    expect(err.details).toEqual({ conflicting_shift_request_ids: [held.id] });
    expect(await readShift(b.id)).toMatchObject({ request_status: 1, shifter_id: null });
    // The refusal does not lock the broadcast: someone free still wins it.
    const free = await makeCrewMember(biz.businessId!);
    expect((await claim(b.id, free.key)).status).toBe(200);
  });

  it('a targeted request cannot be claimed: 404 for others, 409 for its target', async () => {
    const { biz, sh } = await makePair();
    const t = await postShift(biz.key, { shifter_id: sh.shifterId });
    const other = await makeCrewMember(biz.businessId!);
    await expectDeniedWith(await claim(t.id, other.key), 404, 'SHFT-NOT-FND-ERR');
    expectError(await claim(t.id, sh.key), 409, 'SHFT-STATE-ERR');
    expect(await readShift(t.id)).toMatchObject({ request_status: 1, shifter_id: sh.shifterId });
  });

  it('a cancelled, expired or started broadcast cannot be claimed', async () => {
    const { biz, sh } = await makePair();
    const b = await postShift(biz.key, { is_broadcast: 1 });
    expect((await call('POST', `/v1/shift_request/${b.id}/cancel`, { key: biz.key, body: {} })).status).toBe(200);
    expectError(await claim(b.id, sh.key), 409, 'SHFT-CANCELLED-ERR');

    const expired = await insertShift({ businessId: biz.businessId!, broadcast: true, status: 6, startsAt: Date.now() - HOUR });
    expectError(await claim(expired.id, sh.key), 409, 'SHFT-EXPIRED-ERR');
    const started = await insertShift({ businessId: biz.businessId!, broadcast: true, status: 1, startsAt: Date.now() - 10 * 60_000 });
    expectError(await claim(started.id, sh.key), 409, 'SHFT-STATE-ERR');
    expect((await readShift(started.id))!.shifter_id).toBeNull();
  });

  it('a broadcast claimed earlier answers CLAIM-LOST-ERR without going through the race', async () => {
    const { biz, sh } = await makePair();
    const other = await makeCrewMember(biz.businessId!);
    const b = await insertShift({
      businessId: biz.businessId!,
      broadcast: true,
      status: 2,
      shifterId: other.shifterId,
      startsAt: Date.now() + DAY,
    });
    expectError(await claim(b.id, sh.key), 409, 'CLAIM-LOST-ERR');
    expect((await claim(b.id, other.key)).status).toBe(200);
  });
});
