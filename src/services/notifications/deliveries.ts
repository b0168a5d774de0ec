import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import { notificationDeliveries, users } from '../../db/schema';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { type ServiceContext, requirePerson } from '../kernel';
import type { DeliveryList, DeliveryView, ListDeliveriesQuery } from './schemas';
import { adminReach } from '../access';

function view(r: typeof notificationDeliveries.$inferSelect): DeliveryView {
  return {
    id: r.id,
    user_id: r.user_id,
    kind: r.kind,
    channel: r.channel,
    status: r.status,
    provider: r.provider,
    destination: r.destination,
    title: r.title,
    body: r.body,
    attempts: r.attempts,
    last_error: r.last_error,
    deliver_after: toIso(r.deliver_after),
    created_at: toIso(r.created_at),
    sent_at: toIso(r.sent_at),
  };
}

/**
 * GET /v1/admin/notifications/deliveries (admin only): the outbox of every channel, newest first,
 * keyset-paginated. Under the local stand-ins these rows are the deliveries a developer reads; in
 * production, the record of what went where. The demo cast's admin sees demo accounts' rows only.
 */
export async function listDeliveries(ctx: ServiceContext, q: ListDeliveriesQuery): Promise<DeliveryList> {
  const actor = requirePerson(ctx);
  const reach = adminReach(actor, 'Only an admin may list notification deliveries.');
  const conds: SQL[] = [];
  if (reach === 'demo') conds.push(sql`${notificationDeliveries.user_id} IN (SELECT ${users.id} FROM ${users} WHERE ${users.is_demo} = 1)`);
  if (q.user_id) conds.push(eq(notificationDeliveries.user_id, q.user_id));
  if (q.channel) conds.push(eq(notificationDeliveries.channel, q.channel));
  if (q.status) conds.push(eq(notificationDeliveries.status, q.status));
  if (q.kind) conds.push(eq(notificationDeliveries.kind, q.kind));
  if (q.cursor) {
    const [createdAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(
      or(
        lt(notificationDeliveries.created_at, createdAt),
        and(eq(notificationDeliveries.created_at, createdAt), lt(notificationDeliveries.id, id)),
      )!,
    );
  }
  const rows = await ctx.db
    .select()
    .from(notificationDeliveries)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(notificationDeliveries.created_at), desc(notificationDeliveries.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { data: page.map(view), next_cursor: rows.length > q.limit && last ? encodeCursor([last.created_at, last.id]) : null };
}
