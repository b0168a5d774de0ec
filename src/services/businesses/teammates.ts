import { and, eq } from 'drizzle-orm';
import { isUniqueViolation, runBatch } from '../../db/client';
import { teammates, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { auditInsert } from '../audit';
import type { ServiceContext } from '../context';
import { accessBusiness, TEAMMATE_STATUS } from '../access';


function view(t: typeof teammates.$inferSelect, u: { email: string; display_name: string }) {
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

export async function listTeammates(ctx: ServiceContext, businessId: string) {
  await accessBusiness(ctx, businessId);
  const rows = await ctx.db
    .select({ t: teammates, email: users.email, display_name: users.display_name })
    .from(teammates)
    .innerJoin(users, eq(users.id, teammates.user_id))
    .where(eq(teammates.business_id, businessId));
  return rows.map((r) => view(r.t, r));
}

/** The owner (or an admin) adds an existing, verified user as an active teammate. */
export async function addTeammate(ctx: ServiceContext, businessId: string, email: string) {
  const { business } = await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user || user.email_verified_at === null) throw new AppError('USER-NOT-FND-ERR', 'No verified account has this email.');
  if (user.id === business.user_id) throw new AppError('CONFLICT-ERR', 'The owner is not a teammate of their own business.');
  const now = ctx.now();
  const row = { id: newId('teammate'), business_id: businessId, user_id: user.id, status: TEAMMATE_STATUS.active, created_at: now, updated_at: now };
  try {
    await runBatch(ctx.db, [
      ctx.db.insert(teammates).values(row),
      auditInsert(ctx, 'teammate.add', { type: 'business', id: businessId }, { user_id: user.id }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT-ERR', 'This user is already a teammate.');
    throw err;
  }
  return view(row, user);
}

export async function setTeammateStatus(ctx: ServiceContext, businessId: string, userId: string, status: number) {
  await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const now = ctx.now();
  const [updated] = await ctx.db
    .update(teammates)
    .set({ status, updated_at: now })
    .where(and(eq(teammates.business_id, businessId), eq(teammates.user_id, userId)))
    .returning();
  if (!updated) throw new AppError('NOT-FOUND-ERR', 'This user is not a teammate of the business.');
  await auditInsert(ctx, 'teammate.status', { type: 'business', id: businessId }, { user_id: userId, status }).run();
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  return view(updated, user!);
}
