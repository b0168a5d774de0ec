import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { runBatch } from '../../db/client';
import { apiKeys, authCodes, sessions, users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { enforceRateLimit, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { draftEmail } from '../mail';
import { codeIsLive, codeMatches, consumeCode, issueCode, takeAttempt } from './codes';
import { issuedKeyView, mintApiKey } from './credentials';
import { budget, chargeAttempt, LIMITS } from './limits';
import { closeLiveViewsOfEndedSessionsOf } from './live-views';
import { NO_ACCOUNT_HASH, userOpApplied } from './register';
import type {
  ChangePasswordInput,
  ConfirmPasswordResetInput,
  KeyIssued,
  PasswordChanged,
  PasswordResetRequested,
  RequestPasswordResetInput,
} from './schemas';

/** Ends every session of the account, inside the batch of a guarded change (`onlyIf`). */
const revokeAllSessions = (ctx: ServiceContext, userId: string, now: number, onlyIf: SQL) =>
  ctx.db
    .update(sessions)
    .set({ revoked_at: now })
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at), onlyIf));

/**
 * Changes the password of the signed-in account; the current password is required (wrong ones are
 * limited per account). Every session ends, the one making the request included; the personal API
 * key stays (the owner proved the password; POST /v1/user/api_key/regenerate replaces it). Pending
 * reset codes die.
 */
export async function changePassword(ctx: ServiceContext, input: ChangePasswordInput): Promise<PasswordChanged> {
  const actor = requirePerson(ctx);
  const attempt = await chargeAttempt(
    ctx.env,
    [budget(`password-change:${actor.userId}`, LIMITS.passwordChangeFailures)],
    'Too many wrong passwords; wait before trying again.',
  );
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  if (!(await verifyPassword(input.current_password, user.password_hash))) throw new AppError('PASSWORD-WRONG-ERR');
  await attempt.succeeded();

  const now = ctx.now();
  const newHash = await hashPassword(input.new_password);
  const w = prepareWrite(ctx, { type: 'user', id: user.id }, userOpApplied(user.id));
  const r = await w.commit({
    // Compare-and-swap on the hash read: of two concurrent changes, one wins.
    guard: ctx.db
      .update(users)
      .set({ password_hash: newHash, last_op_id: w.op, updated_at: now })
      .where(and(eq(users.id, user.id), eq(users.password_hash, user.password_hash))),
    follow: [
      revokeAllSessions(ctx, user.id, now, w.applied!),
      ctx.db
        .update(authCodes)
        .set({ consumed_at: now })
        .where(and(eq(authCodes.user_id, user.id), eq(authCodes.purpose, 'password_reset'), isNull(authCodes.consumed_at), w.applied)),
    ],
    audit: { action: 'user.password_change' },
  });
  if (!r.applied) throw new AppError('CONFLICT-ERR', 'The password was changed at the same moment; sign in again.');
  await closeLiveViewsOfEndedSessionsOf(ctx, user.id);
  return { status: 'password_changed', sessions_revoked: true, api_key_revoked: false };
}

/**
 * Mails a reset code to a verified account; earlier reset codes die. Silent for unknown and
 * unverified emails (an unverified account registers again instead).
 */
export async function requestPasswordReset(ctx: ServiceContext, input: RequestPasswordResetInput): Promise<PasswordResetRequested> {
  const { email } = input;
  const answer: PasswordResetRequested = { status: 'sent_if_account' };
  const { limit, windowSeconds } = LIMITS.resetRequestPerEmail;
  await enforceRateLimit(ctx.env, `reset-request:${email}`, limit, windowSeconds, 'Too many reset codes requested for this email.');
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNotNull(users.email_verified_at)))
    .limit(1);
  if (!user) return answer;
  const reset = await issueCode(ctx, 'password_reset', email, user.id);
  const mail = draftEmail(ctx, {
    to: email,
    template: 'password_reset',
    subject: `Your Shiftmarket password reset code: ${reset.code}`,
    text: `Your Shiftmarket password reset code is ${reset.code}. It expires in 15 minutes.\nIf you did not ask to reset your password, ignore this email; your password stays as it is.`,
    sensitive: true,
  });
  await runBatch(ctx.db, [...reset.statements, mail.insert]);
  ctx.waitUntil(
    mail.enqueue().catch((err: unknown) => ctx.log.warn('reset mail not enqueued; the sweep sends it', { error: String(err) })),
  );
  return answer;
}

const RESET_REFUSED = 'The code is wrong or has expired, or too many attempts were made; ask for a new code.';

/**
 * Sets a new password with a mailed reset code (attempts taken atomically before comparing, the
 * same caps as verification codes). A reset may follow a takeover, so it returns the account to the
 * owner alone: every session ends, the personal API key is revoked and a new one is issued, shown
 * in this answer only.
 */
export async function confirmPasswordReset(ctx: ServiceContext, input: ConfirmPasswordResetInput): Promise<KeyIssued> {
  const refused = () => new AppError('VERIFY-CODE-ERR', RESET_REFUSED);
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.email, input.email), isNotNull(users.email_verified_at)))
    .limit(1);
  if (!user) {
    await verifyPassword(input.new_password, NO_ACCOUNT_HASH);
    throw refused();
  }
  const attempt = await takeAttempt(ctx, 'password_reset', input.email, user.id);
  if (!attempt || !(await codeMatches(attempt, input.code))) throw refused();

  const now = ctx.now();
  const [newHash, { key, row }] = await Promise.all([hashPassword(input.new_password), mintApiKey(user.id, now)]);
  const w = prepareWrite(ctx, { type: 'user', id: user.id }, userOpApplied(user.id));
  const r = await w.commit({
    guard: ctx.db
      .update(users)
      .set({ password_hash: newHash, last_op_id: w.op, updated_at: now })
      .where(and(eq(users.id, user.id), isNotNull(users.email_verified_at), codeIsLive(attempt.id, now))),
    follow: [
      consumeCode(ctx, attempt.id, now, w.applied),
      revokeAllSessions(ctx, user.id, now, w.applied!),
      ctx.db
        .update(apiKeys)
        .set({ revoked_at: now })
        .where(and(eq(apiKeys.user_id, user.id), eq(apiKeys.kind, 'personal'), isNull(apiKeys.revoked_at), w.applied)),
      insertWhere(ctx.db, apiKeys, row, w.applied!),
    ],
    audit: { action: 'user.password_reset', data: { api_key_id: row.id } },
  });
  if (!r.applied || r.replayed) throw refused();
  await closeLiveViewsOfEndedSessionsOf(ctx, user.id);
  return { user_id: user.id, api_key: issuedKeyView(key, row) };
}
