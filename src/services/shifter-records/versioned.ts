import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { counterRules, credentials, mileageEntries } from '../../db/schema';
import { existsIn, type ServiceContext } from '../kernel';

/*
 * Conditions for writing a shifter's records as guarded writes. Creates are inserts (plain, or under
 * the per-shifter cap) and are recognised by the new row. Updates, deletes and document swaps go
 * through markedWrite (services/kernel/marked-write.ts) under a precondition on the row as it was read: an
 * update on its version (`updated_at`, which every update moves forward by at least 1 ms), so of two
 * concurrent updates of one row the second reads again and re-applies its fields on top.
 */
type RecordTable = typeof credentials | typeof mileageEntries | typeof counterRules;

/** How many times an update re-reads and retries when a concurrent change got there first. */
export const UPDATE_ATTEMPTS = 3;

/** The version an update stamps: now, and always later than the version it replaces. */
export function nextVersion(ctx: ServiceContext, current: number): number {
  return Math.max(ctx.now(), current + 1);
}

/** The shifter's row, at the version read (for updates) or at any version (for deletes). */
export function rowAsRead(table: RecordTable, id: string, shifterId: string, version?: number): SQL {
  const conds = [eq(table.id, id), eq(table.shifter_id, shifterId)];
  if (version !== undefined) conds.push(eq(table.updated_at, version));
  return existsIn(table, and(...conds)!);
}

/** True inside a batch once the row exists: how a create's audit row knows the insert happened. */
export function rowExists(table: RecordTable, id: string): SQL {
  return existsIn(table, eq(table.id, id));
}

/** Fewer than `max` rows of this shifter: the condition a capped create inserts under. */
export function underCap(table: RecordTable, shifterId: string, max: number): SQL {
  return sql`(SELECT count(*) FROM ${table} WHERE ${table.shifter_id} = ${shifterId}) < ${max}`;
}
