export { appLinkOrigin } from './app-links';
export { auditInsert } from './audit';
export {
  type Actor,
  type IdempotencyScope,
  type PartnerActor,
  type PartnerScope,
  type PersonActor,
  type PersonRights,
  requirePerson,
  type ServiceContext,
} from './context';
export { type DeadMessage, storeDeadLetter } from './events/dead-letters';
export { type NotificationsMessage, notificationsMessageSchema, type NotifyMessage } from './events/messages';
export { draftEvent, publishOutbox, sweepOutbox } from './events/outbox';
export { planBatches } from './events/queue-batches';
export { retryAfterMs } from './events/retry';
export { auditRow, changedRows, committedSubject, type Notice, prepareWrite, type WriteParts, type WriteResult } from './guarded-write';
export {
  ABANDONED_AFTER_MS,
  claimIdempotencyKey,
  findIdempotencyRecord,
  freeIdempotencyRecord,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyRecord,
  pruneIdempotencyKeys,
  releaseIdempotencyAttempt,
  storeIdempotentAnswer,
  takeOverIdempotencyRecord,
} from './idempotency';
export { existsIn, markedWrite } from './marked-write';
export { pagingCursor, pagingLimit, pagingQuery } from './paging';
export {
  type AccountLinkInput,
  type CardSummary,
  type ConnectedAccountInput,
  type ConnectedAccountResult,
  type CustomerInput,
  declineCode,
  localPaymentGateway,
  type OffSessionChargeInput,
  type PaymentGateway,
  type PaymentIntentResult,
  type PaymentIntentStatus,
  type RefundInput,
  type RefundResult,
  type SetupIntentInput,
  type SetupIntentResult,
  type TransferInput,
  type TransferResult,
  type TransferReversalInput,
  type TransferReversalResult,
  useLocalPaymentGateway,
} from './payment-gateway';
export { runLimit, statusLiteral } from './planned-values';
export {
  consumeRateLimit,
  enforceRateLimit,
  rateLimitError,
  rateLimitHeaders,
  type RateLimitResult,
  releaseRateLimit,
  type Reservation,
  reserveBudget,
  settleBudget,
} from './rate-limit';
export { secretBox } from './secret-box';
export { type LoadedShift, loadShift } from './shift/load';
export { hours, scheduledMinutes, shiftPayMinor } from './shift/pay';
export type { ShiftRow } from './shift/row';
export { cancelRefusal, shiftWhen, type Side, stateError } from './shift/rules';
export {
  isWorked,
  readStatus,
  SHIFT_STATUS,
  SHIFT_STATUS_NAMES,
  type ShiftStatus,
  type ShiftStatusName,
  timeApprovedSql,
  workedShiftSql,
} from './shift/status';
export { systemContext } from './system-context';
export { edgeCache, type PartyKind, type PublicWidget, purgeWidgetCache, widgetCacheKey } from './widget-cache';
