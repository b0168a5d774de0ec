import { createRouter, serviceCtx } from '../../http/create-app';
import {
  createReview,
  disputeReview,
  getAverage,
  getAverages,
  getHistogram,
  getTrend,
  listDisputes,
  listReviews,
  resolveDispute,
  respondToReview,
} from '../../services/reviews';
import * as routes from './review.routes';

/** Reviews, responses and disputes (spec 4.6). One service call per handler. */
export const reviewRouter = createRouter()
  .openapi(routes.createReview, async (c) => c.json(await createReview(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.listReviews, async (c) => c.json(await listReviews(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.getAverage, async (c) => c.json(await getAverage(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.getAverages, async (c) => c.json(await getAverages(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.getHistogram, async (c) => c.json(await getHistogram(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.getTrend, async (c) => c.json(await getTrend(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.respond, async (c) =>
    c.json(await respondToReview(serviceCtx(c), c.req.valid('query').review_id, c.req.valid('json')), 200),
  )
  .openapi(routes.dispute, async (c) =>
    c.json(await disputeReview(serviceCtx(c), c.req.valid('query').review_id, c.req.valid('json')), 200),
  )
  .openapi(routes.resolve, async (c) => {
    const q = c.req.valid('query');
    return c.json(await resolveDispute(serviceCtx(c), q.review_id, q.decision), 200);
  })
  .openapi(routes.disputes, async (c) => c.json(await listDisputes(serviceCtx(c), c.req.valid('query')), 200));
