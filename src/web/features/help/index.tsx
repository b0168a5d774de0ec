import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { formIdempotency } from '@/http/middleware/idempotency';
import { requireWebUser } from '@/web/session';
import {
  postAsk,
  postEscalate,
  postFeedback,
  postSupportMessage,
  renderArticle,
  renderConversation,
  renderHelp,
  renderVideo,
} from './page';

/**
 * The help center (/help): search, categories, articles with feedback, videos, the help assistant and
 * escalation to a person. Mounted at `/` beside the other shared pages, so the guards are scoped to
 * these paths. Reading (search, categories, articles, videos) is open to visitors, as the API's reads
 * are; every write, and the conversations, need a signed-in person.
 */
export const helpPages = new Hono<AppEnv>();
helpPages.post('/help/*', requireWebUser, formIdempotency);
helpPages.use('/help/conversations/*', requireWebUser);
helpPages.get('/help', renderHelp);
helpPages.get('/help/articles/:id', renderArticle);
helpPages.post('/help/articles/:id/feedback', postFeedback);
helpPages.get('/help/videos/:id', renderVideo);
helpPages.post('/help/ask', postAsk);
helpPages.get('/help/conversations/:id', renderConversation);
helpPages.post('/help/conversations/:id/escalate', postEscalate);
helpPages.post('/help/conversations/:id/messages', postSupportMessage);
