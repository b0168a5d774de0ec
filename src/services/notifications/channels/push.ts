import { buildPushPayload, type VapidKeys } from '@block65/webcrypto-web-push';
import { and, eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../../db/schema';
import type { ServiceContext } from '../../kernel';
import { AppError } from '../../../lib/errors';
import { catalogEntry } from '../catalog';
import { checkPushEndpoint } from '../push-endpoint';
import type { ChannelAdapter, Delivery, SendOutcome } from './types';

/** How long a push service keeps a message for a browser that is offline. */
const TTL_SECONDS = { urgent: 60 * 60, normal: 24 * 60 * 60 };
/** The library pads every payload to one 4 KB record; it takes at most 3,993 bytes of JSON. */
const BODY_MAX = 1000;
const TIMEOUT_MS = 15_000;

/** What the service worker receives (JSON): enough to show the notification and open what it is about. */
export interface PushPayload {
  title: string;
  body: string;
  kind: string;
  notification_id: string | null;
  data: Record<string, unknown> | null;
}

export function pushPayload(d: Delivery): PushPayload {
  return {
    title: d.title.slice(0, 200),
    body: d.body.length > BODY_MAX ? `${d.body.slice(0, BODY_MAX - 1)}…` : d.body,
    kind: d.kind,
    notification_id: d.notification_id,
    data: d.data ? (JSON.parse(d.data) as Record<string, unknown>) : null,
  };
}

export function vapidKeys(ctx: ServiceContext): VapidKeys | null {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = ctx.settings;
  return publicKey && privateKey ? { publicKey, privateKey, subject } : null;
}

/**
 * Where a push is POSTed: the subscription's endpoint, or in local development the local stand-in of
 * a push service (LOCAL_PUSH_SERVICE, only with LOCAL_DEFAULT_SECRETS), at the endpoint's path with
 * the endpoint in X-Push-Endpoint. The request is otherwise the one the real push service would get.
 */
function destination(ctx: ServiceContext, endpoint: string): { url: string; headers: Record<string, string> } {
  const standIn = ctx.settings.LOCAL_DEFAULT_SECRETS ? ctx.settings.LOCAL_PUSH_SERVICE : undefined;
  if (!standIn) return { url: endpoint, headers: {} };
  const url = new URL(endpoint);
  return { url: new URL(`${url.pathname}${url.search}`, standIn).href, headers: { 'X-Push-Endpoint': endpoint } };
}

/**
 * Web Push: the payload encrypted to the browser's keys (RFC 8291, aes128gcm) and the request signed
 * with the operator's VAPID key (RFC 8292, an ES256 JWT), both by @block65/webcrypto-web-push on Web
 * Crypto. One delivery row per browser. 404/410 from the push service: the browser unsubscribed, the
 * subscription is removed and the delivery skipped; 429 and 5xx are retried; any other refusal
 * (400, 403 a VAPID mismatch, 413) is final. `Topic` (the delivery id) lets the push service replace
 * a copy still waiting for the browser, should a retry follow a lost answer.
 *
 * Without VAPID keys the local stand-in takes the delivery: under LOCAL_MAILBOX it prints it, and
 * the delivery row is its record.
 */
export const pushChannel: ChannelAdapter = {
  channel: 'push',
  async send(ctx: ServiceContext, d: Delivery): Promise<SendOutcome> {
    const [sub] = await ctx.db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, d.target), eq(pushSubscriptions.user_id, d.user_id)))
      .limit(1);
    if (!sub) return { status: 'skipped', provider: null, destination: null, reason: 'the browser unsubscribed' };
    const origin = new URL(sub.endpoint).origin;
    const payload = pushPayload(d);
    const vapid = vapidKeys(ctx);
    if (!vapid) {
      if (ctx.settings.LOCAL_MAILBOX) {
        ctx.log.info('push (local stand-in)', {
          delivery_id: d.id,
          user_id: d.user_id,
          to: origin,
          ...payload,
          data: payload.data ?? undefined,
        });
      } else {
        ctx.log.warn('push not delivered: VAPID keys are not configured', { delivery_id: d.id, kind: d.kind });
      }
      return { status: 'sent', provider: 'local', destination: origin };
    }
    // The rule the registration passed is applied again: a row kept from before it, or a host the
    // operator has since taken out of PUSH_SERVICE_HOSTS, is not POSTed to.
    try {
      checkPushEndpoint(ctx, sub.endpoint);
    } catch (err) {
      const reason = err instanceof AppError ? err.message : 'the endpoint is refused';
      return { status: 'skipped', provider: 'webpush', destination: origin, reason };
    }
    const urgent = catalogEntry(d.kind).urgent;
    const request = await buildPushPayload(
      {
        data: JSON.stringify(payload),
        options: {
          ttl: urgent ? TTL_SECONDS.urgent : TTL_SECONDS.normal,
          urgency: urgent ? 'high' : 'normal',
          topic: d.id.slice(d.id.indexOf('_') + 1),
        },
      },
      { endpoint: sub.endpoint, expirationTime: sub.expiration_time, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      vapid,
    );
    const to = destination(ctx, sub.endpoint);
    const res = await fetch(to.url, {
      ...request,
      headers: { ...request.headers, ...to.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // Only the status: the push service's answer is not ours to keep.
    if (res.status === 404 || res.status === 410) {
      await ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
      return {
        status: 'skipped',
        provider: 'webpush',
        destination: origin,
        reason: `push service answered ${res.status}: subscription removed`,
      };
    }
    if (res.ok) {
      await ctx.db.update(pushSubscriptions).set({ last_success_at: ctx.now() }).where(eq(pushSubscriptions.id, sub.id));
      return { status: 'sent', provider: 'webpush', destination: origin };
    }
    if (res.status === 429 || res.status >= 500) throw new Error(`push service answered ${res.status}`);
    return { status: 'failed', provider: 'webpush', destination: origin, reason: `push service answered ${res.status}` };
  },
};
