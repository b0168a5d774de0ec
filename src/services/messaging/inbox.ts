import { and, desc, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { conversationParticipants, conversations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
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
const cp = conversationParticipants;

/**
 * Each tab as the condition of its partial index (db/schema/messaging.ts), on the table's own name:
 * the page's walk reads that index alone. A thread without a message yet has no last_message_at.
 */
function tabSql(tab: InboxTab): { index: string; where: SQL } {
  const withMessage = isNotNull(cp.last_message_at);
  switch (tab) {
    case 'all':
      return {
        index: 'conversation_participants_inbox_all_idx',
        where: and(isNull(cp.archived_at), isNotNull(cp.accepted_at), withMessage)!,
      };
    case 'pinned':
      return {
        index: 'conversation_participants_inbox_pinned_idx',
        where: and(isNull(cp.archived_at), isNotNull(cp.accepted_at), isNotNull(cp.pinned_at), withMessage)!,
      };
    case 'requests':
      return {
        index: 'conversation_participants_inbox_requests_idx',
        where: and(isNull(cp.archived_at), isNull(cp.accepted_at), withMessage)!,
      };
    case 'archived':
      return { index: 'conversation_participants_inbox_archived_idx', where: and(isNotNull(cp.archived_at), withMessage)! };
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
 *
 * A page costs by the page, not by the caller's threads: each party's side rows are walked latest
 * first on the tab's index, down to a floor (the latest of the parties' page-th rows), and only the
 * rows above it are sorted.
 */
export async function listInbox(ctx: ServiceContext, q: InboxQuery): Promise<ThreadPage> {
  const parties = await callerParties(ctx);
  const as = asFromQuery(q);
  if (as) requireOwnParty(parties, as);
  const party = sql<string>`${me.party_kind} || ':' || ${me.party_id}`;
  const after = q.cursor ? decodeCursor(q.cursor, isInboxCursor) : null;
  const page = inboxPage(parties, as, q.tab, after, q.limit + 1);
  const rows = await ctx.db
    .select({ c: conversations, me, sortAt: sql<number>`${me.last_message_at}`, party })
    .from(me)
    .innerJoin(conversations, eq(conversations.id, me.conversation_id))
    .where(sql`(${me.conversation_id}, ${me.party_kind}, ${me.party_id}) IN ${page}`)
    .orderBy(desc(me.last_message_at), desc(me.conversation_id), desc(party))
    .limit(q.limit + 1);
  const pageRows = rows.slice(0, q.limit);
  const parts = await participantsOf(ctx, [...new Set(pageRows.map((r) => r.c.id))]);
  const threads = pageRows.map((r) => ({ t: { row: r.c, participants: parts.get(r.c.id) ?? [] }, me: r.me }));
  const names = await partyNames(
    ctx,
    threads.flatMap(({ t }) => t.participants.map((p) => ({ kind: p.party_kind, id: p.party_id }))),
  );
  const last = pageRows.at(-1);
  return {
    data: threads.map(({ t, me: mine }) => threadView(t, mine, names)),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.sortAt, last.c.id, last.party] satisfies InboxCursor) : null,
  };
}

/**
 * The keys (conversation_id, party_kind, party_id) of one inbox page of `n` side rows, as a subquery:
 * the caller's parties (or exactly `as`) walked on the tab's partial index, latest message first,
 * down to the page's floor. Subqueries and one JSON list, never a list of bound ids.
 */
function inboxPage(parties: CallerParties, as: PartyRef | undefined, tab: InboxTab, after: InboxCursor | null, n: number): SQL {
  const { index, where } = tabSql(tab);
  const idx = sql.raw(index);
  const units = as
    ? sql`SELECT ${as.kind} AS kind, ${as.id} AS id`
    : sql`SELECT 'shifter' AS kind, ${shifters.id} AS id FROM ${shifters} WHERE ${shifters.user_id} = ${parties.userId}
        UNION ALL SELECT 'business', value FROM json_each(${JSON.stringify(parties.businessIds)})
        UNION ALL SELECT 'user', ${parties.userId}`;
  const partyKey = sql`${cp.party_kind} || ':' || ${cp.party_id}`;
  const cursor = after
    ? or(
        lt(cp.last_message_at, after[0]),
        and(
          eq(cp.last_message_at, after[0]),
          or(lt(cp.conversation_id, after[1]), and(eq(cp.conversation_id, after[1]), lt(partyKey, after[2]))),
        ),
      )!
    : sql`1`;
  const order = sql`ORDER BY ${cp.last_message_at} DESC, ${cp.conversation_id} DESC`;
  const nth = sql`(SELECT ${cp.last_message_at} FROM ${cp} INDEXED BY ${idx}
    WHERE ${cp.party_kind} = u.kind AND ${cp.party_id} = u.id AND ${where} AND ${cursor} ${order} LIMIT 1 OFFSET ${n - 1})`;
  // Uncorrelated, so computed once: no page row is older than the latest of the parties' n-th rows.
  const floor = sql`(SELECT coalesce(max(${nth}), 0) FROM (${units}) AS u)`;
  return sql`(SELECT ${cp.conversation_id}, ${cp.party_kind}, ${cp.party_id} FROM ${cp} INDEXED BY ${idx}
    WHERE (${cp.party_kind}, ${cp.party_id}) IN (SELECT kind, id FROM (${units})) AND ${where} AND ${cursor}
      AND ${cp.last_message_at} >= ${floor}
    ${order}, ${partyKey} DESC LIMIT ${n})`;
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

/** How many of each party's latest threads per tab the unread figures look at (the header shows 99+ beyond). */
export const UNREAD_WINDOW = 100;

export interface UnreadThreadCounts {
  /** Threads with unread messages in All (pinned ones included) and Requests: the header's figure. */
  total: number;
  all: number;
  pinned: number;
  requests: number;
}

/**
 * Threads with messages the caller's parties have not read, per inbox tab (archived ones are not
 * counted). Costs by the window, not by the caller's threads: each party's latest UNREAD_WINDOW side
 * rows of the All and Requests tabs are read on the tabs' partial indexes (a thread with a new
 * message is always among its party's latest), joined to their threads by primary key.
 */
export async function countUnreadThreads(ctx: ServiceContext): Promise<UnreadThreadCounts> {
  const parties = await callerParties(ctx);
  const all: Array<{ kind: string; id: string }> = [
    ...(parties.shifterId ? [{ kind: 'shifter', id: parties.shifterId }] : []),
    ...parties.businessIds.map((id) => ({ kind: 'business', id })),
    { kind: 'user', id: parties.userId },
  ];
  const out: UnreadThreadCounts = { total: 0, all: 0, pinned: 0, requests: 0 };
  // Two parties per statement: their four windows stay within D1's five terms of a compound SELECT
  // (a person with a shifter profile and a business is three parties, six windows).
  for (let i = 0; i < all.length; i += 2) {
    const slice = all.slice(i, i + 2);
    const windows = slice.flatMap((p) =>
      (['all', 'requests'] as const).map((tab) => {
        const { index, where } = tabSql(tab);
        return sql`SELECT * FROM (SELECT ${cp.conversation_id} AS cid, ${cp.last_read_seq} AS read_seq, ${cp.pinned_at} AS pinned_at,
          ${tab} AS tab FROM ${cp} INDEXED BY ${sql.raw(index)}
          WHERE ${cp.party_kind} = ${p.kind} AND ${cp.party_id} = ${p.id} AND ${where}
          ORDER BY ${cp.last_message_at} DESC LIMIT ${UNREAD_WINDOW})`;
      }),
    );
    const rows = await ctx.db.all<{ tab: 'all' | 'requests'; pinned: number; n: number }>(
      sql`SELECT w.tab AS tab, w.pinned_at IS NOT NULL AS pinned, count(*) AS n
        FROM (${sql.join(windows, sql` UNION ALL `)}) AS w
        JOIN ${conversations} ON ${conversations.id} = w.cid
        WHERE ${conversations.last_message_seq} > w.read_seq
        GROUP BY 1, 2`,
    );
    for (const r of rows) {
      out.total += r.n;
      if (r.tab === 'requests') out.requests += r.n;
      else {
        out.all += r.n;
        if (r.pinned) out.pinned += r.n;
      }
    }
  }
  return out;
}
