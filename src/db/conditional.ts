import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';
import { shiftRequests } from './schema';

/**
 * `INSERT INTO t (…all columns) SELECT … WHERE <condition>`: an insert that, inside a db.batch,
 * happens only if an earlier statement of the same batch took effect. Built on drizzle's
 * insert-select so it batches like any other statement; `values` is keyed by column name, and
 * missing columns take their declared default (else NULL). A value may be SQL (a scalar subquery),
 * computed by the same statement, so a choice made from the table's rows cannot race another writer.
 */
export function insertWhere<T extends SQLiteTable>(db: Db, table: T, values: Record<string, unknown>, condition: SQL) {
  // Our tables have no generated columns, so every column takes part in the insert.
  const cols = Object.values(getTableColumns(table));
  const selected = sql.join(
    cols.map((c) => {
      let v = values[c.name];
      if (v === undefined) v = c.default ?? null;
      if (is(v, SQL)) return sql`(${v})`;
      return v === null ? sql`NULL` : sql`${c.mapToDriverValue(v)}`;
    }),
    sql`, `,
  );
  return db.insert(table).select(sql`SELECT ${selected} WHERE ${condition}`);
}

/** True inside a batch once the shift request carries this operation id (its guarded update ran). */
export function opApplied(shiftRequestId: string, opId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.id} = ${shiftRequestId} AND ${shiftRequests.last_op_id} = ${opId})`;
}
