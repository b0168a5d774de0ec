import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../kernel';
import { articleSummary, videoSummary } from './articles';
import { matchExpression, queryTerms } from './fts-query';
import type { ArticleHit, SearchInput, SearchResult, VideoHit } from './schemas';

/**
 * bm25 column weights. Articles: title, summary, body, tags; videos: title, description,
 * transcript. A word in the title counts ten times a word in the body, so an article about the thing
 * asked comes before one that mentions it in passing.
 */
export const ARTICLE_WEIGHTS = { title: 10, summary: 5, body: 1, tags: 3 } as const;
export const VIDEO_WEIGHTS = { title: 10, description: 4, transcript: 1 } as const;

const SNIPPET_TOKENS = 24;

/** Markdown marks an excerpt does not need (headings, emphasis, code ticks, table bars), and runs of space. */
function cleanSnippet(s: string | null): string {
  return (s ?? '')
    .replace(/(^|\s)#{1,6}\s/g, '$1')
    .replace(/\*\*|__|`|\|/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * bm25 is lower for a better match; answers carry its negation, higher is better, to 4 significant
 * digits (a word found in more than half the articles has an almost-zero weight, so scores span
 * several orders of magnitude).
 */
const score = (rank: number) => Number((-rank).toPrecision(4));

interface ArticleHitRow {
  id: string;
  title: string;
  summary: string;
  category: string;
  position: number;
  updated_at: number;
  rank: number;
  snippet: string | null;
}

interface VideoHitRow {
  id: string;
  title: string;
  description: string;
  category: string;
  position: number;
  url: string;
  duration_seconds: number;
  updated_at: number;
  rank: number;
  snippet: string | null;
}

/** The best-matching articles for already-sanitized terms (also what the help assistant reads). */
export async function searchArticles(ctx: ServiceContext, terms: string[], limit: number): Promise<ArticleHit[]> {
  const match = matchExpression(terms);
  if (!match) return [];
  const w = ARTICLE_WEIGHTS;
  const rows = await ctx.db.all<ArticleHitRow>(sql`
    SELECT a.id, a.title, a.summary, a.category, a.position, a.updated_at,
      bm25(help_articles_fts, ${w.title}, ${w.summary}, ${w.body}, ${w.tags}) AS rank,
      snippet(help_articles_fts, 2, '«', '»', '…', ${SNIPPET_TOKENS}) AS snippet
    FROM help_articles_fts JOIN help_articles a ON a.rowid = help_articles_fts.rowid
    WHERE help_articles_fts MATCH ${match}
    ORDER BY rank, a.position, a.id
    LIMIT ${limit}`);
  return rows.map((r) => ({ ...articleSummary(r), snippet: cleanSnippet(r.snippet), score: score(r.rank) }));
}

export async function searchVideos(ctx: ServiceContext, terms: string[], limit: number): Promise<VideoHit[]> {
  const match = matchExpression(terms);
  if (!match) return [];
  const w = VIDEO_WEIGHTS;
  const rows = await ctx.db.all<VideoHitRow>(sql`
    SELECT v.id, v.title, v.description, v.category, v.position, v.url, v.duration_seconds, v.updated_at,
      bm25(help_videos_fts, ${w.title}, ${w.description}, ${w.transcript}) AS rank,
      snippet(help_videos_fts, -1, '«', '»', '…', ${SNIPPET_TOKENS}) AS snippet
    FROM help_videos_fts JOIN help_videos v ON v.rowid = help_videos_fts.rowid
    WHERE help_videos_fts MATCH ${match}
    ORDER BY rank, v.position, v.id
    LIMIT ${limit}`);
  return rows.map((r) => ({ ...videoSummary(r), snippet: cleanSnippet(r.snippet), score: score(r.rank) }));
}

/**
 * POST /v1/help/search: articles and videos for what was typed, best first. Whatever the text holds,
 * only its words are searched (fts-query.ts); text without any word finds nothing rather than failing.
 */
export async function searchHelp(ctx: ServiceContext, input: SearchInput): Promise<SearchResult> {
  const terms = queryTerms(input.query);
  const [articles, videos] = await Promise.all([searchArticles(ctx, terms, input.limit), searchVideos(ctx, terms, input.limit)]);
  return { query: input.query, terms, articles, videos };
}
