import { type SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { BatchItem } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { auditLog } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { ServiceContext } from './context';
import { auditRow, type Notice, prepareWrite, type Subject } from './guarded-write';

/**
 * A guarded write (guarded-write.ts) for a row that has no operation-id column to stamp (connections,
 * a shifter's records): the write's audit row is its operation marker.
 *
 * The batch's guard is the audit insert, made only if `precondition` holds (the row is still as it was
 * read). The change follows, conditional on that audit row, and so is everything the primitive adds
 * (notifications, events, the Idempotency-Key record). Two concurrent writes that read the same row
 * cannot both apply, and the one that lost leaves nothing behind: no audit row, no notification, even
 * when both would have stamped the same `updated_at`.
 *
 *   const applied = await markedWrite(ctx, { type: 'credential', id }, {
 *     precondition: sql`EXISTS (SELECT 1 FROM credentials WHERE id = ${id} AND updated_at = ${read})`,
 *     change: (applied) => ctx.db.update(credentials).set(next).where(and(eq(credentials.id, id), applied)),
 *     audit: { action: 'credential.update' },
 *   });
 */
export async function markedWrite(
  ctx: ServiceContext,
  subject: Subject,
  parts: {
    precondition: SQL;
    /** The change, given the condition it must carry in its WHERE. */
    change: (applied: SQL) => BatchItem;
    audit: { action: string; data?: Record<string, unknown> };
    notify?: Array<Notice | null>;
  },
): Promise<boolean> {
  const marker = newId('audit');
  const applied = sql`EXISTS (SELECT 1 FROM ${auditLog} WHERE ${auditLog.id} = ${marker})`;
  const w = prepareWrite(ctx, subject, () => applied);
  const r = await w.commit({
    guard: insertWhere(ctx.db, auditLog, auditRow(ctx, subject, parts.audit, marker), parts.precondition),
    follow: [parts.change(applied)],
    notify: parts.notify ?? [],
  });
  return r.applied;
}

/** `EXISTS (SELECT 1 FROM table WHERE condition)`, for preconditions. */
export function existsIn(table: SQLiteTable, condition: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${table} WHERE ${condition})`;
}
