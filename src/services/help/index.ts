export { articlePath, getArticle, getVideo, listArticles, listVideos } from './articles';
export { ASK_RATE, askHelp, ESCALATED_NOTICE, escalateHelp } from './ask';
export { getHelpConversation, type HelpConversation, listHelpConversations } from './conversations';
export { sendArticleFeedback } from './feedback';
export { queryTerms } from './fts-query';
export { fallbackReply } from './prompt';
export {
  type ArticleList,
  articleListSchema,
  articleSchema,
  askInput,
  askResultSchema,
  escalateInput,
  escalateResultSchema,
  FEEDBACK_COMMENT_MAX,
  feedbackInput,
  feedbackSchema,
  HELP_CATEGORIES,
  type HelpCategory,
  listArticlesQuery,
  listVideosQuery,
  QUESTION_MAX,
  SEARCH_QUERY_MAX,
  searchInput,
  type SearchResult,
  searchResultSchema,
  type VideoList,
  videoListSchema,
  videoSchema,
} from './schemas';
export { searchArticles, searchHelp } from './search';
