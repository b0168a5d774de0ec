import { asc, eq, sql } from 'drizzle-orm';
import { helpArticles, helpVideos } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import type { ServiceContext } from '../kernel';
import {
  type ArticleList,
  type ArticleSummary,
  type ArticleView,
  HELP_CATEGORIES,
  HELP_CATEGORY_LABELS,
  type HelpCategory,
  type ListArticlesQuery,
  type ListVideosQuery,
  type VideoList,
  type VideoSummary,
  type VideoView,
} from './schemas';

type ArticleRow = typeof helpArticles.$inferSelect;
type VideoRow = typeof helpVideos.$inferSelect;

export const articlePath = (id: string) => `/v1/help/articles/${id}`;
export const videoPath = (id: string) => `/v1/help/videos/${id}`;

/** A category stored outside the known set (hand-added content) is shown under its own name. */
function category(c: string): { category: string; category_label: string } {
  return { category: c, category_label: HELP_CATEGORY_LABELS[c as HelpCategory] ?? c };
}

/** Categories in the help center's order, unknown ones after. */
const categoryOrder = sql`CASE ${helpArticles.category} ${sql.join(
  HELP_CATEGORIES.map((c, i) => sql`WHEN ${c} THEN ${i}`),
  sql` `,
)} ELSE ${HELP_CATEGORIES.length} END`;
const videoCategoryOrder = sql`CASE ${helpVideos.category} ${sql.join(
  HELP_CATEGORIES.map((c, i) => sql`WHEN ${c} THEN ${i}`),
  sql` `,
)} ELSE ${HELP_CATEGORIES.length} END`;

export function articleSummary(r: Pick<ArticleRow, 'id' | 'title' | 'summary' | 'category' | 'position' | 'updated_at'>): ArticleSummary {
  return {
    id: r.id,
    title: r.title,
    summary: r.summary,
    ...category(r.category),
    position: r.position,
    path: articlePath(r.id),
    updated_at: toIso(r.updated_at),
  };
}

function articleView(r: ArticleRow): ArticleView {
  return {
    ...articleSummary(r),
    body: r.body,
    tags: r.tags.split(/\s+/).filter(Boolean),
    helpful_count: r.helpful_count,
    not_helpful_count: r.not_helpful_count,
    created_at: toIso(r.created_at),
  };
}

export function videoSummary(
  r: Pick<VideoRow, 'id' | 'title' | 'description' | 'category' | 'position' | 'url' | 'duration_seconds' | 'updated_at'>,
): VideoSummary {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    ...category(r.category),
    position: r.position,
    url: r.url,
    path: videoPath(r.id),
    duration_seconds: r.duration_seconds,
    updated_at: toIso(r.updated_at),
  };
}

/** Every article (or one category's), by category and position; the bodies are left out. */
export async function listArticles(ctx: ServiceContext, q: ListArticlesQuery): Promise<ArticleList> {
  const rows = await ctx.db
    .select({
      id: helpArticles.id,
      title: helpArticles.title,
      summary: helpArticles.summary,
      category: helpArticles.category,
      position: helpArticles.position,
      updated_at: helpArticles.updated_at,
    })
    .from(helpArticles)
    .where(q.category ? eq(helpArticles.category, q.category) : undefined)
    .orderBy(categoryOrder, asc(helpArticles.position), asc(helpArticles.id));
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.category, (counts.get(r.category) ?? 0) + 1);
  return {
    data: rows.map(articleSummary),
    categories: [...counts].map(([id, articles]) => {
      const c = category(id);
      return { id: c.category, label: c.category_label, articles };
    }),
  };
}

export async function getArticle(ctx: ServiceContext, id: string): Promise<ArticleView> {
  const [row] = await ctx.db.select().from(helpArticles).where(eq(helpArticles.id, id)).limit(1);
  if (!row) throw new AppError('HELP-NOT-FND-ERR', 'No such help article.');
  return articleView(row);
}

export async function listVideos(ctx: ServiceContext, q: ListVideosQuery): Promise<VideoList> {
  const rows = await ctx.db
    .select()
    .from(helpVideos)
    .where(q.category ? eq(helpVideos.category, q.category) : undefined)
    .orderBy(videoCategoryOrder, asc(helpVideos.position), asc(helpVideos.id));
  return { data: rows.map(videoSummary) };
}

export async function getVideo(ctx: ServiceContext, id: string): Promise<VideoView> {
  const [row] = await ctx.db.select().from(helpVideos).where(eq(helpVideos.id, id)).limit(1);
  if (!row) throw new AppError('HELP-NOT-FND-ERR', 'No such help video.');
  return { ...videoSummary(row), transcript: row.transcript, created_at: toIso(row.created_at) };
}
