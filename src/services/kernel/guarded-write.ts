import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { auditLog, idempotencyKeys } from '../../db/schema';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { actorAudit, type ServiceContext } from './context';
import { draftEvent, publishOutbox, type Topic } from './events/outbox';

/**
 * One guarded write: a change, its audit row, its outbox events (notifications, partner events) and
 * the request's idempotency record, in one D1 batch. D1 has no interactive transactions, so the batch's
 * first statement is the guard (a conditional UPDATE, or an INSERT), and every other statement is
 * conditional on it having taken effect (`appliedWhen`): either all of it happens or none of it.
 *
 *   const w = prepareWrite(ctx, { type: 'shift_request', id }, (op) => opApplied(id, op));
 *   const r = await w.commit({ guard: db.update(t).set({ …, last_op_id: w.op }).where(…), audit: { action } });
 *   if (!r.applied) …the guard's condition no longer held…
 *
 * A retry of a request whose change already committed (the answer was lost after the commit) arrives
 * with `ctx.idempotency.committed`: the write is not run again; `commit` reports the committed subject
 * as applied and replayed, and the service answers from it.
 */
export interface Subject {
  type: string;
  id: string;
}

/** A notification to users, de-duplicated per user on kind + subject + operation. */
export interface Notice {
  kind: string;
  userIds: string[];
  title: string;
  body: string;
  data?: Record<string, unknown>;
}

export interface WriteParts {
  /** The guarded statement. Its changed-row count says whether the change happened. */
  guard: BatchItem;
  /** Further changes of the same write (a child row…), each already conditional on `applied`. */
  follow?: BatchItem[];
  audit?: { action: string; data?: Record<string, unknown> };
  notify?: Array<Notice | null>;
  events?: Array<{ topic: Topic; body: Record<string, unknown> }>;
}

export interface WriteResult {
  /** The guard changed a row (or, replaying, had changed it in the first attempt). */
  applied: boolean;
  /** True when this request is a retry and the change was committed by the first attempt. */
  replayed: boolean;
  /** The subject written: for a replay, the one the first attempt committed. */
  subject: Subject;
}

/** The audit row of a write: who (the actor), what (action, data), on what (subject), in which request. */
export function auditRow(
  ctx: ServiceContext,
  subject: Subject,
  audit: { action: string; data?: Record<string, unknown> },
  id = newId('audit'),
) {
  return {
    id,
    ...actorAudit(ctx.actor),
    action: audit.action,
    subject_type: subject.type,
    subject_id: subject.id,
    request_id: ctx.requestId,
    data: audit.data ? JSON.stringify(audit.data) : null,
    created_at: ctx.now(),
  };
}

/** D1's changed-row count of a batch statement result. */
export function changedRows(result: unknown): number {
  const meta = (result as { meta?: { changes?: number } } | undefined)?.meta;
  return typeof meta?.changes === 'number' ? meta.changes : 0;
}

export interface PreparedWrite {
  /** A fresh operation id, to stamp into the row (e.g. `last_op_id`) so `appliedWhen` can see the change. */
  readonly op: string;
  /** SQL that holds inside the batch once the guard took effect; undefined for plain inserts. */
  readonly applied: SQL | undefined;
  readonly subject: Subject;
  commit(parts: WriteParts): Promise<WriteResult>;
}

export function prepareWrite(ctx: ServiceContext, subject: Subject, appliedWhen?: (op: string) => SQL): PreparedWrite {
  const op = newId('operation');
  const applied = appliedWhen?.(op);
  return {
    op,
    applied,
    subject,
    async commit(parts) {
      const committed = ctx.idempotency?.committed;
      if (committed) {
        ctx.log.info('idempotent retry after commit: not writing again', { subject_type: committed.type, subject_id: committed.id });
        return { applied: true, replayed: true, subject: committed };
      }
      const conditional = <T extends Record<string, unknown>>(table: Parameters<typeof insertWhere>[1], values: T) =>
        applied ? insertWhere(ctx.db, table, values, applied) : ctx.db.insert(table).values(values as never);
      const statements: BatchItem[] = [parts.guard, ...(parts.follow ?? [])];
      if (parts.audit) {
        statements.push(conditional(auditLog, auditRow(ctx, subject, parts.audit)));
      }
      const drafts = [
        ...(parts.notify ?? [])
          .filter((n): n is Notice => n !== null && n.userIds.length > 0)
          .map((n) =>
            draftEvent(
              ctx,
              'notifications',
              {
                type: 'notify',
                dedupe_key: `${n.kind}:${subject.id}:${op}`,
                user_ids: [...new Set(n.userIds)],
                kind: n.kind,
                title: n.title,
                body: n.body,
                data: { [`${subject.type}_id`]: subject.id, ...n.data },
              },
              applied,
            ),
          ),
        ...(parts.events ?? []).map((e) => draftEvent(ctx, e.topic, e.body, applied)),
      ];
      statements.push(...drafts.map((d) => d.statement));
      const idem = ctx.idempotency;
      if (idem) {
        // Once this batch commits, the Idempotency-Key can never be released: a retry answers from the subject.
        statements.push(
          ctx.db
            .update(idempotencyKeys)
            .set({ state: 'committed', resource_type: subject.type, resource_id: subject.id })
            .where(and(eq(idempotencyKeys.id, idem.recordId), eq(idempotencyKeys.state, 'processing'), applied ?? sql`1`)),
        );
      }
      const results = await runBatch(ctx.db, statements);
      const ok = changedRows(results[0]) > 0;
      if (ok && drafts.length) {
        // After the commit nothing may fail the request: unsent events stay in the outbox for the sweep.
        try {
          await publishOutbox(
            ctx,
            drafts.map((d) => d.id),
          );
        } catch (err) {
          ctx.log.warn('outbox publish after commit failed; the sweep will send', errorFields(err));
        }
      }
      return { applied: ok, replayed: false, subject };
    },
  };
}

/**
 * On a retry whose change the first attempt already committed, the id of the subject it wrote (of
 * the given type), else null. Services check it before their state checks, which the committed
 * change has made fail, and answer from the stored subject.
 */
export function committedSubject(ctx: ServiceContext, type: string): string | null {
  const c = ctx.idempotency?.committed;
  return c && c.type === type ? c.id : null;
}
