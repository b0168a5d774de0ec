import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { runBatch } from '../../../db/client';
import { authCodes, twoFactor, users } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { codeMatches, issueCode, takeAttempt } from '../codes';
import { auditInsert, changedRows, enforceRateLimit, requirePerson, type ServiceContext } from '../../kernel';
import { smsProviderFor } from '../../notifications';
import { isEnabled, loadTwoFactor, methodsOf, type PendingSignIn } from './state';

/** Sign-in codes by text message per account: 5 an hour (each costs money and can annoy the owner). */
export const SMS_CODE_SENDS = { limit: 5, windowSeconds: 3600 } as const;

/** The phone number shown on the page: only the last two digits. */
export const maskPhone = (phone: string) => `•••• ${phone.replace(/\D/g, '').slice(-2)}`;

async function smsAccount(ctx: ServiceContext, userId: string) {
  const [[user], row] = await Promise.all([
    ctx.db.select({ email: users.email, phone: users.phone }).from(users).where(eq(users.id, userId)).limit(1),
    loadTwoFactor(ctx.db, userId),
  ]);
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  return { user, row, offered: methodsOf(row, ctx.settings.TWO_FACTOR_SMS_ENABLED, !!user.phone).includes('sms') };
}

/**
 * Texts a sign-in code to the account's phone for a pending sign-in, when the operator offers SMS
 * (TWO_FACTOR_SMS_ENABLED) and the account turned the method on. The code is an auth code of purpose
 * `two_factor_sms` (hashed, 15 minutes, attempts capped like email codes); a new one voids the last.
 */
export async function sendSignInSms(ctx: ServiceContext, pending: PendingSignIn): Promise<{ sent_to: string }> {
  const { user, offered } = await smsAccount(ctx, pending.userId);
  if (!offered || !user.phone) throw new AppError('CONFLICT-ERR', 'Text-message codes are not available for this account.');
  await enforceRateLimit(
    ctx.env,
    `sms-code:${pending.userId}`,
    SMS_CODE_SENDS.limit,
    SMS_CODE_SENDS.windowSeconds,
    'Too many codes sent by text message; use the authenticator app or a backup code.',
  );
  const issued = await issueCode(ctx, 'two_factor_sms', user.email, pending.userId);
  await runBatch(ctx.db, [...issued.statements]);
  await smsProviderFor(ctx.settings, ctx.log).send({
    to: user.phone,
    text: `Your Shiftmarket sign-in code is ${issued.code}. It expires in 15 minutes. Never share it.`,
    sensitive: true,
  });
  return { sent_to: maskPhone(user.phone) };
}

/**
 * Statements that use a texted code for the pending sign-in (the first is the guard: the code row
 * marked consumed by this operation), when the code is the live one; null otherwise. An attempt is
 * taken before comparing, so guesses stop at the code's caps.
 */
export async function useSmsCode(ctx: ServiceContext, pending: PendingSignIn, code: string, op: string) {
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, pending.userId)).limit(1);
  if (!user) return null;
  const row = await takeAttempt(ctx, 'two_factor_sms', user.email, pending.userId);
  if (!row || !(await codeMatches(row, code))) return null;
  const now = ctx.now();
  return [
    ctx.db
      .update(authCodes)
      .set({ consumed_at: now, consumed_op_id: op })
      .where(and(eq(authCodes.id, row.id), isNull(authCodes.consumed_at))),
    ctx.db
      .update(twoFactor)
      .set({ last_op_id: op, updated_at: now })
      .where(
        and(
          eq(twoFactor.user_id, pending.userId),
          sql`EXISTS (SELECT 1 FROM ${authCodes} WHERE ${authCodes.id} = ${row.id} AND ${authCodes.consumed_op_id} = ${op})`,
        ),
      ),
  ] as const;
}

/**
 * Turns the SMS method on or off for the caller. On needs two-factor on (the app stays the main
 * method), a phone on the account, and the operator to offer SMS.
 */
export async function setSmsMethod(ctx: ServiceContext, on: boolean): Promise<void> {
  const actor = requirePerson(ctx);
  const { user, row } = await smsAccount(ctx, actor.userId);
  if (on) {
    if (!ctx.settings.TWO_FACTOR_SMS_ENABLED) throw new AppError('CONFLICT-ERR', 'Text-message codes are not offered.');
    if (!isEnabled(row)) throw new AppError('CONFLICT-ERR', 'Turn on two-factor with an authenticator app first.');
    if (!user.phone) throw new AppError('CONFLICT-ERR', 'Add a phone number to your profile first.');
  }
  const now = ctx.now();
  const [changed] = await runBatch(ctx.db, [
    ctx.db
      .update(twoFactor)
      .set({ sms_enabled_at: on ? now : null, updated_at: now })
      .where(and(eq(twoFactor.user_id, actor.userId), isNotNull(twoFactor.totp_enabled_at))),
    auditInsert(ctx, on ? 'two_factor.sms_on' : 'two_factor.sms_off', { type: 'two_factor', id: actor.userId }),
  ]);
  if (on && changedRows(changed) === 0) throw new AppError('CONFLICT-ERR', 'Two-factor is not on.');
}
