import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * An account's second factor. The TOTP secret is kept only encrypted (AES-GCM, services/two-factor/
 * secret-box.ts). `totp_last_step` is the newest 30-second step a code was accepted for: a code of
 * that step or an earlier one is refused, so a code works once. While enrolling, the new secret waits
 * in `pending_secret_enc` until a code from it confirms it.
 */
export const twoFactor = sqliteTable('two_factor', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  totp_secret_enc: text('totp_secret_enc'),
  totp_enabled_at: integer('totp_enabled_at'),
  totp_last_step: integer('totp_last_step'),
  pending_secret_enc: text('pending_secret_enc'),
  pending_created_at: integer('pending_created_at'),
  /** The SMS method (only offered when the operator turns TWO_FACTOR_SMS_ENABLED on). */
  sms_enabled_at: integer('sms_enabled_at'),
  /** Stamped by each guarded change (a code accepted, enrolment, disable): statements of the same batch test it. */
  last_op_id: text('last_op_id'),
  created_at: integer('created_at').notNull(),
  updated_at: integer('updated_at').notNull(),
});

/** Single-use backup codes; only a hash is kept. A new set replaces the old one (old rows deleted). */
export const twoFactorBackupCodes = sqliteTable(
  'two_factor_backup_codes',
  {
    id: text('id').primaryKey(), // bkc_…
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    created_at: integer('created_at').notNull(),
    used_at: integer('used_at'),
    /** The operation that used the code: the sign-in it promotes checks for it in the same batch. */
    used_op_id: text('used_op_id'),
  },
  (t) => [index('two_factor_backup_codes_user_idx').on(t.user_id, t.code_hash)],
);

/**
 * Browsers that may skip the second factor. The cookie holds `<id>.<token>`; only a SHA-256 of the
 * token is kept. Each use swaps the token for a new one and moves the expiry forward.
 */
export const trustedDevices = sqliteTable(
  'trusted_devices',
  {
    id: text('id').primaryKey(), // dev_…
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    /** What the browser said it was when trusted (User-Agent, shortened), to tell devices apart. */
    label: text('label').notNull(),
    created_at: integer('created_at').notNull(),
    last_used_at: integer('last_used_at').notNull(),
    expires_at: integer('expires_at').notNull(),
    revoked_at: integer('revoked_at'),
  },
  (t) => [index('trusted_devices_user_idx').on(t.user_id)],
);
