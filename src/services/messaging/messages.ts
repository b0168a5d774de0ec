import { AppError } from '../../lib/errors';
import { DEFAULT_LIMIT, decodeCursor, encodeCursor } from '../../lib/pagination';
import { adminOverUser } from '../access';
import { requirePerson, type ServiceContext } from '../kernel';
import { callerParties } from './parties';
import type { MessagePage, PartyRef } from './schemas';
import { threadStub } from './thread-store';
import { type LoadedThread, loadThread, messageView, namesFor, type ParticipantRow, sideOf, sidesOf } from './threads';

/**
 * Who may read a thread: its participants (any side the caller speaks as), and on an escalated
 * support thread an admin over the person helped (the demo cast's admin only over demo accounts),
 * joined or not. Returns the caller's side, or null for such an admin.
 */
export async function readerOf(ctx: ServiceContext, t: LoadedThread, as?: PartyRef | null): Promise<ParticipantRow | null> {
  const parties = await callerParties(ctx);
  if (as || sidesOf(t, parties).length) return sideOf(t, parties, as);
  if (await supportAdmin(ctx, t)) return null;
  throw new AppError('MSG-NOT-PARTICIPANT');
}

/** The caller is an admin over the person an escalated support thread helps. */
export async function supportAdmin(ctx: ServiceContext, t: LoadedThread): Promise<boolean> {
  const actor = requirePerson(ctx);
  return t.row.kind === 'support' && t.row.owner_user_id !== null && (await adminOverUser(ctx, actor, t.row.owner_user_id));
}

const isMessageCursor = (v: unknown): v is { s: number; o: 'asc' | 'desc' } =>
  typeof v === 'object' &&
  v !== null &&
  Number.isInteger((v as { s?: unknown }).s) &&
  ((v as { o?: unknown }).o === 'asc' || (v as { o?: unknown }).o === 'desc');

export interface ListMessagesOptions {
  limit?: number;
  /** asc (default): oldest first, the cursor goes on to newer; desc: newest first, on to older. */
  order?: 'asc' | 'desc';
}

/**
 * A page of a thread's messages, straight from its Durable Object, in seq order. Cursor pagination:
 * `next_cursor` names the last seq read and the direction; null once there is nothing more.
 */
export async function listMessages(
  ctx: ServiceContext,
  conversationId: string,
  cursor: string | null | undefined,
  opts: ListMessagesOptions = {},
): Promise<MessagePage> {
  const t = await loadThread(ctx, conversationId);
  await readerOf(ctx, t);
  const order = opts.order ?? 'asc';
  const limit = opts.limit ?? DEFAULT_LIMIT;
  let from: number | null = null;
  if (cursor) {
    const c = decodeCursor(cursor, isMessageCursor);
    if (c.o !== order)
      throw new AppError('VALIDATION-ERR', 'The cursor belongs to the other order.', [{ field: 'cursor', message: 'invalid' }]);
    from = c.s;
  }
  const [page, names] = await Promise.all([threadStub(ctx, conversationId).list({ order, from, limit }), namesFor(ctx, [t])]);
  const last = page.messages.at(-1);
  return {
    data: page.messages.map((m) => messageView(conversationId, m, names)),
    next_cursor: page.hasMore && last ? encodeCursor({ s: last.seq, o: order }) : null,
  };
}
