import { and, eq, lt } from 'drizzle-orm';
import { emailOutbox, idempotencyKeys } from '../db/schema';
import type { ServiceContext } from '../services/context';

const OUTBOX_STALE_MS = 2 * 60 * 1000;

/** Drops idempotency records past their 24-hour life. */
export async function pruneIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  const res = await ctx.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expires_at, ctx.now())).run();
  return res.meta.changes ?? 0;
}

/** Re-enqueues emails whose queue send was lost (the outbox row is the source of truth). */
export async function sweepEmailOutbox(ctx: ServiceContext): Promise<number> {
  const stale = await ctx.db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'queued'), lt(emailOutbox.created_at, ctx.now() - OUTBOX_STALE_MS)))
    .limit(100);
  if (stale.length) {
    await ctx.env.NOTIFICATIONS_QUEUE.sendBatch(stale.map((r) => ({ body: { type: 'email.send', outbox_id: r.id } })));
  }
  return stale.length;
}
