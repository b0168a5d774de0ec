import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, teammates, threadLiveViews } from '../../src/db/schema';
import { LIVE_LIMITS } from '../../src/services/messaging';
import { call } from '../helpers/api';
import { addTeammate, connect, db, makeUser } from '../helpers/factory';
import type { WebClient } from '../helpers/web';
import { signedIn } from '../helpers/signed-in';
import { openSocket, pause, until } from '../helpers/sockets';

/*
 * The live view of a thread (GET /inbox/{id}/live, a WebSocket to the thread's Durable Object) lasts
 * only as long as the standing that opened it: the session, and the person's part in the thread.
 * Opening and catching up are bounded (LIVE_LIMITS).
 */

/** A business and a shifter connected to it, and the shifter's first message to the business. */
async function pair() {
  const owner = await makeUser({ business: { name: 'Harbour Deli' } });
  const worker = await makeUser({ shifter: { display_name: 'Sam Reed' } });
  await connect(owner.businessId!, worker.shifterId!);
  const sent = await send(worker.key, { to: { kind: 'business', id: owner.businessId }, body: 'Hello from Sam' });
  expect(sent.status).toBe(201);
  const threadId = sent.body.thread.id as string;
  expect((await call('POST', `/v1/messaging/threads/${threadId}/accept`, { key: owner.key, body: {} })).status).toBe(200);
  return { owner, worker, threadId };
}

const send = (key: string, body: unknown) =>
  call('POST', '/v1/messaging/messages', { key, body, headers: { 'Idempotency-Key': crypto.randomUUID() } });

interface Heard {
  type: string;
  code?: string;
  retry_after?: number;
  message?: { body: string; seq: number };
  messages?: Array<{ body: string; seq: number }>;
}

/** Opens the live view of a thread as the browser `b`. */
const openLive = (b: WebClient, threadId: string) => openSocket<Heard>(`/inbox/${threadId}/live`, b);

/** Asks for everything after `since` and waits for the answer (or the close). */
async function catchUp(live: Awaited<ReturnType<typeof openLive>>, since = 0) {
  const before = live.heard.length;
  live.ws!.send(JSON.stringify({ since }));
  await until(() => live.heard.length > before || live.closed.code !== undefined);
  return live.heard.slice(before);
}

describe('a live thread outlives no access', () => {
  it('closes the sockets of a session that signs out, which then hear no new message', async () => {
    const { owner, worker, threadId } = await pair();
    const b = await signedIn(worker);
    const live = await openLive(b, threadId);
    expect(live.res.status).toBe(101);
    expect((await catchUp(live))[0]!.messages!.map((m) => m.body)).toEqual(['Hello from Sam']);
    // Another session of the same person stays open.
    const other = await openLive(await signedIn(worker), threadId);
    expect(other.res.status).toBe(101);

    expect((await b.post('/logout')).status).toBe(303);
    await until(() => live.closed.code !== undefined);
    expect(live.closed).toEqual({ code: 4401, reason: expect.stringMatching(/session ended/i) });
    // Only the other session is still recorded as following the thread.
    expect(await db().select().from(threadLiveViews).where(eq(threadLiveViews.conversation_id, threadId))).toHaveLength(1);

    expect((await send(owner.key, { conversation_id: threadId, body: 'After sign-out' })).status).toBe(201);
    await until(() => other.heard.some((e) => e.type === 'message'));
    await pause(100);
    expect(live.heard.some((e) => e.type === 'message')).toBe(false);
    expect(other.closed.code).toBeUndefined();
    other.ws!.close(1000);
  });

  it('closes the sockets of sessions signed out from elsewhere', async () => {
    const { worker, threadId } = await pair();
    const live = await openLive(await signedIn(worker), threadId);
    expect(live.res.status).toBe(101);
    // With the API key, "sign out every other session" ends every session.
    expect((await call('POST', '/v1/user/sessions/revoke_others', { key: worker.key })).status).toBe(200);
    await until(() => live.closed.code !== undefined);
    expect(live.closed.code).toBe(4401);
  });

  it('closes the sockets of a teammate the owner suspends', async () => {
    const { owner, threadId } = await pair();
    const mate = await makeUser();
    await addTeammate(owner.businessId!, mate.userId);
    const live = await openLive(await signedIn(mate), threadId);
    expect(live.res.status).toBe(101);
    const ownerLive = await openLive(await signedIn(owner), threadId);
    expect(ownerLive.res.status).toBe(101);

    const suspended = await call('PUT', `/v1/business/${owner.businessId}/teammates/${mate.userId}`, {
      key: owner.key,
      body: { status: 0 },
    });
    expect(suspended.status).toBe(200);
    await until(() => live.closed.code !== undefined);
    expect(live.closed).toEqual({ code: 4403, reason: expect.stringMatching(/no longer/i) });

    expect((await send(owner.key, { conversation_id: threadId, body: 'Team only' })).status).toBe(201);
    await until(() => ownerLive.heard.some((e) => e.type === 'message'));
    await pause(100);
    expect(live.heard.some((e) => e.type === 'message')).toBe(false);
    // And the teammate cannot open it again.
    expect((await openLive(await signedIn(mate), threadId)).res.status).toBe(404);
    ownerLive.ws!.close(1000);
  });

  it('answers a catch-up only while the socket’s person may still read the thread', async () => {
    const { owner, threadId } = await pair();
    const mate = await makeUser();
    await addTeammate(owner.businessId!, mate.userId);
    const live = await openLive(await signedIn(mate), threadId);
    expect(live.res.status).toBe(101);
    expect((await catchUp(live))[0]!.type).toBe('messages');

    // The standing changes behind the domain's back: the catch-up itself asks again.
    await db()
      .update(teammates)
      .set({ status: 0 })
      .where(and(eq(teammates.business_id, owner.businessId!), eq(teammates.user_id, mate.userId)));
    expect(await catchUp(live)).toEqual([]);
    await until(() => live.closed.code !== undefined);
    expect(live.closed.code).toBe(4403);
    expect(live.heard.filter((e) => e.type === 'messages')).toHaveLength(1);
  });

  it('answers a catch-up only while the socket’s session lives', async () => {
    const { worker, threadId } = await pair();
    const b = await signedIn(worker);
    const live = await openLive(b, threadId);
    expect(live.res.status).toBe(101);
    await db().update(sessions).set({ revoked_at: Date.now() }).where(eq(sessions.user_id, worker.userId));
    expect(await catchUp(live)).toEqual([]);
    await until(() => live.closed.code !== undefined);
    expect(live.closed.code).toBe(4401);
  });

  it('stops telling a socket of new messages once its session has expired', async () => {
    const { owner, worker, threadId } = await pair();
    const live = await openLive(await signedIn(worker), threadId);
    expect(live.res.status).toBe(101);
    // The session runs out while the page stays open (its expiry as the socket keeps it).
    await runInDurableObject(env.THREADS.get(env.THREADS.idFromName(threadId)), (_obj, state) => {
      for (const ws of state.getWebSockets()) ws.serializeAttachment({ ...ws.deserializeAttachment(), expiresAt: Date.now() - 1 });
    });
    expect((await send(owner.key, { conversation_id: threadId, body: 'Too late' })).status).toBe(201);
    await until(() => live.closed.code !== undefined);
    expect(live.closed.code).toBe(4401);
    expect(live.heard.some((e) => e.type === 'message')).toBe(false);
  });
});

describe('live views are bounded', () => {
  it('refuses a session’s sockets beyond its cap on one thread, before the upgrade (the 61st too)', async () => {
    const { worker, threadId } = await pair();
    const b = await signedIn(worker);
    const answers: number[] = [];
    const open: WebSocket[] = [];
    for (let i = 0; i < 61; i++) {
      const live = await openLive(b, threadId);
      answers.push(live.res.status);
      if (live.ws) open.push(live.ws);
    }
    expect(answers.filter((s) => s === 101)).toHaveLength(LIVE_LIMITS.socketsPerSessionPerThread);
    expect(answers.slice(LIVE_LIMITS.socketsPerSessionPerThread).every((s) => s === 429)).toBe(true);
    expect(answers[60]).toBe(429);
    // Closing one makes room for one.
    open[0]!.close(1000);
    let again = 0;
    for (let i = 0; i < 20 && again !== 101; i++) {
      await pause(50);
      const live = await openLive(b, threadId);
      again = live.res.status;
      if (live.ws) open.push(live.ws);
    }
    expect(again).toBe(101);
    for (const ws of open) ws.close(1000);
  });

  it('refuses sockets beyond the thread’s cap, whoever opens them', async () => {
    const { worker, threadId } = await pair();
    const per = LIVE_LIMITS.socketsPerSessionPerThread;
    const browsers = await Promise.all(Array.from({ length: Math.ceil(LIVE_LIMITS.socketsPerThread / per) }, () => signedIn(worker)));
    const open: WebSocket[] = [];
    for (const b of browsers) {
      for (let i = 0; i < per && open.length < LIVE_LIMITS.socketsPerThread; i++) {
        const live = await openLive(b, threadId);
        expect(live.res.status).toBe(101);
        open.push(live.ws!);
      }
    }
    const extra = await openLive(await signedIn(worker), threadId);
    expect(extra.res.status).toBe(429);
    expect(await extra.res.text()).toMatch(/too many/i);
    for (const ws of open) ws.close(1000);
  });

  it('limits a session’s catch-ups like any read', async () => {
    const { worker, threadId } = await pair();
    const b = await signedIn(worker);
    const live = await openLive(b, threadId);
    expect(live.res.status).toBe(101);
    for (let i = 0; i < LIVE_LIMITS.replaysPerSession; i++) expect((await catchUp(live))[0]!.type).toBe('messages');
    const refused = await catchUp(live);
    expect(refused).toEqual([{ type: 'error', code: 'RATE-LIMIT-ERR', message: expect.any(String), retry_after: expect.any(Number) }]);
    expect(refused[0]!.retry_after).toBeGreaterThan(0);
    // The budget is the session's, across its sockets.
    const second = await openLive(b, threadId);
    expect((await catchUp(second))[0]!.type).toBe('error');
    live.ws!.close(1000);
    second.ws!.close(1000);
  });
});
