import { and, desc, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { notifications } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { type ServiceContext, requirePerson } from '../kernel';
import type { ListNotificationsQuery, MarkedRead, NotificationList, NotificationView } from './schemas';

function view(r: typeof notifications.$inferSelect): NotificationView {
  let data: Record<string, unknown> | null = null;
  try {
    data = r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null;
  } catch {
    data = null;
  }
  return { id: r.id, kind: r.kind, title: r.title, body: r.body, data, read_at: toIso(r.read_at), created_at: toIso(r.created_at) };
}

async function unreadCount(ctx: ServiceContext, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)));
  return row?.n ?? 0;
}

/** The caller's unread notifications: the bell's figure on every page of the web application. */
export async function countUnreadNotifications(ctx: ServiceContext): Promise<number> {
  return unreadCount(ctx, requirePerson(ctx).userId);
}

/** GET /v1/notifications: the caller's in-app notifications, newest first, keyset-paginated on (created_at, id). */
export async function listNotifications(ctx: ServiceContext, q: ListNotificationsQuery): Promise<NotificationList> {
  const actor = requirePerson(ctx);
  const conds: SQL[] = [eq(notifications.user_id, actor.userId)];
  if (q.unread) conds.push(isNull(notifications.read_at));
  if (q.cursor) {
    const [createdAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(or(lt(notifications.created_at, createdAt), and(eq(notifications.created_at, createdAt), lt(notifications.id, id)))!);
  }
  const [rows, unread] = await Promise.all([
    ctx.db
      .select()
      .from(notifications)
      .where(and(...conds))
      .orderBy(desc(notifications.created_at), desc(notifications.id))
      .limit(q.limit + 1),
    unreadCount(ctx, actor.userId),
  ]);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(view),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.created_at, last.id]) : null,
    unread_count: unread,
  };
}

/** GET /v1/notifications/{id}: one of the caller's notifications (another's is 404). */
export async function getNotification(ctx: ServiceContext, id: string): Promise<NotificationView> {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.user_id, actor.userId)))
    .limit(1);
  if (!row) throw new AppError('NOTIFICATION-NOT-FND-ERR');
  return view(row);
}

/** POST /v1/notifications/{id}/read: marks one of the caller's notifications read (another's is 404). */
export async function markNotificationRead(ctx: ServiceContext, id: string): Promise<NotificationView> {
  const actor = requirePerson(ctx);
  const mine = and(eq(notifications.id, id), eq(notifications.user_id, actor.userId));
  await ctx.db
    .update(notifications)
    .set({ read_at: ctx.now() })
    .where(and(mine, isNull(notifications.read_at)));
  const [row] = await ctx.db.select().from(notifications).where(mine).limit(1);
  if (!row) throw new AppError('NOTIFICATION-NOT-FND-ERR');
  return view(row);
}

/** POST /v1/notifications/read_all: marks every unread notification of the caller read. */
export async function markAllNotificationsRead(ctx: ServiceContext): Promise<MarkedRead> {
  const actor = requirePerson(ctx);
  const res = await ctx.db
    .update(notifications)
    .set({ read_at: ctx.now() })
    .where(and(eq(notifications.user_id, actor.userId), isNull(notifications.read_at)))
    .run();
  return { marked: res.meta.changes ?? 0, unread_count: await unreadCount(ctx, actor.userId) };
}
