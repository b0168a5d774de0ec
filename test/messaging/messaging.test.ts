import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversationParticipants, conversations, notifications, outboxEvents, requestAuthorizations } from '../../src/db/schema';
import type { ConversationThread } from '../../src/durable-objects/conversation-thread';
import type { AppBindings } from '../../src/env';
import { QUEUES } from '../../src/queues/consumer';
import {
  type AppendInput,
  appendMessage,
  escalateSupportThread,
  joinSupportThread,
  listMessages,
  MESSAGE_BODY_MAX,
  openSupportThread,
  sendMessage,
  syncInbox,
} from '../../src/services/messaging';
import { type ApiResult, call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { addTeammate, connect, db, makeUser, type TestUser } from '../helpers/factory';
import { deliver, message } from '../helpers/queues';
import { itRejectsBadCredentials } from '../helpers/security';

// ── Calls ────────────────────────────────────────────────────────────────────────────────────────
const send = (key: string, body: unknown, headers?: Record<string, string>) =>
  call('POST', '/v1/messaging/messages', { key, body, ...(headers ? { headers } : {}) });
const inbox = (key: string, query: Record<string, string | number> = {}) => call('GET', '/v1/messaging/inbox', { key, query });
const thread = (key: string, id: string, query: Record<string, string> = {}) => call('GET', `/v1/messaging/threads/${id}`, { key, query });
const messagesOf = (key: string, id: string, query: Record<string, string | number> = {}) =>
  call('GET', `/v1/messaging/threads/${id}/messages`, { key, query });
const act = (key: string, id: string, action: string, body?: unknown) =>
  call('POST', `/v1/messaging/threads/${id}/${action}`, { key, ...(body === undefined ? {} : { body }) });
const lookup = (key: string, query: Record<string, string>) => call('GET', '/v1/messaging/lookup', { key, query });

const toShifter = (id: string) => ({ kind: 'shifter', id });
const toBusiness = (id: string) => ({ kind: 'business', id });

/** Asserts a 2xx answer and returns its body. */
function ok<T = any>(res: ApiResult, status = 200): T {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** A business owner and a shifter with an accepted connection. */
async function pair(names: { owner?: string; shifter?: string } = {}) {
  const biz = await makeUser({ business: true, name: names.owner ?? 'Owner Olga' });
  const sh = await makeUser({ shifter: true, name: names.shifter ?? 'Shifter Sam' });
  await connect(biz.businessId!, sh.shifterId!);
  return { biz, sh, businessId: biz.businessId!, shifterId: sh.shifterId! };
}

/** A pair whose thread exists and both sides have accepted (the business wrote first, the shifter accepted). */
async function acceptedThread() {
  const p = await pair();
  const first = ok(await send(p.biz.key, { to: toShifter(p.shifterId), body: 'Hello from the business' }), 201);
  ok(await act(p.sh.key, first.thread.id, 'accept'));
  return { ...p, threadId: first.thread.id as string };
}

const tabIds = async (key: string, tab: string, extra: Record<string, string> = {}) =>
  (ok(await inbox(key, { tab, ...extra })).data as Array<{ id: string }>).map((t) => t.id);

const threadStub = (id: string) => env.THREADS.get(env.THREADS.idFromName(id));

async function d1Conversation(id: string) {
  return (await db().select().from(conversations).where(eq(conversations.id, id)))[0]!;
}

/** Notifications written to the outbox about one message, as parsed bodies. */
async function noticesOf(messageId: string) {
  const rows = await db()
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.topic, 'notifications'), like(outboxEvents.body, `%${messageId}%`)));
  return rows.map((r) => ({
    status: r.status,
    ...(JSON.parse(r.body) as { kind: string; user_ids: string[]; dedupe_key: string; title: string }),
  }));
}

// ── The Requests tab ─────────────────────────────────────────────────────────────────────────────
describe('direct threads: requests and acceptance', () => {
  it("puts a first message in the recipient's Requests tab until they accept; accept moves it to All", async () => {
    const { biz, sh, shifterId, businessId } = await pair();
    const sent = ok(await send(biz.key, { to: toShifter(shifterId), body: '  Can you cover Friday?  ' }), 201);
    expect(sent.message).toMatchObject({
      seq: 1,
      body: 'Can you cover Friday?',
      sender: { kind: 'business', id: businessId, name: 'Owner Olga Co' },
    });
    const id: string = sent.thread.id;
    expect(id).toMatch(/^cnv_/);
    expect(sent.thread).toMatchObject({ kind: 'direct', tab: 'all', accepted: true, awaiting_acceptance: true, unread_count: 0 });
    expect(sent.thread.counterparty).toMatchObject({ kind: 'shifter', id: shifterId, name: 'Shifter Sam', accepted: false });

    expect(await tabIds(sh.key, 'requests')).toEqual([id]);
    expect(await tabIds(sh.key, 'all')).toEqual([]);
    expect(await tabIds(biz.key, 'all')).toEqual([id]);
    expect(await tabIds(biz.key, 'requests')).toEqual([]);
    const request = ok(await inbox(sh.key, { tab: 'requests' })).data[0];
    expect(request).toMatchObject({
      tab: 'requests',
      accepted: false,
      unread_count: 1,
      last_message: { seq: 1, preview: 'Can you cover Friday?' },
    });

    // One message until the recipient accepts.
    expectError(await send(biz.key, { to: toShifter(shifterId), body: 'Hello?' }), 409, 'MSG-REQ-PENDING-ERR');
    expectError(await send(biz.key, { conversation_id: id, body: 'Hello??' }), 409, 'MSG-REQ-PENDING-ERR');

    const accepted = ok(await act(sh.key, id, 'accept'));
    expect(accepted).toMatchObject({ tab: 'all', accepted: true });
    expect(await tabIds(sh.key, 'requests')).toEqual([]);
    expect(await tabIds(sh.key, 'all')).toEqual([id]);
    // Accepting again changes nothing.
    expect(ok(await act(sh.key, id, 'accept'))).toMatchObject({ tab: 'all', accepted: true });

    const second = ok(await send(biz.key, { conversation_id: id, body: 'Great, see you then.' }), 201);
    expect(second.message.seq).toBe(2);
    expect(second.thread.awaiting_acceptance).toBe(false);
    // Still one thread for the pair, whichever way it is addressed.
    const third = ok(await send(sh.key, { to: toBusiness(businessId), body: 'See you!' }), 201);
    expect(third.thread.id).toBe(id);
    expect(third.message.seq).toBe(3);
  });

  it("treats the recipient's reply as acceptance", async () => {
    const { biz, sh, shifterId, businessId } = await pair();
    const id = ok(await send(sh.key, { to: toBusiness(businessId), body: 'Hi, I saw your posting.' }), 201).thread.id;
    expect(await tabIds(biz.key, 'requests')).toEqual([id]);
    const reply = ok(await send(biz.key, { to: toShifter(shifterId), body: 'Welcome!' }), 201);
    expect(reply.thread).toMatchObject({ id, tab: 'all', accepted: true });
    expect(await tabIds(biz.key, 'requests')).toEqual([]);
    expect(await tabIds(biz.key, 'all')).toEqual([id]);
    ok(await send(sh.key, { conversation_id: id, body: 'Thanks.' }), 201);
  });

  it('lets the owner and active teammates act for the business, and not a suspended teammate', async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const [active, suspended] = await Promise.all([makeUser({ name: 'Active Mate' }), makeUser({ name: 'Suspended Mate' })]);
    await addTeammate(businessId, active.userId, 1);
    await addTeammate(businessId, suspended.userId, 0);
    const id = ok(await send(sh.key, { to: toBusiness(businessId), body: 'Question about Friday' }), 201).thread.id;
    expect(await tabIds(active.key, 'requests')).toEqual([id]);
    expect(await tabIds(suspended.key, 'requests')).toEqual([]);
    expectError(await thread(suspended.key, id), 403, 'MSG-NOT-PARTICIPANT');
    expectError(await send(suspended.key, { to: toShifter(shifterId), body: 'Hi' }), 403, 'FORBIDDEN-ERR');
    const reply = ok(await send(active.key, { conversation_id: id, body: 'Answered by a teammate' }), 201);
    expect(reply.message.sender).toMatchObject({ kind: 'business', id: businessId });
    // The state is the business's: the owner sees it accepted (the teammate's reply accepted it) and read.
    expect(ok(await thread(biz.key, id))).toMatchObject({ tab: 'all', unread_count: 0, last_read_seq: 2 });
  });
});

// ── Every error code ─────────────────────────────────────────────────────────────────────────────
describe('messaging errors', () => {
  it('MSG-BODY-ERR: not a string, missing, empty after trimming, or over 4,000 characters', async () => {
    const { biz, shifterId } = await pair();
    const to = toShifter(shifterId);
    for (const body of [42, null, true, ['hi'], { text: 'hi' }, '', '   \n\t ', 'x'.repeat(MESSAGE_BODY_MAX + 1)]) {
      expectError(await send(biz.key, { to, body }), 400, 'MSG-BODY-ERR');
    }
    expectError(await send(biz.key, { to }), 400, 'MSG-BODY-ERR');
    // At most 4,000 characters as sent; what is stored is trimmed.
    expectError(await send(biz.key, { to, body: ` ${'y'.repeat(MESSAGE_BODY_MAX)}` }), 400, 'MSG-BODY-ERR');
    expect(
      (
        await db()
          .select()
          .from(conversations)
          .where(like(conversations.pair_key, `%${shifterId}%`))
      ).length,
    ).toBe(0);
    const res = ok(await send(biz.key, { to, body: ` ${'y'.repeat(MESSAGE_BODY_MAX - 2)} ` }), 201);
    expect(res.message.body).toHaveLength(MESSAGE_BODY_MAX - 2);
    expect(res.message.seq).toBe(1);
    // Other invalid fields are still VALIDATION-ERR.
    expectError(await send(biz.key, { to: { kind: 'robot', id: 'x' }, body: 'hi' }), 400, 'VALIDATION-ERR');
    expectError(await send(biz.key, { body: 'to nobody' }), 400, 'VALIDATION-ERR');
  });

  it('MSG-NOT-CONNECTED-ERR: no connection, a pending or removed one, or two parties of one kind', async () => {
    const biz = await makeUser({ business: true });
    const [stranger, applicant, removed] = await Promise.all([
      makeUser({ shifter: true }),
      makeUser({ shifter: true }),
      makeUser({ shifter: true }),
    ]);
    await connect(biz.businessId!, applicant.shifterId!, 'pending');
    await connect(biz.businessId!, removed.shifterId!);
    await db().update(requestAuthorizations).set({ status: 'removed' }).where(eq(requestAuthorizations.shifter_id, removed.shifterId!));
    for (const s of [stranger, applicant, removed]) {
      expectError(await send(biz.key, { to: toShifter(s.shifterId!), body: 'hi' }), 422, 'MSG-NOT-CONNECTED-ERR');
      expectError(await send(s.key, { to: toBusiness(biz.businessId!), body: 'hi' }), 422, 'MSG-NOT-CONNECTED-ERR');
    }
    // A shifter writes to businesses, a business to shifters.
    expectError(
      await send(stranger.key, { to: toShifter(applicant.shifterId!), as: toShifter(stranger.shifterId!), body: 'hi' }),
      422,
      'MSG-NOT-CONNECTED-ERR',
    );
    expectError(await send(stranger.key, { to: toShifter(applicant.shifterId!), body: 'hi' }), 403, 'FORBIDDEN-ERR');
    const none = await db()
      .select()
      .from(conversations)
      .where(like(conversations.pair_key, `%${biz.businessId}%`));
    expect(none).toEqual([]);
  });

  it('MSG-NOT-CONNECTED-ERR: a thread whose connection was removed can be read but not written to', async () => {
    const { biz, sh, threadId, shifterId } = await acceptedThread();
    await db().update(requestAuthorizations).set({ status: 'removed' }).where(eq(requestAuthorizations.shifter_id, shifterId));
    expectError(await send(sh.key, { conversation_id: threadId, body: 'still there?' }), 422, 'MSG-NOT-CONNECTED-ERR');
    expectError(await send(biz.key, { to: toShifter(shifterId), body: 'hello' }), 422, 'MSG-NOT-CONNECTED-ERR');
    expect(ok(await messagesOf(sh.key, threadId)).data).toHaveLength(1);
  });

  it('MSG-NOT-PARTICIPANT: a caller who takes no part, or not as the party named', async () => {
    const { biz, threadId } = await acceptedThread();
    const stranger = await makeUser({ shifter: true, business: true });
    expectError(await thread(stranger.key, threadId), 403, 'MSG-NOT-PARTICIPANT');
    expectError(await messagesOf(stranger.key, threadId), 403, 'MSG-NOT-PARTICIPANT');
    expectError(await send(stranger.key, { conversation_id: threadId, body: 'let me in' }), 403, 'MSG-NOT-PARTICIPANT');
    for (const action of ['read', 'pin', 'archive', 'accept', 'block']) {
      expectError(await act(stranger.key, threadId, action), 403, 'MSG-NOT-PARTICIPANT');
    }
    // The owner has a second business that is not in this thread.
    const other = ok(
      await call('POST', '/v1/business/create', {
        key: biz.key,
        body: { name: 'Second Place', timezone: 'America/New_York', city_id: 1, state_id: 1, country_id: 1, currency: 'USD' },
      }),
      201,
    );
    expectError(await thread(biz.key, threadId, { as_kind: 'business', as_id: other.id }), 403, 'MSG-NOT-PARTICIPANT');
    expectError(await send(biz.key, { conversation_id: threadId, as: toBusiness(other.id), body: 'hi' }), 403, 'MSG-NOT-PARTICIPANT');
    // Naming a party the caller does not act for at all is refused before the thread is looked at.
    expectError(await inbox(stranger.key, { as_kind: 'business', as_id: biz.businessId! }), 403, 'FORBIDDEN-ERR');
  });

  it('MSG-NOT-FND-ERR: an unknown thread, and a lookup with no thread yet', async () => {
    const { biz, sh, shifterId, businessId } = await pair();
    const ghost = 'cnv_00000000000000000000';
    expectError(await thread(biz.key, ghost), 404, 'MSG-NOT-FND-ERR');
    expectError(await messagesOf(biz.key, ghost), 404, 'MSG-NOT-FND-ERR');
    expectError(await send(biz.key, { conversation_id: ghost, body: 'hi' }), 404, 'MSG-NOT-FND-ERR');
    expectError(await act(biz.key, ghost, 'pin'), 404, 'MSG-NOT-FND-ERR');
    expectError(await lookup(biz.key, { with_kind: 'shifter', with_id: shifterId }), 404, 'MSG-NOT-FND-ERR');
    const id = ok(await send(biz.key, { to: toShifter(shifterId), body: 'hi' }), 201).thread.id;
    expect(ok(await lookup(biz.key, { with_kind: 'shifter', with_id: shifterId })).id).toBe(id);
    expect(ok(await lookup(sh.key, { with_kind: 'business', with_id: businessId }))).toMatchObject({ id, tab: 'requests' });
  });

  it('MSG-BLOCKED-ERR: a block stops both sides until it is lifted', async () => {
    const { biz, sh, threadId } = await acceptedThread();
    const blocked = ok(await act(sh.key, threadId, 'block'));
    expect(blocked).toMatchObject({ blocked_by_me: true, blocked_by_other: false });
    expect(ok(await thread(biz.key, threadId))).toMatchObject({ blocked_by_me: false, blocked_by_other: true });
    expectError(await send(biz.key, { conversation_id: threadId, body: 'hello?' }), 403, 'MSG-BLOCKED-ERR');
    expectError(await send(sh.key, { conversation_id: threadId, body: 'one more thing' }), 403, 'MSG-BLOCKED-ERR');
    expect((await threadStub(threadId).stats()).count).toBe(1);
    ok(await act(sh.key, threadId, 'unblock'));
    expect(ok(await send(biz.key, { conversation_id: threadId, body: 'hello again' }), 201).message.seq).toBe(2);
  });

  it('CONFLICT-ERR: writing into a support thread the assistant still answers, or blocking one', async () => {
    const person = await makeUser({ shifter: true });
    const t = await openSupportThread(contextAt(Date.now(), person), { kind: 'support_ai', ownerUserId: person.userId, subject: 'Help' });
    expectError(await send(person.key, { conversation_id: t.id, body: 'hello' }), 409, 'CONFLICT-ERR');
    expectError(await act(person.key, t.id, 'block'), 409, 'CONFLICT-ERR');
  });

  it('asks for `as` when the caller acts for several businesses and none is their default', async () => {
    const [a, b] = await Promise.all([makeUser({ business: true }), makeUser({ business: true })]);
    const mate = await makeUser({ name: 'Two Teams' });
    const sh = await makeUser({ shifter: true });
    await Promise.all([addTeammate(a.businessId!, mate.userId), addTeammate(b.businessId!, mate.userId)]);
    await Promise.all([connect(a.businessId!, sh.shifterId!), connect(b.businessId!, sh.shifterId!)]);
    const err = expectError(await send(mate.key, { to: toShifter(sh.shifterId!), body: 'hi' }), 400, 'VALIDATION-ERR');
    expect(err.message).toMatch(/as/);
    const sent = ok(await send(mate.key, { to: toShifter(sh.shifterId!), as: toBusiness(b.businessId!), body: 'hi' }), 201);
    expect(sent.message.sender.id).toBe(b.businessId);
    expect(await tabIds(mate.key, 'all', { as_kind: 'business', as_id: b.businessId! })).toEqual([sent.thread.id]);
    expect(await tabIds(mate.key, 'all', { as_kind: 'business', as_id: a.businessId! })).toEqual([]);
  });
});

itRejectsBadCredentials({ method: 'GET', path: '/v1/messaging/inbox' });

// ── Inbox state ──────────────────────────────────────────────────────────────────────────────────
describe('inbox: pins, archive, read markers and pages', () => {
  it('pins and unpins; archive leaves All and Pinned until unarchived or the other side writes', async () => {
    const { biz, sh, threadId } = await acceptedThread();
    expect(ok(await act(sh.key, threadId, 'pin'))).toMatchObject({ pinned: true, tab: 'all' });
    expect(await tabIds(sh.key, 'pinned')).toEqual([threadId]);
    expect(await tabIds(biz.key, 'pinned')).toEqual([]);
    ok(await act(sh.key, threadId, 'unpin'));
    expect(await tabIds(sh.key, 'pinned')).toEqual([]);

    ok(await act(sh.key, threadId, 'pin'));
    expect(ok(await act(sh.key, threadId, 'archive'))).toMatchObject({ archived: true, tab: 'archived' });
    expect(await tabIds(sh.key, 'all')).toEqual([]);
    expect(await tabIds(sh.key, 'pinned')).toEqual([]);
    expect(await tabIds(sh.key, 'archived')).toEqual([threadId]);
    ok(await act(sh.key, threadId, 'unarchive'));
    expect(await tabIds(sh.key, 'pinned')).toEqual([threadId]);

    ok(await act(sh.key, threadId, 'archive'));
    // The shifter's own message does not bring it back; the business's does.
    ok(await send(sh.key, { conversation_id: threadId, body: 'noted' }), 201);
    expect(await tabIds(sh.key, 'archived')).toEqual([threadId]);
    ok(await send(biz.key, { conversation_id: threadId, body: 'one more thing' }), 201);
    expect(await tabIds(sh.key, 'archived')).toEqual([]);
    expect(await tabIds(sh.key, 'all')).toEqual([threadId]);
  });

  it('counts unread messages from the read marker, which only moves forward', async () => {
    const { biz, sh, threadId } = await acceptedThread();
    for (const body of ['two', 'three', 'four']) ok(await send(biz.key, { conversation_id: threadId, body }), 201);
    expect(ok(await thread(sh.key, threadId))).toMatchObject({ unread_count: 4, last_read_seq: 0 });
    expect(ok(await thread(biz.key, threadId))).toMatchObject({ unread_count: 0, last_read_seq: 4 });
    expect(ok(await act(sh.key, threadId, 'read', { seq: 2 }))).toMatchObject({ unread_count: 2, last_read_seq: 2 });
    expect(ok(await act(sh.key, threadId, 'read', { seq: 1 }))).toMatchObject({ last_read_seq: 2 });
    expect(ok(await act(sh.key, threadId, 'read', { seq: 99 }))).toMatchObject({ last_read_seq: 4, unread_count: 0 });
    ok(await send(biz.key, { conversation_id: threadId, body: 'five' }), 201);
    expect(ok(await inbox(sh.key)).data[0]).toMatchObject({ id: threadId, unread_count: 1 });
    // Writing marks everything before it read for the writer.
    ok(await send(sh.key, { conversation_id: threadId, body: 'six' }), 201);
    expect(ok(await thread(sh.key, threadId))).toMatchObject({ unread_count: 0, last_read_seq: 6 });
    expect(ok(await act(sh.key, threadId, 'read'))).toMatchObject({ last_read_seq: 6 });
  });

  it('pages the inbox by latest message, each thread once', async () => {
    const biz = await makeUser({ business: true, name: 'Busy Biz' });
    const crew = await Promise.all(Array.from({ length: 5 }, (_, i) => makeUser({ shifter: true, name: `Crew ${i}` })));
    await Promise.all(crew.map((c) => connect(biz.businessId!, c.shifterId!)));
    const order: string[] = [];
    for (const c of crew) {
      order.unshift(ok(await send(c.key, { to: toBusiness(biz.businessId!), body: `from ${c.shifterId}` }), 201).thread.id);
      await new Promise((r) => setTimeout(r, 2));
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ id: string }>; next_cursor: string | null } = ok(
        await inbox(biz.key, { tab: 'requests', limit: 2, ...(cursor ? { cursor } : {}) }),
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((t: { id: string }) => t.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(order);
    expectError(await inbox(biz.key, { cursor: 'not-a-cursor' }), 400, 'VALIDATION-ERR');
  });

  it('pages messages in seq order, oldest first or newest first', async () => {
    const { biz, sh, threadId } = await acceptedThread();
    for (let i = 2; i <= 7; i++) ok(await send(i % 2 ? biz.key : sh.key, { conversation_id: threadId, body: `message ${i}` }), 201);
    const walk = async (order: 'asc' | 'desc') => {
      const seqs: number[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: Array<{ seq: number }>; next_cursor: string | null } = ok(
          await messagesOf(sh.key, threadId, { order, limit: 3, ...(cursor ? { cursor } : {}) }),
        );
        seqs.push(...page.data.map((m: { seq: number }) => m.seq));
        cursor = page.next_cursor;
      } while (cursor);
      return seqs;
    };
    expect(await walk('asc')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await walk('desc')).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const first = ok(await messagesOf(sh.key, threadId, { limit: 3 }));
    expectError(await messagesOf(sh.key, threadId, { order: 'desc', cursor: first.next_cursor }), 400, 'VALIDATION-ERR');
  });
});

// ── Order under concurrency ──────────────────────────────────────────────────────────────────────
describe('order and serialization', () => {
  it('stores 30 concurrent sends to one thread with strictly increasing, gapless seq, listed in seq order', async () => {
    const { biz, sh, threadId } = await acceptedThread();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(i % 2 ? biz.key : sh.key, { conversation_id: threadId, body: `concurrent ${i}` })),
    );
    const sent = answers.map((a) => ok(a, 201).message as { id: string; seq: number; body: string });
    expect(sent.map((m) => m.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
    const listed = ok(await messagesOf(biz.key, threadId, { limit: 200 })).data as Array<{
      id: string;
      seq: number;
      body: string;
      created_at: string;
    }>;
    expect(listed.map((m) => m.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    // Every answer is the stored message, and time never goes backwards along seq.
    const bySeq = new Map(listed.map((m) => [m.seq, m]));
    for (const m of sent) expect(bySeq.get(m.seq)?.id).toBe(m.id);
    const times = listed.map((m) => Date.parse(m.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await threadStub(threadId).stats()).toEqual({ count: 31, lastSeq: 31, pendingSyncs: 0 });
    // The inbox row ends at the latest message, whatever order the D1 updates finished in.
    const row = await d1Conversation(threadId);
    expect(row.last_message_seq).toBe(31);
    expect(row.last_message_preview).toBe(listed.at(-1)!.body);
  });

  it('makes one thread of concurrent first messages between one pair', async () => {
    const { biz, sh, shifterId, businessId } = await pair();
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => send(biz.key, { to: toShifter(shifterId), body: `business ${i}` })),
      ...Array.from({ length: 5 }, (_, i) => send(sh.key, { to: toBusiness(businessId), body: `shifter ${i}` })),
    ]);
    const rows = await db()
      .select()
      .from(conversations)
      .where(like(conversations.pair_key, `%${shifterId}%`));
    expect(rows).toHaveLength(1);
    const id = rows[0]!.id;
    const won = answers.filter((a) => a.status === 201);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 409, 'MSG-REQ-PENDING-ERR');
    expect(won.length).toBeGreaterThanOrEqual(2);
    for (const a of won) expect(a.body.thread.id).toBe(id);
    expect(won.map((a) => a.body.message.seq).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: won.length }, (_, i) => i + 1),
    );
    expect((await threadStub(id).stats()).count).toBe(won.length);
    const parts = await db().select().from(conversationParticipants).where(eq(conversationParticipants.conversation_id, id));
    expect(parts).toHaveLength(2);
  });

  it('lets exactly one of 10 concurrent first messages from one side through while the request is pending', async () => {
    const { biz, shifterId } = await pair();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(biz.key, { to: toShifter(shifterId), body: `try ${i}` })));
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 409, 'MSG-REQ-PENDING-ERR');
    expect(won[0]!.body.message.seq).toBe(1);
    expect((await threadStub(won[0]!.body.thread.id).stats()).count).toBe(1);
  });
});

// ── Notifications ────────────────────────────────────────────────────────────────────────────────
describe('notifications', () => {
  it("notifies the recipient's people once per message: a request first, then received messages", async () => {
    const { biz, sh, businessId, shifterId } = await pair();
    const [mate, suspended] = await Promise.all([makeUser(), makeUser()]);
    await addTeammate(businessId, mate.userId, 1);
    await addTeammate(businessId, suspended.userId, 0);
    const first = ok(await send(sh.key, { to: toBusiness(businessId), body: 'Is Friday still open?' }), 201);
    const [request] = await noticesOf(first.message.id);
    expect(request).toMatchObject({
      kind: 'message.request',
      dedupe_key: `message.request:${first.message.id}`,
      title: 'Message request from Shifter Sam',
      status: 'sent',
    });
    expect([...request!.user_ids].sort()).toEqual([biz.userId, mate.userId].sort());

    // A teammate answers for the business: the shifter hears of it, not the teammate who wrote.
    const reply = ok(await send(mate.key, { to: toShifter(shifterId), body: 'Yes it is.' }), 201);
    const [received] = await noticesOf(reply.message.id);
    expect(received).toMatchObject({ kind: 'message.received', user_ids: [sh.userId], title: 'New message from Owner Olga Co' });

    // Delivered twice (a queue redelivers), it is recorded once per user.
    const body = JSON.parse(
      (
        await db()
          .select()
          .from(outboxEvents)
          .where(like(outboxEvents.body, `%${reply.message.id}%`))
      )[0]!.body,
    ) as Record<string, unknown>;
    await deliver(QUEUES.notifications, [message(body)]);
    await deliver(QUEUES.notifications, [message(body)]);
    const rows = await db()
      .select()
      .from(notifications)
      .where(like(notifications.dedupe_key, `message.received:${reply.message.id}%`));
    expect(rows.map((r) => r.user_id)).toEqual([sh.userId]);
  });
});

// ── Durability: the thread's object is the truth ─────────────────────────────────────────────────
describe('durability', () => {
  it('keeps a message whose D1 inbox update failed, and brings the inbox up to it from the alarm', async () => {
    const { biz, sh, threadId } = await acceptedThread();
    const stub = threadStub(threadId);
    const input: AppendInput = {
      message: {
        id: 'msg_synctest000000000001',
        senderKind: 'shifter',
        senderId: sh.shifterId!,
        body: 'stored anyway',
        automated: false,
        createdAt: Date.now(),
      },
      dedupeKey: null,
      pendingCap: null,
      sync: {
        conversationId: threadId,
        acceptSender: false,
        notify: { kind: 'message.received', userIds: [biz.userId], title: 'New message' },
        idempotencyRecordId: null,
        requestId: 'test',
      },
    };
    const outcome = await runInDurableObject(stub, async (obj: ConversationThread) => {
      const holder = obj as unknown as { env: AppBindings };
      const real = holder.env;
      holder.env = {
        ...real,
        DB: {
          ...real.DB,
          batch: () => Promise.reject(new Error('injected: D1 unavailable')),
          prepare: real.DB.prepare.bind(real.DB),
        } as unknown as D1Database,
      };
      try {
        return await obj.append(input);
      } finally {
        holder.env = real;
      }
    });
    expect(outcome).toMatchObject({ ok: true, synced: false, message: { seq: 2, body: 'stored anyway' } });
    expect(await stub.stats()).toEqual({ count: 2, lastSeq: 2, pendingSyncs: 1 });
    expect((await d1Conversation(threadId)).last_message_seq).toBe(1);
    expect(ok(await messagesOf(biz.key, threadId)).data.map((m: { seq: number }) => m.seq)).toEqual([1, 2]);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stub.stats()).toEqual({ count: 2, lastSeq: 2, pendingSyncs: 0 });
    const row = await d1Conversation(threadId);
    expect(row).toMatchObject({ last_message_seq: 2, last_message_preview: 'stored anyway', last_sender_kind: 'shifter' });
    expect(await noticesOf('msg_synctest000000000001')).toHaveLength(1);
    expect(ok(await thread(biz.key, threadId))).toMatchObject({ unread_count: 1 });
  });

  it('never moves the inbox back when an older message syncs after a newer one', async () => {
    const { biz, threadId } = await acceptedThread();
    ok(await send(biz.key, { conversation_id: threadId, body: 'second' }), 201);
    const [older] = (await threadStub(threadId).list({ order: 'asc', from: null, limit: 1 })).messages;
    await syncInbox(
      contextAt(Date.now(), biz),
      { conversationId: threadId, acceptSender: false, notify: null, idempotencyRecordId: null, requestId: 't' },
      older!,
    );
    expect(await d1Conversation(threadId)).toMatchObject({ last_message_seq: 2, last_message_preview: 'second' });
  });

  it('answers a retried send (same Idempotency-Key) with the message stored the first time', async () => {
    const { biz, threadId } = await acceptedThread();
    const headers = { 'Idempotency-Key': `msg-${crypto.randomUUID()}` };
    const a = ok(await send(biz.key, { conversation_id: threadId, body: 'exactly once' }, headers), 201);
    const b = await send(biz.key, { conversation_id: threadId, body: 'exactly once' }, headers);
    expect(b.status).toBe(201);
    expect(b.headers.get('Idempotent-Replayed')).toBe('true');
    expect(b.body.message.id).toBe(a.message.id);
    // Below the stored answer: a retry whose first attempt's answer was never stored still finds the message.
    const ctx = { ...contextAt(Date.now(), biz), idempotency: { recordId: `idem_${crypto.randomUUID()}`, committed: null } };
    const c = await sendMessage(ctx, { conversation_id: threadId, body: 'once more' });
    const d = await sendMessage(ctx, { conversation_id: threadId, body: 'once more' });
    expect(d.message).toEqual(c.message);
    expect((await threadStub(threadId).stats()).count).toBe(3);
  });
});

// ── Support threads ──────────────────────────────────────────────────────────────────────────────
describe('support threads', () => {
  const supportOf = async (person: TestUser) =>
    openSupportThread(contextAt(Date.now(), person), { kind: 'support_ai', ownerUserId: person.userId, subject: 'How do I clock in?' });

  it('opens a support_ai thread with the help assistant, appends in order, escalates, and an admin joins and answers', async () => {
    const person = await makeUser({ shifter: true, name: 'Asking Person' });
    const admin = await makeUser({ admin: true, name: 'Support Admin' });
    const ctx = contextAt(Date.now(), person);
    const t = await supportOf(person);
    expect(t).toMatchObject({
      kind: 'support_ai',
      subject: 'How do I clock in?',
      owner_user_id: person.userId,
      as: { kind: 'user', id: person.userId },
    });
    expect(t.counterparty).toMatchObject({
      kind: 'assistant',
      id: 'help_assistant',
      is_automated: true,
      automation_kind: 'help_assistant',
    });

    const q = await appendMessage(ctx, t.id, { senderKind: 'user', senderId: person.userId, body: 'How do I clock in?' });
    const a = await appendMessage(ctx, t.id, {
      senderKind: 'assistant',
      senderId: 'help_assistant',
      body: 'Open the shift and tap Clock in.',
    });
    expect([q.seq, a.seq]).toEqual([1, 2]);
    expect(a).toMatchObject({ automated: true, sender: { kind: 'assistant', name: 'Help assistant' } });
    expect((await listMessages(ctx, t.id, null)).data.map((m) => m.body)).toEqual([
      'How do I clock in?',
      'Open the shift and tap Clock in.',
    ]);
    // The assistant's answers notify nobody (the person is waiting for them).
    expect(await noticesOf(a.id)).toEqual([]);
    expect(ok(await inbox(person.key)).data.map((x: { id: string }) => x.id)).toContain(t.id);

    // Not escalated yet: the admin may not join or read.
    expectError(await act(admin.key, t.id, 'join'), 409, 'CONFLICT-ERR');
    expectError(await messagesOf(admin.key, t.id), 403, 'MSG-NOT-PARTICIPANT');

    expect((await escalateSupportThread(ctx, t.id)).kind).toBe('support');
    const queue = ok(await call('GET', '/v1/messaging/support_queue', { key: admin.key }));
    expect(queue.data.find((x: { id: string }) => x.id === t.id)).toMatchObject({ as: null, kind: 'support' });
    expect(ok(await messagesOf(admin.key, t.id)).data).toHaveLength(2);
    expectError(await send(admin.key, { conversation_id: t.id, body: 'Hi, I can help.' }), 403, 'MSG-NOT-PARTICIPANT');

    const joined = ok(await act(admin.key, t.id, 'join'));
    expect(joined.as).toEqual({ kind: 'user', id: admin.userId });
    const answer = ok(await send(admin.key, { conversation_id: t.id, body: 'Hi, I can help.' }), 201);
    expect(answer.message).toMatchObject({ seq: 3, automated: false, sender: { kind: 'user', id: admin.userId, name: 'Support Admin' } });
    const [notice] = await noticesOf(answer.message.id);
    expect(notice).toMatchObject({ kind: 'message.received', user_ids: [person.userId] });
    // The person answers in the thread now that people handle it.
    expect(ok(await send(person.key, { conversation_id: t.id, body: 'Thanks!' }), 201).message.seq).toBe(4);
    expect(await tabIds(admin.key, 'all')).toContain(t.id);
  });

  it('keeps support threads to their person and the admins over them', async () => {
    const person = await makeUser({ shifter: true });
    const [stranger, demoAdminUser] = await Promise.all([makeUser({ shifter: true }), makeUser({ name: 'Demo Admin' })]);
    const t = await supportOf(person);
    await escalateSupportThread(contextAt(Date.now(), person), t.id);
    expectError(await act(stranger.key, t.id, 'join'), 403, 'MSG-NOT-PARTICIPANT');
    expectError(await messagesOf(stranger.key, t.id), 403, 'MSG-NOT-PARTICIPANT');
    expectError(await call('GET', '/v1/messaging/support_queue', { key: stranger.key }), 403, 'FORBIDDEN-ERR');
    // A person writes only as themselves; a stranger is no sender of this thread.
    await expect(
      appendMessage(contextAt(Date.now(), stranger), t.id, { senderKind: 'user', senderId: person.userId, body: 'impersonating' }),
    ).rejects.toMatchObject({ code: 'MSG-NOT-PARTICIPANT' });
    await expect(
      appendMessage(contextAt(Date.now(), person), t.id, { senderKind: 'user', senderId: stranger.userId, body: 'who?' }),
    ).rejects.toMatchObject({ code: 'MSG-NOT-PARTICIPANT' });
    // The demo cast's admin reaches demo accounts only.
    const demoCtx = {
      ...contextAt(Date.now(), demoAdminUser),
      actor: { ...contextAt(Date.now(), demoAdminUser).actor, isDemo: true, demoAdmin: true },
    };
    await expect(joinSupportThread(demoCtx, t.id)).rejects.toMatchObject({ code: 'MSG-NOT-PARTICIPANT' });
  });
});

// ── Demo data ────────────────────────────────────────────────────────────────────────────────────
describe('demo threads', () => {
  it('gives the demo owner and Jordan a thread in every tab', async () => {
    const seeded = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: 1 } });
    expect(seeded.status, JSON.stringify(seeded.body).slice(0, 300)).toBe(200);
    expect(seeded.body.counts.message_threads).toBe(6);
    const accounts = seeded.body.accounts as Array<{ email: string; api_key: string }>;
    const keyOf = (local: string) => accounts.find((a) => a.email.startsWith(`${local}@`))!.api_key;
    const names = async (key: string, tab: string) =>
      (ok(await inbox(key, { tab })).data as Array<{ kind: string; counterparty: { name: string } | null }>)
        .filter((t) => t.kind === 'direct')
        .map((t) => t.counterparty?.name);

    const owner = keyOf('owner');
    // All: the bistro's thread with Jordan, the Events request Jordan has not accepted yet, Alex (pinned).
    expect(await names(owner, 'all')).toEqual(['Jordan Rivera', 'Jordan Rivera', 'Alex Kim']);
    expect(await names(owner, 'pinned')).toEqual(['Alex Kim']);
    expect(await names(owner, 'requests')).toEqual(['Taylor Brooks']);
    expect(await names(owner, 'archived')).toEqual(['Chris Moreno']);
    const jordan = keyOf('jordan');
    expect(await names(jordan, 'all')).toEqual(['Harbor Street Bistro']);
    expect(await names(jordan, 'pinned')).toEqual(['Harbor Street Bistro']);
    expect(await names(jordan, 'requests')).toEqual(['Harbor Street Events']);

    // The long conversation: six messages in order, the last one unread by the bistro.
    const [conversation] = ok(await inbox(owner, { tab: 'all' })).data;
    expect(conversation).toMatchObject({ unread_count: 1, last_message: { seq: 6, sender: { kind: 'shifter' } } });
    const msgs = ok(await messagesOf(jordan, conversation.id)).data as Array<{ seq: number; created_at: string }>;
    expect(msgs.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Date.parse(msgs.at(-1)!.created_at)).toBeLessThan(Date.now());
    // The owner's Events thread waits for Jordan to accept.
    const waiting = ok(await inbox(owner, { tab: 'all' })).data[1];
    expect(waiting).toMatchObject({ awaiting_acceptance: true, counterparty: { name: 'Jordan Rivera', accepted: false } });
  });
});
