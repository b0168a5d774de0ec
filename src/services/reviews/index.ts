export { getAverage, getAverages, getHistogram, NO_RATINGS, partyRating, ratingsFor } from './aggregates';
export { createReview } from './create';
export { disputeReview, listDisputes, resolveDispute } from './disputes';
export { listReviews } from './list';
export { respondToReview } from './respond';
export { listReviewable, type ReviewableShift } from './reviewable';
export {
  batchAveragesInput,
  batchAveragesSchema,
  createReviewInput,
  DISPUTE_REASON_MAX,
  disputeInput,
  disputesQuery,
  histogramSchema,
  listReviewsQuery,
  type PartyAverage,
  partyAverageSchema,
  type PartyKind,
  type Rating,
  ratingSchema,
  resolveQuery,
  respondInput,
  RESPONSE_TEXT_MAX,
  REVIEW_TEXT_MAX,
  reviewedPartyQuery,
  reviewIdQuery,
  type ReviewList,
  reviewListSchema,
  reviewSchema,
  type ReviewView,
  type Trend,
  trendQuery,
  trendSchema,
} from './schemas';
export { getTrend } from './trend';
export { notUpheld, selectNamed } from './view';
