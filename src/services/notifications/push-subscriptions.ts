import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { pushSubscriptions } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { type ServiceContext, requirePerson } from '../kernel';
import { pushSubscriptionId } from './ids';
import { checkPushEndpoint } from './push-endpoint';
import type { PushSubscriptionList, PushSubscriptionView, RegisterPushSubscriptionInput } from './schemas';

/** Browsers per account; registering one more forgets the one that has gone longest without a delivery. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

function decodeBase64Url(s: string): Uint8Array | null {
  try {
    const t = s.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
    return Uint8Array.from(atob(t + '='.repeat((4 - (t.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function view(r: typeof pushSubscriptions.$inferSelect): PushSubscriptionView {
  return {
    id: r.id,
    endpoint_origin: new URL(r.endpoint).origin,
    label: r.label,
    created_at: toIso(r.created_at),
    last_success_at: toIso(r.last_success_at),
  };
}

/** GET /v1/notifications/push_subscriptions: the caller's browsers, and the key browsers subscribe with. */
export async function listPushSubscriptions(ctx: ServiceContext): Promise<PushSubscriptionList> {
  const actor = requirePerson(ctx);
  const rows = await ctx.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.user_id, actor.userId))
    .orderBy(desc(pushSubscriptions.created_at), desc(pushSubscriptions.id));
  const vapid = ctx.settings.VAPID_PUBLIC_KEY && ctx.settings.VAPID_PRIVATE_KEY ? ctx.settings.VAPID_PUBLIC_KEY : null;
  return { vapid_public_key: vapid, data: rows.map(view) };
}

/**
 * POST /v1/notifications/push_subscriptions: registers the caller's browser (PushManager.subscribe's
 * answer). The same endpoint again replaces its keys (browsers renew them). One batch: the upsert, then
 * forgetting the oldest beyond MAX_PUSH_SUBSCRIPTIONS.
 */
export async function registerPushSubscription(ctx: ServiceContext, input: RegisterPushSubscriptionInput): Promise<PushSubscriptionView> {
  const actor = requirePerson(ctx);
  const endpoint = checkPushEndpoint(ctx, input.endpoint).href;
  const p256dh = decodeBase64Url(input.keys.p256dh);
  if (p256dh?.length !== 65 || p256dh[0] !== 0x04) throw invalid('keys.p256dh', 'must be an uncompressed P-256 public key (65 bytes)');
  const auth = decodeBase64Url(input.keys.auth);
  if (auth?.length !== 16) throw invalid('keys.auth', 'must be 16 bytes');
  const now = ctx.now();
  const row = {
    id: pushSubscriptionId(),
    user_id: actor.userId,
    endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    expiration_time: input.expiration_time ?? null,
    label: input.label || null,
    created_at: now,
    last_success_at: null,
  };
  const keep = ctx.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.user_id, actor.userId))
    .orderBy(desc(sql`coalesce(${pushSubscriptions.last_success_at}, ${pushSubscriptions.created_at})`), desc(pushSubscriptions.id))
    .limit(MAX_PUSH_SUBSCRIPTIONS);
  await runBatch(ctx.db, [
    ctx.db
      .insert(pushSubscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: [pushSubscriptions.user_id, pushSubscriptions.endpoint],
        set: { p256dh: row.p256dh, auth: row.auth, expiration_time: row.expiration_time, label: row.label, created_at: now },
      }),
    ctx.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.user_id, actor.userId), notInArray(pushSubscriptions.id, keep))),
  ]);
  const [saved] = await ctx.db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.user_id, actor.userId), eq(pushSubscriptions.endpoint, endpoint)))
    .orderBy(asc(pushSubscriptions.created_at))
    .limit(1);
  return view(saved!);
}

/** DELETE /v1/notifications/push_subscriptions/{id}: the caller's browser stops getting pushes (another's is 404). */
export async function unregisterPushSubscription(ctx: ServiceContext, id: string): Promise<{ id: string; removed: true }> {
  const actor = requirePerson(ctx);
  const gone = await ctx.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.user_id, actor.userId)))
    .returning({ id: pushSubscriptions.id });
  if (!gone.length) throw new AppError('PUSH-SUBSCRIPTION-NOT-FND-ERR');
  return { id, removed: true };
}
