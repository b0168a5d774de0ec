export { getAssistantChat, sendAssistantMessage } from './chat';
export {
  type AssistantAction,
  assistantChatSchema,
  assistantExchangeSchema,
  type AssistantMessageView,
  sendAssistantMessageInput,
} from './schemas';
