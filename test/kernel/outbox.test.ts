// inside: services/kernel, services/mail, services/notifications
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailOutbox, outboxEvents, smsOutbox } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { QUEUES } from '../../src/queues/consumer';
import {
  type NotificationsMessage,
  planBatches,
  publishOutbox,
  retryAfterMs,
  type ServiceContext,
  sweepOutbox,
  systemContext,
} from '../../src/services/kernel';
import { MAX_OUTBOX_ATTEMPTS, OUTBOX_GRACE_MS } from '../../src/services/kernel/events/outbox';
import { QUEUE_LIMITS } from '../../src/services/kernel/events/queue-batches';
import { EMAIL_LEASE_MS, MAX_EMAIL_ATTEMPTS } from '../../src/services/mail';
import { EMAIL_MAX_AGE_MS, EMAIL_SWEEP_RESEND_MS, OUTBOX_MAX_AGE_MS } from '../../src/services/mail/sweep';
import { MAX_TEXT_ATTEMPTS, TEXT_GRACE_MS, TEXT_LEASE_MS, TEXT_REDACTED } from '../../src/services/notifications/text-outbox';
import { db } from '../helpers/factory';
import {
  captureConsole,
  deliver,
  FREQUENT_CRON,
  interceptFetch,
  logRecords,
  message,
  outboxRow,
  readOutbox,
  runCron,
} from '../helpers/queues';

const withProvider = { ...env, MAIL_PROVIDER_API_KEY: 'test' };

afterEach(() => {
  vi.restoreAllMocks();
});

/** The email ids the cron enqueued, read from a sendBatch spy. */
function enqueuedEmailIds(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.flatMap(([msgs]) =>
    (msgs as { body: NotificationsMessage }[]).flatMap((m) => (m.body.type === 'email.send' ? [m.body.outbox_id] : [])),
  );
}

/** The sms.send messages a spied sendBatch was given, by outbox id. */
function enqueuedTextIds(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.flatMap(([msgs]) =>
    (msgs as { body: NotificationsMessage }[]).flatMap((m) => (m.body.type === 'sms.send' ? [m.body.outbox_id] : [])),
  );
}

/** A row of sms_outbox as draftText writes it (queued, due after its grace), with `overrides`. */
async function textRow(overrides: Partial<typeof smsOutbox.$inferInsert> = {}) {
  const createdAt = overrides.created_at ?? Date.now();
  const row = {
    id: newId('textMessage'),
    to_number: `+1212555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`,
    text_body: 'Join the crew: https://example.test/join/abc',
    template: 'crew_invitation',
    provider: 'local',
    status: 'queued' as const,
    created_at: createdAt,
    next_attempt_at: createdAt + TEXT_GRACE_MS,
    ...overrides,
  };
  await db().insert(smsOutbox).values(row);
  return row;
}
const readText = async (id: string) => (await db().select().from(smsOutbox).where(eq(smsOutbox.id, id)))[0]!;

/** A system context whose clock the test moves. */
function contextAt(clock: { now: number }): ServiceContext {
  return { ...systemContext(env, createExecutionContext(), 'test'), now: () => clock.now };
}

const readEvent = async (id: string) => (await db().select().from(outboxEvents).where(eq(outboxEvents.id, id)))[0]!;

async function insertEvents(rows: (typeof outboxEvents.$inferInsert)[]) {
  for (let i = 0; i < rows.length; i += 10)
    await db()
      .insert(outboxEvents)
      .values(rows.slice(i, i + 10));
}

function notifyEvent(createdAt: number, payloadChars = 10): typeof outboxEvents.$inferInsert {
  const id = newId('outbox');
  const body: NotificationsMessage = {
    type: 'notify',
    dedupe_key: `test:${id}`,
    user_ids: ['usr_x'],
    kind: 'test',
    title: 't',
    body: 'x'.repeat(payloadChars),
  };
  return { id, topic: 'notifications', body: JSON.stringify(body), created_at: createdAt, next_attempt_at: createdAt + OUTBOX_GRACE_MS };
}

describe('email outbox: failures end', () => {
  it(`a permanently failing email ends failed after ${MAX_EMAIL_ATTEMPTS} attempts and is then neither swept nor sent`, async () => {
    const http = interceptFetch(() => new Response('down', { status: 503 }));
    const row = await outboxRow({ created_at: Date.now() - 10 * 60_000 });
    const m = message<NotificationsMessage>({ type: 'email.send', outbox_id: row.id });

    for (let attempt = 1; attempt < MAX_EMAIL_ATTEMPTS; attempt++) {
      const res = await deliver(QUEUES.notifications, [{ ...m, attempts: attempt }], withProvider);
      expect(res.retryMessages).toEqual([{ msgId: m.id }]);
      const now = Date.now();
      const state = await readOutbox(row.id);
      expect(state).toMatchObject({ status: 'queued', attempts: attempt, last_error: 'mail provider answered 503', sent_at: null });
      // The sweep waits out a growing backoff before it re-sends the row.
      expect(state.next_attempt_at).toBeGreaterThan(now + retryAfterMs(attempt) - 5_000);
      expect(state.next_attempt_at).toBeLessThanOrEqual(now + retryAfterMs(attempt));
    }
    const last = await deliver(QUEUES.notifications, [{ ...m, attempts: MAX_EMAIL_ATTEMPTS }], withProvider);
    expect(last.explicitAcks).toEqual([m.id]);
    expect(last.retryMessages).toEqual([]);
    expect(await readOutbox(row.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_EMAIL_ATTEMPTS,
      last_error: 'mail provider answered 503',
      sent_at: null,
    });
    expect(http.seen).toHaveLength(MAX_EMAIL_ATTEMPTS);

    // Long after any backoff, the sweep leaves it alone and a stray message does not send it.
    await db().update(emailOutbox).set({ next_attempt_at: 0 }).where(eq(emailOutbox.id, row.id));
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    await runCron(FREQUENT_CRON);
    expect(enqueuedEmailIds(sendBatch)).not.toContain(row.id);
    const stray = await deliver(
      QUEUES.notifications,
      [message<NotificationsMessage>({ type: 'email.send', outbox_id: row.id })],
      withProvider,
    );
    expect(stray.explicitAcks).toHaveLength(1);
    expect(http.seen).toHaveLength(MAX_EMAIL_ATTEMPTS);
    expect((await readOutbox(row.id)).attempts).toBe(MAX_EMAIL_ATTEMPTS);
  });

  it('150 failing old emails do not starve a new one: it is sent on the next sweep, and the failing ones take turns', async () => {
    const now = Date.now();
    // Rows that have failed before and are due again, all older than the new one.
    const failing: (typeof emailOutbox.$inferInsert)[] = [];
    for (let i = 0; i < 150; i++) {
      failing.push({
        id: newId('email'),
        to_address: `old-${i}@example.test`,
        subject: 'Old',
        text_body: 'Old mail.',
        template: 'test',
        provider: 'resend',
        status: 'queued' as const,
        attempts: 3,
        last_error: 'mail provider answered 500',
        created_at: now - 3 * 60 * 60_000 + i,
        next_attempt_at: now - 60 * 60_000 + i,
      });
    }
    for (let i = 0; i < failing.length; i += 5)
      await db()
        .insert(emailOutbox)
        .values(failing.slice(i, i + 5));
    const fresh = await outboxRow({ created_at: now - 3 * 60_000 });

    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    await runCron(FREQUENT_CRON);
    const first = enqueuedEmailIds(sendBatch);
    expect(first).toContain(fresh.id);
    for (const call of sendBatch.mock.calls) expect((call[0] as unknown[]).length).toBeLessThanOrEqual(QUEUE_LIMITS.messagesPerBatch);

    // The re-sent message goes through the consumer: the new email is sent.
    interceptFetch(() => new Response('{}'));
    const res = await deliver(QUEUES.notifications, [message<NotificationsMessage>({ type: 'email.send', outbox_id: fresh.id })]);
    expect(res.explicitAcks).toHaveLength(1);
    expect(await readOutbox(fresh.id)).toMatchObject({ status: 'sent', attempts: 1 });

    // Each picked row was pushed back, so the next sweep moves on to the ones not yet tried.
    const firstFailing = first.filter((id) => id !== fresh.id);
    expect(firstFailing.length).toBeGreaterThan(0);
    const picked = await db()
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, firstFailing.slice(0, 50)));
    for (const r of picked) expect(r.next_attempt_at).toBeGreaterThan(now + EMAIL_SWEEP_RESEND_MS - 60_000);
    sendBatch.mockClear();
    await runCron(FREQUENT_CRON);
    const second = enqueuedEmailIds(sendBatch);
    expect(second.filter((id) => firstFailing.includes(id))).toEqual([]);
    expect(new Set([...firstFailing, ...second].filter((id) => failing.some((f) => f.id === id))).size).toBe(150);
  });

  it('an email not delivered within a day is marked failed instead of being re-sent', async () => {
    const old = await outboxRow({
      created_at: Date.now() - EMAIL_MAX_AGE_MS - 60_000,
      attempts: 2,
      last_error: 'mail provider answered 500',
    });
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    await runCron(FREQUENT_CRON);
    expect(enqueuedEmailIds(sendBatch)).not.toContain(old.id);
    expect(await readOutbox(old.id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'not delivered within 24 hours' });
  });
});

describe('email outbox: delivered once', () => {
  it('a redelivered or duplicated email.send message still delivers once', async () => {
    const http = interceptFetch(() => Response.json({ id: 'resend-id' }));
    const row = await outboxRow();
    const m = message<NotificationsMessage>({ type: 'email.send', outbox_id: row.id });

    // Five copies at once (the enqueue after commit and a sweep, a redelivery…), then a late redelivery.
    const copies = await Promise.all(
      Array.from({ length: 5 }, (_, i) => deliver(QUEUES.notifications, [{ ...m, id: `${m.id}-${i}` }], withProvider)),
    );
    for (const res of copies) {
      expect(res.explicitAcks).toHaveLength(1);
      expect(res.retryMessages).toEqual([]);
    }
    await deliver(QUEUES.notifications, [{ ...m, attempts: 2 }], withProvider);

    expect(http.unexpected).toEqual([]);
    expect(http.seen).toHaveLength(1);
    expect(await readOutbox(row.id)).toMatchObject({ status: 'sent', attempts: 1, provider: 'resend' });
  });

  it('a delivery that never finished is re-sent by the sweep once its lease has run out, not before', async () => {
    const now = Date.now();
    const held = await outboxRow({ status: 'sending', attempts: 1, created_at: now - 5 * 60_000, next_attempt_at: now + EMAIL_LEASE_MS });
    const stuck = await outboxRow({ status: 'sending', attempts: 1, created_at: now - 5 * 60_000, next_attempt_at: now - 1_000 });
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    await runCron(FREQUENT_CRON);
    const ids = enqueuedEmailIds(sendBatch);
    expect(ids).toContain(stuck.id);
    expect(ids).not.toContain(held.id);
    expect(await readOutbox(stuck.id)).toMatchObject({ status: 'queued' });

    const http = interceptFetch(() => new Response('{}'));
    // A message for the held row is a duplicate of the delivery in progress: acknowledged, not sent.
    const dup = await deliver(
      QUEUES.notifications,
      [message<NotificationsMessage>({ type: 'email.send', outbox_id: held.id })],
      withProvider,
    );
    expect(dup.explicitAcks).toHaveLength(1);
    expect(http.seen).toHaveLength(0);
    const res = await deliver(
      QUEUES.notifications,
      [message<NotificationsMessage>({ type: 'email.send', outbox_id: stuck.id })],
      withProvider,
    );
    expect(res.explicitAcks).toHaveLength(1);
    expect(http.seen).toHaveLength(1);
    expect(await readOutbox(stuck.id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('text outbox: the same sweep as email', () => {
  it('re-queues a text left unsent past its grace or a dead lease, and sends it once; a fresh, a held or a sent one is left alone', async () => {
    const now = Date.now();
    const stale = await textRow({ created_at: now - 3 * 60_000 });
    const stuck = await textRow({ status: 'sending', attempts: 1, created_at: now - 5 * 60_000, next_attempt_at: now - 1_000 });
    const fresh = await textRow({ created_at: now - 30_000 });
    const held = await textRow({ status: 'sending', attempts: 1, created_at: now - 5 * 60_000, next_attempt_at: now + TEXT_LEASE_MS });
    const sent = await textRow({ created_at: now - 10 * 60_000, status: 'sent', attempts: 1, sent_at: now - 9 * 60_000 });

    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    await runCron(FREQUENT_CRON);
    const ids = enqueuedTextIds(sendBatch);
    expect(ids).toEqual(expect.arrayContaining([stale.id, stuck.id]));
    for (const left of [fresh, held, sent]) expect(ids).not.toContain(left.id);
    // Each picked row is pushed back, so the next sweep does not queue it again meanwhile.
    expect((await readText(stale.id)).next_attempt_at).toBeGreaterThan(now + EMAIL_SWEEP_RESEND_MS - 60_000);
    expect(await readText(stuck.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await readText(sent.id)).toMatchObject({ status: 'sent', attempts: 1 });

    // The re-queued message goes through the consumer like the first one; a copy of it sends nothing more.
    const msg = message<NotificationsMessage>({ type: 'sms.send', outbox_id: stuck.id });
    expect((await deliver(QUEUES.notifications, [msg])).explicitAcks).toHaveLength(1);
    expect((await deliver(QUEUES.notifications, [{ ...msg, id: `${msg.id}-copy` }])).explicitAcks).toHaveLength(1);
    expect(await readText(stuck.id)).toMatchObject({ status: 'sent', attempts: 2 });

    sendBatch.mockClear();
    await runCron(FREQUENT_CRON);
    expect(enqueuedTextIds(sendBatch)).not.toContain(stuck.id);
    expect(enqueuedTextIds(sendBatch)).not.toContain(stale.id);
  });

  it(`keeps the attempts bound: a text that had its ${MAX_TEXT_ATTEMPTS} attempts, or is a day old, is failed, never queued again`, async () => {
    const now = Date.now();
    const spent = await textRow({
      status: 'sending',
      attempts: MAX_TEXT_ATTEMPTS,
      created_at: now - 60 * 60_000,
      next_attempt_at: now - 1_000,
    });
    const oneLeft = await textRow({ attempts: MAX_TEXT_ATTEMPTS - 1, created_at: now - 60 * 60_000, next_attempt_at: now - 1_000 });
    const old = await textRow({ sensitive: true, attempts: 2, created_at: now - OUTBOX_MAX_AGE_MS - 60_000, next_attempt_at: now - 1_000 });
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);

    await runCron(FREQUENT_CRON, { ...env, LOCAL_MAILBOX: 'false' });
    const ids = enqueuedTextIds(sendBatch);
    expect(ids).toContain(oneLeft.id);
    expect(ids).not.toContain(spent.id);
    expect(ids).not.toContain(old.id);
    expect(await readText(spent.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_TEXT_ATTEMPTS,
      last_error: `no delivery after ${MAX_TEXT_ATTEMPTS} attempts`,
    });
    // Past a day it says so, and a text carrying a link keeps none of it.
    expect(await readText(old.id)).toMatchObject({
      status: 'failed',
      last_error: 'not delivered within 24 hours',
      text_body: TEXT_REDACTED,
    });

    // A stray message for the failed row sends nothing.
    const stray = await deliver(QUEUES.notifications, [message<NotificationsMessage>({ type: 'sms.send', outbox_id: spent.id })]);
    expect(stray.explicitAcks).toHaveLength(1);
    expect(await readText(spent.id)).toMatchObject({ status: 'failed', attempts: MAX_TEXT_ATTEMPTS });
  });
});

describe('event outbox: failures end', () => {
  it(`an event whose publish keeps failing backs off, ends failed after ${MAX_OUTBOX_ATTEMPTS} attempts and is no longer swept`, async () => {
    const clock = { now: Date.now() };
    const event = notifyEvent(clock.now - 2 * 60_000);
    await insertEvents([event]);
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockRejectedValue(new Error('Queue send failed: 503'));

    let previousWait = 0;
    for (let attempt = 1; attempt <= MAX_OUTBOX_ATTEMPTS; attempt++) {
      expect(await sweepOutbox(contextAt(clock))).toBe(0);
      const row = await readEvent(event.id);
      expect(row.attempts).toBe(attempt);
      expect(row.last_error).toContain('Queue send failed: 503');
      if (attempt < MAX_OUTBOX_ATTEMPTS) {
        expect(row.status).toBe('queued');
        const wait = row.next_attempt_at - clock.now;
        expect(wait).toBe(retryAfterMs(attempt));
        expect(wait).toBeGreaterThanOrEqual(previousWait);
        previousWait = wait;
        // Not due before its backoff has passed.
        clock.now = row.next_attempt_at - 1;
        const calls = sendBatch.mock.calls.length;
        await sweepOutbox(contextAt(clock));
        expect(sendBatch.mock.calls.length).toBe(calls);
        clock.now = row.next_attempt_at;
      } else {
        expect(row.status).toBe('failed');
      }
    }
    expect(sendBatch).toHaveBeenCalledTimes(MAX_OUTBOX_ATTEMPTS);

    sendBatch.mockResolvedValue(undefined as never);
    clock.now += 365 * 24 * 60 * 60_000;
    await sweepOutbox(contextAt(clock));
    expect(sendBatch).toHaveBeenCalledTimes(MAX_OUTBOX_ATTEMPTS);
    expect(await readEvent(event.id)).toMatchObject({ status: 'failed', attempts: MAX_OUTBOX_ATTEMPTS, sent_at: null });
  });

  it('a backlog of retried events larger than one sweep does not hold back a new one: it is sent on the next sweep', async () => {
    const clock = { now: Date.now() };
    // Left over from an outage: more events due for a retry than one sweep reads, all older.
    const retried = Array.from({ length: 520 }, (_, i) => ({
      ...notifyEvent(clock.now - 3 * 60 * 60_000 + i),
      attempts: 4,
      last_error: 'Queue send failed',
      next_attempt_at: clock.now - 60 * 60_000 + i,
    }));
    await insertEvents(retried);
    const fresh = notifyEvent(clock.now - 2 * 60_000);
    await insertEvents([fresh]);
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);

    await sweepOutbox(contextAt(clock));
    expect(await readEvent(fresh.id)).toMatchObject({ status: 'sent', attempts: 1 });
    // The rest of the backlog goes out on the following sweeps.
    await sweepOutbox(contextAt(clock));
    const rows = await db()
      .select({ status: outboxEvents.status })
      .from(outboxEvents)
      .where(
        inArray(
          outboxEvents.id,
          retried.slice(-50).map((r) => r.id),
        ),
      );
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(sendBatch.mock.calls.flatMap(([msgs]) => [...msgs]).length).toBe(521);
  });
});

describe('queue batches: cut by count and size', () => {
  it('splits outbox events over 256 KB into several sendBatch calls, each within the limits', async () => {
    const now = Date.now();
    // 12 events of about 60 KB: about 720 KB in all.
    const events = Array.from({ length: 12 }, () => notifyEvent(now, 60_000));
    await insertEvents(events);
    const sizes: { count: number; bytes: number }[] = [];
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockImplementation(async (msgs) => {
      const list = [...msgs];
      sizes.push({ count: list.length, bytes: list.reduce((n, m) => n + new TextEncoder().encode(JSON.stringify(m.body)).byteLength, 0) });
      return undefined as never;
    });

    expect(
      await publishOutbox(
        contextAt({ now }),
        events.map((e) => e.id),
      ),
    ).toBe(12);
    expect(sendBatch.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(sizes.reduce((n, s) => n + s.count, 0)).toBe(12);
    for (const s of sizes) {
      expect(s.bytes).toBeLessThanOrEqual(256 * 1024);
      expect(s.count).toBeLessThanOrEqual(100);
    }
    const rows = await db()
      .select()
      .from(outboxEvents)
      .where(
        inArray(
          outboxEvents.id,
          events.map((e) => e.id),
        ),
      );
    expect(rows.every((r) => r.status === 'sent' && r.sent_at !== null)).toBe(true);
  });

  it('cuts many small messages into batches of at most 100', () => {
    const plan = planBatches(Array.from({ length: 250 }, (_, i) => ({ key: String(i), body: { i } })));
    expect(plan.batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(plan.batches.flat().map((m) => m.key)).toEqual(Array.from({ length: 250 }, (_, i) => String(i)));
    expect(plan.tooLarge).toEqual([]);
  });

  it('fails an event too large for one queue message at once, with a clear log line, and sends the others', async () => {
    const now = Date.now();
    const big = notifyEvent(now, 200_000);
    const small = [notifyEvent(now), notifyEvent(now)];
    await insertEvents([big, ...small]);
    const lines = captureConsole();
    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);

    expect(await publishOutbox(contextAt({ now }), [big.id, ...small.map((s) => s.id)])).toBe(2);
    const sent = sendBatch.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => (m.body as { dedupe_key: string }).dedupe_key));
    expect(sent.sort()).toEqual(small.map((s) => `test:${s.id}`).sort());
    const row = await readEvent(big.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/too large/);
    expect(logRecords(lines).find((r) => r.outbox_id === big.id)).toMatchObject({
      level: 'error',
      topic: 'notifications',
      msg: expect.stringMatching(/too large/),
    });

    // Failed for good: the sweep does not pick it up again.
    sendBatch.mockClear();
    await sweepOutbox(contextAt({ now: now + 365 * 24 * 60 * 60_000 }));
    const later = sendBatch.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => (m.body as { dedupe_key: string }).dedupe_key));
    expect(later).not.toContain(`test:${big.id}`);
  });
});
