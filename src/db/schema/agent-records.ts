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

/**
 * A file attached to a deliverable (issue 14). The object lives in R2 under
 * deliverables/<shift_request_id>/<deliverable_id>/<id>.<ext> (docs/storage.md); the row is written
 * only once the object is stored, and the object is deleted when the row cannot be written.
 */
export const shiftDeliverableFiles = sqliteTable(
  'shift_deliverable_files',
  {
    id: text('id').primaryKey(), // upl_…
    deliverable_id: text('deliverable_id')
      .notNull()
      .references(() => shiftDeliverables.id, { onDelete: 'cascade' }),
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    uploaded_by_user_id: text('uploaded_by_user_id')
      .notNull()
      .references(() => users.id),
    /** The client's file name, cleaned (no path, no control characters), ending in the sniffed type's extension. */
    name: text('name').notNull(),
    /** The type sniffed from the bytes. */
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    object_key: text('object_key').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('shift_deliverable_files_deliverable_idx').on(t.deliverable_id, t.created_at)],
);
