import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { users } from './users';

/**
 * Help center articles. The full-text index `help_articles_fts` (FTS5, external content on this
 * table, kept in step by triggers) is created in SQL by the help migration; drizzle does not model
 * virtual tables.
 */
export const helpArticles = sqliteTable(
  'help_articles',
  {
    id: text('id').primaryKey(), // the slug, e.g. "post-a-shift"
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    body: text('body').notNull(), // Markdown
    category: text('category').notNull(),
    tags: text('tags').notNull().default(''), // space-separated
    position: integer('position').notNull().default(0),
    helpful_count: integer('helpful_count').notNull().default(0),
    not_helpful_count: integer('not_helpful_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('help_articles_category_idx').on(t.category, t.position)],
);

export const helpVideos = sqliteTable(
  'help_videos',
  {
    id: text('id').primaryKey(), // slug
    title: text('title').notNull(),
    description: text('description').notNull(),
    url: text('url').notNull(),
    duration_seconds: integer('duration_seconds').notNull(),
    transcript: text('transcript').notNull().default(''),
    category: text('category').notNull(),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('help_videos_category_idx').on(t.category, t.position)],
);

/** One vote per person and article (a second one replaces the first). */
export const helpArticleFeedback = sqliteTable(
  'help_article_feedback',
  {
    id: text('id').primaryKey(), // hfb_…
    article_id: text('article_id')
      .notNull()
      .references(() => helpArticles.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    helpful: bool('helpful').notNull(),
    comment: text('comment'),
    ...timestamps,
  },
  (t) => [uniqueIndex('help_article_feedback_one_per_user').on(t.article_id, t.user_id)],
);
