import { and, desc, eq, gt, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { conversationParticipants, conversations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
import { actsForBusinessSql } from '../access';
import type { ServiceContext } from '../kernel';
import { readerOf } from './messages';
import { type CallerParties, callerParties, pairKey, partyNames, requireOwnParty, senderToward } from './parties';
import type { InboxQuery, InboxTab, LookupQuery, PartyRef, ThreadPage, ThreadQuery, ThreadView } from './schemas';
import { loadThread, participantsOf, threadView, viewOf } from './threads';

/** `as_kind` + `as_id` of a query, both or neither. */
export function asFromQuery(q: { as_kind?: PartyRef['kind'] | undefined; as_id?: string | undefined }): PartyRef | undefined {
  if (!q.as_kind && !q.as_id) return undefined;
  if (!q.as_kind || !q.as_id) {
    throw new AppError('VALIDATION-ERR', 'as_kind and as_id go together', [
      { field: q.as_kind ? 'as_id' : 'as_kind', message: 'required with the other' },
    ]);
  }
  return { kind: q.as_kind, id: q.as_id };
}

const me = alias(conversationParticipants, 'me');

/** SQL: the participant row `me` is one of the caller's parties (or exactly `as`). Subqueries, never id lists. */
function mineSql(parties: CallerParties, as: PartyRef | undefined): SQL {
  if (as) return and(eq(me.party_kind, as.kind), eq(me.party_id, as.id))!;
  return or(
    and(
      eq(me.party_kind, 'shifter'),
      sql`${me.party_id} IN (SELECT ${shifters.id} FROM ${shifters} WHERE ${shifters.user_id} = ${parties.userId})`,
    ),
    and(eq(me.party_kind, 'business'), actsForBusinessSql(parties.userId, me.party_id)),
    and(eq(me.party_kind, 'user'), eq(me.party_id, parties.userId)),
  )!;
}

function tabSql(tab: InboxTab): SQL {
  switch (tab) {
    case 'all':
      return and(isNull(me.archived_at), isNotNull(me.accepted_at))!;
    case 'pinned':
      return and(isNull(me.archived_at), isNotNull(me.accepted_at), isNotNull(me.pinned_at))!;
    case 'requests':
      return and(isNull(me.archived_at), isNull(me.accepted_at))!;
    case 'archived':
      return isNotNull(me.archived_at);
  }
}

type InboxCursor = [sortAt: number, conversationId: string, party: string];
const isInboxCursor = (v: unknown): v is InboxCursor =>
  Array.isArray(v) && v.length === 3 && typeof v[0] === 'number' && typeof v[1] === 'string' && typeof v[2] === 'string';

/**
 * GET /v1/messaging/inbox: the caller's threads in one tab, latest message first, cursor-paginated.
 * All: accepted and not archived (pinned ones included); Pinned: those pinned; Requests: direct
 * threads the caller's side has not accepted; Archived: archived ones. Threads without a message yet
 * are left out. Without `as`, every party the caller speaks as is listed (a thread where they are on
 * both sides appears once per side). State (read marker, pin, archive, acceptance) is per party: the
 * owner and the active teammates of a business share it.
 */
export async function listInbox(ctx: ServiceContext, q: InboxQuery): Promise<ThreadPage> {
  const parties = await callerParties(ctx);
  const as = asFromQuery(q);
  if (as) requireOwnParty(parties, as);
  const sortAt = sql<number>`COALESCE(${conversations.last_message_at}, ${conversations.created_at})`;
  const party = sql<string>`${me.party_kind} || ':' || ${me.party_id}`;
  const after = q.cursor ? decodeCursor(q.cursor, isInboxCursor) : null;
  const rows = await ctx.db
    .select({ c: conversations, me, sortAt, party })
    .from(me)
    .innerJoin(conversations, eq(conversations.id, me.conversation_id))
    .where(
      and(
        mineSql(parties, as),
        tabSql(q.tab),
        gt(conversations.last_message_seq, 0),
        after
          ? or(
              lt(sortAt, after[0]),
              and(eq(sortAt, after[0]), or(lt(conversations.id, after[1]), and(eq(conversations.id, after[1]), lt(party, after[2])))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(sortAt), desc(conversations.id), desc(party))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const parts = await participantsOf(ctx, [...new Set(page.map((r) => r.c.id))]);
  const threads = page.map((r) => ({ t: { row: r.c, participants: parts.get(r.c.id) ?? [] }, me: r.me }));
  const names = await partyNames(
    ctx,
    threads.flatMap(({ t }) => t.participants.map((p) => ({ kind: p.party_kind, id: p.party_id }))),
  );
  const last = page.at(-1);
  return {
    data: threads.map(({ t, me: mine }) => threadView(t, mine, names)),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.sortAt, last.c.id, last.party] satisfies InboxCursor) : null,
  };
}

/**
 * GET /v1/messaging/lookup: the direct thread between the caller's side and another party (the side
 * chosen as for sending), or MSG-NOT-FND-ERR when they have none yet.
 */
export async function lookupThread(ctx: ServiceContext, q: LookupQuery): Promise<ThreadView> {
  const parties = await callerParties(ctx);
  const other: PartyRef = { kind: q.with_kind, id: q.with_id };
  const from = await senderToward(ctx, parties, other, asFromQuery(q));
  const [row] = await ctx.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.pair_key, pairKey(from, other)))
    .limit(1);
  if (!row) throw new AppError('MSG-NOT-FND-ERR', 'You have no thread with that party yet.');
  const t = await loadThread(ctx, row.id);
  return viewOf(ctx, t, await readerOf(ctx, t, from));
}

/** GET /v1/messaging/threads/{id}: one thread as the caller's side sees it. */
export async function getThread(ctx: ServiceContext, id: string, q: ThreadQuery): Promise<ThreadView> {
  const t = await loadThread(ctx, id);
  return viewOf(ctx, t, await readerOf(ctx, t, asFromQuery(q)));
}
