import { z } from '@hono/zod-openapi';
import { CONVERSATION_KINDS } from '../../db/schema';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { messageSchema, threadSchema } from '../messaging';

// The help center's request and response schemas: the route contracts import them, the services
// take z.infer of the request schemas and build z.infer of the response schemas.

/** The categories the seeded content uses, in the order the help center shows them. */
export const HELP_CATEGORIES = ['getting-started', 'posting', 'working', 'clocking', 'money', 'team', 'account', 'developers'] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];
export const HELP_CATEGORY_LABELS: Record<HelpCategory, string> = {
  'getting-started': 'Getting started',
  posting: 'Posting shifts',
  working: 'Finding and working shifts',
  clocking: 'Clocking in and out',
  money: 'Pay, earnings and mileage',
  team: 'Crew and teammates',
  account: 'Account and security',
  developers: 'API and automation',
};

const categorySchema = z.enum(HELP_CATEGORIES).openapi({ description: 'The help center section.' });
/** The same set in answers, typed as the plain text column it is read from. */
const categoryField = z.string().openapi({ enum: [...HELP_CATEGORIES], description: 'The help center section.' });

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_MAX = 20;
export const QUESTION_MAX = 2000;
export const FEEDBACK_COMMENT_MAX = 1000;

// ---- Requests ----

export const searchInput = z
  .object({
    query: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(SEARCH_QUERY_MAX)
      .openapi({
        example: 'clock in photo',
        description: `Words to look for, 1–${SEARCH_QUERY_MAX} characters. Plain words: search operators are read as words.`,
      }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(SEARCH_LIMIT_MAX)
      .default(5)
      .openapi({ description: `Articles (and, apart, videos) to return, 1–${SEARCH_LIMIT_MAX} (default 5).` }),
  })
  .strict()
  .openapi('HelpSearchRequest');
export type SearchInput = z.infer<typeof searchInput>;

export const listArticlesQuery = z.object({ category: categorySchema.optional() });
export type ListArticlesQuery = z.infer<typeof listArticlesQuery>;

export const listVideosQuery = z.object({ category: categorySchema.optional() });
export type ListVideosQuery = z.infer<typeof listVideosQuery>;

export const feedbackInput = z
  .object({
    helpful: z.boolean().openapi({ description: 'Did the article help?' }),
    comment: z
      .string()
      .trim()
      .max(FEEDBACK_COMMENT_MAX)
      .nullish()
      .transform((v) => (v ? v : null))
      .openapi({ description: `What was missing or wrong (optional, at most ${FEEDBACK_COMMENT_MAX} characters).` }),
  })
  .strict()
  .openapi('HelpArticleFeedbackRequest');
export type FeedbackInput = z.infer<typeof feedbackInput>;

export const askInput = z
  .object({
    question: z.string().trim().min(1, 'must not be empty').max(QUESTION_MAX).openapi({ example: 'How do I clock in with a photo?' }),
    conversation_id: z
      .string()
      .min(1)
      .max(ID_MAX_LENGTH)
      .optional()
      .openapi({ description: 'Continue one of your help conversations; without it a new one starts.' }),
  })
  .strict()
  .openapi('HelpAskRequest');
export type AskInput = z.infer<typeof askInput>;

export const escalateInput = z
  .object({ conversation_id: z.string().min(1).max(ID_MAX_LENGTH) })
  .strict()
  .openapi('HelpEscalateRequest');
export type EscalateInput = z.infer<typeof escalateInput>;

// ---- Responses ----

const articleFields = {
  id: z.string().openapi({ example: 'clock-in-and-out' }),
  title: z.string(),
  summary: z.string(),
  category: categoryField,
  category_label: z.string(),
  position: z.number().int().openapi({ description: 'Order within the category.' }),
  path: z
    .string()
    .openapi({ description: 'Where the article is read: /v1/help/articles/{id}.', example: '/v1/help/articles/clock-in-and-out' }),
  updated_at: z.string(),
};

export const articleSummarySchema = z.object(articleFields).openapi('HelpArticleSummary');
export type ArticleSummary = z.infer<typeof articleSummarySchema>;

export const articleListSchema = z
  .object({
    data: z.array(articleSummarySchema),
    categories: z.array(z.object({ id: categoryField, label: z.string(), articles: z.number().int() })),
  })
  .openapi('HelpArticleList');
export type ArticleList = z.infer<typeof articleListSchema>;

export const articleSchema = z
  .object({
    ...articleFields,
    body: z.string().openapi({ description: 'Markdown.' }),
    tags: z.array(z.string()),
    helpful_count: z.number().int(),
    not_helpful_count: z.number().int(),
    created_at: z.string(),
  })
  .openapi('HelpArticle');
export type ArticleView = z.infer<typeof articleSchema>;

const videoFields = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: categoryField,
  category_label: z.string(),
  position: z.number().int(),
  url: z.string().openapi({ description: "The player's address in the web app ({app_url}/help/videos/{id})." }),
  path: z.string().openapi({ description: 'The video in the API: /v1/help/videos/{id}.' }),
  duration_seconds: z.number().int(),
  updated_at: z.string(),
};

export const videoSummarySchema = z.object(videoFields).openapi('HelpVideoSummary');
export type VideoSummary = z.infer<typeof videoSummarySchema>;

export const videoListSchema = z.object({ data: z.array(videoSummarySchema) }).openapi('HelpVideoList');
export type VideoList = z.infer<typeof videoListSchema>;

export const videoSchema = z.object({ ...videoFields, transcript: z.string(), created_at: z.string() }).openapi('HelpVideo');
export type VideoView = z.infer<typeof videoSchema>;

const snippetField = z.string().openapi({
  description: 'A short excerpt around the words found (from the best-matching field), each found word between « and ».',
});
const scoreField = z.number().openapi({ description: 'Relevance (bm25, higher is better); comparable within one answer only.' });

export const articleHitSchema = z.object({ ...articleFields, snippet: snippetField, score: scoreField }).openapi('HelpArticleHit');
export type ArticleHit = z.infer<typeof articleHitSchema>;
export const videoHitSchema = z.object({ ...videoFields, snippet: snippetField, score: scoreField }).openapi('HelpVideoHit');
export type VideoHit = z.infer<typeof videoHitSchema>;

export const searchResultSchema = z
  .object({
    query: z.string(),
    terms: z.array(z.string()).openapi({ description: 'The words searched for (operators and punctuation are not searched).' }),
    articles: z.array(articleHitSchema).openapi({ description: 'Best match first.' }),
    videos: z.array(videoHitSchema).openapi({ description: 'Best match first (title, description and transcript).' }),
  })
  .openapi('HelpSearchResult');
export type SearchResult = z.infer<typeof searchResultSchema>;

export const feedbackSchema = z
  .object({
    article_id: z.string(),
    helpful: z.boolean(),
    comment: z.string().nullable(),
    helpful_count: z.number().int().openapi({ description: "The article's helpful votes, this one included." }),
    not_helpful_count: z.number().int(),
    created_at: z.string().openapi({ description: 'When you first voted on this article.' }),
    updated_at: z.string().openapi({ description: 'When this vote was given (a new vote replaces the earlier one).' }),
  })
  .openapi('HelpArticleFeedback');
export type FeedbackView = z.infer<typeof feedbackSchema>;

export const citedArticleSchema = z
  .object({ id: z.string(), title: z.string(), path: z.string() })
  .openapi('HelpCitedArticle', { description: 'An article the answer is grounded in.' });
export type CitedArticle = z.infer<typeof citedArticleSchema>;

export const askResultSchema = z
  .object({
    conversation_id: z.string(),
    kind: z.enum(CONVERSATION_KINDS).openapi({ description: 'support_ai: the help assistant answers in this conversation.' }),
    question: messageSchema.openapi({ description: 'Your question, as stored in the conversation.' }),
    answer: messageSchema.openapi({ description: "The help assistant's answer (automated)." }),
    answered_by: z.enum(['model', 'fallback']).openapi({
      description:
        'model: the language model wrote the answer from the articles; fallback: the fixed reply listing the articles (no language model configured, or its call failed).',
    }),
    model: z.string().nullable().openapi({ description: 'The language model that answered (null for the fallback reply).' }),
    articles: z
      .array(citedArticleSchema)
      .max(5)
      .openapi({ description: 'The articles the answer is grounded in (found by searching the question), best match first.' }),
  })
  .openapi('HelpAskResult');
export type AskResult = z.infer<typeof askResultSchema>;

export const escalateResultSchema = z
  .object({
    conversation: threadSchema.openapi({ description: 'The conversation, now of kind support.' }),
    notice: messageSchema
      .nullable()
      .openapi({ description: "The help assistant's note that a person will answer (null when the conversation was escalated before)." }),
  })
  .openapi('HelpEscalateResult');
export type EscalateResult = z.infer<typeof escalateResultSchema>;
