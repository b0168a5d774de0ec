import { and, eq, lt } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { idempotencyKeys } from '../../db/schema';
import type { AppEnv } from '../app-types';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A key still `processing` after this long belongs to an attempt that died; a retry may take it over. */
export const ABANDONED_AFTER_MS = 2 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** True for answers that must never be kept anywhere (they carry a secret). */
function isNoStore(res: Response): boolean {
  return /(^|,)\s*no-store\s*(,|$)/i.test(res.headers.get('Cache-Control') ?? '');
}

/**
 * Honours `Idempotency-Key` on every POST. The first request claims the key (a unique row in
 * state `processing`); its answer is stored unless it is a 5xx or a 429, which release the key so a
 * retry runs again. A later request with the same caller, key and body gets the stored answer with
 * `Idempotent-Replayed: true`; a different body or path is a 409, and so is a retry that arrives
 * while the first is still running.
 *
 * Exception: an answer sent with `Cache-Control: no-store` holds a secret (a new API key, a session
 * token). It is never written to storage; the key is released like after a 5xx, so a retry runs the
 * operation again instead of replaying the secret.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header('Idempotency-Key');
  if (c.req.method !== 'POST' || key === undefined) return next();
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION-ERR', 'Idempotency-Key must be 1-255 printable ASCII characters.');
  }
  const actor = c.get('actor');
  const scope =
    actor.kind === 'user' || actor.kind === 'agent'
      ? actor.userId
      : actor.kind === 'partner'
        ? `partner:${actor.partnerId}`
        : `anon:${c.req.header('CF-Connecting-IP') ?? 'local'}`;
  const body = new Uint8Array(await c.req.raw.clone().arrayBuffer());
  const head = new TextEncoder().encode(`${c.req.method} ${c.req.path}\n`);
  const fingerprint = new Uint8Array(head.byteLength + body.byteLength);
  fingerprint.set(head);
  fingerprint.set(body, head.byteLength);
  const requestHash = await sha256Hex(fingerprint);
  const db = c.get('db');
  const now = Date.now();
  const where = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.idem_key, key));

  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.expires_at, now)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      id: newId('idempotency'),
      scope,
      idem_key: key,
      method: c.req.method,
      path: c.req.path,
      request_hash: requestHash,
      state: 'processing',
      created_at: now,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });

  if (claimed.length === 0) {
    const [row] = await db.select().from(idempotencyKeys).where(where).limit(1);
    if (row && row.request_hash !== requestHash) {
      throw new AppError('IDEMPOTENCY-MISMATCH-ERR', 'This Idempotency-Key was already used with a different request.');
    }
    if (row && row.state === 'processing' && row.created_at < now - ABANDONED_AFTER_MS) {
      // The first attempt died without answering (its Worker was stopped): free the key for the retry.
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, row.id), eq(idempotencyKeys.state, 'processing')));
    }
    if (!row || row.state === 'processing' || row.status_code === null) {
      throw new AppError('IDEMPOTENCY-IN-PROGRESS-ERR', undefined, undefined, { 'Retry-After': '1' });
    }
    return new Response(row.response_body, {
      status: row.status_code,
      headers: { 'Content-Type': row.response_content_type ?? 'application/json', 'Idempotent-Replayed': 'true' },
    });
  }

  const rowId = claimed[0]!.id;
  await next();
  const res = c.res;
  if (res.status >= 500 || res.status === 429 || isNoStore(res)) {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, rowId));
    return;
  }
  await db
    .update(idempotencyKeys)
    .set({
      state: 'done',
      status_code: res.status,
      response_body: await res.clone().text(),
      response_content_type: res.headers.get('Content-Type'),
    })
    .where(eq(idempotencyKeys.id, rowId));
};
