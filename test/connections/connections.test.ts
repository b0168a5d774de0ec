import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, outboxEvents, requestAuthorizations } from '../../src/db/schema';
import { call, expectError } from '../helpers/api';
import { addTeammate, connect, db, makeUser } from '../helpers/factory';
import { failNextBatch, loseNextBatchAnswer } from '../helpers/failures';
import { contextAt } from '../helpers/clock';
import { respondToConnection } from '../../src/services/connections';
import { expectDenied, itRejectsBadCredentials } from '../helpers/security';

const send = (key: string, body: unknown) => call('POST', '/v1/request_authorization/send', { key, body });
const accept = (key: string, id: string) => call('POST', `/v1/request_authorization/${id}/accept`, { key });
const decline = (key: string, id: string) => call('POST', `/v1/request_authorization/${id}/decline`, { key });
const remove = (key: string, id: string) => call('DELETE', `/v1/request_authorization/${id}`, { key });
const list = (key: string, body: unknown = {}) => call('POST', '/v1/request_authorization/list_of_requests', { key, body });

async function pair() {
  const biz = await makeUser({ business: true, name: 'Owner Olga' });
  const sh = await makeUser({ shifter: true, name: 'Shifter Sam' });
  return { biz, sh, businessId: biz.businessId!, shifterId: sh.shifterId! };
}

/** Outbox notifications written for a connection, as parsed message bodies. */
async function notesFor(connectionId: string) {
  const rows = await db()
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.topic, 'notifications'), like(outboxEvents.body, `%${connectionId}%`)));
  return rows.map((r) => JSON.parse(r.body) as { kind: string; user_ids: string[]; dedupe_key: string });
}

async function auditsFor(connectionId: string) {
  const rows = await db().select().from(auditLog).where(eq(auditLog.subject_id, connectionId));
  return rows.map((r) => r.action).sort();
}

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe('connection requests: business to shifter', () => {
  it('sends, lists on both sides, accepts, notifies and audits', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      business_id: businessId,
      business_name: 'Owner Olga Co',
      shifter_id: shifterId,
      shifter_name: 'Shifter Sam',
      initiated_by: 'business',
      status: 'pending',
      responded_at: null,
    });
    expect(sent.body.business_slug).toBeTruthy();
    expect(sent.body.shifter_slug).toBeTruthy();
    const id: string = sent.body.id;
    expect(id).toMatch(/^con_/);

    const mine = await list(biz.key);
    expect(ids(mine.body.outgoing)).toEqual([id]);
    expect(mine.body.incoming).toEqual([]);
    expect(mine.body.outgoing[0].side).toBe('business');
    const theirs = await list(sh.key);
    expect(ids(theirs.body.incoming)).toEqual([id]);
    expect(theirs.body.outgoing).toEqual([]);

    const request = (await notesFor(id)).find((n) => n.kind === 'connection_request');
    expect(request?.user_ids).toEqual([sh.userId]);
    expect(request?.dedupe_key).toContain(id);

    const ok = await accept(sh.key, id);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('accepted');
    expect(ok.body.responded_at).toEqual(expect.any(String));
    expect(ids((await list(biz.key)).body.accepted)).toEqual([id]);
    expect(ids((await list(sh.key)).body.accepted)).toEqual([id]);

    const accepted = (await notesFor(id)).find((n) => n.kind === 'connection_accepted');
    expect(accepted?.user_ids).toEqual([biz.userId]);
    expect(await auditsFor(id)).toEqual(['connection.accept', 'connection.request']);
  });

  it('lets an active teammate send and accept for the business, and notifies owner and teammates', async () => {
    const { biz, sh, businessId } = await pair();
    const tm = await makeUser({ name: 'Teammate Tia' });
    await addTeammate(businessId, tm.userId, 1);
    const sent = await send(sh.key, { business_id: businessId });
    expect(sent.status).toBe(201);
    expect(sent.body.initiated_by).toBe('shifter');
    const note = (await notesFor(sent.body.id)).find((n) => n.kind === 'connection_request');
    expect(note?.user_ids.sort()).toEqual([biz.userId, tm.userId].sort());

    expect(ids((await list(tm.key)).body.incoming)).toEqual([sent.body.id]);
    const ok = await accept(tm.key, sent.body.id);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('accepted');

    const other = await makeUser({ shifter: true });
    const byTeammate = await send(tm.key, { business_id: businessId, shifter_id: other.shifterId });
    expect(byTeammate.status).toBe(201);
    expect(byTeammate.body.initiated_by).toBe('business');
  });
});

describe('connection request rules', () => {
  it('refuses a duplicate from the same side and an existing connection (409)', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    expectError(await send(biz.key, { business_id: businessId, shifter_id: shifterId }), 409, 'CONNECTION-EXISTS-ERR');
    expect((await accept(sh.key, sent.body.id)).status).toBe(200);
    expectError(await send(biz.key, { business_id: businessId, shifter_id: shifterId }), 409, 'CONNECTION-EXISTS-ERR');
    expectError(await send(sh.key, { business_id: businessId }), 409, 'CONNECTION-EXISTS-ERR');
  });

  it('accepts when the other side already asked (mutual request)', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const first = await send(sh.key, { business_id: businessId });
    const second = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ id: first.body.id, status: 'accepted', initiated_by: 'shifter' });
    const note = (await notesFor(first.body.id)).find((n) => n.kind === 'connection_accepted');
    expect(note?.user_ids).toEqual([sh.userId]);
  });

  it('ends up connected when both sides send at the same moment', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const [a, b] = await Promise.all([
      send(sh.key, { business_id: businessId }),
      send(biz.key, { business_id: businessId, shifter_id: shifterId }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const rows = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.business_id, businessId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('accepted');
  });

  it('declines; a declined request cannot be accepted; a new send reopens it from the sender', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    const no = await decline(sh.key, sent.body.id);
    expect(no.status).toBe(200);
    expect(no.body).toMatchObject({ status: 'declined', responded_at: expect.any(String) });
    expectError(await accept(sh.key, sent.body.id), 409, 'CONFLICT-ERR');
    expectError(await decline(sh.key, sent.body.id), 409, 'CONFLICT-ERR');

    const closed = await list(biz.key, { status: 'declined' });
    expect(ids(closed.body.closed)).toEqual([sent.body.id]);
    expect((await list(biz.key)).body.outgoing).toEqual([]);

    const again = await send(sh.key, { business_id: businessId });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: sent.body.id, status: 'pending', initiated_by: 'shifter', responded_at: null });
    expect((await notesFor(sent.body.id)).filter((n) => n.kind === 'connection_request')).toHaveLength(2);
    expect(ids((await list(biz.key)).body.incoming)).toEqual([sent.body.id]);
  });

  it('only the receiving side may accept or decline (403 for the sender)', async () => {
    const { biz, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    expectError(await accept(biz.key, sent.body.id), 403, 'FORBIDDEN-ERR');
    expectError(await decline(biz.key, sent.body.id), 403, 'FORBIDDEN-ERR');
  });

  it('either side removes; removing twice is fine; a removed pair can be requested again', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    await accept(sh.key, sent.body.id);
    const gone = await remove(sh.key, sent.body.id);
    expect(gone.status).toBe(200);
    expect(gone.body.status).toBe('removed');
    expect((await remove(biz.key, sent.body.id)).body.status).toBe('removed');
    expect((await list(biz.key)).body.accepted).toEqual([]);
    expect(await auditsFor(sent.body.id)).toEqual(['connection.accept', 'connection.remove', 'connection.request']);

    const again = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    expect(again.body).toMatchObject({ id: sent.body.id, status: 'pending', initiated_by: 'business' });

    // The sender withdraws its own pending request.
    expect((await remove(biz.key, sent.body.id)).body.status).toBe('removed');
  });

  it('validates who the parties are', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    expectError(await send(biz.key, { business_id: businessId, as: 'business' }), 400, 'VALIDATION-ERR');
    expectError(await send(biz.key, { business_id: businessId, shifter_id: 'shf_missing' }), 404, 'SHIFTER-NOT-FND-ERR');
    expectError(await send(sh.key, { business_id: 'biz_missing' }), 404, 'BUSINESS-NOT-FND-ERR');
    // A business-only account has no shifter profile to send from.
    expectError(await send(biz.key, { business_id: businessId }), 404, 'SHIFTER-NOT-FND-ERR');
    const other = await makeUser({ shifter: true });
    expectError(await send(sh.key, { business_id: businessId, shifter_id: other.shifterId, as: 'shifter' }), 403, 'FORBIDDEN-ERR');
    expectError(await send(sh.key, { shifter_id: shifterId }), 400, 'VALIDATION-ERR');
    expectError(await accept(sh.key, 'con_missing'), 404, 'CONNECTION-NOT-FND-ERR');
  });

  it('lets a dual-profile caller pick the side with `as`', async () => {
    const dual = await makeUser({ shifter: true, business: true, name: 'Dual Dee' });
    const { biz, sh, businessId } = await pair();
    // As a shifter, to another business.
    const asShifter = await send(dual.key, { business_id: businessId, as: 'shifter' });
    expect(asShifter.body).toMatchObject({ initiated_by: 'shifter', shifter_id: dual.shifterId });
    // As a business, to another shifter.
    const asBusiness = await send(dual.key, { business_id: dual.businessId, shifter_id: sh.shifterId });
    expect(asBusiness.body).toMatchObject({ initiated_by: 'business', business_id: dual.businessId });

    const both = await list(dual.key);
    expect(ids(both.body.outgoing).sort()).toEqual([asShifter.body.id, asBusiness.body.id].sort());
    expect(ids((await list(dual.key, { as: 'shifter' })).body.outgoing)).toEqual([asShifter.body.id]);
    expect(ids((await list(dual.key, { as: 'business' })).body.outgoing)).toEqual([asBusiness.body.id]);
    expect(ids((await list(dual.key, { business_id: dual.businessId })).body.outgoing)).toEqual([asBusiness.body.id]);
    expectError(await list(dual.key, { as: 'shifter', business_id: dual.businessId }), 400, 'VALIDATION-ERR');
    expect(ids((await list(biz.key)).body.incoming)).toEqual([asShifter.body.id]);
  });
});

describe('connections: guarded writes', () => {
  afterEach(() => vi.restoreAllMocks());

  it('of 10 concurrent accepts exactly one applies: one audit row, one notification, the others 409', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    const results = await Promise.all(Array.from({ length: 10 }, () => accept(sh.key, sent.body.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'CONFLICT-ERR');
    expect(await auditsFor(sent.body.id)).toEqual(['connection.accept', 'connection.request']);
    expect((await notesFor(sent.body.id)).filter((n) => n.kind === 'connection_accepted')).toHaveLength(1);
  });

  it('concurrent accepts on one clock (the same version stamp) still leave exactly one audit row and one notification', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    const now = Date.now() + 60_000;
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => respondToConnection(contextAt(now, sh), sent.body.id, 'accept')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await auditsFor(sent.body.id)).toEqual(['connection.accept', 'connection.request']);
    expect((await notesFor(sent.body.id)).filter((n) => n.kind === 'connection_accepted')).toHaveLength(1);
  });

  it('accept and decline racing: one wins, and only its audit row and notification exist', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    const [a, d] = await Promise.all([accept(sh.key, sent.body.id), decline(sh.key, sent.body.id)]);
    expect([a.status, d.status].sort()).toEqual([200, 409]);
    const [row] = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.id, sent.body.id));
    const audits = await auditsFor(sent.body.id);
    if (row!.status === 'accepted') {
      expect(audits).toEqual(['connection.accept', 'connection.request']);
      expect((await notesFor(sent.body.id)).filter((n) => n.kind === 'connection_accepted')).toHaveLength(1);
    } else {
      expect(row!.status).toBe('declined');
      expect(audits).toEqual(['connection.decline', 'connection.request']);
      expect((await notesFor(sent.body.id)).filter((n) => n.kind === 'connection_accepted')).toHaveLength(0);
    }
  });

  it('10 concurrent removes all answer removed; the removal is audited once', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    await accept(sh.key, sent.body.id);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => remove(i % 2 ? sh.key : biz.key, sent.body.id)));
    for (const r of results) expect(r.body.status, JSON.stringify(r.body)).toBe('removed');
    expect(await auditsFor(sent.body.id)).toEqual(['connection.accept', 'connection.remove', 'connection.request']);
  });

  it('a send whose answer is lost after the commit: the retry with the same Idempotency-Key answers 201 with the same connection, written once', async () => {
    const { biz, businessId, shifterId } = await pair();
    const body = { business_id: businessId, shifter_id: shifterId };
    const headers = { 'Idempotency-Key': `con-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'request_authorizations' });
    expectError(await call('POST', '/v1/request_authorization/send', { key: biz.key, body, headers }), 500, 'INTERNAL-ERR');
    const rows = await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.business_id, businessId));
    expect(rows).toHaveLength(1);

    const retry = await call('POST', '/v1/request_authorization/send', { key: biz.key, body, headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body).toMatchObject({ id: rows[0]!.id, status: 'pending', initiated_by: 'business' });
    expect(await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.business_id, businessId))).toHaveLength(1);
    expect(await auditsFor(rows[0]!.id)).toEqual(['connection.request']);
    expect((await notesFor(rows[0]!.id)).filter((n) => n.kind === 'connection_request')).toHaveLength(1);
  });

  it('an accept whose batch fails writes nothing; the retry accepts once', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    const failure = failNextBatch({ writes: 'request_authorizations' });
    // A queue consumer's batch meanwhile (its own tables) passes through and leaves the failure in place.
    await env.DB.batch([env.DB.prepare('UPDATE "notifications" SET "id" = "id" WHERE 0')]);
    expect(failure.fired()).toBe(false);
    expectError(await accept(sh.key, sent.body.id), 500, 'INTERNAL-ERR');
    expect(failure.fired()).toBe(true);
    expect(await auditsFor(sent.body.id)).toEqual(['connection.request']);
    expect((await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.id, sent.body.id)))[0]!.status).toBe('pending');
    expect((await accept(sh.key, sent.body.id)).status).toBe(200);
    expect(await auditsFor(sent.body.id)).toEqual(['connection.accept', 'connection.request']);
  });
});

describe('connections: authorization', () => {
  describe.each([
    ['POST', '/v1/request_authorization/send', { business_id: 'biz_x', shifter_id: 'shf_x' }],
    ['POST', '/v1/request_authorization/con_x/accept', undefined],
    ['POST', '/v1/request_authorization/con_x/decline', undefined],
    ['DELETE', '/v1/request_authorization/con_x', undefined],
    ['POST', '/v1/request_authorization/list_of_requests', {}],
  ] as const)('%s %s', (method, path, body) => {
    itRejectsBadCredentials({ method, path, body });
  });

  it("refuses another business's key, a shifter who is not the party and a suspended teammate; allows an active teammate", async () => {
    const { businessId, shifterId, biz } = await pair();
    const sent = await send(biz.key, { business_id: businessId, shifter_id: shifterId });
    const id: string = sent.body.id;

    const rival = await makeUser({ business: true });
    const stranger = await makeUser({ shifter: true });
    const suspended = await makeUser({ shifter: true });
    await addTeammate(businessId, suspended.userId, 0);
    for (const outsider of [rival, stranger, suspended]) {
      await expectDenied(await accept(outsider.key, id), [404]);
      await expectDenied(await decline(outsider.key, id), [404]);
      await expectDenied(await remove(outsider.key, id), [404]);
      const seen = await list(outsider.key);
      expect([...seen.body.incoming, ...seen.body.outgoing, ...seen.body.accepted].map((c: { id: string }) => c.id)).not.toContain(id);
    }
    await expectDenied(await send(rival.key, { business_id: businessId, shifter_id: stranger.shifterId }), [404]);
    await expectDenied(await send(suspended.key, { business_id: businessId, shifter_id: stranger.shifterId, as: 'business' }), [404]);
    await expectDenied(await list(rival.key, { business_id: businessId }), [404]);
    await expectDenied(await list(suspended.key, { business_id: businessId }), [404]);
    expect((await db().select().from(requestAuthorizations).where(eq(requestAuthorizations.id, id)))[0]!.status).toBe('pending');

    const active = await makeUser();
    await addTeammate(businessId, active.userId, 1);
    expect(ids((await list(active.key, { business_id: businessId })).body.outgoing)).toEqual([id]);
    expect((await remove(active.key, id)).status).toBe(200);
  });

  it('a pending request made by the factory helper shows as outgoing for the business', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    await connect(businessId, shifterId, 'pending');
    const incoming = (await list(sh.key)).body.incoming;
    expect(incoming).toHaveLength(1);
    expect((await accept(sh.key, incoming[0].id)).body.status).toBe('accepted');
    expect((await list(biz.key)).body.accepted).toHaveLength(1);
  });
});

describe('connections in the OpenAPI document', () => {
  it('lists every connection operation with its error codes', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const codes = (op: any, status: string) =>
      op.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum as string[];
    const paths = doc.paths;
    expect(codes(paths['/v1/request_authorization/send'].post, '409')).toEqual(
      expect.arrayContaining(['CONNECTION-EXISTS-ERR', 'CONFLICT-ERR']),
    );
    expect(codes(paths['/v1/request_authorization/{id}/accept'].post, '404')).toContain('CONNECTION-NOT-FND-ERR');
    expect(codes(paths['/v1/request_authorization/{id}/decline'].post, '409')).toContain('CONFLICT-ERR');
    expect(codes(paths['/v1/request_authorization/{id}'].delete, '404')).toContain('CONNECTION-NOT-FND-ERR');
    expect(paths['/v1/request_authorization/list_of_requests'].post.responses['200']).toBeDefined();
  });
});
