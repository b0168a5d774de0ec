import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../../services/kernel';
import { type SimObjectType, simId, simRevision } from './ids';

/**
 * The simulator's storage: Stripe-shaped JSON documents in payment_sim_objects and the events they
 * raise in payment_sim_events. D1 has no interactive transactions, so every change is one batch of
 * guarded statements:
 * - each stored document carries a fresh `_rev`, so "this document still reads exactly as I read it"
 *   (compare-and-set on the raw text) and "my write landed" (the new raw text is there) are both exact;
 * - the first statement is the primary write (an insert keyed by id and idempotency key, or a
 *   compare-and-set update); every other statement (further updates, inserts, events) runs only if
 *   the primary's new text is in place, so a change and its events commit together or not at all.
 * A batch whose primary did not land is re-planned from fresh reads (a bounded number of times).
 */

/** The API version the simulator's events claim (the stripe package's pinned one). */
export const SIMULATOR_API_VERSION = '2026-10-28.endive';

export interface SimObject {
  id: string;
  object: SimObjectType;
  [field: string]: unknown;
}

export interface Loaded<T extends SimObject = SimObject> {
  obj: T;
  raw: string;
}

export interface SimEventDraft {
  type: string;
  object: SimObject;
}

/** The primary write: a new document (`key`: the caller's idempotency key, as events report it) or a compare-and-set update. */
export type Primary = { insert: SimObject; key: string | null } | { update: Loaded; next: SimObject };

export interface Plan {
  primary: Primary;
  /** Compare-and-set updates of other documents (each must still read as loaded). */
  updates?: { old: Loaded; next: SimObject }[];
  /** Further new documents (a charge with its payment intent). */
  inserts?: SimObject[];
  events?: SimEventDraft[];
}

const MAX_TRIES = 25;

/** Stripe's shape of a document: the simulator's own bookkeeping (`_…` fields) left out. */
export function publicView<T extends SimObject>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!k.startsWith('_')) out[k] = v;
  return out as T;
}

function parse<T extends SimObject>(raw: string): Loaded<T> {
  return { obj: JSON.parse(raw) as T, raw };
}

export async function loadObject<T extends SimObject>(ctx: ServiceContext, id: string, type: SimObjectType): Promise<Loaded<T> | null> {
  const row = await ctx.env.DB.prepare('SELECT data FROM payment_sim_objects WHERE id = ? AND type = ?')
    .bind(id, type)
    .first<{ data: string }>();
  return row ? parse<T>(row.data) : null;
}

/** Like loadObject, but a missing document is Stripe's `resource_missing` (an error of the processor). */
export async function mustLoad<T extends SimObject>(ctx: ServiceContext, id: string, type: SimObjectType): Promise<Loaded<T>> {
  const found = await loadObject<T>(ctx, id, type);
  if (!found) throw processorRefusal('resource_missing', `No such ${type}: '${id.slice(0, 64)}'`);
  return found;
}

/** Idempotency keys are scoped per operation, as a retried request names its operation too. */
const scopedKey = (op: string, key: string) => `${op}:${key}`;

async function loadByKey(ctx: ServiceContext, key: string): Promise<Loaded | null> {
  const row = await ctx.env.DB.prepare('SELECT data FROM payment_sim_objects WHERE idempotency_key = ?')
    .bind(key)
    .first<{ data: string }>();
  return row ? parse(row.data) : null;
}

/** A refusal Stripe answers as an error (400/402/404): a PAYMENT-GATEWAY-ERR naming Stripe's code. */
export function processorRefusal(code: string, message: string): AppError {
  return new AppError('PAYMENT-GATEWAY-ERR', `The payment processor refused the request: ${message}`, { processor_code: code });
}

function withRevision(obj: SimObject): { obj: SimObject; raw: string } {
  const next = { ...obj, _rev: simRevision() };
  return { obj: next, raw: JSON.stringify(next) };
}

function eventPayload(ctx: ServiceContext, id: string, draft: SimEventDraft, idempotencyKey: string | null): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: SIMULATOR_API_VERSION,
    created: Math.floor(ctx.now() / 1000),
    data: { object: publicView(draft.object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: idempotencyKey },
    type: draft.type,
  });
}

/** Runs one plan as one batch; true when its primary write landed (and with it everything else). */
async function commit(ctx: ServiceContext, plan: Plan, key: string | null): Promise<{ landed: boolean; primary: SimObject }> {
  const db = ctx.env.DB;
  const now = ctx.now();
  const stmts: D1PreparedStatement[] = [];
  const updates = (plan.updates ?? []).map((u) => ({ old: u.old, ...withRevision(u.next) }));
  // Every other document this plan changes must still read as it was read.
  const unchanged = updates.map(() => 'EXISTS (SELECT 1 FROM payment_sim_objects WHERE id = ? AND data = ?)');
  const unchangedArgs = updates.flatMap((u) => [u.old.obj.id, u.old.raw]);
  const guard = unchanged.length ? unchanged.join(' AND ') : '1';

  let primary: { obj: SimObject; raw: string };
  if ('insert' in plan.primary) {
    primary = withRevision(plan.primary.insert);
    stmts.push(
      db
        .prepare(
          `INSERT INTO payment_sim_objects (id, type, idempotency_key, data, created_at, updated_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${guard} ON CONFLICT DO NOTHING`,
        )
        .bind(primary.obj.id, primary.obj.object, key, primary.raw, now, now, ...unchangedArgs),
    );
  } else {
    primary = withRevision(plan.primary.next);
    stmts.push(
      db
        .prepare(`UPDATE payment_sim_objects SET data = ?, updated_at = ? WHERE id = ? AND data = ? AND ${guard}`)
        .bind(primary.raw, now, plan.primary.update.obj.id, plan.primary.update.raw, ...unchangedArgs),
    );
  }
  const landed = 'EXISTS (SELECT 1 FROM payment_sim_objects WHERE id = ? AND data = ?)';
  const landedArgs = [primary.obj.id, primary.raw];
  for (const u of updates) {
    stmts.push(
      db
        .prepare(`UPDATE payment_sim_objects SET data = ?, updated_at = ? WHERE id = ? AND data = ? AND ${landed}`)
        .bind(u.raw, now, u.old.obj.id, u.old.raw, ...landedArgs),
    );
  }
  for (const extra of plan.inserts ?? []) {
    const x = withRevision(extra);
    stmts.push(
      db
        .prepare(
          `INSERT INTO payment_sim_objects (id, type, idempotency_key, data, created_at, updated_at) SELECT ?, ?, NULL, ?, ?, ? WHERE ${landed} ON CONFLICT DO NOTHING`,
        )
        .bind(x.obj.id, x.obj.object, x.raw, now, now, ...landedArgs),
    );
  }
  for (const ev of plan.events ?? []) {
    const id = simId('event');
    stmts.push(
      db
        .prepare(`INSERT INTO payment_sim_events (id, type, payload, attempts, created_at) SELECT ?, ?, ?, 0, ? WHERE ${landed}`)
        .bind(id, ev.type, eventPayload(ctx, id, ev, 'insert' in plan.primary ? plan.primary.key : null), now, ...landedArgs),
    );
  }
  const results = await db.batch(stmts);
  return { landed: (results[0]?.meta.changes ?? 0) === 1, primary: primary.obj };
}

export interface Committed<T extends SimObject> {
  obj: T;
  /** False when an earlier request with the same idempotency key made it (nothing was done now). */
  created: boolean;
  /** Whether events were queued (the caller then starts their delivery). */
  queuedEvents: boolean;
}

/**
 * Creates a document once per idempotency key: a retry (or a concurrent twin) with the same key gets
 * the document the first one made and changes nothing. `plan` reads current state and may throw a
 * refusal; it is run again if something it read changed before the batch landed.
 */
export async function createOnce<T extends SimObject>(
  ctx: ServiceContext,
  op: string,
  idempotencyKey: string | null,
  plan: () => Promise<Plan>,
): Promise<Committed<T>> {
  const key = idempotencyKey ? scopedKey(op, idempotencyKey) : null;
  for (let i = 0; i < MAX_TRIES; i++) {
    if (key) {
      const seen = await loadByKey(ctx, key);
      if (seen) return { obj: seen.obj as T, created: false, queuedEvents: false };
    }
    const p = await plan();
    const r = await commit(ctx, p, key);
    if (r.landed) return { obj: r.primary as T, created: true, queuedEvents: (p.events ?? []).length > 0 };
  }
  throw processorRefusal('lock_timeout', 'the object is being changed by another request; retry');
}

/**
 * Changes a document (and what goes with it) by compare-and-set. `plan` gets the current document and
 * returns the change, or null when there is nothing to do (already in the wanted state).
 */
export async function mutate<T extends SimObject>(
  ctx: ServiceContext,
  id: string,
  type: SimObjectType,
  plan: (current: Loaded<T>) => Promise<(Omit<Plan, 'primary'> & { next: T }) | null>,
): Promise<{ obj: T; changed: boolean; queuedEvents: boolean }> {
  for (let i = 0; i < MAX_TRIES; i++) {
    const current = await mustLoad<T>(ctx, id, type);
    const p = await plan(current);
    if (!p) return { obj: current.obj, changed: false, queuedEvents: false };
    const { next, ...rest } = p;
    const r = await commit(ctx, { ...rest, primary: { update: current, next } }, null);
    if (r.landed) return { obj: r.primary as T, changed: true, queuedEvents: (p.events ?? []).length > 0 };
  }
  throw processorRefusal('lock_timeout', 'the object is being changed by another request; retry');
}
