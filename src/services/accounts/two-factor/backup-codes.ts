import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { customAlphabet } from 'nanoid';
import { insertWhere } from '../../../db/conditional';
import type { BatchItem } from '../../../db/client';
import { twoFactorBackupCodes } from '../../../db/schema';
import { sha256Hex } from '../../../lib/crypto';
import { newId } from '../../../lib/ids';
import type { ServiceContext } from '../../kernel';

/** Ten codes a set; each 10 characters of a 31-letter alphabet (≈ 49 bits), shown as `xxxxx-xxxxx`. */
export const BACKUP_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i: read off paper without mistakes
const body = customAlphabet(ALPHABET, 10);

export const formatBackupCode = (raw: string) => `${raw.slice(0, 5)}-${raw.slice(5)}`;

/** Lower-case, no separators or spaces: the form that is hashed. */
export const normalizeBackupCode = (input: string) => input.toLowerCase().replace(/[\s-]/g, '');

export const looksLikeBackupCode = (input: string) => new RegExp(`^[${ALPHABET}]{10}$`).test(normalizeBackupCode(input));

const hashCode = (userId: string, normalized: string) => sha256Hex(`backup:${userId}:${normalized}`);

/**
 * A new set of codes for the account: the statements replace the old set inside the caller's batch
 * (all conditional on `applied`), and the plain codes are returned to show once.
 */
export async function newBackupCodeSet(
  ctx: ServiceContext,
  userId: string,
  applied: SQL,
): Promise<{ codes: string[]; statements: BatchItem[] }> {
  const now = ctx.now();
  const raw = Array.from({ length: BACKUP_CODE_COUNT }, () => body());
  const hashes = await Promise.all(raw.map((c) => hashCode(userId, c)));
  const statements: BatchItem[] = [
    ctx.db.delete(twoFactorBackupCodes).where(and(eq(twoFactorBackupCodes.user_id, userId), applied)),
    ...hashes.map((code_hash) =>
      insertWhere(ctx.db, twoFactorBackupCodes, { id: newId('backupCode'), user_id: userId, code_hash, created_at: now }, applied),
    ),
  ];
  return { codes: raw.map(formatBackupCode), statements };
}

/** The unused code row matching the input, if any. */
export async function findUnusedBackupCode(ctx: ServiceContext, userId: string, input: string) {
  const [row] = await ctx.db
    .select({ id: twoFactorBackupCodes.id })
    .from(twoFactorBackupCodes)
    .where(
      and(
        eq(twoFactorBackupCodes.user_id, userId),
        eq(twoFactorBackupCodes.code_hash, await hashCode(userId, normalizeBackupCode(input))),
        isNull(twoFactorBackupCodes.used_at),
      ),
    )
    .limit(1);
  return row;
}

/** Marks a code used by an operation; of concurrent uses one changes the row. */
export const useBackupCode = (ctx: ServiceContext, codeId: string, op: string) =>
  ctx.db
    .update(twoFactorBackupCodes)
    .set({ used_at: ctx.now(), used_op_id: op })
    .where(and(eq(twoFactorBackupCodes.id, codeId), isNull(twoFactorBackupCodes.used_at)));
