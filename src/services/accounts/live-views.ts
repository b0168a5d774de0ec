import { and, eq, gt, isNull } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import { errorFields } from '../../lib/log';
import type { ServiceContext } from '../kernel';
import { closeBusinessLiveOfEndedSessions } from '../live';
import { closeLiveViewsOfEndedSessions } from '../messaging';

/**
 * After sessions of an account ended (sign-out, sign-out elsewhere, a password change or reset, the
 * oldest beyond the cap, a browser turned kiosk): the live views those sessions have open close
 * (services/messaging/live.ts), and so do the live updates of business pages (services/live).
 * Whatever ended, the sessions still live are the ones kept. Called after the change committed; it
 * never throws.
 */
export async function closeLiveViewsOfEndedSessionsOf(ctx: ServiceContext, userId: string): Promise<void> {
  let live: { id: string }[];
  try {
    live = await ctx.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at), gt(sessions.expires_at, ctx.now())));
  } catch (err) {
    ctx.log.warn('reading the live sessions for the live views failed', { user_id: userId, ...errorFields(err) });
    return;
  }
  const liveIds = live.map((s) => s.id);
  await Promise.all([closeLiveViewsOfEndedSessions(ctx, userId, liveIds), closeBusinessLiveOfEndedSessions(ctx, userId, liveIds)]);
}
