// inside: services/notifications
import { env } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notificationDeliveries, notifications, pushSubscriptions } from '../../src/db/schema';
import { addDays, wallClockToInstant } from '../../src/lib/shift-time';
import { QUEUES } from '../../src/queues/consumer';
import { businessRecipients, deliverOne, processNotify, sweepNotificationDeliveries } from '../../src/services/notifications';
import { type NotificationsMessage, type NotifyMessage, type ServiceContext, systemContext } from '../../src/services/kernel';
import { CATALOG, catalogEntry, NOTIFICATION_KINDS, ownerOnly } from '../../src/services/notifications/catalog';
import { pushChannel } from '../../src/services/notifications/channels/push';
import { DELIVERY_LEASE_MS, DELIVERY_RETENTION_MS } from '../../src/services/notifications/deliver';
import { quietHoursEnd } from '../../src/services/notifications/quiet-hours';
import { call, expectError, type WorkerFetch, workerWith } from '../helpers/api';
import { nextDstChangeFromNow } from '../helpers/clock';
import { addTeammate, db, makeUser, type TestUser } from '../helpers/factory';
import { captureConsole, deliver, logRecords, message } from '../helpers/queues';
import { dateAhead, HOUR, MINUTE, makePair, NY, outboxFor, postShift } from '../helpers/shifts';

/*
 * The notifications system: the catalog, per-channel preferences and quiet hours (with an injected
 * clock: services read time only through ctx.now()), de-duplication under redelivery and a crash
 * mid-delivery, the business fan-out (owner + active teammates, owner-only kinds, the owner still
 * told when teammates cannot be read), and the user's endpoints.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

/** A system context (the queue consumer's) whose clock reads `now`. */
function systemAt(now: number): ServiceContext {
  return { ...systemContext(env, { waitUntil: () => undefined }, 'test'), now: () => now };
}

/** A browser subscription with well-formed keys (the local stand-in takes the push: no VAPID keys in the tests). */
async function subscribe(user: TestUser, endpoint = `https://push.example.test/${crypto.randomUUID()}`) {
  const kp = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', kp.publicKey)) as ArrayBuffer);
  const b64u = (b: Uint8Array) =>
    btoa(String.fromCharCode(...b))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
  const res = await call('POST', '/v1/notifications/push_subscriptions', {
    key: user.key,
    body: { endpoint, keys: { p256dh: b64u(raw), auth: b64u(crypto.getRandomValues(new Uint8Array(16))) } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function putPreferences(user: TestUser, body: Record<string, unknown>) {
  const res = await call('PUT', '/v1/notifications/preferences', { key: user.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function notifyBody(userIds: string[], kind: string, extra: Partial<NotifyMessage> = {}): NotifyMessage {
  return {
    type: 'notify',
    dedupe_key: `${kind}:${crypto.randomUUID()}`,
    user_ids: userIds,
    kind,
    title: `A ${kind} notification`,
    body: 'Details.',
    ...extra,
  };
}

const deliveriesOf = (userId: string) => db().select().from(notificationDeliveries).where(eq(notificationDeliveries.user_id, userId));
const inAppOf = (userId: string) => db().select().from(notifications).where(eq(notifications.user_id, userId));

/** Captures what the sweep puts on the notifications queue, without sending it. */
function captureEnqueued() {
  const sent: NotificationsMessage[] = [];
  vi.spyOn(env.NOTIFICATIONS_QUEUE, 'sendBatch').mockImplementation(async (msgs) => {
    for (const m of msgs) sent.push(m.body as NotificationsMessage);
    return undefined as never;
  });
  return sent;
}

describe('the catalog', () => {
  it('has every kind the service sends today and the ones the spec names for later', () => {
    const produced = [
      'shift_request',
      'open_shift',
      'shift_accepted',
      'shift_declined',
      'broadcast_claimed',
      'shift_changed',
      'cancellation',
      'no_show',
      'clock_in',
      'connection_request',
      'connection_accepted',
      'teammate_invitation',
      'teammate_joined',
      'review.received',
      'review.response',
      'review.disputed',
      'review.dispute_resolved',
      'message.received',
      'message.request',
      'support.escalated',
      'webhook_endpoint_disabled',
    ];
    const spec = ['payout_paid', 'payout_failed', 'refund_issued', 'payment_dispute', 'payment_action_required', 'card_created'];
    for (const k of [...produced, ...spec]) expect(CATALOG.has(k), k).toBe(true);
    expect(NOTIFICATION_KINDS).toHaveLength(CATALOG.size);
  });

  it('SMS is off by default everywhere; email is on for money kinds', () => {
    for (const e of CATALOG.values()) expect(e.defaults.sms, e.kind).toBe(false);
    for (const e of [...CATALOG.values()].filter((x) => x.group === 'money')) expect(e.defaults.email, e.kind).toBe(true);
    expect(catalogEntry('open_shift').defaults).toEqual({ push: true, email: false, sms: false });
  });

  it('urgent kinds are the few that cannot wait; card creation and payouts are for the owner only', () => {
    expect(
      [...CATALOG.values()]
        .filter((e) => e.urgent)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(['agent_payment_confirmation', 'cancellation', 'payment_action_required'].sort());
    for (const k of ['card_created', 'payout_paid', 'payout_failed', 'refund_issued']) expect(ownerOnly(k), k).toBe(true);
    for (const k of ['clock_in', 'cancellation', 'open_shift']) expect(ownerOnly(k), k).toBe(false);
    // A kind not in the catalog still reaches people: in-app and push, never urgent, never owner-only.
    expect(catalogEntry('something.new')).toMatchObject({
      urgent: false,
      audience: 'business',
      defaults: { push: true, email: false, sms: false },
    });
  });
});

describe('preferences', () => {
  it('answers the catalog with the defaults in effect and the profile’s time zone', async () => {
    const user = await makeUser({ shifter: { timezone: 'Europe/London' } });
    const res = await call('GET', '/v1/notifications/preferences', { key: user.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: 'Europe/London', quiet_hours: null, overrides: [] });
    const payout = res.body.kinds.find((k: { kind: string }) => k.kind === 'payout_paid');
    expect(payout).toMatchObject({
      group: 'money',
      urgent: false,
      owner_only: true,
      channels: { in_app: true, push: true, email: true, sms: false },
    });
    expect(res.body.groups.map((g: { group: string }) => g.group)).toContain('money');
    // A business owner without a shifter profile: the default business's zone.
    const owner = await makeUser({ business: true });
    expect((await call('GET', '/v1/notifications/preferences', { key: owner.key })).body.timezone).toBe(NY);
  });

  it('a kind’s own choice wins over its group’s, which wins over the default; null removes a choice', async () => {
    const user = await makeUser();
    let p = await putPreferences(user, {
      channels: [
        { group: 'money', channel: 'sms', enabled: true },
        { group: 'money', channel: 'email', enabled: false },
        { kind: 'payout_failed', channel: 'email', enabled: true },
      ],
    });
    const ch = (kind: string) => p.kinds.find((k: { kind: string }) => k.kind === kind).channels;
    expect(ch('payout_paid')).toEqual({ in_app: true, push: true, email: false, sms: true });
    expect(ch('payout_failed')).toEqual({ in_app: true, push: true, email: true, sms: true });
    expect(ch('open_shift')).toEqual({ in_app: true, push: true, email: false, sms: false });
    expect(p.overrides).toHaveLength(3);

    p = await putPreferences(user, { channels: [{ group: 'money', channel: 'email', enabled: null }] });
    expect(ch('payout_paid')).toEqual({ in_app: true, push: true, email: true, sms: true });
    expect(p.overrides).toHaveLength(2);
  });

  it('sets and clears quiet hours and the time zone; refuses bad input', async () => {
    const user = await makeUser();
    let p = await putPreferences(user, { timezone: 'Asia/Tokyo', quiet_hours: { start: '22:00', end: '07:00' } });
    expect(p).toMatchObject({ timezone: 'Asia/Tokyo', quiet_hours: { start: '22:00', end: '07:00' } });
    p = await putPreferences(user, { channels: [] });
    expect(p).toMatchObject({ timezone: 'Asia/Tokyo', quiet_hours: { start: '22:00', end: '07:00' } });
    p = await putPreferences(user, { quiet_hours: null });
    expect(p).toMatchObject({ timezone: 'Asia/Tokyo', quiet_hours: null });

    const bad = async (body: unknown) =>
      expectError(await call('PUT', '/v1/notifications/preferences', { key: user.key, body }), 400, 'VALIDATION-ERR');
    await bad({ timezone: 'Mars/Olympus_Mons' });
    await bad({ timezone: '+02:00' });
    await bad({ quiet_hours: { start: '22:00', end: '22:00' } });
    await bad({ quiet_hours: { start: '25:00', end: '07:00' } });
    await bad({ channels: [{ kind: 'payout_paid', group: 'money', channel: 'sms', enabled: true }] });
    await bad({ channels: [{ channel: 'sms', enabled: true }] });
    await bad({ channels: [{ kind: 'payout_paid', channel: 'in_app', enabled: false }] });
    await bad({ channels: [{ kind: 'no_such_kind', channel: 'push', enabled: false }] });
    await bad({ channels: Array.from({ length: 91 }, () => ({ kind: 'open_shift', channel: 'push', enabled: false })) });
  });

  it('a channel turned off gets no delivery; in-app is still recorded', async () => {
    const user = await makeUser();
    await subscribe(user);
    await putPreferences(user, { channels: [{ group: 'shift_offers', channel: 'push', enabled: false }] });
    await deliver(QUEUES.notifications, [message<NotificationsMessage>(notifyBody([user.userId], 'open_shift'))]);
    expect(await deliveriesOf(user.userId)).toEqual([]);
    expect(await inAppOf(user.userId)).toHaveLength(1);
  });
});

describe('quiet hours (in the person’s zone, injected clock)', () => {
  // A night a few days ahead in New York, 22:00–07:00 quiet.
  const night = dateAhead(4, NY);
  const at = (date: string, time: string) => wallClockToInstant(date, time, NY);

  async function quietUser() {
    const user = await makeUser();
    await subscribe(user);
    await putPreferences(user, { timezone: NY, quiet_hours: { start: '22:00', end: '07:00' } });
    return user;
  }

  it('a non-urgent notification in quiet hours waits, then the sweep delivers it once they end', async () => {
    const user = await quietUser();
    const t = at(night, '23:30');
    const ends = at(addDays(night, 1), '07:00');
    const msg = notifyBody([user.userId], 'open_shift');

    const r = await processNotify(systemAt(t), msg);
    expect(r).toMatchObject({ planned: 1, sent: 0, held: 1 });
    // In-app at once (it is silent); push held until 07:00 New York time.
    expect(await inAppOf(user.userId)).toHaveLength(1);
    const [held] = await deliveriesOf(user.userId);
    expect(held).toMatchObject({ channel: 'push', status: 'queued', attempts: 0, deliver_after: ends });

    // Still night: a redelivered message or a direct attempt sends nothing, the sweep picks nothing.
    await processNotify(systemAt(t + HOUR), msg);
    expect(await deliverOne(systemAt(ends - MINUTE), held!.id)).toBe('not_due');
    const enqueued = captureEnqueued();
    await sweepNotificationDeliveries(systemAt(ends - MINUTE));
    expect(enqueued).toEqual([]);
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'queued', attempts: 0 });

    // Quiet hours over: the 5-minute sweep enqueues it and the consumer sends it.
    await sweepNotificationDeliveries(systemAt(ends + 2 * MINUTE));
    expect(enqueued).toEqual([{ type: 'notification.deliver', delivery_id: held!.id }]);
    expect(await deliverOne(systemAt(ends + 2 * MINUTE), held!.id)).toBe('sent');
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({
      status: 'sent',
      attempts: 1,
      sent_at: ends + 2 * MINUTE,
      provider: 'local',
    });
    expect(await deliverOne(systemAt(ends + 3 * MINUTE), held!.id)).toBe('not_due');
  });

  it('an urgent notification does not wait', async () => {
    const user = await quietUser();
    const t = at(night, '02:15');
    const r = await processNotify(systemAt(t), notifyBody([user.userId], 'cancellation'));
    expect(r).toMatchObject({ planned: 2, sent: 2, held: 0 });
    const rows = await deliveriesOf(user.userId);
    expect(rows.find((d) => d.channel === 'push')).toMatchObject({ status: 'sent', deliver_after: t, sent_at: t });
    expect(rows.find((d) => d.channel === 'email')).toMatchObject({ status: 'sent', deliver_after: t, sent_at: t });
  });

  it('outside quiet hours nothing waits; each person’s own hours count', async () => {
    const quiet = await quietUser();
    const awake = await makeUser();
    await subscribe(awake);
    const evening = at(night, '21:59');
    await processNotify(systemAt(evening), notifyBody([quiet.userId], 'shift_request'));
    expect((await deliveriesOf(quiet.userId))[0]).toMatchObject({ status: 'sent', deliver_after: evening });

    const t = at(night, '22:00');
    await processNotify(systemAt(t), notifyBody([quiet.userId, awake.userId], 'open_shift'));
    expect((await deliveriesOf(awake.userId))[0]).toMatchObject({ status: 'sent', deliver_after: t });
    const heldRow = (await deliveriesOf(quiet.userId)).find((d) => d.kind === 'open_shift');
    expect(heldRow).toMatchObject({ status: 'queued', deliver_after: at(addDays(night, 1), '07:00') });
  });

  it('the end of quiet hours is a wall-clock time: a 22:00–07:00 night is 10 hours at the fall change, 8 in spring', () => {
    for (const [direction, hours] of [
      ['fall', 10],
      ['spring', 8],
    ] as const) {
      const change = nextDstChangeFromNow(NY, direction);
      const start = wallClockToInstant(addDays(change, -1), '22:00', NY);
      const end = quietHoursEnd(start, { start: '22:00', end: '07:00', timezone: NY });
      expect(end).toBe(wallClockToInstant(change, '07:00', NY));
      expect((end - start) / HOUR).toBe(hours);
    }
    // Quiet hours within one day, and none at all.
    const noon = wallClockToInstant(night, '13:30', NY);
    expect(quietHoursEnd(noon, { start: '13:00', end: '15:00', timezone: NY })).toBe(wallClockToInstant(night, '15:00', NY));
    expect(quietHoursEnd(noon, { start: '15:00', end: '13:00', timezone: NY })).toBe(noon);
    expect(quietHoursEnd(noon, null)).toBe(noon);
  });
});

describe('de-duplication', () => {
  it('the same message delivered twice (and re-sent under a new id) reaches each person once per channel', async () => {
    const a = await makeUser();
    const b = await makeUser();
    await subscribe(a);
    await subscribe(b);
    const body = notifyBody([a.userId, b.userId, a.userId], 'payout_paid');
    const m = message<NotificationsMessage>(body);
    const first = await deliver(QUEUES.notifications, [m]);
    expect(first.explicitAcks).toEqual([m.id]);
    const again = await deliver(QUEUES.notifications, [{ ...m, attempts: 2 }, message<NotificationsMessage>(body)]);
    expect(again.explicitAcks).toHaveLength(2);

    for (const u of [a, b]) {
      expect(await inAppOf(u.userId)).toHaveLength(1);
      const rows = await deliveriesOf(u.userId);
      expect(rows.map((r) => [r.channel, r.status, r.attempts]).sort()).toEqual([
        ['email', 'sent', 1],
        ['push', 'sent', 1],
      ]);
    }
  });

  it('a crew larger than one planning slice: everyone gets the push once, however often it is delivered', async () => {
    const crew = await Promise.all(Array.from({ length: 45 }, () => makeUser()));
    const now = Date.now();
    // Inserted 10 at a time: D1 binds at most 100 parameters per statement.
    for (let i = 0; i < crew.length; i += 10) {
      await db()
        .insert(pushSubscriptions)
        .values(
          crew.slice(i, i + 10).map((u) => ({
            id: `psub_${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`,
            user_id: u.userId,
            endpoint: `https://push.example.test/crew/${u.userId}`,
            p256dh: `B${'A'.repeat(86)}`,
            auth: 'A'.repeat(22),
            created_at: now,
          })),
        );
    }
    const body = notifyBody(
      crew.map((u) => u.userId),
      'open_shift',
    );
    await deliver(QUEUES.notifications, [message<NotificationsMessage>(body), message<NotificationsMessage>(body)]);
    const rows = await db().select().from(notificationDeliveries).where(eq(notificationDeliveries.dedupe_key, body.dedupe_key));
    expect(rows).toHaveLength(45);
    expect(new Set(rows.map((r) => r.user_id)).size).toBe(45);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('a consumer that died mid-delivery: the redelivered message leaves the claimed row, the sweep sends it once after the lease', async () => {
    const user = await makeUser();
    await subscribe(user);
    const t = Date.now() + 3 * HOUR; // after any real-clock consumer's view of it
    const msg = notifyBody([user.userId], 'open_shift');
    const planned = await processNotify(systemAt(t), msg);
    expect(planned.sent).toBe(1);
    const [row] = await deliveriesOf(user.userId);
    // Put it back as a consumer that claimed it and died before sending would have left it.
    await db()
      .update(notificationDeliveries)
      .set({ status: 'sending', attempts: 1, sent_at: null, next_attempt_at: t + DELIVERY_LEASE_MS })
      .where(eq(notificationDeliveries.id, row!.id));

    const lines = captureConsole();
    await processNotify(systemAt(t + 10_000), msg);
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'sending', attempts: 1 });
    const enqueued = captureEnqueued();
    await sweepNotificationDeliveries(systemAt(t + 30_000));
    expect(enqueued).toEqual([]);
    await sweepNotificationDeliveries(systemAt(t + DELIVERY_LEASE_MS + 1));
    expect(enqueued).toEqual([{ type: 'notification.deliver', delivery_id: row!.id }]);
    expect(await deliverOne(systemAt(t + DELIVERY_LEASE_MS + 2), row!.id)).toBe('sent');
    expect(await deliverOne(systemAt(t + DELIVERY_LEASE_MS + 3), row!.id)).toBe('not_due');
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(logRecords(lines).filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a delivery that keeps failing gives up after the last attempt and is not swept again', async () => {
    const user = await makeUser();
    await subscribe(user);
    const t = Date.now() + 3 * HOUR;
    await processNotify(systemAt(t), notifyBody([user.userId], 'open_shift'));
    const [row] = await deliveriesOf(user.userId);
    expect(row).toMatchObject({ channel: 'push' });
    await db()
      .update(notificationDeliveries)
      .set({ status: 'queued', attempts: 7, sent_at: null })
      .where(eq(notificationDeliveries.id, row!.id));
    // The eighth attempt fails too.
    vi.spyOn(pushChannel, 'send').mockRejectedValue(new Error('push service answered 503'));
    captureConsole();
    expect(await deliverOne(systemAt(t + MINUTE), row!.id)).toBe('failed');
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'failed', attempts: 8, last_error: 'push service answered 503' });
    const enqueued = captureEnqueued();
    await sweepNotificationDeliveries(systemAt(t + 2 * HOUR));
    expect(enqueued).toEqual([]);
  });
});

describe('the sweep', () => {
  it('fails deliveries a day past due, and prunes finished ones after 30 days', async () => {
    const user = await makeUser();
    await subscribe(user);
    const t = Date.now() + 3 * HOUR;
    await processNotify(systemAt(t), notifyBody([user.userId], 'open_shift'));
    await processNotify(systemAt(t), notifyBody([user.userId], 'shift_request'));
    const [a, b] = await deliveriesOf(user.userId);
    expect([a!.status, b!.status]).toEqual(['sent', 'sent']);
    // One stays unsent (a retry that never succeeded).
    await db().update(notificationDeliveries).set({ status: 'queued', next_attempt_at: t }).where(eq(notificationDeliveries.id, b!.id));
    captureEnqueued();
    captureConsole();
    const day = 24 * HOUR;
    // Counts cover every row of this file's database; this person's rows are checked by id.
    expect((await sweepNotificationDeliveries(systemAt(t + day + MINUTE))).expired).toBeGreaterThanOrEqual(1);
    expect((await deliveriesOf(user.userId)).find((d) => d.id === b!.id)).toMatchObject({
      status: 'failed',
      last_error: 'not delivered within 24 hours of being due',
    });
    await sweepNotificationDeliveries(systemAt(t + DELIVERY_RETENTION_MS - 4 * HOUR));
    expect(await deliveriesOf(user.userId)).toHaveLength(2);
    expect((await sweepNotificationDeliveries(systemAt(t + DELIVERY_RETENTION_MS + MINUTE))).pruned).toBeGreaterThanOrEqual(2);
    expect(await deliveriesOf(user.userId)).toEqual([]);
    // The in-app notifications are the person's and stay.
    expect(await inAppOf(user.userId)).toHaveLength(2);
  });
});

describe('business fan-out', () => {
  async function businessWithTeam() {
    const owner = await makeUser({ business: true });
    const active = await makeUser();
    const suspended = await makeUser();
    await addTeammate(owner.businessId!, active.userId, 1);
    await addTeammate(owner.businessId!, suspended.userId, 0);
    // A stray teammate row for the owner must not make them hear twice.
    await addTeammate(owner.businessId!, owner.userId, 1);
    return { owner, active, suspended };
  }

  it('business kinds go to the owner and active teammates, de-duplicated; owner-only kinds to the owner alone', async () => {
    const { owner, active } = await businessWithTeam();
    const ctx = systemAt(Date.now());
    expect((await businessRecipients(ctx, owner.businessId!, 'clock_in')).sort()).toEqual([owner.userId, active.userId].sort());
    expect((await businessRecipients(ctx, owner.businessId!)).sort()).toEqual([owner.userId, active.userId].sort());
    for (const k of ['card_created', 'payout_paid', 'payout_failed', 'refund_issued']) {
      expect(await businessRecipients(ctx, owner.businessId!, k)).toEqual([owner.userId]);
    }
    expect(await businessRecipients(ctx, 'biz_missing', 'clock_in')).toEqual([]);
  });

  it('if reading the teammates fails, the owner is still notified', async () => {
    const { owner } = await businessWithTeam();
    const real = env.DB.prepare.bind(env.DB);
    vi.spyOn(env.DB, 'prepare').mockImplementation((query: string) => {
      if (/from "teammates"/i.test(query)) throw new Error('injected: D1 could not read teammates');
      return real(query);
    });
    const lines = captureConsole();
    expect(await businessRecipients(systemAt(Date.now()), owner.businessId!, 'clock_in')).toEqual([owner.userId]);
    expect(logRecords(lines).find((l) => l.msg === 'could not read teammates; notifying the owner only')).toMatchObject({ level: 'warn' });
  });

  it('through the API: a shifter accepts, the owner and the active teammate each get it once, the suspended one never', async () => {
    const { biz, sh } = await makePair();
    const active = await makeUser();
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, active.userId, 1);
    await addTeammate(biz.businessId!, suspended.userId, 0);
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const res = await call('POST', `/v1/shift_request/${s.id}/accept`, { key: sh.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [note] = await outboxFor(s.id, { topic: 'notifications', kind: 'shift_accepted' });
    expect([...note!.body.user_ids].sort()).toEqual([biz.userId, active.userId].sort());

    await deliver(QUEUES.notifications, [message(note!.body), message(note!.body)]);
    const rows = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, 'shift_accepted'), inArray(notifications.user_id, [biz.userId, active.userId, suspended.userId])));
    expect(rows.map((r) => r.user_id).sort()).toEqual([biz.userId, active.userId].sort());
  });

  it('through a producer: teammates cannot be read while a shifter accepts, the owner is still told', async () => {
    const { biz, sh } = await makePair();
    const active = await makeUser();
    await addTeammate(biz.businessId!, active.userId, 1);
    const s = await postShift(biz.key, { shifter_id: sh.shifterId });
    const real = env.DB.prepare.bind(env.DB);
    const failing = vi.spyOn(env.DB, 'prepare').mockImplementation((query: string) => {
      if (/^select "user_id" from "teammates"/i.test(query)) throw new Error('injected: D1 could not read teammates');
      return real(query);
    });
    const lines = captureConsole();
    const res = await call('POST', `/v1/shift_request/${s.id}/accept`, { key: sh.key });
    failing.mockRestore();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(logRecords(lines).some((l) => l.msg === 'could not read teammates; notifying the owner only')).toBe(true);
    const [note] = await outboxFor(s.id, { topic: 'notifications', kind: 'shift_accepted' });
    expect(note!.body.user_ids).toEqual([biz.userId]);
    await deliver(QUEUES.notifications, [message(note!.body)]);
    expect((await inAppOf(biz.userId)).map((n) => n.kind)).toContain('shift_accepted');
    expect(await inAppOf(active.userId)).toEqual([]);
  });
});

describe('the notifications list', () => {
  async function seeded(n: number) {
    const user = await makeUser();
    const base = Date.now() - n * MINUTE;
    for (let i = 0; i < n; i++) {
      await db()
        .insert(notifications)
        .values({
          id: `ntf_test${String(i).padStart(4, '0')}${crypto.randomUUID().slice(0, 8)}`,
          dedupe_key: `t:${crypto.randomUUID()}`,
          user_id: user.userId,
          kind: 'open_shift',
          title: `Notification ${i}`,
          body: 'Body',
          data: JSON.stringify({ i }),
          created_at: base + i * MINUTE,
        });
    }
    return user;
  }

  it('pages newest first with a cursor, filters unread, marks one and all read', async () => {
    const user = await seeded(5);
    const other = await seeded(1);
    const page1 = await call('GET', '/v1/notifications', { key: user.key, query: { limit: 2 } });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((n: { title: string }) => n.title)).toEqual(['Notification 4', 'Notification 3']);
    expect(page1.body.unread_count).toBe(5);
    expect(page1.body.data[0]).toMatchObject({ kind: 'open_shift', data: { i: 4 }, read_at: null });
    const page2 = await call('GET', '/v1/notifications', { key: user.key, query: { limit: 2, cursor: page1.body.next_cursor } });
    const page3 = await call('GET', '/v1/notifications', { key: user.key, query: { limit: 2, cursor: page2.body.next_cursor } });
    expect([...page2.body.data, ...page3.body.data].map((n: { title: string }) => n.title)).toEqual([
      'Notification 2',
      'Notification 1',
      'Notification 0',
    ]);
    expect(page3.body.next_cursor).toBeNull();

    const one = page1.body.data[1].id;
    const read = await call('POST', `/v1/notifications/${one}/read`, { key: user.key });
    expect(read.status).toBe(200);
    expect(read.body.read_at).not.toBeNull();
    const unread = await call('GET', '/v1/notifications', { key: user.key, query: { unread: 1 } });
    expect(unread.body.data).toHaveLength(4);
    expect(unread.body.data.map((n: { id: string }) => n.id)).not.toContain(one);
    expect(unread.body.unread_count).toBe(4);

    expect((await call('GET', `/v1/notifications/${one}`, { key: user.key })).body).toMatchObject({ id: one, read_at: read.body.read_at });
    // Someone else's notification is not found, and stays unread.
    const theirs = (await inAppOf(other.userId))[0]!.id;
    expectError(await call('GET', `/v1/notifications/${theirs}`, { key: user.key }), 404, 'NOTIFICATION-NOT-FND-ERR');
    expectError(await call('POST', `/v1/notifications/${theirs}/read`, { key: user.key }), 404, 'NOTIFICATION-NOT-FND-ERR');
    expect((await inAppOf(other.userId))[0]!.read_at).toBeNull();

    const all = await call('POST', '/v1/notifications/read_all', { key: user.key });
    expect(all.body).toEqual({ marked: 4, unread_count: 0 });
    expect((await inAppOf(other.userId))[0]!.read_at).toBeNull();
    expectError(await call('GET', '/v1/notifications', { key: user.key, query: { cursor: 'not-a-cursor' } }), 400, 'VALIDATION-ERR');
  });
});

describe('push subscriptions', () => {
  it('registers, renews the same endpoint, lists without the endpoint, unregisters only one’s own', async () => {
    const user = await makeUser();
    const other = await makeUser();
    const endpoint = `https://push.example.test/${crypto.randomUUID()}`;
    const id = await subscribe(user, endpoint);
    const again = await subscribe(user, endpoint);
    expect(again).toBe(id);
    const list = await call('GET', '/v1/notifications/push_subscriptions', { key: user.key });
    expect(list.body).toMatchObject({ vapid_public_key: null, data: [{ id, endpoint_origin: 'https://push.example.test' }] });
    expect(JSON.stringify(list.body)).not.toContain(endpoint);

    expectError(
      await call('DELETE', `/v1/notifications/push_subscriptions/${id}`, { key: other.key }),
      404,
      'PUSH-SUBSCRIPTION-NOT-FND-ERR',
    );
    const gone = await call('DELETE', `/v1/notifications/push_subscriptions/${id}`, { key: user.key });
    expect(gone.body).toEqual({ id, removed: true });
    expect((await call('GET', '/v1/notifications/push_subscriptions', { key: user.key })).body.data).toEqual([]);
  });

  it('keeps at most 10 browsers: an 11th forgets the oldest', async () => {
    const user = await makeUser();
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) ids.push(await subscribe(user));
    const list = await call('GET', '/v1/notifications/push_subscriptions', { key: user.key });
    expect(list.body.data).toHaveLength(10);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(ids[10]);
  });

  it('refuses endpoints that are not a push service on the internet, and malformed keys', async () => {
    const user = await makeUser();
    const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
    const bad = async (body: unknown) =>
      expectError(await call('POST', '/v1/notifications/push_subscriptions', { key: user.key, body }), 400, 'VALIDATION-ERR');
    for (const endpoint of [
      'http://push.example.test/x',
      'https://localhost/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://10.0.0.8/x',
      'https://metadata.internal/x',
      'https://intranet/x',
      'https://user:pw@push.example.test/x',
    ]) {
      await bad({ endpoint, keys });
    }
    await bad({ endpoint: 'https://push.example.test/x', keys: { ...keys, p256dh: 'AAAA' } });
    await bad({ endpoint: 'https://push.example.test/x', keys: { ...keys, auth: 'A'.repeat(40) } });
    await bad({ endpoint: `https://push.example.test/${'x'.repeat(1000)}`, keys });
  });

  const wellFormedKeys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
  const postEndpoint = (user: TestUser, endpoint: string, worker?: WorkerFetch) =>
    call('POST', '/v1/notifications/push_subscriptions', { key: user.key, body: { endpoint, keys: wellFormedKeys }, worker });

  it('judges the host as the URL parser normalises it (case, trailing dot, IDN), and refuses other ports and names of internal addresses', async () => {
    const user = await makeUser();
    for (const endpoint of [
      'https://LOCALHOST./x',
      'https://localhost./x',
      'https://ｌｏｃａｌｈｏｓｔ/x', // full-width letters: the parser's IDN mapping reads localhost
      'https://a.LocalHost./x',
      'https://metadata.internal./x',
      'https://printer.local./x',
      'https://10.0.0.8.nip.io/x',
      'https://app.192.168.1.1.nip.io/x',
      'https://127-0-0-1.sslip.io/x',
      'https://169.254.169.254.sslip.io/latest/meta-data',
      'https://push.example.test:8443/x',
      'https://push.example.test:80/x',
    ]) {
      expectError(await postEndpoint(user, endpoint), 400, 'VALIDATION-ERR');
    }
    // The default port written out is the same URL; a public name is stored in its normal form.
    expect((await postEndpoint(user, 'https://push.example.test:443/ok')).status).toBe(201);
    const upper = await postEndpoint(user, 'https://PUSH.Example.TEST./upper');
    expect(upper.status, JSON.stringify(upper.body)).toBe(201);
    expect(upper.body.endpoint_origin).toBe('https://push.example.test');
    const [row] = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.id, upper.body.id));
    expect(row!.endpoint).toBe('https://push.example.test/upper');
  });

  it('in production takes only the push services’ own hosts on port 443, and the hosts PUSH_SERVICE_HOSTS adds', async () => {
    const user = await makeUser();
    const production = workerWith({ LOCAL_DEFAULT_SECRETS: 'false' });
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bTest',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABtest',
      'https://push.services.mozilla.com/wpush/v1/gAAAAABtest',
      'https://web.push.apple.com/QGxtest',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAABtest',
      'https://FCM.GoogleAPIs.com./fcm/send/upper-case',
    ]) {
      const res = await postEndpoint(user, endpoint, production);
      expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(201);
    }
    for (const endpoint of [
      'https://push.example.test/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://fcm.googleapis.com.attacker.example/x',
      'https://notify.windows.com.attacker.example/x',
      'https://attackernotify.windows.com/x',
      'https://notify.windows.com/x',
      'https://10.0.0.8.nip.io/x',
      'https://LOCALHOST./x',
    ]) {
      const err = expectError(await postEndpoint(user, endpoint, production), 400, 'VALIDATION-ERR');
      expect(err.details, endpoint).toEqual([expect.objectContaining({ field: 'endpoint' })]);
    }
    // An operator adds a push service: exact names and `*.` suffixes; an entry that is not a host name is ignored.
    const extended = workerWith({
      LOCAL_DEFAULT_SECRETS: 'false',
      PUSH_SERVICE_HOSTS: 'push.example.test, *.push.example.org https://bad/entry',
    });
    for (const endpoint of ['https://push.example.test/x', 'https://eu.push.example.org/x', 'https://fcm.googleapis.com/fcm/send/still']) {
      expect((await postEndpoint(user, endpoint, extended)).status, endpoint).toBe(201);
    }
    for (const endpoint of ['https://push.example.org/x', 'https://push.example.test:8443/x', 'https://bad/entry']) {
      expectError(await postEndpoint(user, endpoint, extended), 400, 'VALIDATION-ERR');
    }
  });
});
