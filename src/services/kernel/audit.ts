import type { SQL } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { auditLog } from '../../db/schema';
import type { ServiceContext } from './context';
import { auditRow } from './guarded-write';

/**
 * An audit insert to put in the same db.batch as the change it records, for batches that are not one
 * guarded write (several rows at once, like template generate). With `onlyIf`, the row is written
 * only when that condition holds inside the batch (the change took effect).
 */
export function auditInsert(
  ctx: ServiceContext,
  action: string,
  subject: { type: string; id: string },
  data?: Record<string, unknown>,
  onlyIf?: SQL,
) {
  const values = auditRow(ctx, subject, data ? { action, data } : { action });
  return onlyIf ? insertWhere(ctx.db, auditLog, values, onlyIf) : ctx.db.insert(auditLog).values(values);
}
