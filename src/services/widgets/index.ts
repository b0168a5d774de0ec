export { cachedWidgetData } from './cache';
export {
  loadWidgetData,
  openBroadcasts,
  type OpenShift,
  type PartyCard,
  type PublicReview,
  publicReviews,
  type RateFigures,
  type WidgetData,
} from './data';
export { exampleSlugs } from './examples';
