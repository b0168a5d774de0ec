import type { Context, MiddlewareHandler } from 'hono';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import {
  ABANDONED_AFTER_MS,
  type Actor,
  claimIdempotencyKey,
  findIdempotencyRecord,
  freeIdempotencyRecord,
  type IdempotencyRecord,
  type IdempotencyScope,
  releaseIdempotencyAttempt,
  storeIdempotentAnswer,
  takeOverIdempotencyRecord,
} from '../../services/kernel';
import type { AppEnv } from '../app-types';

// The record's life and the age at which an attempt counts as dead are the store's (services/kernel).
export { ABANDONED_AFTER_MS, IDEMPOTENCY_TTL_MS } from '../../services/kernel';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** True for answers that must never be kept anywhere (they carry a secret). */
function isNoStore(res: Response): boolean {
  return /(^|,)\s*no-store\s*(,|$)/i.test(res.headers.get('Cache-Control') ?? '');
}

/** Whose keys these are; null for callers without an account (they get no idempotency). */
function scopeOf(actor: Actor): string | null {
  if (actor.kind === 'user' || actor.kind === 'agent') return actor.userId;
  if (actor.kind === 'partner') return `partner:${actor.partnerId}`;
  return null;
}

/**
 * What makes two requests "the same": method, path, query (parameters sorted, so their order does not
 * matter) and the raw body. Without a query the text is what it was before the query counted, so
 * records written then still match.
 */
async function fingerprint(c: Context<AppEnv>): Promise<string> {
  const params = new URL(c.req.url).searchParams;
  params.sort();
  const query = params.toString();
  const body = new Uint8Array(await c.req.raw.clone().arrayBuffer());
  const head = new TextEncoder().encode(`${c.req.method} ${c.req.path}${query ? `?${query}` : ''}\n`);
  const bytes = new Uint8Array(head.byteLength + body.byteLength);
  bytes.set(head);
  bytes.set(body, head.byteLength);
  return sha256Hex(bytes);
}

/**
 * Honours `Idempotency-Key` on the writes (POST, PUT, PATCH) of authenticated callers (anonymous
 * ones run as if it were not sent: nothing is stored or read for them). The body is already bounded by the body limit.
 *
 * - The first request claims the key (a unique row, `processing`) and runs with
 *   `idempotency = { recordId, committed: null }`. The guarded-write primitive marks the row
 *   `committed` with its subject in the same D1 batch as the change.
 * - After the handler: a 2xx/4xx answer is stored (`done`) and replayed to later requests with
 *   `Idempotent-Replayed: true`. A 5xx, a 429 or a `no-store` answer (it holds a secret) stores
 *   nothing; the row is deleted only while still `processing`. A `committed` row is never released.
 * - A retry that finds the row `committed` with no stored answer runs the handler again with
 *   `committed` set to the subject, so the write is not repeated and the answer comes from what was
 *   written. A conditional update of `attempt` lets exactly one concurrent retry do so.
 * - Same key with another method, path, query or body: 409 `IDEMPOTENCY-MISMATCH-ERR`; an attempt
 *   still running: 409 `IDEMPOTENCY-IN-PROGRESS-ERR` with `Retry-After: 1`.
 */
export const idempotency: MiddlewareHandler<AppEnv> = (c, next) =>
  withIdempotency(c, next, c.req.header('Idempotency-Key'), () => fingerprint(c));

/** The hidden field a page form carries its idempotency key in (forms cannot send headers). */
export const IDEMPOTENCY_FIELD = '_idem';

/**
 * The same for the web application's forms that write: the key comes from the form's hidden
 * `_idem` field (a fresh one printed into each form), and a form sent twice (a double click, a
 * reload after a lost answer) changes nothing the second time: it is answered with the first
 * answer's redirect. Re-shown forms (a refused input) are never stored, so a corrected form goes
 * through with the same key.
 */
export const formIdempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'POST') return next();
  const body = await c.req.parseBody();
  const key = body[IDEMPOTENCY_FIELD];
  return withIdempotency(c, next, typeof key === 'string' ? key : undefined, async () => {
    // The parsed fields, sorted: re-encoding a form gives new bytes (a new multipart boundary).
    const fields = Object.entries(body)
      .map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}:${v.size}`])
      .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
    return sha256Hex(new TextEncoder().encode(`${c.req.method} ${c.req.path}\n${JSON.stringify(fields)}`));
  });
};

/** Content type under which a stored redirect keeps its Location (a page form's answer). */
const REDIRECT_TYPE = 'application/x-redirect';

/** The methods a key is honoured on: every write the API has (DELETE is idempotent by itself). */
const KEYED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

async function withIdempotency(c: Context<AppEnv>, next: () => Promise<void>, key: string | undefined, hash: () => Promise<string>) {
  if (!KEYED_METHODS.has(c.req.method) || key === undefined) return next();
  const scope = scopeOf(c.get('actor'));
  if (scope === null) return next();
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION-ERR', 'Idempotency-Key must be 1-255 printable ASCII characters.');
  }
  const requestHash = await hash();
  const db = c.get('db');
  const now = Date.now();

  const claimed = await claimIdempotencyKey(db, { scope, key, method: c.req.method, path: c.req.path, requestHash }, now);
  if (claimed) return runAttempt(c, next, { recordId: claimed, committed: null }, 1);

  const row = await findIdempotencyRecord(db, scope, key);
  if (row && row.request_hash !== requestHash) {
    throw new AppError('IDEMPOTENCY-MISMATCH-ERR', 'This Idempotency-Key was already used with a different request.');
  }
  if (row?.state === 'done' && row.status_code !== null) {
    if (row.response_content_type === REDIRECT_TYPE) {
      return new Response(null, {
        status: row.status_code,
        headers: { Location: row.response_body ?? '/', 'Idempotent-Replayed': 'true' },
      });
    }
    return new Response(row.response_body, {
      status: row.status_code,
      headers: { 'Content-Type': row.response_content_type ?? 'application/json', 'Idempotent-Replayed': 'true' },
    });
  }
  if (row?.state === 'committed') {
    const taken = await takeOver(c, row, now);
    if (taken) return runAttempt(c, next, { recordId: row.id, committed: taken.committed }, taken.attempt);
  } else if (row?.state === 'processing' && row.created_at < now - ABANDONED_AFTER_MS) {
    // The first attempt died before its change committed: free the key for the next retry.
    await freeIdempotencyRecord(db, row.id);
  }
  throw new AppError('IDEMPOTENCY-IN-PROGRESS-ERR', undefined, undefined, { 'Retry-After': '1' });
}

/**
 * Claims a `committed` record for this retry when no attempt is running on it (the last one answered
 * 5xx, or died). The update is conditional on the attempt number read, so of concurrent retries
 * exactly one wins; the others are told to wait. Returns the new attempt and the committed subject.
 */
async function takeOver(c: Context<AppEnv>, row: IdempotencyRecord, now: number) {
  const running = row.attempt_started_at !== null && row.attempt_started_at >= now - ABANDONED_AFTER_MS;
  if (running) return null;
  const { resource_type: type, resource_id: id } = row;
  if (type === null || id === null) {
    // The guarded write always names its subject; without one a retry could only write again.
    throw new Error(`idempotency record ${row.id} is committed without a subject`);
  }
  const won = await takeOverIdempotencyRecord(c.get('db'), row, now);
  return won ? { attempt: row.attempt + 1, committed: { type, id } } : null;
}

/** Runs the handler as `attempt` of the record, then stores or keeps the record as the answer allows. */
async function runAttempt(c: Context<AppEnv>, next: () => Promise<void>, scope: IdempotencyScope, attempt: number) {
  c.set('idempotency', scope);
  await next();
  const res = c.res;
  const db = c.get('db');
  try {
    if (res.status >= 500 || res.status === 429 || isNoStore(res)) {
      // Nothing committed: the key is free again and a retry runs from the start. Committed: kept,
      // with no attempt running, so the next retry takes over at once.
      await releaseIdempotencyAttempt(db, scope.recordId, attempt);
      return;
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('Location') : null;
    await storeIdempotentAnswer(db, scope.recordId, attempt, {
      status: res.status,
      body: location ?? (await res.clone().text()),
      contentType: location ? REDIRECT_TYPE : res.headers.get('Content-Type'),
    });
  } catch (err) {
    // The answer stands; a retry finds the record still held and waits until the attempt counts as dead.
    c.get('log').error('idempotency record not updated', { record_id: scope.recordId, ...errorFields(err) });
  }
}
