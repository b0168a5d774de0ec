import { env } from 'cloudflare:workers';
import { eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deadLetters, emailOutbox, notifications, outboxEvents } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { QUEUES, retryDelaySeconds } from '../src/queues/consumer';
import type { NotificationsMessage } from '../src/services/kernel';
import { call } from './helpers/api';
import { db, makeUser } from './helpers/factory';
import { deliver, interceptFetch, message, outboxRow, readOutbox, runCron } from './helpers/queues';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('notifications queue: email.send', () => {
  it('sends an outbox email once through the local stand-in; a redelivery is a no-op', async () => {
    const http = interceptFetch(() => new Response('{}'));
    const row = await outboxRow();
    const m = message<NotificationsMessage>({ type: 'email.send', outbox_id: row.id });

    const first = await deliver(QUEUES.notifications, [m]);
    expect(first.explicitAcks).toEqual([m.id]);
    expect(first.retryMessages).toEqual([]);
    const sent = await readOutbox(row.id);
    expect(sent).toMatchObject({ status: 'sent', provider: 'outbox' });
    expect(sent.sent_at).toBeGreaterThan(0);

    const again = await deliver(QUEUES.notifications, [{ ...m, attempts: 2 }]);
    expect(again.explicitAcks).toEqual([m.id]);
    expect(await readOutbox(row.id)).toEqual(sent);
    expect(http.spy).not.toHaveBeenCalled();
  });

  it('acks a message for an outbox row that does not exist', async () => {
    const m = message<NotificationsMessage>({ type: 'email.send', outbox_id: 'eml_missing' });
    const res = await deliver(QUEUES.notifications, [m]);
    expect(res.explicitAcks).toEqual([m.id]);
  });

  it('sends through Resend when MAIL_PROVIDER_API_KEY is set, with the Idempotency-Key header', async () => {
    const http = interceptFetch(() => Response.json({ id: 'resend-id' }));
    const row = await outboxRow({ subject: 'Your code', text_body: 'Code 123456' });
    const m = message<NotificationsMessage>({ type: 'email.send', outbox_id: row.id });

    const res = await deliver(QUEUES.notifications, [m], { ...env, MAIL_PROVIDER_API_KEY: 'test' });
    expect(http.unexpected).toEqual([]);
    expect(res.explicitAcks).toEqual([m.id]);
    expect(http.seen).toHaveLength(1);
    const req = http.seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers.get('Authorization')).toBe('Bearer test');
    expect(req.headers.get('Idempotency-Key')).toBe(row.id);
    expect(req.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await req.json()).toMatchObject({ to: [row.to_address], subject: 'Your code', text: 'Code 123456', from: expect.any(String) });
    expect(await readOutbox(row.id)).toMatchObject({ status: 'sent', provider: 'resend' });
  });

  it('retries with a growing delay when the provider fails, leaving the row queued', async () => {
    const http = interceptFetch(() => new Response('upstream down', { status: 500 }));
    const row = await outboxRow();
    const m1 = message<NotificationsMessage>({ type: 'email.send', outbox_id: row.id }, 1);
    const bindings = { ...env, MAIL_PROVIDER_API_KEY: 'test' };

    const first = await deliver(QUEUES.notifications, [m1], bindings);
    expect(http.unexpected).toEqual([]);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toEqual([{ msgId: m1.id }]);
    expect(first.retryDelays).toEqual({ [m1.id]: retryDelaySeconds(1) });
    expect(retryDelaySeconds(1)).toBeGreaterThanOrEqual(1);
    expect(await readOutbox(row.id)).toMatchObject({
      status: 'queued',
      sent_at: null,
      attempts: 1,
      last_error: 'mail provider answered 500',
    });

    const m4 = { ...m1, attempts: 4 };
    const later = await deliver(QUEUES.notifications, [m4], bindings);
    expect(later.retryMessages).toEqual([{ msgId: m1.id }]);
    expect(later.retryDelays).toEqual({ [m1.id]: retryDelaySeconds(4) });
    expect(retryDelaySeconds(4)).toBeGreaterThan(retryDelaySeconds(1));
    expect(retryDelaySeconds(100)).toBe(600);
    expect(http.seen).toHaveLength(2);
    for (const req of http.seen) expect(req.headers.get('Idempotency-Key')).toBe(row.id);
    expect(await readOutbox(row.id)).toMatchObject({ status: 'queued', sent_at: null, attempts: 2 });
  });

  it('handles each message of a batch on its own', async () => {
    interceptFetch(() => new Response('{}'));
    const a = await outboxRow();
    const b = await outboxRow();
    const ma = message<unknown>({ type: 'email.send', outbox_id: a.id });
    const bad = message<unknown>({ type: 'email.send' });
    const mb = message<unknown>({ type: 'email.send', outbox_id: b.id });
    const res = await deliver(QUEUES.notifications, [ma, bad, mb]);
    expect(res.explicitAcks.sort()).toEqual([ma.id, bad.id, mb.id].sort());
    expect((await readOutbox(a.id)).status).toBe('sent');
    expect((await readOutbox(b.id)).status).toBe('sent');
  });
});

describe('notifications queue: notify', () => {
  it('records one notification per distinct user; a redelivery adds none', async () => {
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const dedupe = `shift.accepted:${crypto.randomUUID()}`;
    const body: NotificationsMessage = {
      type: 'notify',
      dedupe_key: dedupe,
      user_ids: [a.userId, b.userId, a.userId],
      kind: 'shift.accepted',
      title: 'Shift accepted',
      body: 'Sam accepted your shift.',
      data: { shift_id: 'sr_1' },
    };
    const m = message(body);
    const first = await deliver(QUEUES.notifications, [m]);
    expect(first.explicitAcks).toEqual([m.id]);
    const rows = await db()
      .select()
      .from(notifications)
      .where(inArray(notifications.user_id, [a.userId, b.userId]));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.user_id).sort()).toEqual([a.userId, b.userId].sort());
    for (const r of rows) {
      expect(r).toMatchObject({ kind: 'shift.accepted', title: 'Shift accepted', body: 'Sam accepted your shift.' });
      expect(JSON.parse(r.data!)).toEqual({ shift_id: 'sr_1' });
    }

    // The queue redelivers the same message, and a producer re-sends it under a new message id.
    const redelivered = await deliver(QUEUES.notifications, [{ ...m, attempts: 2 }, message(body)]);
    expect(redelivered.explicitAcks).toHaveLength(2);
    expect(
      await db()
        .select()
        .from(notifications)
        .where(inArray(notifications.user_id, [a.userId, b.userId])),
    ).toHaveLength(2);
  });
});

describe('dead letters', () => {
  it('acks a malformed message and keeps it in dead_letters', async () => {
    const bodies: unknown[] = [{ type: 'unknown.kind' }, 'not even an object', { type: 'notify', user_ids: [] }];
    const msgs = bodies.map((b) => message(b, 1));
    const res = await deliver(QUEUES.notifications, msgs);
    expect(res.explicitAcks.sort()).toEqual(msgs.map((m) => m.id).sort());
    expect(res.retryMessages).toEqual([]);
    const stored = await db()
      .select()
      .from(deadLetters)
      .where(
        inArray(
          deadLetters.message_id,
          msgs.map((m) => m.id),
        ),
      );
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      const m = msgs.find((x) => x.id === row.message_id)!;
      expect(row.queue).toBe(QUEUES.notifications);
      expect(JSON.parse(row.body)).toEqual(m.body);
      expect(row.attempts).toBe(1);
    }
  });

  it('stores every message that reaches a dead-letter queue, once', async () => {
    for (const queue of [QUEUES.notificationsDlq, QUEUES.webhooksDlq]) {
      const m = message({ type: 'email.send', outbox_id: 'eml_gave_up' }, 6);
      const res = await deliver(queue, [m]);
      expect(res.explicitAcks).toEqual([m.id]);
      // A redelivery from the DLQ does not store it twice.
      await deliver(queue, [m]);
      const rows = await db().select().from(deadLetters).where(eq(deadLetters.message_id, m.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ queue, attempts: 6 });
      expect(JSON.parse(rows[0]!.body)).toEqual(m.body);
    }
  });
});

describe('the */5 cron: email outbox sweep', () => {
  it('re-enqueues emails still queued after 2 minutes, and only those', async () => {
    const now = Date.now();
    const stale = await outboxRow({ created_at: now - 3 * 60_000 });
    const fresh = await outboxRow({ created_at: now - 30_000 });
    const staleSent = await outboxRow({ created_at: now - 10 * 60_000, status: 'sent', sent_at: now - 9 * 60_000 });

    const sendBatch = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    await runCron('*/5 * * * *');
    const enqueued = sendBatch.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => m.body as NotificationsMessage));
    const ids = enqueued.flatMap((b) => (b.type === 'email.send' ? [b.outbox_id] : []));
    expect(ids).toContain(stale.id);
    expect(ids).not.toContain(fresh.id);
    expect(ids).not.toContain(staleSent.id);

    // The re-sent message goes through the consumer like the original would have.
    const res = await deliver(QUEUES.notifications, [message<NotificationsMessage>({ type: 'email.send', outbox_id: stale.id })]);
    expect(res.explicitAcks).toHaveLength(1);
    expect((await readOutbox(stale.id)).status).toBe('sent');

    // Once sent, the next sweep leaves it alone.
    sendBatch.mockClear();
    await runCron('*/5 * * * *');
    const again = sendBatch.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => (m.body as { outbox_id?: string }).outbox_id));
    expect(again).not.toContain(stale.id);
  });
});

describe('the */5 cron: event outbox sweep', () => {
  it('re-sends every event left unsent for over a minute, beyond one statement’s parameter limit', async () => {
    const now = Date.now();
    const stale = Array.from({ length: 120 }, (_, i) => ({
      id: newId('outbox'),
      topic: (i % 3 === 0 ? 'webhooks' : 'notifications') as 'webhooks' | 'notifications',
      body: JSON.stringify(
        i % 3 === 0
          ? { type: 'broadcast.created', business_id: 'biz_x', shift_request_id: `sr_${i}` }
          : { type: 'notify', dedupe_key: `sweep:${i}`, user_ids: ['usr_x'], kind: 'test', title: 't', body: 'b' },
      ),
      created_at: now - 5 * 60_000,
      next_attempt_at: now - 4 * 60_000,
    }));
    const fresh = { id: newId('outbox'), topic: 'notifications' as const, body: '{}', created_at: now, next_attempt_at: now + 60_000 };
    for (let i = 0; i < stale.length; i += 10)
      await db()
        .insert(outboxEvents)
        .values(stale.slice(i, i + 10));
    await db().insert(outboxEvents).values(fresh);
    // Capture the re-sent messages instead of letting the local queues deliver 120 of them in the
    // background after this file ends (the consumers have their own tests above).
    const sent = [env.NOTIFICATIONS_QUEUE, env.WEBHOOKS_QUEUE].map((q) => vi.spyOn(q, 'sendBatch').mockResolvedValue(undefined as never));

    await runCron('*/5 * * * *');
    const bodies = sent.flatMap((spy) => spy.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => m.body)));
    expect(bodies).toHaveLength(stale.length);
    const rows = await db().select().from(outboxEvents);
    const stamped = new Set(rows.filter((r) => r.sent_at !== null && r.status === 'sent').map((r) => r.id));
    expect(stale.every((r) => stamped.has(r.id))).toBe(true);
    expect(stamped.has(fresh.id)).toBe(false);
  });
});

describe('registration email', () => {
  it('is written to the outbox as queued, enqueued, and marked sent by the consumer', async () => {
    const send = vi.spyOn(env.NOTIFICATIONS_QUEUE, 'send').mockResolvedValue(undefined as never);
    const email = `reg-${crypto.randomUUID()}@example.test`;
    const reg = await call('POST', '/v1/auth/register', {
      body: { email, password: 'a long enough password', display_name: 'Rae', shifter: {} },
    });
    expect(reg.status).toBe(201);

    const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email));
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ status: 'queued', template: 'email_verification', provider: 'outbox', sent_at: null });
    expect(row.text_body).toMatch(/code is \d{6}/);

    const sentMessages = send.mock.calls.map(([body]) => body as NotificationsMessage);
    expect(sentMessages).toContainEqual({ type: 'email.send', outbox_id: row.id });

    const res = await deliver(
      QUEUES.notifications,
      sentMessages.map((b) => message(b)),
    );
    expect(res.retryMessages).toEqual([]);
    expect(await readOutbox(row.id)).toMatchObject({ status: 'sent', provider: 'outbox' });
  });
});
