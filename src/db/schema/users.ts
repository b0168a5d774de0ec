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
  /**
   * Stamped by each guarded change of the account (re-registration, verification, password change or
   * reset): the statements of the same batch that depend on the change test for this operation id.
   */
  last_op_id: text('last_op_id'),
  ...timestamps,
});

export const admins = sqliteTable('admins', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  granted_by_user_id: text('granted_by_user_id'),
  created_at: integer('created_at').notNull(),
});

/**
 * Six-digit codes mailed to an address: email verification and password reset. Only a hash of the
 * code is kept. An attempt is consumed atomically before the code is compared (attempts < per-code
 * cap), and the attempts of all codes of one email and purpose within a window are capped together,
 * so asking for a new code (or registering the address again) does not give a fresh budget. Rows stay
 * after use or replacement for that count; `user_id` is cleared when an unverified registration is
 * replaced (the code is then void).
 */
export const authCodes = sqliteTable(
  'auth_codes',
  {
    id: text('id').primaryKey(), // ver_…
    purpose: text('purpose', { enum: ['verify_email', 'password_reset', 'two_factor_sms'] }).notNull(),
    email: text('email').notNull(), // lower-cased, as users.email
    user_id: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    code_hash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expires_at: integer('expires_at').notNull(),
    consumed_at: integer('consumed_at'),
    /** The operation that used the code (two-factor SMS codes): the sign-in it promotes checks for it. */
    consumed_op_id: text('consumed_op_id'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('auth_codes_email_idx').on(t.email, t.purpose, t.created_at), index('auth_codes_user_idx').on(t.user_id, t.purpose)],
);

/**
 * The browser side of an emailed-code step (sign-up's confirmation, a password reset): which address
 * the code went to, bound to the browser that started the step by a random token in its cookie (only
 * a SHA-256 of it is kept). The pages read the address from here, never from the URL; confirming a
 * sign-up from the browser that set its password needs only the code. `user_id` is the account the
 * step was started for (null for a reset of an address without one); replacing an unverified
 * registration deletes its steps with it.
 */
export const codeSteps = sqliteTable(
  'code_steps',
  {
    id: text('id').primaryKey(), // cst_…
    purpose: text('purpose', { enum: ['verify_email', 'password_reset'] }).notNull(),
    email: text('email').notNull(),
    user_id: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    expires_at: integer('expires_at').notNull(),
    consumed_at: integer('consumed_at'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('code_steps_expires_idx').on(t.expires_at)],
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
    /** Last request made with the session, written at most once a minute. */
    last_seen_at: integer('last_seen_at'),
    /**
     * SHA-256 of `<user id>:<client IP>` at sign-in: lets sign-in recognise a place the account signed
     * in from before, without keeping the address itself.
     */
    ip_hash: text('ip_hash'),
    /** The User-Agent the sign-in came with (at most 512 characters), to show the person which device it is. */
    user_agent: text('user_agent'),
    /**
     * The password verified but the account has two-factor on: the token reaches only the challenge
     * step (web `/login/2fa`, `POST /v1/auth/login/two_factor`) until a code promotes it.
     */
    pending_two_factor: bool('pending_two_factor').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.user_id)],
);
