import { type SQL, sql } from 'drizzle-orm';
import type { ShiftStatus } from './shift/status';

/**
 * Values a long statement binds without making SQLite prepare it again on every run.
 *
 * D1 prepares each statement it is sent and then binds its values; SQLite prepares a statement again
 * on its next run whenever a value is bound to a parameter its plan read. Two kinds of parameter are
 * read while planning: a bare `LIMIT ?`, and `column = ?` on a column that a partial index's
 * condition compares to a constant (shift_requests.request_status and is_broadcast, of the
 * open-broadcast indexes). For a short statement preparing costs little; for the relevance ranking
 * (18 KB of SQL) it cost more than running it, and it was prepared twice (docs/decisions/scale.md).
 */

/** A LIMIT's value that SQLite reads only when the statement runs (`LIMIT (? + 0)`). */
export function runLimit(n: number): SQL {
  return sql`(${Math.trunc(n)} + 0)`;
}

/** A shift status written into the statement, for `request_status = …` in a long statement. */
export function statusLiteral(status: ShiftStatus): SQL {
  return sql.raw(String(Number(status)));
}
