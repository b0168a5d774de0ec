import { type SQL, sql } from 'drizzle-orm';
import type { ShiftStatus } from './shift/status';

/**
 * Values a long statement binds without making SQLite prepare it again on every run.
 *
 * The runtime keeps one prepared statement per SQL text, and SQLite prepares a statement again each
 * time a value is bound to a parameter its plan read. Two kinds of parameter are read while
 * planning: a bare `LIMIT ?`, and `column = ?` on a column that a partial index's condition compares
 * to a constant (shift_requests.request_status and is_broadcast, of the open-broadcast indexes). For
 * a short statement preparing costs little; for the relevance ranking (18 KB of SQL) it cost more
 * than running it: 10.4 ms a run against 4.8 ms with these two helpers (docs/decisions/scale.md).
 */

/** A LIMIT's value that SQLite reads only when the statement runs (`LIMIT (? + 0)`). */
export function runLimit(n: number): SQL {
  return sql`(${Math.trunc(n)} + 0)`;
}

/** A shift status written into the statement, for `request_status = …` in a long statement. */
export function statusLiteral(status: ShiftStatus): SQL {
  return sql.raw(String(Number(status)));
}
