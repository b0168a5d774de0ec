import { eq } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { admins, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { auditInsert, requirePerson, type ServiceContext } from '../kernel';
import type { AdminGranted, GrantAdminInput } from './schemas';
import { isAdmin } from '../access';

/**
 * An admin makes another user an admin. The first admin comes from the seed or an operator's SQL. A
 * demo account never grants admin, the demo cast's admin included (its password is published).
 */
export async function grantAdmin(ctx: ServiceContext, input: GrantAdminInput): Promise<AdminGranted> {
  const { user_id: userId } = input;
  const actor = requirePerson(ctx);
  if (actor.isDemo) throw new AppError('FORBIDDEN-ERR', 'A demo account may not grant admin rights.');
  if (!isAdmin(actor)) throw new AppError('FORBIDDEN-ERR', 'Only an admin may grant admin rights.');
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  await runBatch(ctx.db, [
    ctx.db.insert(admins).values({ user_id: userId, granted_by_user_id: actor.userId, created_at: ctx.now() }).onConflictDoNothing(),
    auditInsert(ctx, 'admin.grant', { type: 'user', id: userId }),
  ]);
  return { user_id: userId, is_admin: true };
}
