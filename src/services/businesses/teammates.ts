import { and, eq, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { teammates, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { accessBusiness, TEAMMATE_STATUS } from '../access';
import { auditInsert, changedRows, type ServiceContext } from '../kernel';
import { recheckBusinessLive } from '../live';
import { recheckLiveViewsOf } from '../messaging';
import { MAX_LISTED_TEAMMATES, type TeammateList, type TeammateStatusInput, type TeammateView } from './schemas';

/** A teammate as the business (and the teammate) see them: they accepted an invitation, so it is shown. */
export function teammateView(t: typeof teammates.$inferSelect, u: { email: string; display_name: string }): TeammateView {
  return {
    id: t.id,
    business_id: t.business_id,
    user_id: t.user_id,
    email: u.email,
    display_name: u.display_name,
    status: t.status,
    is_active: t.status === TEAMMATE_STATUS.active,
    created_at: toIso(t.created_at),
  };
}

/** Loads one teammate row with its account's email and name. */
export async function loadTeammate(ctx: ServiceContext, businessId: string, userId: string): Promise<TeammateView | null> {
  const [t] = await ctx.db
    .select({ t: teammates, email: users.email, display_name: users.display_name })
    .from(teammates)
    .innerJoin(users, eq(users.id, teammates.user_id))
    .where(and(eq(teammates.business_id, businessId), eq(teammates.user_id, userId)))
    .limit(1);
  return t ? teammateView(t.t, t) : null;
}

export async function listTeammates(ctx: ServiceContext, businessId: string): Promise<TeammateList> {
  await accessBusiness(ctx, businessId);
  const rows = await ctx.db
    .select({ t: teammates, email: users.email, display_name: users.display_name })
    .from(teammates)
    .innerJoin(users, eq(users.id, teammates.user_id))
    .where(eq(teammates.business_id, businessId))
    .orderBy(teammates.created_at)
    .limit(MAX_LISTED_TEAMMATES);
  return { data: rows.map((r) => teammateView(r.t, r)) };
}

/** Suspends (0) or reactivates (1) a teammate; owner or admin. */
export async function setTeammateStatus(
  ctx: ServiceContext,
  businessId: string,
  userId: string,
  input: TeammateStatusInput,
): Promise<TeammateView> {
  const { status } = input;
  await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const now = ctx.now();
  const member = and(eq(teammates.business_id, businessId), eq(teammates.user_id, userId))!;
  const [changed] = await runBatch(ctx.db, [
    ctx.db.update(teammates).set({ status, updated_at: now }).where(member),
    auditInsert(
      ctx,
      'teammate.status',
      { type: 'business', id: businessId },
      { user_id: userId, status },
      sql`EXISTS (SELECT 1 FROM ${teammates} WHERE ${member} AND ${teammates.updated_at} = ${now})`,
    ),
  ]);
  if (changedRows(changed) === 0) throw new AppError('NOT-FOUND-ERR', 'This user is not a teammate of the business.');
  // A suspended teammate reads the business's threads and follows its pages no more: their live sockets close.
  await Promise.all([recheckLiveViewsOf(ctx, userId), recheckBusinessLive(ctx, businessId, userId)]);
  return (await loadTeammate(ctx, businessId, userId))!;
}
