import { and, eq, gt, isNotNull, isNull, or, lt, sql } from 'drizzle-orm';
import { runBatch } from '../../../db/client';
import { sessions, twoFactor, twoFactorBackupCodes } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { auditInsert, changedRows, type ServiceContext } from '../../kernel';
import { capSessions, SESSION_TTL_MS } from '../credentials';
import { budget, chargeAttempt } from '../limits';
import { closeLiveViewsOfEndedSessionsOf } from '../live-views';
import { findUnusedBackupCode, looksLikeBackupCode, useBackupCode } from './backup-codes';
import { openSecret } from './secret-box';
import { useSmsCode } from './sms';
import { isEnabled, loadTwoFactor, type PendingSignIn, twoFactorOpApplied } from './state';
import { matchingStep, normalizeCode } from './totp';

/** A session waiting for its second factor lives this long; then signing in starts over. */
export const PENDING_SESSION_TTL_MS = 10 * 60 * 1000;

/**
 * Wrong second factors per account: 5 in 15 minutes and 20 a day (codes and backup codes together).
 * With ±1 step, three of a million codes are valid at a time, so a guesser who has the password gets
 * about 6 chances in 100,000 a day; the owner is not locked out of the password step meanwhile.
 */
export const SECOND_FACTOR_LIMITS = {
  short: { limit: 5, windowSeconds: 900 },
  daily: { limit: 20, windowSeconds: 86_400 },
} as const;

export interface SecondFactorInput {
  /** A 6-digit code from the authenticator app. */
  code?: string | undefined;
  /** One of the backup codes (`xxxxx-xxxxx`). */
  backup_code?: string | undefined;
}

/** The promotion of a pending session to a full one, conditional on `applied` inside the batch. */
const promote = (ctx: ServiceContext, pending: PendingSignIn, applied: ReturnType<typeof sql>) => {
  const now = ctx.now();
  return ctx.db
    .update(sessions)
    .set({ pending_two_factor: false, expires_at: now + SESSION_TTL_MS, last_seen_at: now })
    .where(
      and(
        eq(sessions.id, pending.sessionId),
        eq(sessions.user_id, pending.userId),
        eq(sessions.pending_two_factor, true),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, now),
        applied,
      ),
    );
};

/**
 * Checks the second factor of a pending sign-in and, when it is right, promotes the session in the
 * same batch that uses the factor up: a TOTP code's step must be later than the last accepted one (a
 * code works once, also against concurrent use), a backup code is marked used. Wrong factors are
 * limited per account (SECOND_FACTOR_LIMITS).
 */
export async function completeSecondFactor(ctx: ServiceContext, pending: PendingSignIn, input: SecondFactorInput): Promise<void> {
  const attempt = await chargeAttempt(
    ctx.env,
    [
      budget(`second-factor:${pending.userId}`, SECOND_FACTOR_LIMITS.short),
      budget(`second-factor-day:${pending.userId}`, SECOND_FACTOR_LIMITS.daily),
    ],
    'Too many wrong codes; wait before trying again.',
  );
  const row = await loadTwoFactor(ctx.db, pending.userId);
  if (!isEnabled(row)) {
    // Two-factor was turned off meanwhile: this half-made sign-in ends; signing in again needs no code.
    // Not a wrong code: the charge is given back.
    await attempt.succeeded();
    await cancelPendingSignIn(ctx, pending);
    throw new AppError('AUTH-REQ-ERR', 'Sign in again.');
  }
  const now = ctx.now();
  const op = newId('operation');
  const applied = twoFactorOpApplied(pending.userId, op);
  let statements: Parameters<typeof runBatch>[1];
  let method: 'totp' | 'sms' | 'backup_code';

  if (input.code !== undefined && input.code !== '') {
    method = 'totp';
    const secret = await openSecret(ctx.settings, pending.userId, row.totp_secret_enc);
    const code = normalizeCode(input.code);
    const step = matchingStep(secret, code, now);
    if (step === null) {
      // Not the app's code: perhaps the one texted to the phone, when the account uses SMS too.
      const sms = row.sms_enabled_at !== null && ctx.settings.TWO_FACTOR_SMS_ENABLED ? await useSmsCode(ctx, pending, code, op) : null;
      if (!sms) throw new AppError('TWO-FACTOR-CODE-ERR');
      method = 'sms';
      statements = [...sms];
    } else {
      statements = [
        ctx.db
          .update(twoFactor)
          .set({ totp_last_step: step, last_op_id: op, updated_at: now })
          .where(
            and(
              eq(twoFactor.user_id, pending.userId),
              isNotNull(twoFactor.totp_enabled_at),
              or(isNull(twoFactor.totp_last_step), lt(twoFactor.totp_last_step, step)),
            ),
          ),
      ];
    }
  } else if (input.backup_code !== undefined && looksLikeBackupCode(input.backup_code)) {
    method = 'backup_code';
    const code = await findUnusedBackupCode(ctx, pending.userId, input.backup_code);
    if (!code) throw new AppError('TWO-FACTOR-CODE-ERR');
    statements = [
      useBackupCode(ctx, code.id, op),
      ctx.db
        .update(twoFactor)
        .set({ last_op_id: op, updated_at: now })
        .where(and(eq(twoFactor.user_id, pending.userId), backupUsedBy(code.id, op))),
    ];
  } else {
    throw new AppError('TWO-FACTOR-CODE-ERR');
  }

  const results = await runBatch(ctx.db, [
    ...statements,
    promote(ctx, pending, applied),
    // Now a full session: the account keeps at most MAX_LIVE_SESSIONS of them.
    capSessions(ctx.db, pending.userId, now, 'full', applied),
    auditInsert(ctx, 'session.two_factor', { type: 'session', id: pending.sessionId }, { method }, applied),
  ]);
  if (changedRows(results[0]) !== 1) throw new AppError('TWO-FACTOR-CODE-ERR'); // used already
  await attempt.succeeded();
  if (changedRows(results[statements.length]) !== 1) {
    throw new AppError('AUTH-REQ-ERR', 'This sign-in has expired or was cancelled; sign in again.');
  }
  // A full session beyond the cap ended: its live views close too.
  if (changedRows(results[statements.length + 1]) > 0) await closeLiveViewsOfEndedSessionsOf(ctx, pending.userId);
}

const backupUsedBy = (codeId: string, op: string) =>
  sql`EXISTS (SELECT 1 FROM ${twoFactorBackupCodes} WHERE ${twoFactorBackupCodes.id} = ${codeId} AND ${twoFactorBackupCodes.used_op_id} = ${op})`;

/** Cancelling the challenge signs out: the pending session ends. */
export async function cancelPendingSignIn(ctx: ServiceContext, pending: PendingSignIn): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({ revoked_at: ctx.now() })
    .where(
      and(
        eq(sessions.id, pending.sessionId),
        eq(sessions.user_id, pending.userId),
        eq(sessions.pending_two_factor, true),
        isNull(sessions.revoked_at),
      ),
    );
}
