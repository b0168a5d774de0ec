import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { ServiceContext } from './context';

/**
 * The Idempotency-Key records (`idempotency_keys`): the statements of the middleware that honours the
 * header and the page forms' `_idem` field (http/middleware/idempotency.ts, which holds the rules), and
 * the cron job that drops expired ones. The guarded-write primitive marks a record committed in the
 * batch of its change (guarded-write.ts).
 */

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * An attempt still running after this long has died (its Worker was stopped). A `processing` record
 * is then freed for the retry; a `committed` one is taken over by the retry, never freed.
 */
export const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

export interface IdempotencyClaim {
  scope: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

const scopeKey = (scope: string, key: string) => and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.idem_key, key));

/**
 * Claims the key for a first attempt: an expired record of the key is dropped, then a `processing`
 * record is inserted unless one exists. Returns the new record's id, or null when the key is held.
 */
export async function claimIdempotencyKey(db: Db, claim: IdempotencyClaim, now: number): Promise<string | null> {
  await db.delete(idempotencyKeys).where(and(scopeKey(claim.scope, claim.key), lt(idempotencyKeys.expires_at, now)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      id: newId('idempotency'),
      scope: claim.scope,
      idem_key: claim.key,
      method: claim.method,
      path: claim.path,
      request_hash: claim.requestHash,
      state: 'processing',
      attempt: 1,
      attempt_started_at: now,
      created_at: now,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });
  return claimed[0]?.id ?? null;
}

/** The record of a key in its scope, if there is one. */
export async function findIdempotencyRecord(db: Db, scope: string, key: string): Promise<IdempotencyRecord | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(scopeKey(scope, key)).limit(1);
  return row;
}

/** Deletes a record while it is still `processing` (its attempt died before its change committed). */
export async function freeIdempotencyRecord(db: Db, recordId: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, recordId), eq(idempotencyKeys.state, 'processing')));
}

/**
 * Starts the next attempt on a `committed` record with no stored answer and no attempt running. The
 * update is conditional on the attempt number read, so of concurrent retries exactly one wins (true).
 */
export async function takeOverIdempotencyRecord(db: Db, row: IdempotencyRecord, now: number): Promise<boolean> {
  const won = await db
    .update(idempotencyKeys)
    .set({ attempt: row.attempt + 1, attempt_started_at: now })
    .where(
      and(
        eq(idempotencyKeys.id, row.id),
        eq(idempotencyKeys.state, 'committed'),
        eq(idempotencyKeys.attempt, row.attempt),
        isNull(idempotencyKeys.status_code),
        or(isNull(idempotencyKeys.attempt_started_at), lt(idempotencyKeys.attempt_started_at, now - ABANDONED_AFTER_MS)),
      ),
    )
    .returning({ id: idempotencyKeys.id });
  return won.length > 0;
}

const attemptOf = (recordId: string, attempt: number) => and(eq(idempotencyKeys.id, recordId), eq(idempotencyKeys.attempt, attempt));

/**
 * Ends an attempt that stores no answer: a record still `processing` (nothing committed) is deleted,
 * so a retry runs from the start; a `committed` one is kept with no attempt running, so the next retry
 * takes over at once.
 */
export async function releaseIdempotencyAttempt(db: Db, recordId: string, attempt: number): Promise<void> {
  const mine = attemptOf(recordId, attempt);
  await db.batch([
    db.delete(idempotencyKeys).where(and(mine, eq(idempotencyKeys.state, 'processing'))),
    db
      .update(idempotencyKeys)
      .set({ attempt_started_at: null })
      .where(and(mine, eq(idempotencyKeys.state, 'committed'))),
  ]);
}

/** Stores the answer of an attempt (`done`), for later requests with the key to replay. */
export async function storeIdempotentAnswer(
  db: Db,
  recordId: string,
  attempt: number,
  answer: { status: number; body: string; contentType: string | null },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({
      state: 'done',
      status_code: answer.status,
      response_body: answer.body,
      response_content_type: answer.contentType,
      attempt_started_at: null,
    })
    .where(and(attemptOf(recordId, attempt), inArray(idempotencyKeys.state, ['processing', 'committed'])));
}

/** Drops idempotency records past their 24-hour life (the frequent cron job). */
export async function pruneIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  const res = await ctx.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expires_at, ctx.now())).run();
  return res.meta.changes ?? 0;
}
