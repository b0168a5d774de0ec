import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { sessions, users } from './users';

export const CONVERSATION_KINDS = ['direct', 'support_ai', 'support'] as const;
/** Who takes part: a shifter or business (direct), a person (support), or the help assistant. */
export const PARTICIPANT_KINDS = ['shifter', 'business', 'user', 'assistant'] as const;

/**
 * What the inbox lists (spec 2.11). The messages themselves live in the thread's Durable Object,
 * which orders and serializes them; D1 keeps each thread's latest message for the inbox.
 * `pair_key` makes one direct thread per pair of parties (`<kind>:<id>|<kind>:<id>`, sorted).
 */
export const conversations = sqliteTable(
  'conversations',
  {
    id: text('id').primaryKey(), // cnv_…
    kind: text('kind', { enum: CONVERSATION_KINDS }).notNull(),
    pair_key: text('pair_key'),
    subject: text('subject'),
    /** The person who started the thread (its first sender; for support threads, the one helped). */
    created_by_user_id: text('created_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The person a support thread is for (support_ai and support). */
    owner_user_id: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    escalated_at: integer('escalated_at'),
    last_message_at: integer('last_message_at'),
    last_message_seq: integer('last_message_seq').notNull().default(0),
    last_message_preview: text('last_message_preview'),
    last_sender_kind: text('last_sender_kind', { enum: PARTICIPANT_KINDS }),
    last_sender_id: text('last_sender_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('conversations_pair').on(t.pair_key),
    index('conversations_owner_idx').on(t.owner_user_id, t.kind),
    index('conversations_kind_idx').on(t.kind, t.escalated_at),
  ],
);

/**
 * Each party's side of a thread: its inbox state. `accepted_at` null on a direct thread means the
 * party has not accepted it yet (the thread sits in its Requests tab). `is_automated` and
 * `automation_kind` mark the help assistant.
 */
export const conversationParticipants = sqliteTable(
  'conversation_participants',
  {
    conversation_id: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    party_kind: text('party_kind', { enum: PARTICIPANT_KINDS }).notNull(),
    party_id: text('party_id').notNull(),
    is_automated: bool('is_automated').notNull().default(false),
    automation_kind: text('automation_kind'),
    accepted_at: integer('accepted_at'),
    pinned_at: integer('pinned_at'),
    archived_at: integer('archived_at'),
    blocked_at: integer('blocked_at'),
    last_read_seq: integer('last_read_seq').notNull().default(0),
    joined_at: integer('joined_at').notNull(),
    /**
     * The thread's latest message time (conversations.last_message_at), copied here by triggers so
     * each inbox tab is one index walk in its own order, whatever the number of threads.
     */
    last_message_at: integer('last_message_at'),
  },
  (t) => [
    primaryKey({ columns: [t.conversation_id, t.party_kind, t.party_id] }),
    index('conversation_participants_party_idx').on(t.party_kind, t.party_id, t.archived_at),
    // One partial index per inbox tab (services/messaging/inbox.ts states these conditions as written).
    index('conversation_participants_inbox_all_idx')
      .on(t.party_kind, t.party_id, t.last_message_at, t.conversation_id)
      .where(sql`archived_at IS NULL AND accepted_at IS NOT NULL AND last_message_at IS NOT NULL`),
    index('conversation_participants_inbox_pinned_idx')
      .on(t.party_kind, t.party_id, t.last_message_at, t.conversation_id)
      .where(sql`archived_at IS NULL AND accepted_at IS NOT NULL AND pinned_at IS NOT NULL AND last_message_at IS NOT NULL`),
    index('conversation_participants_inbox_requests_idx')
      .on(t.party_kind, t.party_id, t.last_message_at, t.conversation_id)
      .where(sql`archived_at IS NULL AND accepted_at IS NULL AND last_message_at IS NOT NULL`),
    index('conversation_participants_inbox_archived_idx')
      .on(t.party_kind, t.party_id, t.last_message_at, t.conversation_id)
      .where(sql`archived_at IS NOT NULL AND last_message_at IS NOT NULL`),
  ],
);

/**
 * Which sessions have the live view of a thread open (WebSockets to its Durable Object): one row per
 * thread and session, written by the object when it accepts a socket of the session and removed when
 * the session's last socket there closes or the session ends. It is how the domains that end a
 * session or change someone's standing find the objects to tell (services/messaging/live.ts); a row
 * left behind (a socket dropped without its close reaching the object) only costs a needless call.
 */
export const threadLiveViews = sqliteTable(
  'thread_live_views',
  {
    conversation_id: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    session_id: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    opened_at: integer('opened_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.conversation_id, t.session_id] }),
    index('thread_live_views_user_idx').on(t.user_id),
    index('thread_live_views_session_idx').on(t.session_id),
  ],
);
