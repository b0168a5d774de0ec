import type { SQL } from 'drizzle-orm';
import { insertWhere } from '../db/conditional';
import { auditLog } from '../db/schema';
import { newId } from '../lib/ids';
import { actorAudit, type ServiceContext } from './context';

/**
 * An audit insert to put in the same db.batch as the change it records. With `onlyIf`, the row is
 * written only when that condition holds inside the batch (the guarded change took effect).
 */
export function auditInsert(
  ctx: ServiceContext,
  action: string,
  subject: { type: string; id: string },
  data?: Record<string, unknown>,
  onlyIf?: SQL,
) {
  const values = {
    id: newId('audit'),
    ...actorAudit(ctx.actor),
    action,
    subject_type: subject.type,
    subject_id: subject.id,
    request_id: ctx.requestId,
    data: data ? JSON.stringify(data) : null,
    created_at: ctx.now(),
  };
  return onlyIf ? insertWhere(ctx.db, auditLog, values, onlyIf) : ctx.db.insert(auditLog).values(values);
}
