// inside: services/webhooks
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  outboxEvents,
  partnerBusinessLinks,
  partnerClients,
  partnerCredentials,
  reviews,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
} from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { type ServiceContext, systemContext } from '../../src/services/kernel';
import { mintCredential } from '../../src/services/partners';
import { DISABLE_AFTER_FAILING_MS } from '../../src/services/webhooks/deliver';
import { type WebhookEnvelope, webhookEnvelopeAnySchema } from '../../src/services/webhooks/payloads';
import { MAX_ATTEMPTS, partnerEvent, sweepWebhookDeliveries, WEBHOOK_EVENT_TYPES } from '../../src/services/webhooks';
import { MAX_QUEUE_DELAY_SECONDS, RETRY_DELAYS_MS } from '../../src/services/webhooks/schedule';
import { checkWebhookUrl } from '../../src/services/webhooks/url-policy';
import { db, makeUser, type TestUser } from '../helpers/factory';
import { failNextBatch } from '../helpers/failures';
import { captureQueues, consume, type Received, receivers } from '../helpers/webhooks';
import { callWithEnv, makeCrewMember } from '../helpers/shifts';
import { type ApiResult, call } from '../helpers/api';

// Partner webhooks end to end: events from the services through the outbox and the webhooks queue,
// fanned out to endpoints, signed, retried, logged and disabled. The queue is driven by hand (its
// sends are captured, then handed to the consumer as the platform would); outbound HTTP is strict:
// only the test receivers answer, anything else fails the call and the test.

const RECEIVER = 'https://receiver.example.com/hooks';
const ALL_TYPES = [
  'shift_request.created',
  'broadcast.created',
  'shift_request.claimed',
  'shift_request.accepted',
  'shift_request.cancelled',
];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

// ---- an independent receiver-side verification (Web Crypto, constant-time) ----

const enc = new TextEncoder();
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

async function verifyAsReceiver(header: string | null, secret: string, rawBody: string, nowSeconds: number): Promise<boolean> {
  if (!header) return false;
  const fields = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(fields.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = enc.encode(hex(await crypto.subtle.sign('HMAC', key, enc.encode(`${t}.${rawBody}`))));
  return fields
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const got = enc.encode(v);
      return got.byteLength === expected.byteLength && crypto.subtle.timingSafeEqual(got, expected);
    });
}

// ---- fixtures ----

interface Partner {
  clientId: string;
  key: string;
  owner: TestUser;
}

async function makePartner(scopes: string[] = ['shifts:read', 'webhooks:manage']): Promise<Partner> {
  const owner = await makeUser();
  const now = Date.now();
  const clientId = newId('partnerClient');
  await db()
    .insert(partnerClients)
    .values({
      id: clientId,
      name: 'Acme Staffing',
      owner_user_id: owner.userId,
      scopes: scopes as never,
      created_at: now,
      updated_at: now,
    });
  const { secret, row } = await mintCredential(clientId, 'api_key', now);
  await db().insert(partnerCredentials).values(row);
  return { clientId, key: secret, owner };
}

async function link(businessId: string, clientId: string, scopes: string[] = ['shifts:read', 'webhooks:manage']) {
  await db()
    .insert(partnerBusinessLinks)
    .values({ id: newId('partnerLink'), business_id: businessId, client_id: clientId, scopes: scopes as never, created_at: Date.now() });
}

/** A partner request (x-api-key) through the Worker, with the vars given (settings are parsed per env object). */
function partnerCall(
  p: Partner | string,
  method: string,
  path: string,
  body?: unknown,
  vars: Record<string, string> = {},
): Promise<ApiResult> {
  const key = typeof p === 'string' ? p : p.key;
  return callWithEnv(method, path, { headers: { 'x-api-key': key }, ...(body === undefined ? {} : { body }) }, vars);
}

async function createEndpoint(p: Partner, eventTypes: string[] = ALL_TYPES, url = RECEIVER) {
  const res = await partnerCall(p, 'POST', '/v1/partner/webhooks/endpoints', { url, event_types: eventTypes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.headers.get('Cache-Control')).toContain('no-store');
  return res.body as { id: string; secret: string };
}

/** Moves Date (and so every ctx.now()) to `ms`; timers stay real. */
function setNow(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}

const readDelivery = async (id: string) => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
const readEndpoint = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
const attemptsOf = async (id: string) =>
  db().select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.delivery_id, id)).orderBy(webhookDeliveryAttempts.attempt);
const deliveriesOf = async (endpointId: string) =>
  db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpointId));

const ctxNow = (): ServiceContext => systemContext(env, { waitUntil: () => undefined }, 'test');

/** A business with a linked partner and one endpoint: the usual stage. */
async function stage(eventTypes: string[] = ALL_TYPES) {
  const biz = await makeUser({ business: true });
  const partner = await makePartner();
  await link(biz.businessId!, partner.clientId);
  const queues = captureQueues();
  const endpoint = await createEndpoint(partner, eventTypes);
  return { biz, partner, endpoint, queues };
}

/** Puts a partner event about the business on the queue (as the outbox would) and fans it out. */
async function fanOut(queues: ReturnType<typeof captureQueues>, businessId: string, type = 'broadcast.created' as const) {
  const event = partnerEvent(
    type,
    businessId,
    {
      shift_request: {
        id: newId('shiftRequest'),
        business_id: businessId,
        shifter_id: null,
        shift_date: '2030-01-01',
        shift_in: '09:00',
        shift_out: '17:00',
        starts_at: '2030-01-01T14:00:00.000Z',
        ends_at: '2030-01-01T22:00:00.000Z',
        shiftrole_id: 1,
        hourly_rate: 20,
        currency: 'USD',
        is_broadcast: 1,
        request_status: 1,
        status: 'pending',
        parent_id: null,
        accepted_at: null,
        shift_start_at: null,
        shift_end_at: null,
        cancelled_at: null,
        cancelled_by: null,
      },
    },
    Date.now(),
  ).body;
  const res = await consume([{ body: event, delaySeconds: undefined }]);
  expect(res.explicitAcks).toHaveLength(1);
  return { event, deliveries: queues.take() };
}

// ---- tests ----

describe('events from the services reach the endpoint, signed', () => {
  it('a broadcast posted through the API arrives once per endpoint with a signature an independent Web Crypto check verifies', async () => {
    const { biz, partner, endpoint, queues } = await stage();
    const second = await createEndpoint(partner, ['broadcast.created'], 'https://receiver-two.example.com/in');
    const unsubscribed = await createEndpoint(partner, ['shift_request.accepted'], 'https://receiver-three.example.com/in');
    await makeCrewMember(biz.businessId!);
    const http = receivers();

    const posted = await callWithEnv(
      'POST',
      '/v1/shift_request/send_request',
      {
        key: biz.key,
        body: { shift_date: '2030-06-03', shift_in: '09:00', shift_out: '17:00', shiftrole_id: 1, hourly_rate: 20, is_broadcast: 1 },
      },
      {},
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    // The outbox published the event to the webhooks queue after the commit.
    const events = queues.take();
    expect(events).toHaveLength(1);
    expect(events[0]!.body).toMatchObject({ type: 'broadcast.created', business_id: biz.businessId });

    // Fan-out: one delivery message per subscribed endpoint, nothing for the one subscribed elsewhere.
    await consume(events);
    const deliveries = queues.take();
    expect(deliveries.map((d) => d.body.type)).toEqual(['webhook.deliver', 'webhook.deliver']);
    expect(await deliveriesOf(unsubscribed.id)).toHaveLength(0);

    const res = await consume(deliveries);
    expect(res.explicitAcks).toHaveLength(2);
    expect(http.unexpected).toEqual([]);
    expect(http.seen.map((r) => r.url).sort()).toEqual([RECEIVER, 'https://receiver-two.example.com/in'].sort());

    const now = Math.floor(Date.now() / 1000);
    for (const got of http.seen) {
      const secret = got.url === RECEIVER ? endpoint.secret : second.secret;
      const other = got.url === RECEIVER ? second.secret : endpoint.secret;
      const header = got.headers.get('Shiftmarket-Signature');
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(await verifyAsReceiver(header, secret, got.body, now)).toBe(true);
      // Not with another endpoint's secret, not on a changed body, not 6 minutes later.
      expect(await verifyAsReceiver(header, other, got.body, now)).toBe(false);
      expect(await verifyAsReceiver(header, secret, got.body.replace('broadcast', 'Broadcast'), now)).toBe(false);
      expect(await verifyAsReceiver(header, secret, got.body, now + 6 * 60)).toBe(false);

      const envelope = webhookEnvelopeAnySchema.parse(JSON.parse(got.body));
      expect(envelope).toMatchObject({ type: 'broadcast.created', business_id: biz.businessId });
      expect(got.headers.get('Shiftmarket-Event-Id')).toBe(envelope.id);
      expect(got.headers.get('Shiftmarket-Event-Type')).toBe('broadcast.created');
      expect(got.headers.get('Content-Type')).toBe('application/json');
      if (envelope.type === 'broadcast.created')
        expect(envelope.data.shift_request).toMatchObject({ id: posted.body.id, is_broadcast: 1, status: 'pending' });
    }
    const [d] = await deliveriesOf(endpoint.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1, last_response_code: 200 });

    // The same outbox row sent again (a re-send) makes no second delivery.
    await consume(events);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
  });

  it('each lifecycle event the services produce carries its type and the row after the change', async () => {
    const { biz, queues } = await stage();
    const sh = await makeCrewMember(biz.businessId!);
    const posted = await callWithEnv(
      'POST',
      '/v1/shift_request/send_request',
      {
        key: biz.key,
        body: {
          shift_date: '2030-06-04',
          shift_in: '09:00',
          shift_out: '17:00',
          shiftrole_id: 1,
          hourly_rate: 20,
          shifter_id: sh.shifterId,
        },
      },
      {},
    );
    expect(posted.status).toBe(201);
    const accepted = await callWithEnv('POST', `/v1/shift_request/${posted.body.id}/accept`, { key: sh.key }, {});
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const cancelled = await callWithEnv(
      'POST',
      `/v1/shift_request/${posted.body.id}/cancel`,
      { key: biz.key, body: { reason: 'closed' } },
      {},
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const bodies = queues.take().map((s) => webhookEnvelopeAnySchema.parse(s.body));
    expect(bodies.map((b) => b.type)).toEqual(['shift_request.created', 'shift_request.accepted', 'shift_request.cancelled']);
    const [created, acc, can] = bodies as [WebhookEnvelope, WebhookEnvelope, WebhookEnvelope];
    expect(new Set([created.id, acc.id, can.id]).size).toBe(3);
    if (acc.type === 'shift_request.accepted')
      expect(acc.data.shift_request).toMatchObject({ request_status: 2, shifter_id: sh.shifterId });
    if (can.type === 'shift_request.cancelled') {
      expect(can.data).toMatchObject({ reason: 'closed', rebroadcast_shift_request_id: null });
      expect(can.data.shift_request).toMatchObject({ status: 'cancelled', cancelled_by: 'business' });
    }
  });

  it('a disputed review of the business is a review.disputed event, delivered to endpoints subscribed to it', async () => {
    const { biz, endpoint, queues } = await stage(['review.disputed']);
    const http = receivers();
    const shifter = await makeUser({ shifter: true });
    const reviewId = newId('review');
    const now = Date.now();
    await db().insert(reviews).values({
      id: reviewId,
      reviewer_user_id: shifter.userId,
      review_by: 'shifter',
      review_by_id: shifter.shifterId!,
      review_on: 'business',
      review_on_id: biz.businessId!,
      rating: 1,
      created_at: now,
      updated_at: now,
    });
    const disputed = await callWithEnv(
      'POST',
      `/v1/review/dispute?review_id=${reviewId}`,
      { key: biz.key, body: { reason: 'Never here.' } },
      {},
    );
    expect(disputed.status, JSON.stringify(disputed.body)).toBe(200);
    const events = queues.take();
    expect(events.map((e) => e.body.type)).toEqual(['review.disputed']);
    const envelope = webhookEnvelopeAnySchema.parse(events[0]!.body);
    expect(envelope).toMatchObject({
      business_id: biz.businessId,
      data: { review: { id: reviewId, review_by: 'shifter', review_on: 'business', review_on_id: biz.businessId, rating: 1 } },
    });
    expect(JSON.stringify(envelope)).not.toContain('Never here.');
    await consume(events);
    await consume(queues.take());
    expect(http.seen.map((r) => r.headers.get('Shiftmarket-Event-Type'))).toEqual(['review.disputed']);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'succeeded' });
  });

  it('a business without a link, or a link without the scopes, sends nothing to a partner', async () => {
    const biz = await makeUser({ business: true });
    const stranger = await makePartner();
    const readOnly = await makePartner();
    await link(biz.businessId!, readOnly.clientId, ['shifts:read']);
    const queues = captureQueues();
    const a = await createEndpoint(stranger);
    const b = await createEndpoint(readOnly);
    const { deliveries } = await fanOut(queues, biz.businessId!);
    expect(deliveries).toHaveLength(0);
    expect(await deliveriesOf(a.id)).toHaveLength(0);
    expect(await deliveriesOf(b.id)).toHaveLength(0);
  });
});

describe('retries', () => {
  it('after a 500 the next attempt is scheduled 5 s later (±10 %), carries the same event id and body, and an early message waits', async () => {
    const { biz, endpoint, queues } = await stage();
    const http = receivers((_req, n) => (n === 1 ? new Response('boom', { status: 500 }) : new Response('ok')));
    const t0 = Date.now();
    setNow(t0);
    const { deliveries } = await fanOut(queues, biz.businessId!);
    await consume(deliveries);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_response_code: 500, last_error: 'answered 500' });
    expect(row!.next_attempt_at - t0).toBeGreaterThanOrEqual(4500);
    expect(row!.next_attempt_at - t0).toBeLessThanOrEqual(5500);
    const [next] = queues.take();
    expect(next!.body).toEqual({ type: 'webhook.deliver', delivery_id: row!.id, attempts: 1 });
    expect(next!.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(next!.delaySeconds).toBeLessThanOrEqual(6);

    // Delivered early (a duplicate or a clock skew): no request, the message waits again.
    await consume([next!]);
    expect(http.seen).toHaveLength(1);
    const again = queues.take();
    expect(again).toHaveLength(1);

    setNow(row!.next_attempt_at);
    await consume([next!]);
    expect(http.seen).toHaveLength(2);
    expect(http.seen[1]!.headers.get('Shiftmarket-Event-Id')).toBe(http.seen[0]!.headers.get('Shiftmarket-Event-Id'));
    expect(http.seen[1]!.body).toBe(http.seen[0]!.body);
    expect(await readDelivery(row!.id)).toMatchObject({ status: 'succeeded', attempts: 2, last_response_code: 200 });
    expect((await attemptsOf(row!.id)).map((a) => [a.attempt, a.response_code, a.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 200, 'succeeded'],
    ]);
    // The stale duplicate of attempt 2 is acknowledged without a request.
    const res = await consume(again);
    expect(res.explicitAcks).toHaveLength(1);
    expect(http.seen).toHaveLength(2);
    expect(http.unexpected).toEqual([]);
  });

  it(`follows the whole schedule and stops failed after ${MAX_ATTEMPTS} attempts; waits over 12 h take two queue hops`, async () => {
    const { biz, endpoint, queues } = await stage();
    const http = receivers(() => new Response('down', { status: 502 }));
    let now = Date.now();
    setNow(now);
    let pending = (await fanOut(queues, biz.businessId!)).deliveries;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await consume(pending);
      expect(http.seen).toHaveLength(attempt);
      const [row] = await deliveriesOf(endpoint.id);
      if (attempt === MAX_ATTEMPTS) {
        expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
        expect(queues.take()).toHaveLength(0);
        break;
      }
      const wait = row!.next_attempt_at - now;
      const planned = RETRY_DELAYS_MS[attempt]!;
      expect(wait).toBeGreaterThanOrEqual(planned * 0.9 - 1);
      expect(wait).toBeLessThanOrEqual(planned * 1.1 + 1);
      pending = queues.take();
      expect(pending).toHaveLength(1);
      expect(pending[0]!.delaySeconds ?? 0).toBeLessThanOrEqual(MAX_QUEUE_DELAY_SECONDS);
      if (wait > MAX_QUEUE_DELAY_SECONDS * 1000) {
        // The first hop ends early: the message is put back for the rest, nothing is sent.
        now += MAX_QUEUE_DELAY_SECONDS * 1000;
        setNow(now);
        await consume(pending);
        expect(http.seen).toHaveLength(attempt);
        pending = queues.take();
        expect(pending).toHaveLength(1);
      }
      now = row!.next_attempt_at;
      setNow(now);
    }
    expect((await attemptsOf((await deliveriesOf(endpoint.id))[0]!.id)).map((a) => a.outcome)).toEqual([
      ...Array(MAX_ATTEMPTS - 1).fill('retrying'),
      'failed',
    ]);
    // Every attempt carried the same event id.
    expect(new Set(http.seen.map((r) => r.headers.get('Shiftmarket-Event-Id'))).size).toBe(1);
  });

  it('honours Retry-After on 429 (seconds) and 503 (an HTTP date), and not on 500', async () => {
    const { biz, endpoint, queues } = await stage();
    const t0 = Date.now();
    setNow(t0);
    const answers = [
      new Response('slow down', { status: 429, headers: { 'Retry-After': '120' } }),
      new Response('maintenance', { status: 503, headers: { 'Retry-After': new Date(t0 + 60 * 60_000).toUTCString() } }),
      new Response('nope', { status: 500, headers: { 'Retry-After': '7200' } }),
    ];
    receivers((_req, n) => answers[n - 1] ?? new Response('ok'));
    let pending = (await fanOut(queues, biz.businessId!)).deliveries;
    await consume(pending);
    let row = (await deliveriesOf(endpoint.id))[0]!;
    expect(row.next_attempt_at - t0).toBe(120_000);
    pending = queues.take();
    expect(pending[0]!.delaySeconds).toBe(120);

    setNow(row.next_attempt_at);
    await consume(pending);
    row = await readDelivery(row.id);
    // The date was an hour after t0; rounded to whole seconds by the HTTP date format.
    expect(Math.abs(row.next_attempt_at - (t0 + 60 * 60_000))).toBeLessThan(1000);
    pending = queues.take();

    setNow(row.next_attempt_at);
    const before = row.next_attempt_at;
    await consume(pending);
    row = await readDelivery(row.id);
    // 500: the schedule's 30 minutes (±10 %), the header ignored.
    expect(row.next_attempt_at - before).toBeGreaterThanOrEqual(27 * 60_000);
    expect(row.next_attempt_at - before).toBeLessThanOrEqual(33 * 60_000);
  });
});

describe('disabling', () => {
  it('410 Gone disables the endpoint at once, tells the partner client owner, and later deliveries are not attempted', async () => {
    const { biz, partner, endpoint, queues } = await stage();
    const http = receivers(() => new Response('gone', { status: 410 }));
    const first = await fanOut(queues, biz.businessId!);
    const second = await fanOut(queues, biz.businessId!);
    await consume(first.deliveries);
    expect(await readEndpoint(endpoint.id)).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    const [d1] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.event_id, first.event.id));
    expect(d1).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 410 });
    expect(queues.take()).toHaveLength(0);

    const notify = queues.notifications.map((n) => n.body).filter((b) => b.type === 'notify');
    expect(notify).toHaveLength(1);
    expect(notify[0]).toMatchObject({
      kind: 'webhook_endpoint_disabled',
      user_ids: [partner.owner.userId],
      data: { endpoint_id: endpoint.id, reason: 'gone' },
    });

    await consume(second.deliveries);
    expect(http.seen).toHaveLength(1);
    const [d2] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.event_id, second.event.id));
    expect(d2).toMatchObject({ status: 'failed', attempts: 0, last_error: 'endpoint disabled' });
    // A disabled endpoint gets no new deliveries either.
    expect((await fanOut(queues, biz.businessId!)).deliveries).toHaveLength(0);

    // Enabled again by the partner: counters cleared, events flow again.
    const enabled = await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'active', disabled_reason: null, consecutive_failures: 0, failing_since: null });
    expect((await fanOut(queues, biz.businessId!)).deliveries).toHaveLength(1);
  });

  it('an endpoint failing for 5 days is disabled on its next failure, with one notification to the owner; 4 days is not enough', async () => {
    const { biz, partner, endpoint, queues } = await stage();
    const other = await createEndpoint(partner, ALL_TYPES, 'https://receiver-b.example.com/in');
    receivers(() => new Response('err', { status: 500 }));
    const now = Date.now();
    await db()
      .update(webhookEndpoints)
      .set({ failing_since: now - DISABLE_AFTER_FAILING_MS - 60_000, consecutive_failures: 40 })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await db()
      .update(webhookEndpoints)
      .set({ failing_since: now - 4 * 24 * 60 * 60_000, consecutive_failures: 40 })
      .where(eq(webhookEndpoints.id, other.id));
    const { deliveries } = await fanOut(queues, biz.businessId!);
    expect(deliveries).toHaveLength(2);
    await consume(deliveries);

    expect(await readEndpoint(endpoint.id)).toMatchObject({ status: 'disabled', disabled_reason: 'failing', consecutive_failures: 41 });
    expect(await readEndpoint(other.id)).toMatchObject({ status: 'active', consecutive_failures: 41 });
    const [failedRow] = await deliveriesOf(endpoint.id);
    // The delivery keeps its schedule (it fails when its message next arrives, as the endpoint is off).
    expect(failedRow).toMatchObject({ status: 'pending', attempts: 1 });
    const notices = queues.notifications.map((n) => n.body).filter((b) => b.kind === 'webhook_endpoint_disabled');
    expect(notices).toEqual([
      expect.objectContaining({
        user_ids: [partner.owner.userId],
        data: expect.objectContaining({ endpoint_id: endpoint.id, reason: 'failing' }),
      }),
    ]);
    // The notification went through the outbox in the same batch as the disabling.
    const rows = await db().select().from(outboxEvents).where(eq(outboxEvents.topic, 'notifications'));
    expect(rows.filter((r) => r.body.includes(endpoint.id))).toHaveLength(1);

    // A success clears the streak.
    receivers(() => new Response('ok'));
    const next = queues.take().filter((m) => m.body.delivery_id !== failedRow!.id);
    setNow(Date.now() + 10_000);
    await consume(next);
    expect(await readEndpoint(other.id)).toMatchObject({ status: 'active', consecutive_failures: 0, failing_since: null });
  });
});

describe('no loss', () => {
  it('a crash while recording one delivery of a batch leaves it claimed; it is retried after its lease with the same event id, the others are acknowledged once', async () => {
    const { biz, partner, queues } = await stage();
    await createEndpoint(partner, ALL_TYPES, 'https://receiver-2.example.com/in');
    await createEndpoint(partner, ALL_TYPES, 'https://receiver-3.example.com/in');
    const http = receivers();
    const { event, deliveries } = await fanOut(queues, biz.businessId!);
    expect(deliveries).toHaveLength(3);
    const ofEvent = () => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.event_id, event.id));

    // The first outcome to be recorded fails before it commits (D1 refuses the batch).
    failNextBatch({ writes: 'webhook_deliveries' });
    const res = await consume(deliveries);
    expect(http.seen).toHaveLength(3);
    expect(res.explicitAcks).toHaveLength(2);
    expect(res.retryMessages).toHaveLength(1);
    const rows = await ofEvent();
    const stuck = rows.filter((r) => r.status === 'sending');
    expect(stuck).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'succeeded')).toHaveLength(2);
    expect(await attemptsOf(stuck[0]!.id)).toHaveLength(0);

    // The retried message, redelivered inside the lease: nothing is sent, it comes back later.
    const retried = deliveries.filter((d) => d.body.delivery_id === stuck[0]!.id);
    expect(retried).toHaveLength(1);
    const early = await consume(retried);
    expect(early.retryMessages).toHaveLength(1);
    expect(http.seen).toHaveLength(3);

    // After the lease the attempt is made again: the receiver sees the same event once more (at least once).
    setNow(stuck[0]!.lease_until! + 1);
    const later = await consume(retried);
    expect(later.explicitAcks).toHaveLength(1);
    expect(http.seen).toHaveLength(4);
    const ids = http.seen.map((r) => r.headers.get('Shiftmarket-Event-Id'));
    expect(new Set(ids).size).toBe(1);
    expect(await readDelivery(stuck[0]!.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect((await attemptsOf(stuck[0]!.id)).map((a) => a.outcome)).toEqual(['succeeded']);
    expect((await ofEvent()).map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('an event whose fan-out fails to queue its deliveries is retried, and the retry makes no second delivery', async () => {
    const { biz, partner, endpoint, queues } = await stage();
    const second = await createEndpoint(partner, ALL_TYPES, 'https://receiver-2.example.com/in');
    const event = partnerEvent(
      'shift_request.accepted',
      biz.businessId!,
      (await fanOut(queues, biz.businessId!)).event.data as never,
      Date.now(),
    ).body;
    queues.take();
    // The delivery rows are written, then the queue refuses their messages once.
    const sendBatch = vi.mocked(env.WEBHOOKS_QUEUE.sendBatch);
    sendBatch.mockImplementationOnce(async () => {
      throw new Error('injected: queue unavailable');
    });
    const first = await consume([{ body: event, delaySeconds: undefined }]);
    expect(first.retryMessages).toHaveLength(1);
    expect(queues.take()).toHaveLength(0);
    const rows = () => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.event_id, event.id));
    expect(await rows()).toHaveLength(2);

    const again = await consume([{ body: event, delaySeconds: undefined }]);
    expect(again.explicitAcks).toHaveLength(1);
    const messages = queues.take();
    expect(messages.map((m) => m.body.delivery_id).sort()).toEqual((await rows()).map((r) => r.id).sort());
    expect(await rows()).toHaveLength(2);
    const http = receivers();
    await consume(messages);
    expect(http.seen.map((r) => r.url).sort()).toEqual([RECEIVER, 'https://receiver-2.example.com/in'].sort());
    expect((await deliveriesOf(endpoint.id)).filter((d) => d.event_id === event.id)).toHaveLength(1);
    expect((await deliveriesOf(second.id)).filter((d) => d.event_id === event.id)).toHaveLength(1);
  });

  it('a delivery whose message was lost (crashed and dead-lettered, or never queued) is re-sent by the sweep', async () => {
    const { biz, endpoint, queues } = await stage();
    const http = receivers();
    await fanOut(queues, biz.businessId!); // the delivery messages are dropped: "lost"
    const [row] = await deliveriesOf(endpoint.id);
    // A crashed attempt: claimed, lease long over, message gone.
    await db()
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, lease_until: Date.now() - 60 * 60_000 })
      .where(eq(webhookDeliveries.id, row!.id));
    const swept = await sweepWebhookDeliveries(ctxNow());
    expect(swept.resent).toBe(1);
    const resent = queues.take();
    expect(resent.map((m) => m.body)).toEqual([{ type: 'webhook.deliver', delivery_id: row!.id, attempts: 0 }]);
    // Swept again at once: nothing more (it is not overdue any more).
    expect((await sweepWebhookDeliveries(ctxNow())).resent).toBe(0);
    await consume(resent);
    expect(http.seen).toHaveLength(1);
    expect(await readDelivery(row!.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});

describe('SSRF', () => {
  it('refuses non-https and internal addresses at registration', async () => {
    const partner = await makePartner();
    const refused = [
      'http://hooks.example.com/in',
      'ftp://hooks.example.com/in',
      'https://10.0.0.5/in',
      'https://172.16.3.4/in',
      'https://192.168.1.1/in',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/in',
      'https://0.0.0.0/in',
      'https://[fd00::1]/in',
      'https://[fe80::1]/in',
      'https://[::ffff:10.0.0.1]/in',
      'https://metadata.google.internal/in',
      'https://printer.local/in',
      'https://intranet/in',
      'https://user:pass@hooks.example.com/in',
      'not a url',
    ];
    for (const url of refused) {
      const res = await partnerCall(partner, 'POST', '/v1/partner/webhooks/endpoints', { url, event_types: ['broadcast.created'] });
      expect(res.status, url).toBe(422);
      expect(res.body.error.code, url).toBe('WEBHOOK-URL-ERR');
    }
    expect((await partnerCall(partner, 'GET', '/v1/partner/webhooks/endpoints')).body.endpoints).toHaveLength(0);
  });

  it('an IPv6 literal is judged by the IPv4 it carries: IPv4-compatible, mapped, translated, NAT64, 6to4 and Teredo forms of internal addresses are refused', async () => {
    const partner = await makePartner();
    const production = { LOCAL_DEFAULT_SECRETS: 'false', WEBHOOK_SECRET_ENCRYPTION_KEY: btoa('k'.repeat(32)) };
    // The reason names the IPv4 inside, as the IPv4 rule would judge it.
    const internal: Array<[string, string]> = [
      ['https://[::169.254.169.254]/latest/meta-data', 'linkLocal address (169.254.169.254 inside'],
      ['https://[::7f00:1]/in', 'loopback address (127.0.0.1 inside'],
      ['https://[::10.0.0.1]/in', 'private address (10.0.0.1 inside'],
      ['https://[::ffff:127.0.0.1]/in', 'loopback address (127.0.0.1 inside'],
      ['https://[::ffff:a9fe:a9fe]/in', 'linkLocal address (169.254.169.254 inside'],
      ['https://[::ffff:0:7f00:1]/in', 'loopback address (127.0.0.1 inside'],
      ['https://[64:ff9b::169.254.169.254]/in', 'linkLocal address (169.254.169.254 inside'],
      ['https://[64:ff9b:1::a00:1]/in', 'private address (10.0.0.1 inside'],
      ['https://[2002:a9fe:a9fe::1]/in', 'linkLocal address (169.254.169.254 inside'],
      ['https://[2002:c0a8:101::1]/in', 'private address (192.168.1.1 inside'],
      ['https://[2001:0:a00:1::]/in', 'private address (10.0.0.1 inside'], // Teredo: its server
      ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/in', 'loopback address (127.0.0.1 inside'], // Teredo: its client, inverted
    ];
    for (const [url, reason] of internal) {
      const verdict = checkWebhookUrl(url, { allowLoopback: false });
      expect(verdict.ok, url).toBe(false);
      expect(verdict.ok ? '' : verdict.reason, url).toContain(reason);
    }
    for (const url of ['https://[::169.254.169.254]/latest/meta-data', 'https://[::7f00:1]/in', 'https://[2002:a9fe:a9fe::1]/in']) {
      const res = await partnerCall(
        partner,
        'POST',
        '/v1/partner/webhooks/endpoints',
        { url, event_types: ['broadcast.created'] },
        production,
      );
      expect(res.status, url).toBe(422);
      expect(res.body.error.code, url).toBe('WEBHOOK-URL-ERR');
    }
    // A public IPv4 inside an IPv6 literal is refused too (no partner needs a transition form); plain IPv6 passes.
    for (const url of [
      'https://[::8.8.8.8]/in',
      'https://[::ffff:8.8.8.8]/in',
      'https://[64:ff9b::808:808]/in',
      'https://[2002:808:808::1]/in',
    ]) {
      expect(checkWebhookUrl(url, { allowLoopback: false }).ok, url).toBe(false);
    }
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/in', { allowLoopback: false }).ok).toBe(true);
    // Development lets loopback through, but not loopback spelled inside IPv6.
    expect(checkWebhookUrl('https://[::ffff:127.0.0.1]/in', { allowLoopback: true }).ok).toBe(false);
  });

  it('loopback is refused unless LOCAL_DEFAULT_SECRETS is on (local development)', async () => {
    const partner = await makePartner();
    const production = { LOCAL_DEFAULT_SECRETS: 'false', WEBHOOK_SECRET_ENCRYPTION_KEY: btoa('k'.repeat(32)) };
    for (const url of [
      'http://localhost:8788/in',
      'https://127.0.0.1/in',
      'https://2130706433/in',
      'https://0x7f.1/in',
      'https://[::1]/in',
      'https://a.localhost/in',
    ]) {
      const res = await partnerCall(
        partner,
        'POST',
        '/v1/partner/webhooks/endpoints',
        { url, event_types: ['broadcast.created'] },
        production,
      );
      expect(res.status, url).toBe(422);
    }
    const dev = await partnerCall(partner, 'POST', '/v1/partner/webhooks/endpoints', {
      url: 'http://localhost:8788/in',
      event_types: ['broadcast.created'],
    });
    expect(dev.status).toBe(201);
    // Loopback only, even in development: a private address stays refused.
    expect(checkWebhookUrl('http://10.0.0.1/in', { allowLoopback: true }).ok).toBe(false);
    expect(checkWebhookUrl('https://hooks.example.com/in', { allowLoopback: false }).ok).toBe(true);
    expect(checkWebhookUrl('https://93.184.215.14/in', { allowLoopback: false }).ok).toBe(true);
  });

  it('checks again before sending: an endpoint whose URL became internal is not called', async () => {
    const { biz, endpoint, queues } = await stage();
    const http = receivers();
    await db().update(webhookEndpoints).set({ url: 'https://169.254.169.254/latest' }).where(eq(webhookEndpoints.id, endpoint.id));
    const { deliveries } = await fanOut(queues, biz.businessId!);
    await consume(deliveries);
    expect(http.seen).toHaveLength(0);
    expect(http.unexpected).toEqual([]);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.last_error).toMatch(/^URL refused/);
  });
});

describe('partner routes', () => {
  it('a partner cannot see or manage another partner client’s endpoints', async () => {
    const { biz, partner, endpoint, queues } = await stage();
    receivers();
    const { deliveries } = await fanOut(queues, biz.businessId!);
    await consume(deliveries);
    const [delivery] = await deliveriesOf(endpoint.id);
    const intruder = await makePartner();
    await link(biz.businessId!, intruder.clientId); // even linked to the same business
    const base = `/v1/partner/webhooks/endpoints/${endpoint.id}`;
    const attacks: [string, string, unknown?][] = [
      ['DELETE', base],
      ['POST', `${base}/rotate_secret`, {}],
      ['POST', `${base}/enable`],
      ['POST', `${base}/test`],
      ['GET', `${base}/deliveries`],
      ['POST', `${base}/deliveries/${delivery!.id}/redeliver`],
    ];
    for (const [method, path, body] of attacks) {
      const res = await partnerCall(intruder, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('WEBHOOK-ENDPOINT-NOT-FND-ERR');
    }
    expect((await partnerCall(intruder, 'GET', '/v1/partner/webhooks/endpoints')).body.endpoints).toEqual([]);
    // Its own endpoint id with another endpoint's delivery: 404 too.
    const own = await createEndpoint(intruder);
    const cross = await partnerCall(intruder, 'POST', `/v1/partner/webhooks/endpoints/${own.id}/deliveries/${delivery!.id}/redeliver`);
    expect(cross.body.error.code).toBe('WEBHOOK-DELIVERY-NOT-FND-ERR');
    expect(await readEndpoint(endpoint.id)).toBeDefined();
    expect((await partnerCall(partner, 'GET', '/v1/partner/webhooks/endpoints')).body.endpoints.map((e: { id: string }) => e.id)).toEqual([
      endpoint.id,
    ]);

    // Without the scope: 403; with a person's key: 401.
    const reader = await makePartner(['shifts:read']);
    expect((await partnerCall(reader, 'GET', '/v1/partner/webhooks/endpoints')).body.error.code).toBe('SCOPE-ERR');
    const person = await callWithEnv('GET', '/v1/partner/webhooks/endpoints', { key: biz.key }, {});
    expect(person.status).toBe(401);
  });

  it('list, rotate (with a grace period signing twice), test event, delivery log, redeliver and delete', async () => {
    const { partner, endpoint, queues } = await stage();
    const http = receivers();
    const list = await partnerCall(partner, 'GET', '/v1/partner/webhooks/endpoints');
    // Under `data` like every list; the old name answers the same through v1.
    expect(list.body.data).toHaveLength(1);
    expect(list.body.endpoints).toEqual(list.body.data);
    expect(JSON.stringify(list.body)).not.toContain(endpoint.secret);
    const stored = await readEndpoint(endpoint.id);
    expect(stored.secret_enc).not.toContain(endpoint.secret);

    const rotated = await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/rotate_secret`, {
      previous_secret_valid_for_seconds: 3600,
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(newSecret).not.toBe(endpoint.secret);

    const test = await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    await consume(queues.take());
    expect(http.seen).toHaveLength(1);
    const got = http.seen[0]!;
    expect(got.headers.get('Shiftmarket-Event-Type')).toBe('webhook.test');
    expect(got.headers.get('Shiftmarket-Event-Id')).toBe(test.body.event_id);
    const header = got.headers.get('Shiftmarket-Signature')!;
    expect(header.split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    const nowS = Math.floor(Date.now() / 1000);
    expect(await verifyAsReceiver(header, newSecret, got.body, nowS)).toBe(true);
    expect(await verifyAsReceiver(header, endpoint.secret, got.body, nowS)).toBe(true);

    const log = await partnerCall(partner, 'GET', `/v1/partner/webhooks/endpoints/${endpoint.id}/deliveries`, undefined);
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.deliveries).toEqual(log.body.data);
    expect(log.body.data[0]).toMatchObject({ event_type: 'webhook.test', status: 'succeeded', attempts: 1, next_attempt_at: null });
    expect(log.body.deliveries[0].attempt_log).toEqual([
      expect.objectContaining({ attempt: 1, response_code: 200, outcome: 'succeeded', manual: false }),
    ]);

    const again = await partnerCall(
      partner,
      'POST',
      `/v1/partner/webhooks/endpoints/${endpoint.id}/deliveries/${test.body.delivery_id}/redeliver`,
    );
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', max_attempts: 2 });
    // While pending it cannot be redelivered again.
    const twice = await partnerCall(
      partner,
      'POST',
      `/v1/partner/webhooks/endpoints/${endpoint.id}/deliveries/${test.body.delivery_id}/redeliver`,
    );
    expect(twice.body.error.code).toBe('WEBHOOK-DELIVERY-IN-PROGRESS-ERR');
    // The redelivery's message went out through the outbox.
    await consume(queues.take());
    expect(http.seen).toHaveLength(2);
    expect(http.seen[1]!.headers.get('Shiftmarket-Event-Id')).toBe(test.body.event_id);
    expect((await attemptsOf(test.body.delivery_id)).map((a) => [a.attempt, a.manual])).toEqual([
      [1, false],
      [2, true],
    ]);

    // After the grace period only the new secret signs.
    await db()
      .update(webhookEndpoints)
      .set({ previous_secret_expires_at: Date.now() - 1 })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/test`);
    await consume(queues.take());
    expect(http.seen[2]!.headers.get('Shiftmarket-Signature')!.split(',')).toHaveLength(2);

    const deleted = await partnerCall(partner, 'DELETE', `/v1/partner/webhooks/endpoints/${endpoint.id}`);
    expect(deleted.body).toEqual({ id: endpoint.id, deleted: true });
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
    expect(http.unexpected).toEqual([]);
  });

  it('caps endpoints per client and bounds the inputs', async () => {
    const partner = await makePartner();
    captureQueues();
    for (let i = 0; i < 10; i++) await createEndpoint(partner, ['broadcast.created'], `https://receiver-${i}.example.com/in`);
    const over = await partnerCall(partner, 'POST', '/v1/partner/webhooks/endpoints', {
      url: RECEIVER,
      event_types: ['broadcast.created'],
    });
    expect(over.body.error.code).toBe('WEBHOOK-ENDPOINT-LIMIT-ERR');
    const other = await makePartner();
    const badType = await partnerCall(other, 'POST', '/v1/partner/webhooks/endpoints', {
      url: RECEIVER,
      event_types: ['shift_request.teleported'],
    });
    expect(badType.body.error.code).toBe('VALIDATION-ERR');
    const none = await partnerCall(other, 'POST', '/v1/partner/webhooks/endpoints', { url: RECEIVER, event_types: [] });
    expect(none.body.error.code).toBe('VALIDATION-ERR');
    const longUrl = await partnerCall(other, 'POST', '/v1/partner/webhooks/endpoints', {
      url: `https://receiver.example.com/${'a'.repeat(2100)}`,
      event_types: ['broadcast.created'],
    });
    expect(longUrl.body.error.code).toBe('VALIDATION-ERR');
  });
});

describe('Standard Webhooks', () => {
  /** The standardwebhooks package's verifier, as a partner would run it: the parsed event, or it throws. */
  const standardVerify = (secret: string, got: Received) => new Webhook(secret).verify(got.body, Object.fromEntries(got.headers));

  /** The headers of one Standard Webhooks attempt agree with the Shiftmarket ones; `signatures` v1 entries. */
  function expectStandardHeaders(got: Received, signatures = 1) {
    const t = /^t=(\d+),/.exec(got.headers.get('Shiftmarket-Signature') ?? '')?.[1];
    expect(got.headers.get('webhook-id')).toBe(got.headers.get('Shiftmarket-Event-Id'));
    expect(got.headers.get('webhook-timestamp')).toBe(t);
    const list = got.headers.get('webhook-signature')!.split(' ');
    expect(list).toHaveLength(signatures);
    for (const sig of list) expect(sig).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  }

  it('the verifier accepts the first delivery, each retry and a manual redelivery; webhook-id stays the event id', async () => {
    const { biz, partner, endpoint, queues } = await stage();
    const other = await makePartner();
    const otherEndpoint = await createEndpoint(other, ALL_TYPES, 'https://receiver-other.example.com/in');
    const http = receivers((_req, n) => (n <= 2 ? new Response('boom', { status: 500 }) : new Response('ok')));
    let now = Date.now();
    setNow(now);
    const { event, deliveries } = await fanOut(queues, biz.businessId!);
    let pending = deliveries;
    for (let attempt = 1; attempt <= 3; attempt++) {
      await consume(pending);
      expect(http.seen).toHaveLength(attempt);
      const got = http.seen[attempt - 1]!;
      expectStandardHeaders(got);
      expect(got.headers.get('webhook-id')).toBe(event.id);
      expect(standardVerify(endpoint.secret, got)).toEqual(JSON.parse(got.body));
      // Not with another endpoint's secret, not for a changed body.
      expect(() => standardVerify(otherEndpoint.secret, got)).toThrow(WebhookVerificationError);
      expect(() =>
        new Webhook(endpoint.secret).verify(got.body.replace('broadcast', 'Broadcast'), Object.fromEntries(got.headers)),
      ).toThrow(WebhookVerificationError);
      const [row] = await deliveriesOf(endpoint.id);
      pending = queues.take();
      if (attempt < 3) {
        now = row!.next_attempt_at;
        setNow(now);
      } else expect(row).toMatchObject({ status: 'succeeded', attempts: 3 });
    }
    // Each attempt is signed anew at its own time: the timestamps move, the id does not.
    expect(new Set(http.seen.map((r) => r.headers.get('webhook-timestamp'))).size).toBe(3);

    const [row] = await deliveriesOf(endpoint.id);
    const again = await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/deliveries/${row!.id}/redeliver`);
    expect(again.status).toBe(202);
    await consume(queues.take());
    expect(http.seen).toHaveLength(4);
    const redelivered = http.seen[3]!;
    expectStandardHeaders(redelivered);
    expect(redelivered.headers.get('webhook-id')).toBe(event.id);
    expect(standardVerify(endpoint.secret, redelivered)).toEqual(JSON.parse(redelivered.body));
    // Five minutes stale is refused by the verifier, as the standard says.
    setNow(now + 6 * 60_000);
    expect(() => standardVerify(endpoint.secret, redelivered)).toThrow(WebhookVerificationError);
    expect(http.unexpected).toEqual([]);
  });

  it('during a rotation’s grace period both secrets sign, as a space-separated list, each verifying with its own secret', async () => {
    const { partner, endpoint, queues } = await stage();
    const http = receivers();
    const rotated = await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/rotate_secret`, {
      previous_secret_valid_for_seconds: 3600,
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/test`);
    await consume(queues.take());
    const got = http.seen[0]!;
    expectStandardHeaders(got, 2);
    const list = got.headers.get('webhook-signature')!.split(' ');
    // Each entry alone: the first is the new secret's, the second the old one's.
    const only = (sig: string) => ({ ...got, headers: new Headers({ ...Object.fromEntries(got.headers), 'webhook-signature': sig }) });
    expect(standardVerify(newSecret, only(list[0]!))).toEqual(JSON.parse(got.body));
    expect(standardVerify(endpoint.secret, only(list[1]!))).toEqual(JSON.parse(got.body));
    expect(() => standardVerify(endpoint.secret, only(list[0]!))).toThrow(WebhookVerificationError);
    expect(() => standardVerify(newSecret, only(list[1]!))).toThrow(WebhookVerificationError);
    // The whole list verifies with either secret.
    expect(standardVerify(newSecret, got)).toEqual(JSON.parse(got.body));
    expect(standardVerify(endpoint.secret, got)).toEqual(JSON.parse(got.body));

    // After the grace period only the new secret signs.
    await db()
      .update(webhookEndpoints)
      .set({ previous_secret_expires_at: Date.now() - 1 })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await partnerCall(partner, 'POST', `/v1/partner/webhooks/endpoints/${endpoint.id}/test`);
    await consume(queues.take());
    const after = http.seen[1]!;
    expectStandardHeaders(after, 1);
    expect(standardVerify(newSecret, after)).toEqual(JSON.parse(after.body));
    expect(() => standardVerify(endpoint.secret, after)).toThrow(WebhookVerificationError);
  });
});

describe('the OpenAPI document', () => {
  it('lists every event type under webhooks, with its headers (Shiftmarket and Standard Webhooks) and its body schema', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of [
      'shift_request.created',
      'broadcast.created',
      'shift_request.claimed',
      'shift_request.accepted',
      'shift_request.cancelled',
      'shift_request.clocked_in',
      'shift_request.clocked_out',
      'invoice.paid',
      'review.disputed',
    ]) {
      const op = doc.webhooks[type]?.post;
      expect(op, type).toBeDefined();
      expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual([
        'header:Shiftmarket-Event-Id',
        'header:Shiftmarket-Event-Type',
        'header:Shiftmarket-Signature',
        'header:webhook-id',
        'header:webhook-signature',
        'header:webhook-timestamp',
      ]);
      const schema = op.requestBody.content['application/json'].schema;
      expect(schema.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'business_id', 'data']));
      const typeField = schema.properties.type;
      expect(typeField.const ?? typeField.enum?.[0], type).toBe(type);
      expect(op.operationId).toMatch(/^webhook[A-Z]/);
    }
  });
});
