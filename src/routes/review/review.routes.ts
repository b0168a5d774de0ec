import { authRoute, jsonBody, jsonContent } from '../../http/openapi';
import {
  batchAveragesInput,
  batchAveragesSchema,
  createReviewInput,
  disputeInput,
  disputesQuery,
  histogramSchema,
  listReviewsQuery,
  partyAverageSchema,
  respondInput,
  resolveQuery,
  reviewedPartyQuery,
  reviewIdQuery,
  reviewListSchema,
  reviewSchema,
  trendQuery,
  trendSchema,
} from '../../services/reviews';

const tags = ['Reviews'];
const one = (d: string) => jsonContent(reviewSchema, d);

export const createReview = authRoute({
  method: 'post',
  operationId: 'createReview',
  authorization: 'party',
  path: '/v1/review',
  tags,
  summary: 'Review the other party of a worked shift between you (optionally pinned to that shift)',
  description:
    "The reviewing party is the caller's shifter profile, or a business the caller owns or is an active teammate of. The two parties must share a worked shift; a pinned shift must be a worked shift between exactly these two parties. A party writes at most one review per worked shift with the other party, pinned or not: an unpinned review counts against the latest worked shift it has not reviewed yet, and with none left the answer is 409 REVIEW-EXISTS-ERR.",
  request: { body: jsonBody(createReviewInput) },
  responses: { 201: one('The review.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'BUSINESS-NOT-FND-ERR', 'REVIEW-EXISTS-ERR', 'REVIEW-NOT-WORKED-ERR'],
});

export const listReviews = authRoute({
  method: 'get',
  operationId: 'listReviews',
  authorization: 'signed-in',
  path: '/v1/review/list',
  tags,
  summary: 'Reviews of a party (review_on, review_on_id) or by a party (review_by, review_by_id), newest first',
  description: 'Public to any signed-in user. Reviews removed by an upheld dispute are left out; pending and rejected disputes stay.',
  request: { query: listReviewsQuery },
  responses: { 200: jsonContent(reviewListSchema, 'One page of reviews.') },
});

export const getAverage = authRoute({
  method: 'get',
  operationId: 'getAverageReview',
  authorization: 'signed-in',
  path: '/v1/review/get_avg_review',
  tags,
  summary: "A party's average rating and review count (upheld-dispute reviews left out)",
  request: { query: reviewedPartyQuery },
  responses: { 200: jsonContent(partyAverageSchema, 'Average (half-up at 2 decimals; null without reviews) and count.') },
});

export const getAverages = authRoute({
  method: 'post',
  operationId: 'getReviewAverages',
  authorization: 'signed-in',
  path: '/v1/review/averages',
  tags,
  summary: 'Average ratings of many parties in one call (a read)',
  request: { body: jsonBody(batchAveragesInput) },
  responses: { 200: jsonContent(batchAveragesSchema, 'One row per asked party, in the order asked.') },
});

export const getHistogram = authRoute({
  method: 'get',
  operationId: 'getReviewHistogram',
  authorization: 'signed-in',
  path: '/v1/review/histogram',
  tags,
  summary: "A party's rating histogram: how many reviews gave 1 to 5 (upheld-dispute reviews left out)",
  request: { query: reviewedPartyQuery },
  responses: { 200: jsonContent(histogramSchema, 'Counts per rating, with the average.') },
});

export const getTrend = authRoute({
  method: 'get',
  operationId: 'getReviewTrend',
  authorization: 'signed-in',
  path: '/v1/review/trend',
  tags,
  summary: "A party's average rating over time: daily buckets under 30 days, else weekly from Monday",
  description: "Buckets are calendar days (or Monday–Sunday weeks) in the reviewed party's time zone; the window ends today.",
  request: { query: trendQuery },
  responses: { 200: jsonContent(trendSchema, 'Bucketed averages.') },
  errors: ['SHIFTER-NOT-FND-ERR', 'BUSINESS-NOT-FND-ERR'],
});

export const respond = authRoute({
  method: 'put',
  operationId: 'respondToReview',
  authorization: 'party',
  path: '/v1/review/respond',
  tags,
  summary: 'Respond to a review of your party, once (the reviewed shifter, or the business owner or an active teammate)',
  request: { query: reviewIdQuery, body: jsonBody(respondInput) },
  responses: { 200: one('The review with its response.') },
  errors: ['REVIEW-NOT-FND-ERR', 'SHIFTER-NOT-FND-ERR', 'BUSINESS-NOT-FND-ERR', 'REVIEW-RESPONDED-ERR'],
});

export const dispute = authRoute({
  method: 'post',
  operationId: 'disputeReview',
  authorization: 'party',
  path: '/v1/review/dispute',
  tags,
  summary: 'Dispute a review of your party, once; it stays visible while an admin decides',
  request: { query: reviewIdQuery, body: jsonBody(disputeInput) },
  responses: { 200: one('The review with dispute_status pending.') },
  errors: ['REVIEW-NOT-FND-ERR', 'SHIFTER-NOT-FND-ERR', 'BUSINESS-NOT-FND-ERR', 'REVIEW-DISPUTED-ERR'],
});

export const resolve = authRoute({
  method: 'put',
  operationId: 'resolveReviewDispute',
  authorization: 'admin',
  path: '/v1/review/dispute/resolve',
  tags,
  summary: 'Resolve a pending dispute (admin only): upheld removes the review from every list and aggregate, rejected keeps it',
  request: { query: resolveQuery },
  responses: { 200: one('The resolved review.') },
  errors: ['REVIEW-NOT-FND-ERR', 'SHIFTER-NOT-FND-ERR', 'BUSINESS-NOT-FND-ERR', 'REVIEW-DISPUTE-STATE-ERR'],
});

export const disputes = authRoute({
  method: 'get',
  operationId: 'listReviewDisputes',
  authorization: 'admin',
  path: '/v1/review/disputes',
  tags,
  summary: 'The dispute queue (admin only): pending disputes oldest first, or every disputed review',
  request: { query: disputesQuery },
  responses: { 200: jsonContent(reviewListSchema, 'One page of disputed reviews, with their reasons.') },
});
