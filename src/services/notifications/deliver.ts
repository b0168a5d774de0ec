import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { notificationDeliveries, pushSubscriptions, users } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { safeErrorMessage } from '../../lib/log';
import { type NotifyMessage, retryAfterMs, type ServiceContext } from '../kernel';
import { type CatalogEntry, catalogEntry, isKnownKind, type OutboundChannel, render } from './catalog';
import { emailChannel } from './channels/email';
import { pushChannel } from './channels/push';
import { smsChannel } from './channels/text-message';
import type { ChannelAdapter, Delivery } from './channels/types';
import { deliveryId } from './ids';
import { effectiveChannels, settingsOf } from './preferences';
import { quietHoursEnd } from './quiet-hours';
import { recordNotification } from './record';

export const CHANNEL_ADAPTERS: Record<OutboundChannel, ChannelAdapter> = { email: emailChannel, sms: smsChannel, push: pushChannel };

/** After this many attempts without success a delivery is `failed` and no longer sent. */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** A delivery holds its row this long; a duplicate meanwhile leaves it alone. */
export const DELIVERY_LEASE_MS = 60_000;
/** The sweep leaves a new delivery this long: the consumer that wrote it sends it right away. */
export const DELIVERY_GRACE_MS = 2 * 60_000;
/** A delivery the sweep re-enqueued is not re-enqueued again before this. */
export const DELIVERY_SWEEP_RESEND_MS = 10 * 60_000;
/** A delivery still not out a day after it was due is `failed`: what it said is stale by then. */
export const DELIVERY_MAX_AGE_MS = 24 * 60 * 60_000;
/** Finished deliveries (sent, skipped, failed) are kept this long as the record, then pruned by the sweep. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** Rows pruned per sweep, so one run stays short; a backlog goes over the next runs. */
const PRUNE_LIMIT = 1000;
/** Users planned per slice (their choices, settings, contact and browsers are read together). */
const USER_SLICE = 40;
const SWEEP_LIMIT = 100;

/** What a sensitive delivery keeps of its text once it is out (the in-app row is the person's own). */
export const DELIVERY_REDACTED = '[redacted after sending]';

function redaction(ctx: ServiceContext, d: Delivery) {
  return d.sensitive && !ctx.settings.LOCAL_MAILBOX ? { title: DELIVERY_REDACTED, body: DELIVERY_REDACTED } : {};
}

/**
 * The notifications queue's `notify` message: the in-app row for every recipient, then one delivery
 * row per person and channel their preferences turn on (each browser apart for push), each held
 * until the person's quiet hours end unless the kind is urgent. The rows are written with
 * ON CONFLICT DO NOTHING on (event, person, channel, target), so a redelivered message plans nothing
 * new; then every due, unsent delivery of the event is sent, each on its own: one channel failing
 * does not resend the others. A failure is thrown after the rest are tried, and the queue retries the
 * message with backoff; deliveries already sent are then skipped.
 */
export async function processNotify(ctx: ServiceContext, msg: NotifyMessage): Promise<{ planned: number; sent: number; held: number }> {
  const entry = catalogEntry(msg.kind);
  if (!isKnownKind(msg.kind)) ctx.log.warn('notification kind not in the catalog: in-app and push only', { kind: msg.kind });
  const inApp = await recordNotification(ctx, msg);
  let planned = 0;
  for (const slice of chunk([...new Set(msg.user_ids)], USER_SLICE)) {
    const rows = await plan(ctx, entry, msg, slice, inApp);
    if (!rows.length) continue;
    const results = await runBatch(
      ctx.db,
      rows.map((r) => ctx.db.insert(notificationDeliveries).values(r).onConflictDoNothing()),
    );
    planned += results.reduce<number>((n, r) => n + ((r as { meta?: { changes?: number } }).meta?.changes ?? 0), 0);
  }
  const now = ctx.now();
  const due = await ctx.db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.dedupe_key, msg.dedupe_key),
        eq(notificationDeliveries.status, 'queued'),
        lte(notificationDeliveries.deliver_after, now),
      ),
    );
  const [held] = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.dedupe_key, msg.dedupe_key),
        eq(notificationDeliveries.status, 'queued'),
        sql`${notificationDeliveries.deliver_after} > ${now}`,
      ),
    );
  const { sent, errors } = await deliverEach(
    ctx,
    due.map((d) => d.id),
  );
  if (errors.length) throw new DeliveryError(errors);
  return { planned, sent, held: held?.n ?? 0 };
}

/** Thrown when some deliveries of a message failed for now; the message is retried with backoff. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(readonly errors: unknown[]) {
    super(`${errors.length} notification deliveries failed; retrying: ${safeErrorMessage(errors[0], 200)}`);
  }
}

/** Deliveries of one message sent at once: a Worker keeps at most 6 outbound connections open. */
const PARALLEL = 6;

/** Sends each delivery on its own (PARALLEL at a time): a failure is collected, never stops the others. */
async function deliverEach(ctx: ServiceContext, ids: string[]) {
  let sent = 0;
  const errors: unknown[] = [];
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        if ((await deliverOne(ctx, id)) === 'sent') sent++;
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
  return { sent, errors };
}

type Planned = typeof notificationDeliveries.$inferInsert;

/** The delivery rows of one event for some of its recipients (unknown user ids get none). */
async function plan(
  ctx: ServiceContext,
  entry: CatalogEntry,
  msg: NotifyMessage,
  userIds: string[],
  inApp: Map<string, string>,
): Promise<Planned[]> {
  const now = ctx.now();
  const [people, subs, { choices, quiet }] = await Promise.all([
    ctx.db
      .select({ id: users.id, email: users.email, verified: users.email_verified_at, phone: users.phone })
      .from(users)
      .where(inArray(users.id, userIds)),
    ctx.db
      .select({ id: pushSubscriptions.id, userId: pushSubscriptions.user_id })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.user_id, userIds)),
    settingsOf(ctx, userIds, entry),
  ]);
  const rows: Planned[] = [];
  for (const p of people) {
    const channels = effectiveChannels(entry, choices.get(p.id) ?? new Map());
    // Urgent kinds go now; others wait for the end of the person's quiet hours.
    const deliverAfter = entry.urgent ? now : quietHoursEnd(now, quiet.get(p.id) ?? null);
    const targets: Array<[OutboundChannel, string]> = [];
    if (channels.email && p.verified) targets.push(['email', '']);
    if (channels.sms && p.phone) targets.push(['sms', '']);
    if (channels.push) for (const s of subs.filter((x) => x.userId === p.id)) targets.push(['push', s.id]);
    for (const [channel, target] of targets) {
      const text = render(entry, channel, msg.title, msg.body);
      rows.push({
        id: deliveryId(),
        dedupe_key: msg.dedupe_key,
        user_id: p.id,
        channel,
        target,
        kind: msg.kind,
        notification_id: inApp.get(p.id) ?? null,
        title: text.title,
        body: text.body,
        data: msg.data ? JSON.stringify(msg.data) : null,
        sensitive: entry.sensitive ?? false,
        status: 'queued',
        attempts: 0,
        deliver_after: deliverAfter,
        next_attempt_at: deliverAfter > now ? deliverAfter : now + DELIVERY_GRACE_MS,
        created_at: now,
      });
    }
  }
  return rows;
}

export type DeliveryResult = 'sent' | 'skipped' | 'failed' | 'not_due';

/**
 * Sends one delivery once. The row is claimed first (queued → sending, one more attempt, a lease),
 * only once it is due (quiet hours over), so a duplicate message finds it taken, sent or not due and
 * sends nothing. A passing failure puts it back to queued with backoff and throws, for the queue to
 * retry; the MAX_DELIVERY_ATTEMPTS-th makes it `failed`.
 */
export async function deliverOne(ctx: ServiceContext, id: string): Promise<DeliveryResult> {
  const now = ctx.now();
  const [d] = await ctx.db
    .update(notificationDeliveries)
    .set({ status: 'sending', attempts: sql`${notificationDeliveries.attempts} + 1`, next_attempt_at: now + DELIVERY_LEASE_MS })
    .where(
      and(
        eq(notificationDeliveries.id, id),
        lte(notificationDeliveries.deliver_after, now),
        or(
          eq(notificationDeliveries.status, 'queued'),
          and(eq(notificationDeliveries.status, 'sending'), lte(notificationDeliveries.next_attempt_at, now)),
        ),
      ),
    )
    .returning();
  if (!d) return 'not_due';
  const held = and(
    eq(notificationDeliveries.id, d.id),
    eq(notificationDeliveries.status, 'sending'),
    eq(notificationDeliveries.attempts, d.attempts),
  );
  let outcome: Awaited<ReturnType<ChannelAdapter['send']>>;
  try {
    outcome = await CHANNEL_ADAPTERS[d.channel].send(ctx, d);
  } catch (err) {
    const givingUp = d.attempts >= MAX_DELIVERY_ATTEMPTS;
    await ctx.db
      .update(notificationDeliveries)
      .set({
        status: givingUp ? 'failed' : 'queued',
        last_error: safeErrorMessage(err),
        next_attempt_at: ctx.now() + retryAfterMs(d.attempts),
        ...(givingUp ? redaction(ctx, d) : {}),
      })
      .where(held);
    if (givingUp) {
      ctx.log.error('notification delivery failed for good', { delivery_id: d.id, channel: d.channel, kind: d.kind, attempts: d.attempts });
      return 'failed';
    }
    throw err;
  }
  await ctx.db
    .update(notificationDeliveries)
    .set({
      status: outcome.status,
      provider: outcome.provider,
      destination: outcome.destination,
      last_error: outcome.status === 'sent' ? null : outcome.reason,
      sent_at: outcome.status === 'sent' ? ctx.now() : null,
      ...redaction(ctx, d),
    })
    .where(held);
  if (outcome.status === 'failed') {
    ctx.log.error('notification delivery refused by the provider', { delivery_id: d.id, channel: d.channel, reason: outcome.reason });
  }
  return outcome.status;
}

/**
 * Cron (every 5 minutes): deliveries due again are put on the notifications queue. Due: held for
 * quiet hours that have ended, waiting for a retry, or `sending` past a lease whose delivery never
 * finished. Never-tried first, then retries, each oldest first; a picked row is pushed back before
 * its message is sent, so the next sweep moves on. Deliveries a day past due are `failed`; finished
 * ones older than DELIVERY_RETENTION_MS are deleted.
 */
export async function sweepNotificationDeliveries(ctx: ServiceContext): Promise<{ enqueued: number; expired: number; pruned: number }> {
  const now = ctx.now();
  const old = ctx.db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(
      and(
        inArray(notificationDeliveries.status, ['sent', 'skipped', 'failed']),
        lte(notificationDeliveries.created_at, now - DELIVERY_RETENTION_MS),
      ),
    )
    .limit(PRUNE_LIMIT);
  const pruned = (await ctx.db.delete(notificationDeliveries).where(inArray(notificationDeliveries.id, old)).run()).meta.changes ?? 0;

  const pending = inArray(notificationDeliveries.status, ['queued', 'sending']);
  const expired = await ctx.db
    .update(notificationDeliveries)
    .set({ status: 'failed', last_error: 'not delivered within 24 hours of being due' })
    .where(
      and(pending, lte(notificationDeliveries.next_attempt_at, now), lte(notificationDeliveries.deliver_after, now - DELIVERY_MAX_AGE_MS)),
    )
    .returning({ id: notificationDeliveries.id });
  if (expired.length) ctx.log.warn('notification deliveries not sent within 24 hours marked failed', { count: expired.length });

  const due = and(pending, lte(notificationDeliveries.next_attempt_at, now), lte(notificationDeliveries.deliver_after, now));
  const picked = await ctx.db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(due)
    .orderBy(notificationDeliveries.attempts, notificationDeliveries.next_attempt_at, notificationDeliveries.created_at)
    .limit(SWEEP_LIMIT);
  let enqueued = 0;
  for (const slice of chunk(
    picked.map((p) => p.id),
    50,
  )) {
    const taken = await ctx.db
      .update(notificationDeliveries)
      .set({ status: 'queued', next_attempt_at: now + DELIVERY_SWEEP_RESEND_MS })
      .where(and(inArray(notificationDeliveries.id, slice), due))
      .returning({ id: notificationDeliveries.id });
    if (!taken.length) continue;
    try {
      await ctx.env.NOTIFICATIONS_QUEUE.sendBatch(
        taken.map((t) => ({ body: { type: 'notification.deliver' as const, delivery_id: t.id } })),
      );
      enqueued += taken.length;
    } catch (err) {
      // They stay queued and are due again after DELIVERY_SWEEP_RESEND_MS.
      ctx.log.warn('notification delivery re-enqueue failed; the next sweep retries', {
        messages: taken.length,
        error: safeErrorMessage(err),
      });
    }
  }
  return { enqueued, expired: expired.length, pruned };
}
