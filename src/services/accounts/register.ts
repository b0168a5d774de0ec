import { and, desc, eq, isNull } from 'drizzle-orm';
import { isUniqueViolation, runBatch } from '../../db/client';
import { apiKeys, businesses, emailVerifications, sessions, shifters, users } from '../../db/schema';
import { hashPassword, sha256Hex, timingSafeEqualStr, verifyPassword } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { auditInsert } from '../audit';
import type { ServiceContext } from '../context';
import { draftEmail } from '../mail';
import { consumeRateLimit } from '../rate-limit';
import { mintApiKey, mintSession } from './credentials';
import { buildBusinessRow, buildShifterRow } from './profiles';
import type { BusinessProfileInput, ShifterProfileInput } from './schemas';

export const VERIFY_CODE_TTL_MS = 15 * 60 * 1000;
export const VERIFY_MAX_ATTEMPTS = 5;

export interface RegisterInput {
  email: string;
  password: string;
  display_name: string;
  phone?: string;
  shifter?: ShifterProfileInput;
  business?: BusinessProfileInput;
}

function sixDigitCode(): string {
  const n = crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000;
  return n.toString().padStart(6, '0');
}

const codeHash = (verificationId: string, code: string) => sha256Hex(`${verificationId}:${code}`);

function verificationEmail(ctx: ServiceContext, to: string, code: string) {
  return draftEmail(ctx, {
    to,
    template: 'email_verification',
    subject: `Your Shiftmarket code: ${code}`,
    text: `Your Shiftmarket verification code is ${code}. It expires in 15 minutes.\nIf you did not sign up, ignore this email.`,
  });
}

async function newVerification(ctx: ServiceContext, userId: string) {
  const code = sixDigitCode();
  const id = newId('verification');
  const insert = ctx.db.insert(emailVerifications).values({
    id,
    user_id: userId,
    code_hash: await codeHash(id, code),
    expires_at: ctx.now() + VERIFY_CODE_TTL_MS,
    created_at: ctx.now(),
  });
  return { code, insert };
}

/**
 * Creates an unverified account with a shifter profile, a business, or both (dual profile), and
 * mails a verification code. The account, its profiles, the code and the mail are one batch.
 */
export async function registerAccount(ctx: ServiceContext, input: RegisterInput) {
  if (!input.shifter && !input.business) {
    throw new AppError('VALIDATION-ERR', 'Send a shifter profile, a business, or both.', [
      { field: 'body', message: 'shifter or business is required' },
    ]);
  }
  const [taken] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if (taken) throw new AppError('EMAIL-TAKEN-ERR');

  const now = ctx.now();
  const userId = newId('user');
  const shifterRow = input.shifter ? await buildShifterRow(ctx, userId, input.display_name, input.shifter) : null;
  const businessRow = input.business ? await buildBusinessRow(ctx, userId, input.business, true) : null;
  const verification = await newVerification(ctx, userId);
  const mail = verificationEmail(ctx, input.email, verification.code);

  try {
    await runBatch(ctx.db, [
      ctx.db.insert(users).values({
        id: userId,
        email: input.email,
        password_hash: await hashPassword(input.password),
        display_name: input.display_name,
        phone: input.phone ?? null,
        created_at: now,
        updated_at: now,
      }),
      ...(shifterRow ? [ctx.db.insert(shifters).values(shifterRow)] : []),
      ...(businessRow ? [ctx.db.insert(businesses).values(businessRow)] : []),
      verification.insert,
      mail.insert,
      auditInsert(ctx, 'user.register', { type: 'user', id: userId }, { shifter: !!shifterRow, business: !!businessRow }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('EMAIL-TAKEN-ERR');
    throw err;
  }
  await mail.enqueue();
  return { userId, shifterId: shifterRow?.id ?? null, businessId: businessRow?.id ?? null };
}

/** Sends a fresh code to an unverified account. Silent for unknown or verified emails (no enumeration). */
export async function resendVerification(ctx: ServiceContext, email: string) {
  const limit = await consumeRateLimit(ctx.env, `verify-resend:${email}`, 5, 3600);
  if (!limit.allowed) {
    throw new AppError('RATE-LIMIT-ERR', 'Too many codes requested for this email.', undefined, { 'Retry-After': String(limit.retryAfter) });
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user || user.email_verified_at !== null) return;
  const verification = await newVerification(ctx, user.id);
  const mail = verificationEmail(ctx, email, verification.code);
  await runBatch(ctx.db, [verification.insert, mail.insert]);
  await mail.enqueue();
}

/**
 * Checks the code; on success marks the email verified and issues the account's personal API key,
 * returned here in full for the only time.
 */
export async function verifyEmail(ctx: ServiceContext, email: string, code: string) {
  const fail = (msg: string) => new AppError('VERIFY-CODE-ERR', msg);
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) throw fail('The code is wrong or has expired.');
  if (user.email_verified_at !== null) throw fail('This email is already verified.');
  const [ver] = await ctx.db
    .select()
    .from(emailVerifications)
    .where(and(eq(emailVerifications.user_id, user.id), isNull(emailVerifications.consumed_at)))
    .orderBy(desc(emailVerifications.created_at))
    .limit(1);
  if (!ver || ver.expires_at < ctx.now()) throw fail('The code has expired. Ask for a new one.');
  if (ver.attempts >= VERIFY_MAX_ATTEMPTS) throw fail('Too many wrong attempts. Ask for a new code.');
  if (!timingSafeEqualStr(await codeHash(ver.id, code), ver.code_hash)) {
    await ctx.db
      .update(emailVerifications)
      .set({ attempts: ver.attempts + 1 })
      .where(eq(emailVerifications.id, ver.id));
    throw fail('The code is wrong or has expired.');
  }

  const now = ctx.now();
  const { key, row } = await mintApiKey(user.id, now);
  try {
    // The partial unique index (one live personal key per user) makes a concurrent second verify fail whole.
    await runBatch(ctx.db, [
      ctx.db.update(emailVerifications).set({ consumed_at: now }).where(eq(emailVerifications.id, ver.id)),
      ctx.db.update(users).set({ email_verified_at: now, updated_at: now }).where(eq(users.id, user.id)),
      ctx.db.insert(apiKeys).values(row),
      auditInsert(ctx, 'user.verify_email', { type: 'user', id: user.id }),
      auditInsert(ctx, 'api_key.create', { type: 'api_key', id: row.id }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw fail('This email is already verified.');
    throw err;
  }
  return { userId: user.id, apiKey: { key, prefix: row.prefix, created_at: now } };
}

/** Email + password sign-in; returns a bearer session token. */
export async function login(ctx: ServiceContext, email: string, password: string) {
  const limit = await consumeRateLimit(ctx.env, `login:${email}`, 10, 900);
  if (!limit.allowed) {
    throw new AppError('RATE-LIMIT-ERR', 'Too many sign-in attempts for this email.', undefined, { 'Retry-After': String(limit.retryAfter) });
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
  // Hash even for unknown emails so timing does not reveal which accounts exist.
  const ok = await verifyPassword(password, user?.password_hash ?? 'pbkdf2_sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAA');
  if (!user || !ok) throw new AppError('LOGIN-FAILED-ERR');
  if (user.email_verified_at === null) throw new AppError('EMAIL-UNVERIFIED-ERR');
  const { token, row } = await mintSession(user.id, ctx.now());
  await ctx.db.insert(sessions).values(row);
  return { userId: user.id, token, expiresAt: row.expires_at };
}
