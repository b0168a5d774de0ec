import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { businesses } from './profiles';
import { users } from './users';

/**
 * Kiosk sessions: a venue's tablet, started by the business's owner from the clock board, on which
 * shifters clock themselves in and out (services/kiosk). A credential of its own, bound to one
 * business and able to do nothing but that; the browser keeps the token in the `kiosk` cookie and
 * only its SHA-256 is stored here.
 */
export const kioskSessions = sqliteTable(
  'kiosk_sessions',
  {
    id: text('id').primaryKey(), // ksk_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** The owner who started it: the kiosk's punches are theirs in the audit log (punched_as kiosk). */
    started_by_user_id: text('started_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: integer('created_at').notNull(),
    expires_at: integer('expires_at').notNull(),
    /** Last request made with it, written at most once a minute. */
    last_seen_at: integer('last_seen_at'),
    ended_at: integer('ended_at'),
    /** `kiosk`: signed out at the tablet with the owner's password; `board`: ended from the clock board. */
    ended_by: text('ended_by', { enum: ['kiosk', 'board'] }),
    /** The User-Agent it was started from (at most 512 characters), to tell the owner which device it is. */
    user_agent: text('user_agent'),
  },
  (t) => [index('kiosk_sessions_business_idx').on(t.business_id)],
);
