import { integer } from 'drizzle-orm/sqlite-core';

/** Instants are stored as integer epoch milliseconds; the API edge renders them as ISO 8601. */
export const timestamps = {
  created_at: integer('created_at').notNull(),
  updated_at: integer('updated_at').notNull(),
};

export const bool = (name: string) => integer(name, { mode: 'boolean' });
