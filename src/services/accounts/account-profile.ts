import { z } from '@hono/zod-openapi';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { twoFactor, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { getUserDetails } from './reads';
import { userOpApplied } from './register';
import type { UserDetails } from './schemas';

export const DISPLAY_NAME_MAX = 100;
export const PHONE_MAX = 32;

/** Digits, spaces and `( ) . -`, an optional leading `+`, and at least four digits. */
const PHONE_SHAPE = /^\+?[0-9 ().-]+$/;
export const isPhoneNumber = (v: string) => PHONE_SHAPE.test(v) && (v.match(/[0-9]/g)?.length ?? 0) >= 4;

export const updateUserDetailsInput = z
  .strictObject({
    display_name: z
      .string()
      .trim()
      .min(1)
      .max(DISPLAY_NAME_MAX)
      .optional()
      .openapi({ description: 'The name shown on the account.', example: 'Sam Rivera' }),
    phone: z
      .string()
      .trim()
      .max(PHONE_MAX)
      .refine((v) => v === '' || isPhoneNumber(v), {
        message: 'must be a phone number: digits, spaces and + ( ) . - with at least four digits',
      })
      .nullable()
      .optional()
      .openapi({ description: 'A phone number; `null` or an empty string removes it.', example: '+1 212 555 0100' }),
  })
  .refine((v) => v.display_name !== undefined || v.phone !== undefined, { message: 'Send display_name, phone or both.' })
  .openapi('UpdateUserDetailsRequest');
export type UpdateUserDetailsInput = z.infer<typeof updateUserDetailsInput>;

/**
 * Changes the caller's display name and/or phone, with an audit row naming the fields changed (not
 * their values), and answers the account as GET /v1/user/details does. The email is not changed
 * here (it is the sign-in identity and needs a verification of its own). While SMS codes are a
 * second factor of the account, the phone (where they go) cannot be changed: turning two-factor off
 * first needs the password, so a stolen session cannot redirect the codes.
 */
export async function updateAccountProfile(ctx: ServiceContext, input: UpdateUserDetailsInput): Promise<UserDetails> {
  const actor = requirePerson(ctx);
  const userId = actor.userId;
  const set: { display_name?: string; phone?: string | null } = {};
  if (input.display_name !== undefined) set.display_name = input.display_name;
  if (input.phone !== undefined) set.phone = input.phone === '' ? null : input.phone;

  const now = ctx.now();
  const phoneKept =
    set.phone === undefined
      ? undefined
      : sql`(${users.phone} IS ${set.phone} OR NOT EXISTS (SELECT 1 FROM ${twoFactor} WHERE ${twoFactor.user_id} = ${userId} AND ${isNotNull(twoFactor.sms_enabled_at)} AND ${isNotNull(twoFactor.totp_enabled_at)}))`;
  const w = prepareWrite(ctx, { type: 'user', id: userId }, userOpApplied(userId));
  const r = await w.commit({
    guard: ctx.db
      .update(users)
      .set({ ...set, last_op_id: w.op, updated_at: now })
      .where(and(eq(users.id, userId), phoneKept)),
    audit: { action: 'user.profile_update', data: { fields: Object.keys(set) } },
  });
  if (!r.applied) {
    const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new AppError('USER-NOT-FND-ERR');
    throw new AppError('CONFLICT-ERR', 'The phone receives your sign-in codes; turn off two-factor before changing it.');
  }
  return getUserDetails(ctx);
}
