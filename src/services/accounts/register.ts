import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, isUniqueViolation, runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { apiKeys, businesses, shifters, users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { enforceRateLimit, prepareWrite, type ServiceContext, type WriteResult } from '../kernel';
import { draftEmail } from '../mail';
import { CODE_TTL_MS, codeIsLive, codeMatches, consumeCode, issueCode, takeAttempt } from './codes';
import { issuedKeyView, mintApiKey } from './credentials';
import { LIMITS } from './limits';
import { buildBusinessRow, buildShifterRow, type ShifterRowOptions } from './profiles';
import type { KeyIssued, Registered, RegisterInput, ResendVerificationInput, VerificationResent, VerifyEmailInput } from './schemas';

/** Compared against when there is no account, so a missing one costs the same time as a wrong password. */
export const NO_ACCOUNT_HASH = 'pbkdf2_sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAA';

/** SQL: the account carries this operation id (its guarded update ran in this batch). */
export const userOpApplied = (userId: string) => (op: string) =>
  sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${userId} AND ${users.last_op_id} = ${op})`;

function verificationEmail(ctx: ServiceContext, to: string, code: string) {
  return draftEmail(ctx, {
    to,
    template: 'email_verification',
    subject: `Your Shiftmarket code: ${code}`,
    text: `Your Shiftmarket verification code is ${code}. It expires in 15 minutes.\nIf you did not sign up, ignore this email.`,
    sensitive: true,
  });
}

/**
 * Creates an unverified account with a shifter profile, a business, or both (dual profile), and
 * mails a verification code. Only a verified email is taken: registering an email whose account is
 * still unverified starts over (the earlier registration, its profiles and its codes are replaced by
 * this one, new password included), in the same one batch. The answer has the same shape either way
 * and a new user id, so nothing of the earlier registration is revealed.
 */
export async function registerAccount(ctx: ServiceContext, input: RegisterInput, opts: ShifterRowOptions = {}): Promise<Registered> {
  if (!input.shifter && !input.business) {
    throw new AppError('VALIDATION-ERR', 'Send a shifter profile, a business, or both.', [
      { field: 'body', message: 'shifter or business is required' },
    ]);
  }
  await enforceRateLimit(
    ctx.env,
    `register:${input.email}`,
    LIMITS.registerPerEmail.limit,
    LIMITS.registerPerEmail.windowSeconds,
    'Too many registrations for this email.',
  );

  const userId = newId('user');
  const [passwordHash, shifterRow, businessRow] = await Promise.all([
    hashPassword(input.password),
    input.shifter ? buildShifterRow(ctx, userId, input.display_name, input.shifter, opts) : null,
    input.business ? buildBusinessRow(ctx, userId, input.business, true) : null,
  ]);

  // A concurrent registration of the same email can replace the row read here; start over then.
  for (let round = 0; ; round++) {
    const [existing] = await ctx.db
      .select({ id: users.id, verified: users.email_verified_at })
      .from(users)
      .where(eq(users.email, input.email))
      .limit(1);
    if (existing && existing.verified !== null) throw new AppError('EMAIL-TAKEN-ERR');

    const now = ctx.now();
    const verification = await issueCode(ctx, 'verify_email', input.email, userId);
    const mail = verificationEmail(ctx, input.email, verification.code);
    const insertUser = ctx.db.insert(users).values({
      id: userId,
      email: input.email,
      password_hash: passwordHash,
      display_name: input.display_name,
      phone: input.phone ?? null,
      created_at: now,
      updated_at: now,
    });
    // Starting over deletes the unverified account (its profiles go with it); the unique email makes
    // the insert fail, and so the whole batch, should it have been verified meanwhile.
    const replace = existing ? ctx.db.delete(users).where(and(eq(users.id, existing.id), isNull(users.email_verified_at))) : null;
    const w = prepareWrite(ctx, { type: 'user', id: userId });
    try {
      const r = await w.commit({
        guard: replace ?? insertUser,
        follow: [
          ...(replace ? [insertUser] : []),
          ...(shifterRow ? [ctx.db.insert(shifters).values(shifterRow)] : []),
          ...(businessRow ? [ctx.db.insert(businesses).values(businessRow)] : []),
          ...verification.statements,
          mail.insert,
        ],
        audit: { action: 'user.register', data: { shifter: !!shifterRow, business: !!businessRow, restarted: !!existing } },
      });
      if (r.replayed) return registeredAgain(ctx, r.subject.id, input.email);
      if (!r.applied) {
        if (round < 2) continue;
        throw new AppError('CONFLICT-ERR', 'This email was registered at the same moment; try again.');
      }
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (round < 2) continue;
      throw new AppError('EMAIL-TAKEN-ERR');
    }
    ctx.waitUntil(
      mail.enqueue().catch((err: unknown) => ctx.log.warn('verification mail not enqueued; the sweep sends it', { error: String(err) })),
    );
    return registeredView(userId, shifterRow?.id ?? null, businessRow?.id ?? null, input.email);
  }
}

/** The registration's answer: the new ids and where the code went (the address as it was normalised). */
function registeredView(userId: string, shifterId: string | null, businessId: string | null, email: string): Registered {
  return {
    user_id: userId,
    shifter_id: shifterId,
    business_id: businessId,
    verification: { sent_to: email, expires_in_seconds: CODE_TTL_MS / 1000 },
  };
}

/** A retried registration that already committed answers from what it created. */
async function registeredAgain(ctx: ServiceContext, userId: string, email: string): Promise<Registered> {
  const [[s], [b]] = await Promise.all([
    ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, userId)).limit(1),
    ctx.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.user_id, userId)).limit(1),
  ]);
  return registeredView(userId, s?.id ?? null, b?.id ?? null, email);
}

/**
 * Sends a fresh code to an unverified account; earlier codes die. Silent for unknown or verified
 * emails (no enumeration). The attempts of the new code share the email's cap with the earlier ones.
 */
export async function resendVerification(ctx: ServiceContext, input: ResendVerificationInput): Promise<VerificationResent> {
  const { email } = input;
  const answer: VerificationResent = { status: 'sent_if_pending' };
  await enforceRateLimit(
    ctx.env,
    `verify-resend:${email}`,
    LIMITS.resendPerEmail.limit,
    LIMITS.resendPerEmail.windowSeconds,
    'Too many codes requested for this email.',
  );
  const [user] = await ctx.db
    .select({ id: users.id, verified: users.email_verified_at })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!user || user.verified !== null) return answer;
  const verification = await issueCode(ctx, 'verify_email', email, user.id);
  const mail = verificationEmail(ctx, email, verification.code);
  await runBatch(ctx.db, [...verification.statements, mail.insert]);
  ctx.waitUntil(
    mail.enqueue().catch((err: unknown) => ctx.log.warn('verification mail not enqueued; the sweep sends it', { error: String(err) })),
  );
  return answer;
}

const CODE_REFUSED = 'The code is wrong or has expired, the password does not match, or too many attempts were made; ask for a new code.';

/**
 * Verifies the email with the code mailed to it and the password the account was registered with.
 * An attempt is taken before either is compared, and a wrong password costs an attempt like a wrong
 * code, with the same answer. On success the email is verified and the account's personal API key is
 * issued, returned here in full for the only time.
 */
export async function verifyEmail(ctx: ServiceContext, input: VerifyEmailInput): Promise<KeyIssued> {
  const refused = () => new AppError('VERIFY-CODE-ERR', CODE_REFUSED);
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email)).limit(1);
  if (!user || user.email_verified_at !== null) {
    await verifyPassword(input.password, NO_ACCOUNT_HASH);
    throw refused();
  }
  const attempt = await takeAttempt(ctx, 'verify_email', input.email, user.id);
  const [codeOk, passwordOk] = await Promise.all([codeMatches(attempt, input.code), verifyPassword(input.password, user.password_hash)]);
  if (!attempt || !codeOk || !passwordOk) throw refused();
  return markVerified(ctx, user.id, attempt.id, () => [], refused);
}

/**
 * The account's email is verified with the code `codeId` (its attempt taken and compared by the
 * caller): one guarded write that stamps the account, uses the code and issues the personal API key,
 * with `follow(applied)`'s statements in the same batch. The key is returned in full, this once.
 */
export async function markVerified(
  ctx: ServiceContext,
  userId: string,
  codeId: string,
  follow: (applied: SQL) => BatchItem[],
  refused: () => AppError,
): Promise<KeyIssued> {
  const now = ctx.now();
  const { key, row } = await mintApiKey(userId, now);
  const w = prepareWrite(ctx, { type: 'user', id: userId }, userOpApplied(userId));
  let r: WriteResult;
  try {
    r = await w.commit({
      guard: ctx.db
        .update(users)
        .set({ email_verified_at: now, updated_at: now, last_op_id: w.op })
        .where(and(eq(users.id, userId), isNull(users.email_verified_at), codeIsLive(codeId, now))),
      follow: [consumeCode(ctx, codeId, now, w.applied), insertWhere(ctx.db, apiKeys, row, w.applied!), ...follow(w.applied!)],
      audit: { action: 'user.verify_email', data: { api_key_id: row.id } },
    });
  } catch (err) {
    // The partial unique index (one live personal key per user) refuses a second key.
    if (isUniqueViolation(err)) throw refused();
    throw err;
  }
  // A replayed retry cannot show the key again: it was shown once.
  if (!r.applied || r.replayed) throw refused();
  return { user_id: userId, api_key: issuedKeyView(key, row) };
}
