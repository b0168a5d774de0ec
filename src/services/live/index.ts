/**
 * Live updates of a business's pages: who may follow a business, the bounds, and the signals the
 * queue consumer publishes from the outbox's events (docs/decisions/live-updates.md).
 */
export { businessLiveStub, closeBusinessLiveOfEndedSessions, mayFollowBusiness, openBusinessLive, recheckBusinessLive } from './follow';
export {
  BUSINESS_LIVE_CLOSE,
  BUSINESS_LIVE_HEADERS,
  BUSINESS_LIVE_LIMITS,
  LIVE_KINDS,
  type LiveChanged,
  type LiveKind,
  type LiveSignal,
} from './limits';
export { publishLive, publishLiveOfNotify, publishLiveOfPartnerEvents } from './publish';
