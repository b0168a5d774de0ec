import { createRouter, serviceCtx } from '../../http/create-app';
import {
  askHelp,
  escalateHelp,
  getArticle,
  getVideo,
  listArticles,
  listVideos,
  searchHelp,
  sendArticleFeedback,
} from '../../services/help';
import * as routes from './help.routes';

export const helpRouter = createRouter()
  .openapi(routes.search, async (c) => c.json(await searchHelp(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.listArticles, async (c) => c.json(await listArticles(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.getArticle, async (c) => c.json(await getArticle(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.articleFeedback, async (c) =>
    c.json(await sendArticleFeedback(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(routes.listVideos, async (c) => c.json(await listVideos(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.getVideo, async (c) => c.json(await getVideo(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.ask, async (c) => c.json(await askHelp(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.escalate, async (c) => c.json(await escalateHelp(serviceCtx(c), c.req.valid('json')), 200));
