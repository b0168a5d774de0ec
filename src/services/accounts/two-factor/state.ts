import { and, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { twoFactor, twoFactorBackupCodes, users } from '../../../db/schema';
import { verifyPassword } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';
import type { ServiceContext } from '../../kernel';
import { budget, chargeAttempt, LIMITS } from '../limits';

export type TwoFactorMethod = 'totp' | 'sms';

export interface TwoFactorStatus {
  enabled: boolean;
  methods: TwoFactorMethod[];
  backup_codes_left: number;
}

export type TwoFactorRow = typeof twoFactor.$inferSelect;

/** A sign-in waiting for its second factor: the pending session and its account. */
export interface PendingSignIn {
  sessionId: string;
  userId: string;
}

export async function loadTwoFactor(db: Db, userId: string): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.user_id, userId)).limit(1);
  return row;
}

export const isEnabled = (row: TwoFactorRow | undefined): row is TwoFactorRow & { totp_secret_enc: string } =>
  !!row && row.totp_enabled_at !== null && row.totp_secret_enc !== null;

/** The methods a sign-in challenge may use. SMS only when the operator offers it and the account has a phone. */
export function methodsOf(row: TwoFactorRow | undefined, smsOffered: boolean, hasPhone: boolean): TwoFactorMethod[] {
  if (!isEnabled(row)) return [];
  const methods: TwoFactorMethod[] = ['totp'];
  if (smsOffered && hasPhone && row.sms_enabled_at !== null) methods.push('sms');
  return methods;
}

/** The two-factor fields of an account (user details, settings pages). */
export async function twoFactorStatus(ctx: ServiceContext, userId: string): Promise<TwoFactorStatus> {
  const [[row], [left], [user]] = await Promise.all([
    ctx.db.select().from(twoFactor).where(eq(twoFactor.user_id, userId)).limit(1),
    ctx.db
      .select({ n: count() })
      .from(twoFactorBackupCodes)
      .where(and(eq(twoFactorBackupCodes.user_id, userId), isNull(twoFactorBackupCodes.used_at))),
    ctx.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId)).limit(1),
  ]);
  const enabled = isEnabled(row);
  return {
    enabled,
    methods: methodsOf(row, ctx.settings.TWO_FACTOR_SMS_ENABLED, !!user?.phone),
    backup_codes_left: enabled ? (left?.n ?? 0) : 0,
  };
}

/** True inside a batch once the account's two-factor row carries this operation id. */
export const twoFactorOpApplied = (userId: string, op: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${twoFactor} WHERE ${twoFactor.user_id} = ${userId} AND ${twoFactor.last_op_id} = ${op})`;

/**
 * Re-authentication for the changes that weaken or reset the second factor (disable, new backup
 * codes): the current password, wrong ones limited per account like a password change.
 */
export async function confirmPassword(ctx: ServiceContext, userId: string, password: string): Promise<void> {
  const attempt = await chargeAttempt(
    ctx.env,
    [budget(`password-change:${userId}`, LIMITS.passwordChangeFailures)],
    'Too many wrong passwords; wait before trying again.',
  );
  const [user] = await ctx.db.select({ hash: users.password_hash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  if (!(await verifyPassword(password, user.hash))) throw new AppError('PASSWORD-WRONG-ERR');
  await attempt.succeeded();
}
