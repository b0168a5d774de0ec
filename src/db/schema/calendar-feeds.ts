import { sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { shifters } from './profiles';

/**
 * A shifter's private calendar feed ({app_url}/cal/{secret}.ics): one per shifter. Only the SHA-256
 * of the secret is kept (the address is shown once, when it is made), so a copy of the database
 * cannot be used to read anyone's schedule. Rotating replaces the hash (the old address stops at
 * once); turning the feed off deletes the row.
 */
export const calendarFeeds = sqliteTable(
  'calendar_feeds',
  {
    shifter_id: text('shifter_id')
      .primaryKey()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    secret_hash: text('secret_hash').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('calendar_feeds_secret_idx').on(t.secret_hash)],
);
