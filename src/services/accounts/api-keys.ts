import { and, eq, isNull } from 'drizzle-orm';
import { isUniqueViolation, runBatch } from '../../db/client';
import { apiKeys } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { auditInsert, requirePerson, type ServiceContext } from '../kernel';
import { issuedKeyView, mintApiKey } from './credentials';
import type { ApiKeyInfo, ApiKeyIssued } from './schemas';

/** The caller's live key as it may be shown after creation: prefix only. */
export async function getApiKeyInfo(ctx: ServiceContext): Promise<ApiKeyInfo> {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db
    .select({ prefix: apiKeys.prefix, created_at: apiKeys.created_at, last_used_at: apiKeys.last_used_at })
    .from(apiKeys)
    .where(and(eq(apiKeys.user_id, actor.userId), eq(apiKeys.kind, 'personal'), isNull(apiKeys.revoked_at)))
    .limit(1);
  if (!row) throw new AppError('NOT-FOUND-ERR', 'This account has no live API key; regenerate one.');
  return { prefix: row.prefix, created_at: toIso(row.created_at), last_used_at: toIso(row.last_used_at) };
}

/** Revokes the live key at once and issues a new one, returned in full this one time. */
export async function regenerateApiKey(ctx: ServiceContext): Promise<ApiKeyIssued> {
  const actor = requirePerson(ctx);
  const now = ctx.now();
  const { key, row } = await mintApiKey(actor.userId, now);
  try {
    await runBatch(ctx.db, [
      ctx.db
        .update(apiKeys)
        .set({ revoked_at: now })
        .where(and(eq(apiKeys.user_id, actor.userId), eq(apiKeys.kind, 'personal'), isNull(apiKeys.revoked_at))),
      ctx.db.insert(apiKeys).values(row),
      auditInsert(ctx, 'api_key.regenerate', { type: 'api_key', id: row.id }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT-ERR', 'Another regeneration ran at the same moment; try again.');
    throw err;
  }
  return issuedKeyView(key, row);
}
