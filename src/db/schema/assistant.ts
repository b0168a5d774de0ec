import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { businesses } from './profiles';
import { users } from './users';

/**
 * The business assistant's conversation, one per business (spec 2.12). Assistant messages keep the
 * language model's token usage and the one-click actions they propose (JSON).
 */
export const assistantMessages = sqliteTable(
  'assistant_messages',
  {
    id: text('id').primaryKey(), // asm_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    actions: text('actions'), // JSON array of proposed actions
    model: text('model'),
    prompt_tokens: integer('prompt_tokens'),
    completion_tokens: integer('completion_tokens'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('assistant_messages_business_idx').on(t.business_id, t.created_at)],
);
