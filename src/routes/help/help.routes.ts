import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent, pathParam, publicRoute } from '../../http/openapi';
import {
  articleListSchema,
  articleSchema,
  ASK_RATE,
  askInput,
  askResultSchema,
  escalateInput,
  escalateResultSchema,
  feedbackInput,
  feedbackSchema,
  listArticlesQuery,
  listVideosQuery,
  searchInput,
  searchResultSchema,
  videoListSchema,
  videoSchema,
} from '../../services/help';
import { limitAnonymousByIp } from './help.middleware';

const tags = ['Help center'];

const middleware = [limitAnonymousByIp];

const itemParam = z.object({ id: pathParam('id') });

export const search = publicRoute({
  method: 'post',
  operationId: 'searchHelp',
  path: '/v1/help/search',
  tags,
  middleware,
  summary: 'Search the help articles and videos (full text, best match first)',
  description:
    'Words are matched in any form (clock, clocks, clocking) and ranked with bm25, a word in a title counting more than one in the body. ' +
    'The query is read as plain words: quotes, `*`, `-`, `NEAR(…)`, `OR` and the like are never operators. Text without any word finds nothing. ' +
    'Open to anyone; anonymous callers are limited per address.',
  request: { body: jsonBody(searchInput) },
  responses: { 200: jsonContent(searchResultSchema, 'Matching articles and videos.') },
});

export const listArticles = publicRoute({
  method: 'get',
  operationId: 'listHelpArticles',
  path: '/v1/help/articles',
  tags,
  middleware,
  summary: 'Help articles by category and position (without their bodies)',
  request: { query: listArticlesQuery },
  responses: { 200: jsonContent(articleListSchema, 'Articles, with the categories present.') },
});

export const getArticle = publicRoute({
  method: 'get',
  operationId: 'getHelpArticle',
  path: '/v1/help/articles/{id}',
  tags,
  middleware,
  summary: 'One help article, its Markdown body and its feedback counts',
  request: { params: itemParam },
  responses: { 200: jsonContent(articleSchema, 'The article.') },
  errors: ['HELP-NOT-FND-ERR'],
});

export const articleFeedback = authRoute({
  method: 'post',
  operationId: 'sendHelpArticleFeedback',
  authorization: 'signed-in',
  path: '/v1/help/articles/{id}/feedback',
  tags,
  summary: 'Say whether an article helped (one vote per person; a new vote replaces yours)',
  request: { params: itemParam, body: jsonBody(feedbackInput) },
  responses: { 200: jsonContent(feedbackSchema, 'Your vote and the article’s counts.') },
  errors: ['HELP-NOT-FND-ERR'],
});

export const listVideos = publicRoute({
  method: 'get',
  operationId: 'listHelpVideos',
  path: '/v1/help/videos',
  tags,
  middleware,
  summary: 'Help videos by category and position (without their transcripts)',
  request: { query: listVideosQuery },
  responses: { 200: jsonContent(videoListSchema, 'Videos.') },
});

export const getVideo = publicRoute({
  method: 'get',
  operationId: 'getHelpVideo',
  path: '/v1/help/videos/{id}',
  tags,
  middleware,
  summary: 'One help video with its transcript',
  request: { params: itemParam },
  responses: { 200: jsonContent(videoSchema, 'The video.') },
  errors: ['HELP-NOT-FND-ERR'],
});

export const ask = authRoute({
  method: 'post',
  operationId: 'askHelp',
  authorization: 'self',
  path: '/v1/help/ask',
  tags,
  summary: 'Ask the help assistant: an answer grounded in the help articles, in a support_ai conversation',
  description:
    'Starts a help conversation (kind support_ai), or continues one of yours with conversation_id. The question is searched like POST /v1/help/search; ' +
    'the best articles (up to 4) are given to the language model, whose answer cites them by title and path. Without a language model configured, ' +
    'or when its call fails, the answer is a fixed reply listing those articles (answered_by: fallback). ' +
    `At most ${ASK_RATE.limit} questions per person an hour. An escalated conversation is answered by people: asking in it is CONFLICT-ERR.`,
  request: { body: jsonBody(askInput) },
  responses: { 200: jsonContent(askResultSchema, 'The question and the answer, as stored in the conversation.') },
  errors: ['MSG-NOT-FND-ERR', 'CONFLICT-ERR'],
});

export const escalate = authRoute({
  method: 'post',
  operationId: 'escalateHelpConversation',
  authorization: 'self',
  path: '/v1/help/escalate',
  tags,
  summary: 'Ask for a person: the help conversation becomes support and the support team answers in it',
  description:
    'The support team is notified; an admin may then join the conversation and answer (messaging). The help assistant stops answering. ' +
    'Escalating an escalated conversation answers it unchanged.',
  request: { body: jsonBody(escalateInput) },
  responses: { 200: jsonContent(escalateResultSchema, 'The conversation, now support, and the notice added to it.') },
  errors: ['MSG-NOT-FND-ERR'],
});
