import { z } from '@hono/zod-openapi';
import { authRoute, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { assistantChatSchema, assistantExchangeSchema, sendAssistantMessageInput } from '../../services/assistant';

const businessIdParam = z.object({ business_id: pathParam('business_id') });

export const getChat = authRoute({
  method: 'get',
  operationId: 'getBusinessAssistantChat',
  authorization: 'business-member',
  path: '/v1/ai/chat/business/{business_id}',
  tags: ['Business assistant'],
  summary: "The business assistant's 50 most recent messages, oldest first (owner, active teammate or admin)",
  request: { params: businessIdParam },
  responses: { 200: jsonContent(assistantChatSchema, 'The conversation.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const sendMessage = authRoute({
  method: 'post',
  operationId: 'sendBusinessAssistantMessage',
  authorization: 'business-member',
  path: '/v1/ai/chat/business/{business_id}',
  tags: ['Business assistant'],
  summary: 'Ask the business assistant (owner, active teammate or admin)',
  description:
    "The assistant answers from the business's own data (shifts, crew, labor costs, going rate) through the same services and access rules as the API, and may propose one-click actions: invite_shifter, open_shift_form (a dashboard link with openShift=1, date, in and out), open_url (a relative path in-app; a full https URL in a new tab, only on a host the operator listed). prompt_tokens and completion_tokens sum every model call behind the answer. Without a configured language model, and when the model fails, both messages are still stored and the reply says so. Each business has a budget (messages per hour, language-model tokens per day, operator settings): beyond it the answer is 429 RATE-LIMIT-ERR with Retry-After, nothing is stored and no model is called.",
  request: { params: businessIdParam, body: jsonBody(sendAssistantMessageInput) },
  responses: { 200: jsonContent(assistantExchangeSchema, 'The stored question and answer.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});
