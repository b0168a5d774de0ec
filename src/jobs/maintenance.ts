import { lt } from 'drizzle-orm';
import { idempotencyKeys } from '../db/schema';
import type { ServiceContext } from '../services/kernel';

/** Drops idempotency records past their 24-hour life. */
export async function pruneIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  const res = await ctx.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expires_at, ctx.now())).run();
  return res.meta.changes ?? 0;
}
