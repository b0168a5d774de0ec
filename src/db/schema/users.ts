import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(), // usr_…
  email: text('email').notNull().unique(), // stored lower-cased
  password_hash: text('password_hash').notNull(),
  display_name: text('display_name').notNull(),
  phone: text('phone'),
  email_verified_at: integer('email_verified_at'),
  is_demo: bool('is_demo').notNull().default(false),
  ...timestamps,
});

export const admins = sqliteTable('admins', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  granted_by_user_id: text('granted_by_user_id'),
  created_at: integer('created_at').notNull(),
});

export const emailVerifications = sqliteTable(
  'email_verifications',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expires_at: integer('expires_at').notNull(),
    consumed_at: integer('consumed_at'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('email_verifications_user_idx').on(t.user_id)],
);

/** Personal API keys (and later partner keys). Only a SHA-256 of the key is stored. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(), // key_…
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['personal'] })
      .notNull()
      .default('personal'),
    prefix: text('prefix').notNull(),
    key_hash: text('key_hash').notNull().unique(),
    created_at: integer('created_at').notNull(),
    last_used_at: integer('last_used_at'),
    revoked_at: integer('revoked_at'),
  },
  // one live personal key per account
  (t) => [uniqueIndex('api_keys_one_live_per_user').on(t.user_id, t.kind).where(sql`revoked_at IS NULL`)],
);

/** Web/app sign-in sessions. Only a SHA-256 of the token is stored. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: integer('created_at').notNull(),
    expires_at: integer('expires_at').notNull(),
    revoked_at: integer('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.user_id)],
);
