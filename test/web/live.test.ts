import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppBindings } from '../../src/env';
import { QUEUES } from '../../src/queues/consumer';
import { systemContext } from '../../src/services/kernel';
import { BUSINESS_LIVE_LIMITS, publishLive } from '../../src/services/live';
import { BASE, call } from '../helpers/api';
import { addTeammate, connect, makeUser, type TestUser } from '../helpers/factory';
import { captureConsole, deliver, logRecords, message } from '../helpers/queues';
import { DAY, insertShift } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';
import { openSocket, pause, until } from '../helpers/sockets';
import type { WebClient } from '../helpers/web';

/*
 * The live updates of a business's pages (GET /dashboard/live, a WebSocket to the business's Durable
 * Object): who may open one, the signals the queue consumer publishes from the outbox's events (a
 * kind and a sequence number, never data), the bounds, and that a failed publish fails no delivery.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

interface Heard {
  type: string;
  kind: string;
  seq: number;
}

/** Opens the live updates of `businessId` as the browser `b` (signed out: null). */
const openLive = (b: WebClient | null, businessId: string, origin = BASE) =>
  openSocket<Heard>(`/dashboard/live?business_id=${encodeURIComponent(businessId)}`, b, origin);

const kinds = (heard: Heard[]) => [...new Set(heard.map((h) => h.kind))].sort();

/** A business with its owner, an active teammate and a crew shifter. */
async function business() {
  const owner = await makeUser({ business: { name: 'Corner Cup Café' } });
  const mate = await makeUser();
  await addTeammate(owner.businessId!, mate.userId);
  const crew = await makeUser({ shifter: { display_name: 'Jo Lane' } });
  await connect(owner.businessId!, crew.shifterId!);
  return { owner, mate, crew, businessId: owner.businessId! };
}

const live = (u: TestUser, businessId: string) => signedIn(u).then((b) => openLive(b, businessId));

describe('who may follow a business', () => {
  it('accepts the owner and an active teammate; refuses a signed-out caller, a stranger, its crew and another site', async () => {
    const { owner, mate, crew, businessId } = await business();
    const stranger = await makeUser({ business: true });

    const signedOut = await openLive(null, businessId);
    expect(signedOut.res.status).toBe(303);
    expect(signedOut.res.headers.get('Location')).toMatch(/^\/login/);
    expect(signedOut.ws).toBeNull();
    expect((await live(stranger, businessId)).res.status).toBe(404);
    // A shifter of the crew sees the business's open shifts, not its pages.
    expect((await live(crew, businessId)).res.status).toBe(404);
    const ownerBrowser = await signedIn(owner);
    expect((await openLive(ownerBrowser, businessId, 'https://elsewhere.example')).res.status).toBe(403);
    expect((await openLive(ownerBrowser, 'biz_unknown')).res.status).toBe(404);

    const ownerLive = await openLive(ownerBrowser, businessId);
    const mateLive = await live(mate, businessId);
    expect([ownerLive.res.status, mateLive.res.status]).toEqual([101, 101]);
    // The object answers a ping without waking up.
    ownerLive.ws!.send('ping');
    ownerLive.ws!.close(1000);
    mateLive.ws!.close(1000);
  });

  it('closes the sockets of a session that signs out, and of a teammate the owner suspends', async () => {
    const { owner, mate, businessId } = await business();
    const b = await signedIn(owner);
    const mine = await openLive(b, businessId);
    const other = await live(owner, businessId);
    const mates = await live(mate, businessId);
    expect([mine.res.status, other.res.status, mates.res.status]).toEqual([101, 101, 101]);

    expect((await b.post('/logout')).status).toBe(303);
    await until(() => mine.closed.code !== undefined);
    expect(mine.closed).toEqual({ code: 4401, reason: expect.stringMatching(/session ended/i) });
    // Signing in again afterwards is a new session the sign-out never knew: its page follows again.
    const again = await live(owner, businessId);
    expect(again.res.status).toBe(101);
    again.ws!.close(1000);

    const suspended = await call('PUT', `/v1/business/${businessId}/teammates/${mate.userId}`, { key: owner.key, body: { status: 0 } });
    expect(suspended.status).toBe(200);
    await until(() => mates.closed.code !== undefined);
    expect(mates.closed).toEqual({ code: 4403, reason: expect.stringMatching(/no longer/i) });
    // The owner's other session still follows, and hears the next change.
    expect(await publishLive(systemContext(env, { waitUntil: () => undefined }, 'test'), businessId, 'shifts')).toBe(true);
    await until(() => other.heard.length > 0);
    expect(other.closed.code).toBeUndefined();
    expect((await live(mate, businessId)).res.status).toBe(404);
    other.ws!.close(1000);
  });

  it('refuses a session’s sockets beyond its cap, before the upgrade; closing one makes room', async () => {
    const { owner, businessId } = await business();
    const b = await signedIn(owner);
    const opened: Awaited<ReturnType<typeof openLive>>[] = [];
    for (let i = 0; i <= BUSINESS_LIVE_LIMITS.socketsPerSession; i++) opened.push(await openLive(b, businessId));
    const statuses = opened.map((o) => o.res.status);
    expect(statuses.slice(0, BUSINESS_LIVE_LIMITS.socketsPerSession).every((s) => s === 101)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(opened.at(-1)!.res.headers.get('Retry-After')).toBe('30');
    // Another session of the same person has its own allowance.
    expect((await live(owner, businessId)).res.status).toBe(101);
    opened[0]!.ws!.close(1000);
    await until(() => opened[0]!.closed.code !== undefined);
    await pause(50);
    expect((await openLive(b, businessId)).res.status).toBe(101);
  });
});

describe('what the pages refetch', () => {
  it('marks the regions of a business’s pages and serves the header’s figures as a fragment', async () => {
    const { owner, businessId } = await business();
    const b = await signedIn(owner);
    const today = await b.get(`/dashboard?business_id=${businessId}`);
    expect(today.html).toContain(`data-island="live"`);
    expect(today.html).toMatch(/data-live-region="today" data-live-on="shifts connections counts"/);
    expect(today.html).toContain('data-live-region="count-inbox"');
    const crew = await b.get(`/dashboard/crew?business_id=${businessId}`);
    for (const id of ['crew-requests', 'crew-invites', 'crew-members']) expect(crew.html).toContain(`data-live-region="${id}"`);
    const counts = await b.get(`/dashboard/live/counts?business_id=${businessId}`);
    expect(counts.status).toBe(200);
    expect(counts.html).toMatch(/data-live-region="count-notifications"[^>]*>Notifications/);
    // The pages every person shares (the inbox) follow no business.
    const inbox = await b.get('/inbox');
    expect(inbox.status).toBe(200);
    expect(inbox.html).not.toContain('data-island="live"');
  });
});

describe('what the pages hear', () => {
  it('a claim by a crew shifter reaches every socket of the business as a shifts signal within 5 s, with growing numbers', async () => {
    const { owner, mate, crew, businessId } = await business();
    // Written straight to D1: no event of its own, so the sockets hear only the claim.
    const broadcast = await insertShift({ businessId, broadcast: true, shifterId: null, status: 1, startsAt: Date.now() + 2 * DAY });
    const ownerLive = await live(owner, businessId);
    const mateLive = await live(mate, businessId);
    const other = await makeUser({ business: true });
    const otherLive = await live(other, other.businessId!);

    const t0 = Date.now();
    const claimed = await call('POST', `/v1/shift_request/${broadcast.id}/claim`, { key: crew.key });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    await until(() => ownerLive.heard.some((h) => h.kind === 'shifts') && mateLive.heard.some((h) => h.kind === 'shifts'));
    expect(Date.now() - t0).toBeLessThan(5000);
    // The claim is both a partner event and a notification of the business's people (their counts).
    await until(() => kinds(ownerLive.heard).includes('counts'));
    expect(ownerLive.heard.every((h) => h.type === 'changed' && Object.keys(h).sort().join() === 'kind,seq,type')).toBe(true);
    const seqs = ownerLive.heard.map((h) => h.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    await pause(300);
    expect(otherLive.heard).toEqual([]);
    for (const l of [ownerLive, mateLive, otherLive]) l.ws!.close(1000);
  });

  it('a connection request from a shifter reaches the business as connections, and counts only the people notified', async () => {
    const owner = await makeUser({ business: { name: 'Harbour Deli' } });
    const mate = await makeUser();
    await addTeammate(owner.businessId!, mate.userId);
    const asker = await makeUser({ shifter: { display_name: 'Sam Reed' } });
    const ownerLive = await live(owner, owner.businessId!);
    const mateLive = await live(mate, owner.businessId!);

    const sent = await call('POST', '/v1/request_authorization/send', { key: asker.key, body: { business_id: owner.businessId } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await until(() => kinds(ownerLive.heard).join() === 'connections,counts' && kinds(mateLive.heard).join() === 'connections,counts');

    // A notification of the owner alone (through the consumer, as the outbox sends it): only the owner's pages count again.
    const before = { owner: ownerLive.heard.length, mate: mateLive.heard.length };
    const m = message({
      type: 'notify',
      dedupe_key: `test:${crypto.randomUUID()}`,
      user_ids: [owner.userId],
      kind: 'review.received',
      title: 'A new review',
      body: 'Sam Reed reviewed Harbour Deli.',
    });
    expect((await deliver(QUEUES.notifications, [m])).explicitAcks).toEqual([m.id]);
    await until(() => ownerLive.heard.length > before.owner);
    expect(ownerLive.heard.slice(before.owner).map((h) => h.kind)).toEqual(['counts']);
    await pause(200);
    expect(mateLive.heard.length).toBe(before.mate);
    ownerLive.ws!.close(1000);
    mateLive.ws!.close(1000);
  });

  it('stops telling a socket whose session ran out', async () => {
    const { owner, businessId } = await business();
    const l = await live(owner, businessId);
    await runInDurableObject(env.BUSINESS_LIVE.get(env.BUSINESS_LIVE.idFromName(businessId)), (_obj, state) => {
      for (const ws of state.getWebSockets()) ws.serializeAttachment({ ...ws.deserializeAttachment(), expiresAt: Date.now() - 1 });
    });
    await publishLive(systemContext(env, { waitUntil: () => undefined }, 'test'), businessId, 'shifts');
    await until(() => l.closed.code !== undefined);
    expect(l.closed.code).toBe(4401);
    expect(l.heard).toEqual([]);
  });
});

describe('a failed publish fails no delivery', () => {
  /** The bindings with a business live object that cannot be reached. */
  const unreachable = (): AppBindings => ({
    ...env,
    BUSINESS_LIVE: {
      idFromName: (name: string) => env.BUSINESS_LIVE.idFromName(name),
      get: () => ({
        signal: () => Promise.reject(new Error('the object is unreachable')),
      }),
    } as unknown as AppBindings['BUSINESS_LIVE'],
  });

  it('acknowledges the notification and the partner event, and logs the signal that could not go out', async () => {
    const { owner, businessId } = await business();
    const lines = captureConsole();
    const notify = message({
      type: 'notify',
      dedupe_key: `test:${crypto.randomUUID()}`,
      user_ids: [owner.userId],
      kind: 'broadcast_claimed',
      title: 'Jo Lane claimed your open shift',
      body: 'See it in your schedule.',
      data: { business_id: businessId },
    });
    const notified = await deliver(QUEUES.notifications, [notify], unreachable());
    expect(notified.explicitAcks).toEqual([notify.id]);
    expect(notified.retryMessages).toEqual([]);

    const event = message({
      id: `whe_${crypto.randomUUID()}`,
      type: 'shift_request.claimed',
      created_at: new Date().toISOString(),
      business_id: businessId,
      data: {},
    });
    const fanned = await deliver(QUEUES.webhooks, [event], unreachable());
    expect(fanned.retryMessages).toEqual([]);

    const warned = logRecords(lines).filter((r) => String(r.msg).includes('live update could not be published'));
    expect(warned.length).toBeGreaterThanOrEqual(2);
    expect(warned.every((r) => r.business_id === businessId)).toBe(true);
  });
});
