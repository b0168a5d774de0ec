import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { shifterIdOf } from '../access';
import { prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { getShifterOfUser } from './reads';
import type { ShifterView } from './schemas';

/** The public details a shifter edits, and whether they take shift requests (off: the Paused badge). */
export const updateShifterProfileInput = z.strictObject({
  display_name: z.string().trim().min(1).max(100).optional(),
  headline: z.string().trim().max(140).nullable().optional(),
  bio: z.string().trim().max(2000).nullable().optional(),
  accept_shift_req: z.boolean().optional(),
});
export type UpdateShifterProfileInput = z.infer<typeof updateShifterProfileInput>;

/**
 * The caller changes their own shifter profile's public details and the accept_shift_req switch, in
 * one guarded write with an audit row naming the fields changed; an empty headline or bio clears it.
 * Answers the profile as get_shifter does.
 */
export async function updateShifterProfile(ctx: ServiceContext, input: UpdateShifterProfileInput): Promise<ShifterView> {
  const actor = requirePerson(ctx);
  const shifterId = await shifterIdOf(ctx, actor.userId);
  if (!shifterId) throw new AppError('FORBIDDEN-ERR', 'You have no shifter profile.');
  const set: Partial<typeof shifters.$inferInsert> = {};
  if (input.display_name !== undefined) set.display_name = input.display_name;
  if (input.headline !== undefined) set.headline = input.headline || null;
  if (input.bio !== undefined) set.bio = input.bio || null;
  if (input.accept_shift_req !== undefined) set.accept_shift_req = input.accept_shift_req;
  const fields = Object.keys(set);
  if (fields.length) {
    const w = prepareWrite(ctx, { type: 'shifter', id: shifterId });
    await w.commit({
      guard: ctx.db
        .update(shifters)
        .set({ ...set, updated_at: ctx.now() })
        .where(eq(shifters.id, shifterId)),
      audit: { action: 'shifter.update', data: { fields } },
    });
  }
  return getShifterOfUser(ctx);
}
