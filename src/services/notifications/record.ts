import { notifications } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { NotifyMessage } from '../events/messages';
import type { ServiceContext } from '../context';

/**
 * Records one in-app notification per user. The unique dedupe key (message key + user) makes a
 * redelivered message a no-op. Channels (push, email, SMS), preferences and quiet hours build on this row.
 */
export async function recordNotification(ctx: ServiceContext, msg: NotifyMessage): Promise<number> {
  const now = ctx.now();
  let written = 0;
  for (const userId of new Set(msg.user_ids)) {
    const res = await ctx.db
      .insert(notifications)
      .values({
        id: newId('notification'),
        dedupe_key: `${msg.dedupe_key}:${userId}`,
        user_id: userId,
        kind: msg.kind,
        title: msg.title,
        body: msg.body,
        data: msg.data ? JSON.stringify(msg.data) : null,
        created_at: now,
      })
      .onConflictDoNothing()
      .run();
    written += res.meta.changes ?? 0;
  }
  return written;
}
