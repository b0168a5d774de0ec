import { and, eq, gt, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { authCodes } from '../../db/schema';
import { sha256Hex, timingSafeEqualStr } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { runBatch } from '../../db/client';
import { changedRows, type ServiceContext } from '../kernel';
import { pruneCodeSteps } from './code-steps';

export type CodePurpose = 'verify_email' | 'password_reset' | 'two_factor_sms';

/** A code is valid this long. */
export const CODE_TTL_MS = 15 * 60 * 1000;
/** Attempts per code (right or wrong: an attempt is taken before the code is compared). */
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Attempts per email and purpose over all codes created in CODE_ATTEMPT_WINDOW_MS, so a new code (a
 * resend, a new reset request, registering the address again) adds at most this much.
 */
export const CODE_MAX_ATTEMPTS_PER_EMAIL = 10;
export const CODE_ATTEMPT_WINDOW_MS = 60 * 60 * 1000;

function sixDigitCode(): string {
  // 2^32 is not a multiple of 10^6; redraw the top sliver so every code is equally likely.
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;
  for (;;) {
    const n = crypto.getRandomValues(new Uint32Array(1))[0]!;
    if (n < limit) return (n % 1_000_000).toString().padStart(6, '0');
  }
}

const codeHash = (codeId: string, code: string) => sha256Hex(`${codeId}:${code}`);

/**
 * A new code for `email`: the statements that void every live code of that email and purpose and
 * insert the new one (put them in the batch of the change that sends it), and the code to mail.
 */
export async function issueCode(ctx: ServiceContext, purpose: CodePurpose, email: string, userId: string) {
  const now = ctx.now();
  const code = sixDigitCode();
  const id = newId('verification');
  const statements = [
    ctx.db
      .update(authCodes)
      .set({ consumed_at: now })
      .where(and(eq(authCodes.email, email), eq(authCodes.purpose, purpose), isNull(authCodes.consumed_at))),
    ctx.db.insert(authCodes).values({
      id,
      purpose,
      email,
      user_id: userId,
      code_hash: await codeHash(id, code),
      expires_at: now + CODE_TTL_MS,
      created_at: now,
    }),
  ] as const;
  return { id, code, statements };
}

/**
 * Takes one attempt on the account's live code, atomically, before anything is compared: one
 * conditional UPDATE that succeeds only while the code is unused, unexpired, under its own cap and
 * the email under its cap across codes. Concurrent guesses therefore each take their own attempt
 * and stop at the caps. Returns the code (its id and hash) when an attempt was available.
 */
export async function takeAttempt(ctx: ServiceContext, purpose: CodePurpose, email: string, userId: string) {
  const now = ctx.now();
  const [row] = await ctx.db
    .update(authCodes)
    .set({ attempts: sql`${authCodes.attempts} + 1` })
    .where(
      and(
        eq(authCodes.user_id, userId),
        eq(authCodes.purpose, purpose),
        isNull(authCodes.consumed_at),
        gt(authCodes.expires_at, now),
        lt(authCodes.attempts, CODE_MAX_ATTEMPTS),
        sql`(SELECT COALESCE(SUM(c2.attempts), 0) FROM auth_codes AS c2 WHERE c2.email = ${email} AND c2.purpose = ${purpose} AND c2.created_at > ${now - CODE_ATTEMPT_WINDOW_MS}) < ${CODE_MAX_ATTEMPTS_PER_EMAIL}`,
      ),
    )
    .returning({ id: authCodes.id, code_hash: authCodes.code_hash });
  return row ?? null;
}

/** True when `code` is the code of this row (compared in constant time). */
export async function codeMatches(row: { id: string; code_hash: string } | null, code: string): Promise<boolean> {
  if (!row) return false;
  return timingSafeEqualStr(await codeHash(row.id, code), row.code_hash);
}

/** SQL: the code is still usable (for a batch's guard). */
export function codeIsLive(codeId: string, now: number) {
  return sql`EXISTS (SELECT 1 FROM ${authCodes} WHERE ${authCodes.id} = ${codeId} AND ${authCodes.consumed_at} IS NULL AND ${authCodes.expires_at} > ${now})`;
}

/** Marks a code used (inside a batch: only when `onlyIf` holds, i.e. the guarded change took effect). */
export function consumeCode(ctx: ServiceContext, codeId: string, now: number, onlyIf?: SQL) {
  return ctx.db
    .update(authCodes)
    .set({ consumed_at: now })
    .where(and(eq(authCodes.id, codeId), isNull(authCodes.consumed_at), onlyIf));
}

/** Removes code rows a day past their expiry (they only count toward the per-email cap for an hour), and the code steps done with as long ago. */
export async function pruneAuthCodes(ctx: ServiceContext): Promise<number> {
  const [res] = await runBatch(ctx.db, [
    ctx.db.delete(authCodes).where(lt(authCodes.expires_at, ctx.now() - 24 * 3600 * 1000)),
    pruneCodeSteps(ctx),
  ]);
  return changedRows(res);
}
