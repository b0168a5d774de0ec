// inside: services/notifications
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailOutbox, notificationDeliveries, notifications, pushSubscriptions, users } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { QUEUES, retryDelaySeconds } from '../../src/queues/consumer';
import type { NotificationsMessage } from '../../src/services/kernel';
import { emailIdOf } from '../../src/services/notifications/ids';
import { call, expectError } from '../helpers/api';
import { db, makeUser, type TestUser } from '../helpers/factory';
import { captureConsole, deliver, logRecords, message, RESEND_URL } from '../helpers/queues';

/*
 * The channels behind the one interface, each through its real provider adapter with outbound HTTP
 * intercepted (an unexpected URL fails the call and the test), and through the local stand-ins that
 * record deliveries in notification_deliveries for the admin listing and print them.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const PUSH_ENDPOINT = 'https://push.example.test/wpush/v2/abc123';
const TWILIO_URL = (sid: string) => `https://api.twilio.com/2010-04-01/Accounts/${sid}/Messages.json`;

// ── base64url and keys ──────────────────────────────────────────────────────────────────────────
const b64u = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
const unb64u = (s: string) => {
  const t = s.replaceAll('-', '+').replaceAll('_', '/');
  return Uint8Array.from(atob(t + '='.repeat((4 - (t.length % 4)) % 4)), (c) => c.charCodeAt(0));
};
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

/** An application server key pair as an operator makes one (`npx web-push generate-vapid-keys` gives the same shapes). */
async function vapidKeyPair() {
  const kp = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', kp.publicKey)) as ArrayBuffer);
  const jwk = (await crypto.subtle.exportKey('jwk', kp.privateKey)) as JsonWebKey;
  return { publicKey: b64u(raw), privateKey: jwk.d!, verifyKey: kp.publicKey };
}

/** A browser's subscription keys (what PushManager.subscribe creates). */
async function browserKeys() {
  const kp = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const pub = new Uint8Array((await crypto.subtle.exportKey('raw', kp.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  return { privateKey: kp.privateKey, publicBytes: pub, auth, p256dh: b64u(pub), authB64: b64u(auth) };
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, bytes * 8));
}

/** RFC 8291 decryption as a browser does it, written here independently of the library that encrypts. */
async function decryptPush(body: Uint8Array, browser: Awaited<ReturnType<typeof browserKeys>>): Promise<string> {
  const salt = body.slice(0, 16);
  const rs = new DataView(body.buffer, body.byteOffset).getUint32(16);
  const idLen = body[20]!;
  const asPublic = body.slice(21, 21 + idLen);
  const ciphertext = body.slice(21 + idLen);
  expect(rs).toBeGreaterThanOrEqual(ciphertext.length);
  const asKey = await crypto.subtle.importKey('raw', asPublic, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  // workerd's types name the field `$public`; the Web Crypto standard (and the runtime) call it `public`.
  const ecdhParams = { name: 'ECDH', public: asKey } as unknown as SubtleCryptoDeriveKeyAlgorithm;
  const ecdh = new Uint8Array(await crypto.subtle.deriveBits(ecdhParams, browser.privateKey, 256));
  const enc = new TextEncoder();
  const keyInfo = concat(enc.encode('WebPush: info\0'), browser.publicBytes, asPublic);
  const ikm = await hkdf(browser.auth, ecdh, keyInfo, 32);
  const cek = await hkdf(salt, ikm, enc.encode('Content-Encoding: aes128gcm\0'), 16);
  const nonce = await hkdf(salt, ikm, enc.encode('Content-Encoding: nonce\0'), 12);
  const aes = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt']);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, aes, ciphertext));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(0x02); // the last record's delimiter
  return new TextDecoder().decode(padded.slice(0, end));
}

/** Checks an RFC 8292 `vapid t=<jwt>, k=<key>` header: the key, and an ES256 signature over the JWT. */
async function verifyVapid(header: string, vapid: Awaited<ReturnType<typeof vapidKeyPair>>) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  expect(m, header).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(vapid.publicKey);
  const [h, p, s] = jwt!.split('.');
  const ok = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    vapid.verifyKey,
    unb64u(s!),
    new TextEncoder().encode(`${h}.${p}`),
  );
  expect(ok).toBe(true);
  expect(JSON.parse(new TextDecoder().decode(unb64u(h!)))).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  return JSON.parse(new TextDecoder().decode(unb64u(p!))) as { aud: string; exp: number; sub: string };
}

// ── outbound HTTP ───────────────────────────────────────────────────────────────────────────────
/** Outbound HTTP is strict: only `allowed` URLs answer (through `answer`); anything else fails. */
function strictFetch(allowed: string[], answer: (req: Request) => Response | Promise<Response>) {
  const seen: Request[] = [];
  const unexpected: string[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!allowed.includes(req.url)) {
      unexpected.push(`${req.method} ${req.url}`);
      throw new Error(`unexpected outbound request to ${req.url}`);
    }
    seen.push(req.clone());
    return answer(req);
  });
  return { spy, seen, unexpected };
}

// ── fixtures ────────────────────────────────────────────────────────────────────────────────────
async function subscribe(user: TestUser, keys: { p256dh: string; authB64: string }, endpoint = PUSH_ENDPOINT) {
  const res = await call('POST', '/v1/notifications/push_subscriptions', {
    key: user.key,
    body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authB64 }, label: 'Test browser' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function setChannels(user: TestUser, channels: Array<Record<string, unknown>>) {
  const res = await call('PUT', '/v1/notifications/preferences', { key: user.key, body: { channels } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

function notify(userIds: string[], kind = 'payout_paid', extra: Partial<NotificationsMessage> = {}) {
  return message<NotificationsMessage>({
    type: 'notify',
    dedupe_key: `${kind}:${crypto.randomUUID()}`,
    user_ids: userIds,
    kind,
    title: 'Payout sent',
    body: 'A payout of 120.00 USD is on its way to your bank.',
    data: { payout_id: 'po_test' },
    ...extra,
  } as NotificationsMessage);
}

const deliveriesOf = (userId: string) => db().select().from(notificationDeliveries).where(eq(notificationDeliveries.user_id, userId));

describe('Web Push (VAPID, RFC 8291 aes128gcm)', () => {
  it('encrypts to the browser’s keys and signs with the VAPID key; the browser decrypts the payload', async () => {
    const vapid = await vapidKeyPair();
    const browser = await browserKeys();
    const user = await makeUser();
    const subId = await subscribe(user, browser);
    const bindings: AppBindings = {
      ...env,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.test',
    };
    const http = strictFetch([PUSH_ENDPOINT], () => new Response(null, { status: 201 }));

    const m = notify([user.userId], 'open_shift', {
      title: 'Open shift at Test Café',
      body: 'Fri 09:00–17:00',
    } as Partial<NotificationsMessage>);
    const res = await deliver(QUEUES.notifications, [m], bindings);
    expect(http.unexpected).toEqual([]);
    expect(res.explicitAcks).toEqual([m.id]);
    expect(http.seen).toHaveLength(1);
    const req = http.seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers.get('content-encoding')).toBe('aes128gcm');
    expect(req.headers.get('content-type')).toBe('application/octet-stream');
    expect(Number(req.headers.get('ttl'))).toBe(86_400);
    expect(req.headers.get('urgency')).toBe('normal');
    expect(req.headers.get('topic')).toMatch(/^[A-Za-z0-9]{20}$/);
    const claims = await verifyVapid(req.headers.get('authorization')!, vapid);
    expect(claims.aud).toBe('https://push.example.test');
    expect(claims.sub).toBe('mailto:ops@example.test');
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    const payload = JSON.parse(await decryptPush(new Uint8Array(await req.arrayBuffer()), browser));
    const [inApp] = await db().select().from(notifications).where(eq(notifications.user_id, user.userId));
    expect(payload).toEqual({
      title: 'Open shift at Test Café',
      body: 'Fri 09:00–17:00',
      kind: 'open_shift',
      notification_id: inApp!.id,
      data: { payout_id: 'po_test' },
    });
    const [row] = await deliveriesOf(user.userId);
    expect(row).toMatchObject({
      channel: 'push',
      target: subId,
      status: 'sent',
      provider: 'webpush',
      destination: 'https://push.example.test',
      attempts: 1,
    });
    const [sub] = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.id, subId));
    expect(sub!.last_success_at).toBeGreaterThan(0);
  });

  it('an urgent kind goes with Urgency: high and a short TTL', async () => {
    const vapid = await vapidKeyPair();
    const browser = await browserKeys();
    const user = await makeUser();
    await subscribe(user, browser);
    const http = strictFetch([PUSH_ENDPOINT], () => new Response(null, { status: 201 }));
    await deliver(QUEUES.notifications, [notify([user.userId], 'cancellation')], {
      ...env,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    });
    expect(http.seen[0]!.headers.get('urgency')).toBe('high');
    expect(Number(http.seen[0]!.headers.get('ttl'))).toBe(3600);
  });

  it('an endpoint the rule refuses when sending (production: not a known push service) is not POSTed to; the delivery is skipped', async () => {
    const vapid = await vapidKeyPair();
    const browser = await browserKeys();
    const user = await makeUser();
    const subId = await subscribe(user, browser);
    const http = strictFetch([], () => new Response(null, { status: 201 }));
    await deliver(QUEUES.notifications, [notify([user.userId])], {
      ...env,
      LOCAL_DEFAULT_SECRETS: 'false',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    });
    expect(http.seen).toHaveLength(0);
    expect(http.unexpected).toEqual([]);
    const row = (await deliveriesOf(user.userId)).find((r) => r.channel === 'push');
    expect(row).toMatchObject({ target: subId, status: 'skipped', provider: 'webpush' });
    expect(row!.last_error ?? '').toContain('known push service');
  });

  it('410 Gone ends the subscription; the delivery is skipped, not retried', async () => {
    const vapid = await vapidKeyPair();
    const user = await makeUser();
    const subId = await subscribe(user, await browserKeys());
    const http = strictFetch([PUSH_ENDPOINT], () => new Response('gone', { status: 410 }));
    const m = notify([user.userId], 'open_shift');
    const res = await deliver(QUEUES.notifications, [m], {
      ...env,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    });
    expect(http.unexpected).toEqual([]);
    expect(res.explicitAcks).toEqual([m.id]);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.id, subId))).toEqual([]);
    const [row] = await deliveriesOf(user.userId);
    expect(row).toMatchObject({ status: 'skipped', last_error: 'push service answered 410: subscription removed' });
  });

  it('a 5xx is retried with backoff; the retried message sends it once it answers', async () => {
    const vapid = await vapidKeyPair();
    const user = await makeUser();
    await subscribe(user, await browserKeys());
    const bindings = { ...env, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey };
    let status = 503;
    const http = strictFetch([PUSH_ENDPOINT], () => new Response(null, { status }));
    const m = notify([user.userId], 'open_shift');

    const first = await deliver(QUEUES.notifications, [m], bindings);
    expect(first.retryMessages).toEqual([{ msgId: m.id }]);
    expect(first.retryDelays[m.id]).toBe(retryDelaySeconds(1));
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'queued', attempts: 1, last_error: 'push service answered 503' });

    status = 201;
    const second = await deliver(QUEUES.notifications, [{ ...m, attempts: 2 }], bindings);
    expect(second.explicitAcks).toEqual([m.id]);
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(http.seen).toHaveLength(2);
    expect(http.unexpected).toEqual([]);
  });

  it('a 403 (VAPID key mismatch) is final: failed, not retried', async () => {
    const vapid = await vapidKeyPair();
    const user = await makeUser();
    await subscribe(user, await browserKeys());
    strictFetch([PUSH_ENDPOINT], () => new Response(null, { status: 403 }));
    const m = notify([user.userId], 'open_shift');
    const res = await deliver(QUEUES.notifications, [m], {
      ...env,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    });
    expect(res.explicitAcks).toEqual([m.id]);
    expect((await deliveriesOf(user.userId))[0]).toMatchObject({ status: 'failed', last_error: 'push service answered 403' });
  });
});

describe('SMS (Twilio) and email (Resend through the mail outbox)', () => {
  it('sends a text through Twilio when the person turned SMS on, and the email through Resend once', async () => {
    const user = await makeUser();
    await db().update(users).set({ phone: '+15555550123' }).where(eq(users.id, user.userId));
    await setChannels(user, [{ group: 'money', channel: 'sms', enabled: true }]);
    const sid = 'AC0123456789abcdef';
    const bindings = {
      ...env,
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: 'twilio-token',
      SMS_FROM: '+15555550000',
      MAIL_PROVIDER_API_KEY: 're_test',
    };
    const http = strictFetch([TWILIO_URL(sid), RESEND_URL], (req) =>
      req.url === RESEND_URL ? Response.json({ id: 'resend-1' }) : Response.json({ sid: 'SM1' }, { status: 201 }),
    );
    const m = notify([user.userId], 'payout_paid');

    const res = await deliver(QUEUES.notifications, [m], bindings);
    expect(http.unexpected).toEqual([]);
    expect(res.explicitAcks).toEqual([m.id]);
    const twilio = http.seen.find((r) => r.url.startsWith('https://api.twilio.com'))!;
    expect(twilio.headers.get('Authorization')).toBe(`Basic ${btoa(`${sid}:twilio-token`)}`);
    const form = new URLSearchParams(new TextDecoder().decode(await twilio.arrayBuffer()));
    expect(form.get('To')).toBe('+15555550123');
    expect(form.get('From')).toBe('+15555550000');
    expect(form.get('Body')).toBe('Shiftmarket: Payout sent. A payout of 120.00 USD is on its way to your bank.');

    const resend = http.seen.find((r) => r.url === RESEND_URL)!;
    const rows = await deliveriesOf(user.userId);
    const email = rows.find((r) => r.channel === 'email')!;
    expect(resend.headers.get('Idempotency-Key')).toBe(emailIdOf(email.id));
    expect(await resend.json()).toMatchObject({
      to: [user.email],
      subject: 'Payout sent',
      text: expect.stringContaining('See your payouts'),
    });
    expect(rows.map((r) => [r.channel, r.status, r.provider]).sort()).toEqual([
      ['email', 'sent', 'resend'],
      ['sms', 'sent', 'twilio'],
    ]);
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.id, emailIdOf(email.id)));
    expect(mail).toMatchObject({ status: 'sent', provider: 'resend', to_address: user.email, template: 'notification:payout_paid' });

    // The queue redelivers the message, and a producer re-sends the same event under a new message id.
    const again = await deliver(
      QUEUES.notifications,
      [
        { ...m, attempts: 2 },
        { ...m, id: `${m.id}-copy` },
      ],
      bindings,
    );
    expect(again.explicitAcks).toHaveLength(2);
    expect(http.seen).toHaveLength(2);
    expect(await deliveriesOf(user.userId)).toHaveLength(2);
  });

  it('SMS is off by default: no text without the person’s choice, even with a phone number', async () => {
    const user = await makeUser();
    await db().update(users).set({ phone: '+15555550199' }).where(eq(users.id, user.userId));
    const http = strictFetch([], () => new Response(null));
    await deliver(QUEUES.notifications, [notify([user.userId], 'payment_action_required')]);
    expect(http.unexpected).toEqual([]);
    expect((await deliveriesOf(user.userId)).map((r) => r.channel)).toEqual(['email']);
  });

  it('one channel failing resends neither the others nor itself twice', async () => {
    const vapid = await vapidKeyPair();
    const user = await makeUser();
    await subscribe(user, await browserKeys());
    const bindings = { ...env, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, MAIL_PROVIDER_API_KEY: 're_test' };
    let pushStatus = 500;
    const http = strictFetch([PUSH_ENDPOINT, RESEND_URL], (req) =>
      req.url === RESEND_URL ? Response.json({ id: 'r' }) : new Response(null, { status: pushStatus }),
    );
    const m = notify([user.userId], 'payout_failed');

    const first = await deliver(QUEUES.notifications, [m], bindings);
    expect(first.retryMessages).toEqual([{ msgId: m.id }]);
    let rows = await deliveriesOf(user.userId);
    expect(rows.find((r) => r.channel === 'email')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(rows.find((r) => r.channel === 'push')).toMatchObject({ status: 'queued', attempts: 1 });

    pushStatus = 201;
    const second = await deliver(QUEUES.notifications, [{ ...m, attempts: 2 }], bindings);
    expect(second.explicitAcks).toEqual([m.id]);
    rows = await deliveriesOf(user.userId);
    expect(rows.find((r) => r.channel === 'email')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(rows.find((r) => r.channel === 'push')).toMatchObject({ status: 'sent', attempts: 2 });
    expect(http.seen.filter((r) => r.url === RESEND_URL)).toHaveLength(1);
    expect(http.seen.filter((r) => r.url === PUSH_ENDPOINT)).toHaveLength(2);
    expect(http.unexpected).toEqual([]);
  });
});

describe('local stand-ins and the admin listing', () => {
  it('without providers every channel is recorded in notification_deliveries and printed with LOCAL_MAILBOX on', async () => {
    const user = await makeUser();
    await db().update(users).set({ phone: '+15555550142' }).where(eq(users.id, user.userId));
    await subscribe(user, await browserKeys());
    await setChannels(user, [{ kind: 'payout_paid', channel: 'sms', enabled: true }]);
    const http = strictFetch([], () => new Response(null));
    const lines = captureConsole();
    const m = notify([user.userId], 'payout_paid');
    const res = await deliver(QUEUES.notifications, [m], { ...env, LOG_LEVEL: 'info' });
    expect(http.unexpected).toEqual([]);
    expect(res.explicitAcks).toEqual([m.id]);

    const rows = await deliveriesOf(user.userId);
    expect(rows.map((r) => [r.channel, r.status, r.provider]).sort()).toEqual([
      ['email', 'sent', 'outbox'],
      ['push', 'sent', 'local'],
      ['sms', 'sent', 'local'],
    ]);
    const logs = logRecords(lines);
    expect(logs.find((l) => l.msg === 'push (local stand-in)')).toMatchObject({
      title: 'Payout sent',
      kind: 'payout_paid',
      user_id: user.userId,
    });
    expect(logs.find((l) => l.msg === 'sms (local stand-in)')).toMatchObject({
      to: '+15555550142',
      text: expect.stringContaining('Payout sent'),
    });
    expect(logs.find((l) => l.msg === 'email (local mailbox)')).toMatchObject({ to: user.email, subject: 'Payout sent' });

    // An admin lists them; anyone else is refused.
    const admin = await makeUser({ admin: true });
    const list = await call('GET', '/v1/admin/notifications/deliveries', { key: admin.key, query: { user_id: user.userId } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data.map((d: { channel: string }) => d.channel).sort()).toEqual(['email', 'push', 'sms']);
    expect(list.body.data[0]).toMatchObject({ user_id: user.userId, kind: 'payout_paid', status: 'sent', title: 'Payout sent' });
    const smsOnly = await call('GET', '/v1/admin/notifications/deliveries', {
      key: admin.key,
      query: { user_id: user.userId, channel: 'sms' },
    });
    expect(smsOnly.body.data).toMatchObject([{ channel: 'sms', provider: 'local', destination: '+15555550142' }]);
    const page = await call('GET', '/v1/admin/notifications/deliveries', { key: admin.key, query: { user_id: user.userId, limit: 2 } });
    expect(page.body.data).toHaveLength(2);
    const rest = await call('GET', '/v1/admin/notifications/deliveries', {
      key: admin.key,
      query: { user_id: user.userId, limit: 2, cursor: page.body.next_cursor },
    });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.next_cursor).toBeNull();
    expectError(await call('GET', '/v1/admin/notifications/deliveries', { key: user.key }), 403, 'FORBIDDEN-ERR');
  });

  it('off LOCAL_MAILBOX the stand-ins print no content, only that nothing was delivered', async () => {
    const user = await makeUser();
    await subscribe(user, await browserKeys());
    const lines = captureConsole();
    strictFetch([], () => new Response(null));
    await deliver(
      QUEUES.notifications,
      [notify([user.userId], 'open_shift', { title: 'Secret title 42' } as Partial<NotificationsMessage>)],
      {
        ...env,
        LOCAL_MAILBOX: 'false',
        LOG_LEVEL: 'info',
      },
    );
    expect(lines.join('\n')).not.toContain('Secret title 42');
    expect(logRecords(lines).find((l) => l.msg === 'push not delivered: VAPID keys are not configured')).toBeDefined();
  });

  it('a sensitive kind keeps no readable copy of its text once sent (LOCAL_MAILBOX off)', async () => {
    const user = await makeUser();
    const link = `https://app.example.test/mcp-confirm/${crypto.randomUUID()}`;
    captureConsole();
    await deliver(
      QUEUES.notifications,
      [
        notify([user.userId], 'agent_payment_confirmation', {
          title: 'Confirm a payment',
          body: `Open ${link}`,
        } as Partial<NotificationsMessage>),
      ],
      { ...env, LOCAL_MAILBOX: 'false' },
    );
    const [row] = await deliveriesOf(user.userId);
    expect(row).toMatchObject({ channel: 'email', status: 'sent', title: '[redacted after sending]', body: '[redacted after sending]' });
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.id, emailIdOf(row!.id)), eq(emailOutbox.sensitive, true)));
    expect(mail!.text_body).not.toContain(link);
    // The person's own in-app copy keeps it.
    const [inApp] = await db().select().from(notifications).where(eq(notifications.user_id, user.userId));
    expect(inApp!.body).toContain(link);
  });
});
