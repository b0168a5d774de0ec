import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * One row per tool call on the agent tool server (spec 4.9 rule 8), written by the one wrapper
 * (mcp/register.ts) after the call, whatever its outcome. `arguments` is JSON with every value under
 * a secret-looking key replaced by "[redacted]" (mcp/audit.ts). `status` is `ok`, `denied` (outside
 * the token's scopes, or a confirmation the user declined) or the service's error code.
 */
export const mcpAudit = sqliteTable(
  'mcp_audit',
  {
    id: text('id').primaryKey(), // mca_…
    /** The OAuth access token's id (`userId:grantId`), or the personal key's id (`key_…`). */
    token_id: text('token_id').notNull(),
    user_id: text('user_id').notNull(),
    /** With the prefix, e.g. `shiftmarket.claim_shift`. */
    tool_name: text('tool_name').notNull(),
    arguments: text('arguments').notNull(),
    status: text('status').notNull(),
    latency_ms: integer('latency_ms').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('mcp_audit_user_idx').on(t.user_id, t.created_at), index('mcp_audit_token_idx').on(t.token_id, t.created_at)],
);

/**
 * A person's settings for agents acting for them. `confirm_writes` (default on): write tools ask
 * before they run (form elicitation or a second call with `confirm: true`). No row means the defaults.
 */
export const mcpUserSettings = sqliteTable('mcp_user_settings', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  confirm_writes: integer('confirm_writes', { mode: 'boolean' }).notNull().default(true),
  updated_at: integer('updated_at').notNull(),
});
