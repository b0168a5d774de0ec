import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { notifications } from '../../src/db/schema';
import { countUnreadThreads } from '../../src/services/messaging';
import { newId } from '../../src/lib/ids';
import { BASE, call } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { fullScans, plansReading, type Recorded, recordingD1 } from '../helpers/plans';
import { connect, db, makeUser } from '../helpers/factory';
import type { WebClient } from '../helpers/web';
import { signedIn } from '../helpers/signed-in';
import { openSocket, until } from '../helpers/sockets';

/** A business and a shifter connected to it, and the shifter's first message to the business (a request). */
async function pair() {
  const owner = await makeUser({ business: { name: 'Quayside Kitchen' } });
  const worker = await makeUser({ shifter: { display_name: 'Robin Hale' } });
  await connect(owner.businessId!, worker.shifterId!);
  const sent = await call('POST', '/v1/messaging/messages', {
    key: worker.key,
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    body: { to: { kind: 'business', id: owner.businessId }, body: 'Hello, any shifts this weekend?' },
  });
  expect(sent.status).toBe(201);
  return { owner, worker, threadId: sent.body.thread.id as string };
}

/** The header's unread figure for the inbox, or 0 when there is none. */
const inboxBadge = (html: string) => Number(/href="\/inbox"[^>]*>Inbox<span class="count-badge">(\d+)/.exec(html)?.[1] ?? 0);

/** Opens the live view of a thread as the signed-in browser `b`; the open socket and what it hears. */
const openLive = (b: WebClient, threadId: string, origin = BASE) =>
  openSocket<{ type: string; message?: { body: string; seq: number }; messages?: Array<{ body: string; seq: number }> }>(
    `/inbox/${threadId}/live`,
    b,
    origin,
  );

describe('the header’s unread figure for messages', () => {
  it('counts threads with unread messages per tab, reading each party’s latest side rows on the tabs’ indexes', async () => {
    const { owner, worker, threadId } = await pair();
    const log: Recorded[] = [];
    const ctx = { ...contextAt(Date.now(), owner), db: createDb(recordingD1(env.DB, log)) };
    expect(await countUnreadThreads(ctx)).toEqual({ total: 1, all: 0, pinned: 0, requests: 1 });
    const plans = await plansReading(log, 'conversation_participants');
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) {
      expect(fullScans(p.plan, ['conversation_participants', 'conversations']), p.plan.join('\n')).toEqual([]);
      expect(p.plan.join('\n')).toMatch(/conversation_participants_inbox_requests_idx/);
      expect(p.plan.join('\n')).toMatch(/conversation_participants_inbox_all_idx/);
    }
    // Accepted and pinned by the business, then read: nothing unread; the shifter's own message never counts.
    for (const action of ['accept', 'pin'] as const)
      await call('POST', `/v1/messaging/threads/${threadId}/${action}`, { key: owner.key, body: {} });
    expect(await countUnreadThreads(ctx)).toEqual({ total: 1, all: 1, pinned: 1, requests: 0 });
    await call('POST', `/v1/messaging/threads/${threadId}/read`, { key: owner.key, body: {} });
    expect((await countUnreadThreads(ctx)).total).toBe(0);
    expect((await countUnreadThreads({ ...contextAt(Date.now(), worker) })).total).toBe(0);
  });
});

describe('the inbox pages', () => {
  it('list a request with its unread figure, accept it into All and read it by opening it', async () => {
    const { owner, threadId } = await pair();
    const b = await signedIn(owner);

    const all = await b.get('/inbox');
    expect(all.status).toBe(200);
    expect(all.html).not.toContain('Robin Hale');
    expect(inboxBadge(all.html)).toBe(1);

    const requests = await b.get('/inbox?tab=requests');
    expect(requests.html).toContain('Robin Hale');
    expect(requests.html).toContain('1 unread');
    expect(requests.html).toMatch(/Requests<span class="count-badge">1/);

    const page = await b.get(`/inbox/${threadId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Hello, any shifts this weekend?');
    expect(page.html).toContain('Message request');
    // Opening it read it: the header's figure drops.
    expect(inboxBadge(page.html)).toBe(0);

    const accepted = await b.post(`/inbox/${threadId}/accept`, { _idem: crypto.randomUUID() });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toContain('notice=accepted');
    expect((await b.get('/inbox')).html).toContain('Robin Hale');
    expect((await b.get('/inbox?tab=requests')).html).not.toContain('Robin Hale');

    await b.post(`/inbox/${threadId}/pin`, { _idem: crypto.randomUUID() });
    expect((await b.get('/inbox?tab=pinned')).html).toContain('Robin Hale');
    const archived = await b.post(`/inbox/${threadId}/archive`, { _idem: crypto.randomUUID() });
    expect(archived.location).toBe('/inbox?notice=archived');
    expect((await b.get('/inbox')).html).not.toContain('Robin Hale');
    expect((await b.get('/inbox?tab=archived')).html).toContain('Robin Hale');
  });

  it('send from the plain form, and keep what was typed beside the reason when refused', async () => {
    const { owner, worker, threadId } = await pair();
    const b = await signedIn(owner);
    const sent = await b.post(`/inbox/${threadId}/send`, { _idem: crypto.randomUUID(), body: 'Yes: Saturday 9 to 3.' });
    expect(sent.status).toBe(303);
    const listed = await call('GET', `/v1/messaging/threads/${threadId}/messages`, { key: worker.key });
    expect(listed.body.data.map((m: { body: string }) => m.body)).toEqual(['Hello, any shifts this weekend?', 'Yes: Saturday 9 to 3.']);

    // The shifter blocks the thread while the owner writes: refused, and the text stays in the box.
    await call('POST', `/v1/messaging/threads/${threadId}/block`, { key: worker.key, body: {} });
    const refused = await b.post(`/inbox/${threadId}/send`, { _idem: crypto.randomUUID(), body: 'Are you there?' });
    expect(refused.status).toBe(403);
    expect(refused.html).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*>Are you there\?<\/textarea>/);
    expect(refused.html).toContain('The other party has blocked messages in this thread.');
    // Reloaded, the page says why there is no box.
    const page = await b.get(`/inbox/${threadId}`);
    expect(page.html).not.toContain('<textarea');
    expect(page.html).toContain('The other party has blocked messages in this conversation.');
  });

  it('tells an open thread of each new message over its WebSocket, to its readers only and from this origin only', async () => {
    const { owner, worker, threadId } = await pair();
    const w = await signedIn(worker);
    const live = await openLive(w, threadId);
    expect(live.res.status).toBe(101);
    // Catching up: everything after seq 0.
    live.ws!.send(JSON.stringify({ since: 0 }));
    await until(() => live.heard.some((e) => e.type === 'messages'));
    expect(live.heard.find((e) => e.type === 'messages')!.messages!.map((m) => m.body)).toEqual(['Hello, any shifts this weekend?']);

    await call('POST', `/v1/messaging/threads/${threadId}/accept`, { key: owner.key, body: {} });
    await call('POST', '/v1/messaging/messages', { key: owner.key, body: { conversation_id: threadId, body: 'Welcome aboard' } });
    await until(() => live.heard.some((e) => e.type === 'message'));
    expect(live.heard.find((e) => e.type === 'message')!.message).toMatchObject({ body: 'Welcome aboard', seq: 2 });
    live.ws!.close(1000);

    const foreign = await openLive(w, threadId, 'https://evil.example');
    expect(foreign.res.status).toBe(403);
    const stranger = await signedIn(await makeUser({ shifter: true }));
    expect((await openLive(stranger, threadId)).res.status).toBe(404);
  });
});

async function notify(userId: string, title: string, ago: number, data: Record<string, unknown> | null = null) {
  await db()
    .insert(notifications)
    .values({
      id: newId('notification'),
      dedupe_key: crypto.randomUUID(),
      user_id: userId,
      kind: 'message.received',
      title,
      body: `${title}: details`,
      data: data ? JSON.stringify(data) : null,
      created_at: Date.now() - ago,
    });
}

describe('the notifications pages', () => {
  it('list newest first, mark one read, then all', async () => {
    const u = await makeUser({ shifter: true });
    await notify(u.userId, 'Older notice', 60_000);
    await notify(u.userId, 'Newer notice', 1_000, { conversation_id: 'cnv_abc' });
    const b = await signedIn(u);
    const page = await b.get('/notifications');
    expect(page.status).toBe(200);
    expect(page.html.indexOf('Newer notice')).toBeLessThan(page.html.indexOf('Older notice'));
    expect(page.html).toContain('href="/inbox/cnv_abc"');
    expect(page.html).toContain('Unread (2)');

    const [newer] = await db().select().from(notifications).where(eq(notifications.title, 'Newer notice'));
    const one = await b.post(`/notifications/${newer!.id}/read`, { _idem: crypto.randomUUID(), back: '/notifications' });
    expect(one.location).toBe('/notifications?notice=read');
    expect((await b.get('/notifications')).html).toContain('Unread (1)');

    await b.post('/notifications/read_all', { _idem: crypto.randomUUID(), back: '/notifications?unread=1' });
    const after = await b.get('/notifications?unread=1');
    expect(after.html).toContain('Unread (0)');
    expect(after.html).toContain('Nothing unread.');
  });

  it('preferences are a short list of grouped switches: a group sets its kinds, a mixed group says so, one save', async () => {
    const u = await makeUser({ shifter: true });
    const b = await signedIn(u);
    // Mixed to start with, through the API (the stored preferences are the kinds' own).
    const set = await call('PUT', '/v1/notifications/preferences', {
      key: u.key,
      body: {
        channels: [
          { kind: 'shift_request', channel: 'email', enabled: true },
          { kind: 'open_shift', channel: 'email', enabled: false },
        ],
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const page = await b.get('/notifications/preferences');
    expect(page.html).not.toContain('prefs-table');
    expect(page.html).toContain('<legend>Shifts offered to you</legend>');
    expect(page.html).toContain('<legend>Changes to your shifts</legend>');
    // Each group's channel is one switch (a checkbox drawn as a switch); the mixed one says how many are on.
    expect(page.html).toMatch(
      /<span class="switch-note" id="grp-shift-offers-email-note">Mixed: 1 of 2 on<\/span><\/label><input type="checkbox" role="switch" class="switch switch-mixed" id="grp-shift-offers-email" name="grp:shift_offers:email" value="on" aria-describedby="grp-shift-offers-email-note"/,
    );
    expect(page.html).toContain('name="was:shift_offers:email" value="mixed"');
    const groups = [...page.html.matchAll(/name="grp:[^"]+"/g)].length;
    expect(groups).toBeGreaterThan(10);
    expect(groups).toBeLessThanOrEqual(8 * 3);

    /** The form as the page shows it (every switch as drawn, the states groups were shown in), with `changes` over it. */
    const formOf = (html: string, changes: Record<string, string | null>) => {
      const form: Record<string, string> = { _idem: crypto.randomUUID(), timezone: 'UTC', quiet_start: '22:00', quiet_end: '07:00' };
      for (const m of html.matchAll(/name="((?:ch|grp):[^"]+)" value="on"(?: aria-describedby="[^"]+")? checked=""/g)) form[m[1]!] = 'on';
      for (const m of html.matchAll(/name="(was:[^"]+)" value="([^"]+)"/g)) form[m[1]!] = m[2]!;
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) delete form[k];
        else form[k] = v;
      }
      return form;
    };
    const kinds = async () => {
      const prefs = await call('GET', '/v1/notifications/preferences', { key: u.key });
      const of = (k: string) => prefs.body.kinds.find((x: { kind: string }) => x.kind === k).channels;
      return { request: of('shift_request'), open: of('open_shift'), prefs: prefs.body };
    };
    // The mixed group turned on: every kind of it on, by email; nothing else changes.
    const before = (await kinds()).prefs;
    expect((await b.post('/notifications/preferences', formOf(page.html, { 'grp:shift_offers:email': 'on' }))).status).toBe(303);
    let now = await kinds();
    expect([now.request.email, now.open.email]).toEqual([true, true]);
    expect(now.request.push).toBe(before.kinds.find((k: { kind: string }) => k.kind === 'shift_request').channels.push);
    const on = await b.get('/notifications/preferences');
    expect(on.html).toContain('name="was:shift_offers:email" value="on"');
    // Turned off: every kind of it off. A kind's own switch still sets that kind alone.
    expect((await b.post('/notifications/preferences', formOf(on.html, { 'grp:shift_offers:email': null }))).status).toBe(303);
    now = await kinds();
    expect([now.request.email, now.open.email]).toEqual([false, false]);
    const off = await b.get('/notifications/preferences');
    expect((await b.post('/notifications/preferences', formOf(off.html, { 'ch:open_shift:email': 'on' }))).status).toBe(303);
    now = await kinds();
    expect([now.request.email, now.open.email]).toEqual([false, true]);
    // A refusal elsewhere on the page keeps the switches as they were sent.
    const mixed = await b.get('/notifications/preferences');
    const bad = await b.post(
      '/notifications/preferences',
      formOf(mixed.html, { 'grp:shift_offers:email': 'on', quiet: 'on', quiet_end: '22:00' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('name="was:shift_offers:email" value="on"');
    expect(bad.html).toMatch(/id="grp-shift-offers-email" name="grp:shift_offers:email" value="on" checked=""/);
  });

  it('save preferences (zone, quiet hours, a channel) and refuse a bad time beside its field', async () => {
    const u = await makeUser({ shifter: true });
    const b = await signedIn(u);
    const page = await b.get('/notifications/preferences');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Turn on browser notifications');
    const boxes = [...page.html.matchAll(/name="(ch:[^"]+)" value="on" checked=""/g)].map((m) => m[1]!);
    const form: Record<string, string> = {
      _idem: crypto.randomUUID(),
      timezone: 'Europe/Lisbon',
      quiet: 'on',
      quiet_start: '21:30',
      quiet_end: '06:45',
    };
    for (const name of boxes) form[name] = 'on';
    // New messages: email and push each the other way round.
    const was = { email: boxes.includes('ch:message.received:email'), push: boxes.includes('ch:message.received:push') };
    for (const ch of ['email', 'push'] as const) {
      if (was[ch]) delete form[`ch:message.received:${ch}`];
      else form[`ch:message.received:${ch}`] = 'on';
    }
    const saved = await b.post('/notifications/preferences', form);
    expect(saved.status).toBe(303);
    const prefs = await call('GET', '/v1/notifications/preferences', { key: u.key });
    expect(prefs.body.timezone).toBe('Europe/Lisbon');
    expect(prefs.body.quiet_hours).toEqual({ start: '21:30', end: '06:45' });
    const kind = prefs.body.kinds.find((k: { kind: string }) => k.kind === 'message.received');
    expect(kind.channels).toMatchObject({ email: !was.email, push: !was.push });
    // Only the two changed boxes became choices: the rest keep following their defaults.
    expect(prefs.body.overrides).toHaveLength(2);

    const bad = await b.post('/notifications/preferences', { ...form, _idem: crypto.randomUUID(), quiet_end: '21:30' });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Quiet hours must end at another time than they start.');
    expect(bad.html).toContain('value="21:30"');
  });
});
