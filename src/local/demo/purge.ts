import type { ServiceContext } from '../../services/kernel';
import { threadStub } from '../../services/messaging';
import { purgeDemoPaymentObjects } from './payments';

/**
 * Deletes every demo user and every row that hangs off one, in one atomic D1 batch.
 *
 * D1 enforces foreign keys, and several of them have no ON DELETE CASCADE (shift_requests.shifter_id,
 * created_by_user_id, parent_id, and whatever later tables point at shift requests). Rather than
 * keep a hand-written list in step with the schema, the foreign keys are read from the database
 * itself: every table reachable from `users` through a CASCADE / NO ACTION / RESTRICT key gets a
 * DELETE whose WHERE clause follows the keys back to `users.is_demo = 1`, children before parents.
 * SET NULL / SET DEFAULT keys are left to SQLite.
 *
 * Admin grants made by a demo account (and those made by the admins it made) are deleted too.
 *
 * Objects outside SQL go too: the R2 credential documents of demo shifters (everything under
 * credentials/<shifter_id>/, docs/storage.md) are deleted before the rows, so no object outlives
 * the row that would name it. Should the batch then fail, the rows only point at missing documents
 * (a 404 on download) until the next purge removes them.
 */
interface ForeignKey {
  from: string;
  table: string;
  to: string | null;
  on_delete: string;
}
interface Edge {
  child: string;
  from: string;
  parent: string;
  to: string;
}

const ROOT = 'users';
const ROOT_PREDICATE = '"is_demo" = 1';
/** Rows keyed by user id without a foreign key (per-user records that would otherwise linger). */
const LOOSE_USER_COLUMNS: Array<[table: string, column: string]> = [
  ['notifications', 'user_id'],
  ['idempotency_keys', 'scope'],
];

/** Deletes every admin grant that traces back to a demo account. */
const DEMO_GRANTED_ADMINS = `DELETE FROM "admins" WHERE "user_id" IN (
  WITH RECURSIVE granted(id) AS (
    SELECT "user_id" FROM "admins" WHERE "granted_by_user_id" IN (SELECT "id" FROM "users" WHERE ${ROOT_PREDICATE})
    UNION SELECT a."user_id" FROM "admins" a JOIN granted g ON a."granted_by_user_id" = g.id
  ) SELECT id FROM granted)`;

const q = (ident: string) => `"${ident.replaceAll('"', '""')}"`;

async function readForeignKeys(d1: D1Database) {
  const { results } = await d1
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    )
    .all<{ name: string }>();
  const tables = results.map((r) => r.name);
  const fkResults = await d1.batch<ForeignKey>(tables.map((t) => d1.prepare(`PRAGMA foreign_key_list(${q(t)})`)));
  const pkResults = await d1.batch<{ name: string; pk: number }>(tables.map((t) => d1.prepare(`PRAGMA table_info(${q(t)})`)));
  const pk = new Map(tables.map((t, i) => [t, pkResults[i]!.results.find((c) => c.pk === 1)?.name ?? 'rowid']));
  const edges: Edge[] = [];
  tables.forEach((child, i) => {
    for (const fk of fkResults[i]!.results) {
      if (!['CASCADE', 'NO ACTION', 'RESTRICT'].includes(fk.on_delete.toUpperCase())) continue;
      edges.push({ child, from: fk.from, parent: fk.table, to: fk.to ?? pk.get(fk.table) ?? 'rowid' });
    }
  });
  return { tables, edges };
}

/** The DELETE statements, children first; exported for tests. */
export async function demoPurgeStatements(d1: D1Database): Promise<string[]> {
  const { tables, edges } = await readForeignKeys(d1);

  // Tables that can hold rows depending on a user (reverse reachability from users).
  const affected = new Set([ROOT]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of edges) {
      if (affected.has(e.parent) && !affected.has(e.child)) {
        affected.add(e.child);
        grew = true;
      }
    }
  }

  // WHERE clause selecting the demo-dependent rows of `table`; `stack` breaks cycles (self-references included).
  const predicate = (table: string, stack: string[]): string => {
    if (table === ROOT) return ROOT_PREDICATE;
    const parts = edges
      .filter((e) => e.child === table && affected.has(e.parent) && !stack.includes(e.parent))
      .map((e) => `${q(e.from)} IN (SELECT ${q(e.to)} FROM ${q(e.parent)} WHERE ${predicate(e.parent, [...stack, table])})`);
    return parts.length ? parts.map((p) => `(${p})`).join(' OR ') : '0';
  };

  // Children before parents: a table is deleted once every table referencing it is done.
  const order: string[] = [];
  const pending = new Set([...affected].filter((t) => t !== ROOT));
  while (pending.size) {
    const ready = [...pending].filter((t) => !edges.some((e) => e.parent === t && e.child !== t && pending.has(e.child)));
    // A cycle between two tables: take one anyway (the batch is one transaction; the keys are checked per statement).
    const next = ready.length ? ready : [[...pending][0]!];
    for (const t of next) {
      order.push(t);
      pending.delete(t);
    }
  }

  // Admin rights a demo account granted go first (while the grantors still exist), and so do the
  // grants made by the accounts it made admin, and so on: a published demo password must not leave
  // an admin behind.
  const statements = tables.includes('admins') ? [DEMO_GRANTED_ADMINS] : [];
  statements.push(...order.map((t) => `DELETE FROM ${q(t)} WHERE ${predicate(t, [])}`));
  for (const [table, column] of LOOSE_USER_COLUMNS) {
    if (tables.includes(table))
      statements.push(`DELETE FROM ${q(table)} WHERE ${q(column)} IN (SELECT "id" FROM "users" WHERE ${ROOT_PREDICATE})`);
  }
  statements.push(`DELETE FROM ${q(ROOT)} WHERE ${ROOT_PREDICATE}`);
  return statements;
}

/** R2 list and delete both take at most 1,000 keys per call. */
const R2_PAGE = 1000;

/** Every key under the given prefixes (R2 lists by prefix, a page at a time). */
async function keysUnder(bucket: R2Bucket, prefixes: string[]): Promise<string[]> {
  const keys: string[] = [];
  await Promise.all(
    prefixes.map(async (prefix) => {
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix, limit: R2_PAGE, ...(cursor ? { cursor } : {}) });
        keys.push(...page.objects.map((o) => o.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
    }),
  );
  return keys;
}

/**
 * Deletes the demo users' R2 objects: credential documents of demo shifters, and clock photos and
 * deliverable files of shifts at demo businesses or worked by demo shifters (docs/storage.md). Returns how many went.
 */
export async function purgeDemoDocuments(ctx: ServiceContext): Promise<number> {
  const demoUsers = `SELECT "id" FROM "users" WHERE ${ROOT_PREDICATE}`;
  const [shifterRows, shiftRows] = await Promise.all([
    ctx.env.DB.prepare(`SELECT "id" FROM "shifters" WHERE "user_id" IN (${demoUsers})`).all<{ id: string }>(),
    // Clock photos and deliverable files can only be uploaded for shifts that were accepted at some point.
    ctx.env.DB.prepare(
      `SELECT "id" FROM "shift_requests" WHERE "accepted_at" IS NOT NULL AND ("business_id" IN (SELECT "id" FROM "businesses" WHERE "user_id" IN (${demoUsers}))
         OR "shifter_id" IN (SELECT "id" FROM "shifters" WHERE "user_id" IN (${demoUsers})))`,
    ).all<{ id: string }>(),
  ]);
  const keys = await keysUnder(ctx.env.UPLOADS, [
    ...shifterRows.results.map(({ id }) => `credentials/${id}/`),
    ...shiftRows.results.map(({ id }) => `clock-photos/${id}/`),
    ...shiftRows.results.map(({ id }) => `deliverables/${id}/`),
  ]);
  for (let i = 0; i < keys.length; i += R2_PAGE) await ctx.env.UPLOADS.delete(keys.slice(i, i + R2_PAGE));
  return keys.length;
}

/** The demo users' message threads, whose messages live in one Durable Object each. */
async function demoThreadIds(d1: D1Database): Promise<string[]> {
  const demoUsers = `SELECT "id" FROM "users" WHERE ${ROOT_PREDICATE}`;
  const { results } = await d1
    .prepare(`SELECT "id" FROM "conversations" WHERE "created_by_user_id" IN (${demoUsers}) OR "owner_user_id" IN (${demoUsers})`)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

export async function purgeDemoData(ctx: ServiceContext): Promise<number> {
  const d1 = ctx.env.DB;
  const objects = await purgeDemoDocuments(ctx);
  if (objects) ctx.log.info('demo uploads deleted', { objects });
  const threads = await demoThreadIds(d1);
  // The payment simulator's objects are found through the payment rows, so they go first.
  const simulated = await purgeDemoPaymentObjects(ctx);
  if (simulated) ctx.log.info('demo payment simulator objects deleted', { objects: simulated });
  const statements = await demoPurgeStatements(d1);
  const results = await d1.batch(statements.map((s) => d1.prepare(s)));
  // Once their rows are gone, the threads' messages go too (nothing can reach them any more; a
  // failure here only leaves unreachable messages, so it is logged, not thrown).
  const destroyed = await Promise.allSettled(threads.map((id) => threadStub(ctx, id).destroy()));
  const failed = destroyed.filter((r) => r.status === 'rejected').length;
  if (failed) ctx.log.warn('demo thread messages not all deleted', { threads: threads.length, failed });
  return results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
}
