import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { shiftRequests } from './shifts';
import { users } from './users';

/**
 * An AI passport: which agent, model and operator act for an account (issue 14). The account's own
 * record only; revoking keeps the row (revoked_at) so the history of who acted stays readable.
 */
export const aiPassports = sqliteTable(
  'ai_passports',
  {
    id: text('id').primaryKey(), // psp_…
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agent_name: text('agent_name').notNull(),
    model: text('model').notNull(),
    operator: text('operator').notNull(),
    purpose: text('purpose'),
    created_at: integer('created_at').notNull(),
    revoked_at: integer('revoked_at'),
  },
  (t) => [index('ai_passports_user_idx').on(t.user_id, t.created_at)],
);

/**
 * What was delivered for a shift: a note and links, written by a party of the shift (the shifter once
 * it is worked, or the business side). Rows are append-only.
 */
export const shiftDeliverables = sqliteTable(
  'shift_deliverables',
  {
    id: text('id').primaryKey(), // dlv_…
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    author_user_id: text('author_user_id')
      .notNull()
      .references(() => users.id),
    author_side: text('author_side', { enum: ['shifter', 'business'] }).notNull(),
    note: text('note'),
    /** JSON array of { url, label }. */
    links: text('links').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('shift_deliverables_shift_idx').on(t.shift_request_id, t.created_at)],
);
