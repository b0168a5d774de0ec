import { inArray } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { notifications } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { newId } from '../../lib/ids';
import type { NotifyMessage, ServiceContext } from '../kernel';

/** Users per batch: each insert binds 9 parameters, the id read-back one per user. */
const SLICE = 50;

export const inAppDedupeKey = (dedupeKey: string, userId: string) => `${dedupeKey}:${userId}`;

/**
 * The in-app channel, always on: one notification row per user. The unique dedupe key (message key +
 * user) makes a redelivered message a no-op. Answers each user's notification id (the row written
 * now or by an earlier delivery of the same event), which the other channels' payloads name.
 */
export async function recordNotification(ctx: ServiceContext, msg: NotifyMessage): Promise<Map<string, string>> {
  const now = ctx.now();
  const ids = new Map<string, string>();
  for (const slice of chunk([...new Set(msg.user_ids)], SLICE)) {
    await runBatch(
      ctx.db,
      slice.map((userId) =>
        ctx.db
          .insert(notifications)
          .values({
            id: newId('notification'),
            dedupe_key: inAppDedupeKey(msg.dedupe_key, userId),
            user_id: userId,
            kind: msg.kind,
            title: msg.title,
            body: msg.body,
            data: msg.data ? JSON.stringify(msg.data) : null,
            created_at: now,
          })
          .onConflictDoNothing(),
      ),
    );
    const rows = await ctx.db
      .select({ id: notifications.id, userId: notifications.user_id })
      .from(notifications)
      .where(
        inArray(
          notifications.dedupe_key,
          slice.map((u) => inAppDedupeKey(msg.dedupe_key, u)),
        ),
      );
    for (const r of rows) ids.set(r.userId, r.id);
  }
  return ids;
}
