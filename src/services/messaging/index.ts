/**
 * Messaging (spec 2.11, 3.5, 4.7): direct threads between a business and a shifter, and support
 * threads between a person and the help assistant (then the support team). The messages of a
 * thread live in its Durable Object (durable-objects/conversation-thread.ts); D1 keeps what the
 * inbox lists. The support-thread API below is what the help center builds on.
 */
export { countUnreadThreads, getThread, listInbox, lookupThread, type UnreadThreadCounts } from './inbox';
export {
  closeLiveViewsOfEndedSessions,
  forgetLiveView,
  LIVE_CLOSE,
  LIVE_HEADERS,
  LIVE_LIMITS,
  type LiveViewer,
  mayReadThread,
  openLiveThread,
  recheckLiveThread,
  recheckLiveViewsOf,
  recordLiveView,
} from './live';
export { listMessages } from './messages';
export {
  INBOX_TABS,
  inboxQuery,
  type InboxTab,
  lookupQuery,
  markReadInput,
  MESSAGE_BODY_MAX,
  messagePageSchema,
  MESSAGES_WHILE_PENDING,
  messageSchema,
  messagesQuery,
  type MessageView,
  type PartyRef,
  sendMessageInput,
  sentMessageSchema,
  supportQueueQuery,
  threadActionInput,
  threadPageSchema,
  threadQuery,
  threadSchema,
  type ThreadView,
} from './schemas';
export { sendMessage } from './send';
export { changeThread, type ThreadAction } from './state';
export {
  answerSupportThread,
  appendMessage,
  ASSISTANT_PARTY_ID,
  escalateSupportThread,
  HELP_AUTOMATION_KIND,
  joinSupportThread,
  listSupportQueue,
  openSupportThread,
} from './support';
export { syncInbox } from './sync';
export {
  type AppendInput,
  type AppendOutcome,
  type ListInput,
  type ListOutcome,
  type StoredMessage,
  type SyncPlan,
  threadStub,
} from './thread-store';
