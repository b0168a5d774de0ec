/**
 * Messaging (spec 2.11, 3.5, 4.7): direct threads between a business and a shifter, and support
 * threads between a person and the help assistant (then the support team). The messages of a
 * thread live in its Durable Object (durable-objects/conversation-thread.ts); D1 keeps what the
 * inbox lists. The support-thread API below is what the help center builds on.
 */
export {
  ASSISTANT_PARTY_ID,
  answerSupportThread,
  appendMessage,
  escalateSupportThread,
  HELP_AUTOMATION_KIND,
  joinSupportThread,
  listMessages,
  listSupportQueue,
  openSupportThread,
} from './support';
export type { MessagePage, MessageView, ThreadView } from './schemas';
export { MESSAGE_BODY_MAX } from './schemas';
export { checkBody } from './append';
export * from './inbox';
export * from './messages';
export * from './schemas';
export * from './send';
export * from './state';
export * from './support';
export * from './sync';
export * from './thread-store';
export * from './live';
