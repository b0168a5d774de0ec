import type { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent } from '../../http/openapi';
import type { ErrorCode } from '../../lib/errors';
import {
  inboxQuery,
  lookupQuery,
  MESSAGE_BODY_MAX,
  MESSAGES_WHILE_PENDING,
  markReadInput,
  messagePageSchema,
  messagesQuery,
  sendMessageInput,
  sentMessageSchema,
  supportQueueQuery,
  threadActionInput,
  threadPageSchema,
  threadQuery,
  threadSchema,
} from '../../services/messaging';

const tags = ['Messaging'];
const thread = (d: string) => jsonContent(threadSchema, d);
const IN_THREAD: ErrorCode[] = ['MSG-NOT-FND-ERR', 'MSG-NOT-PARTICIPANT'];

export const inbox = authRoute({
  method: 'get',
  operationId: 'getMessagingInbox',
  authorization: 'party',
  path: '/v1/messaging/inbox',
  tags,
  summary: 'The unified inbox: direct, request and pinned threads (and support threads)',
  description:
    "Tabs: `all` (accepted, not archived; pinned included), `pinned`, `requests` (direct threads the caller's side has not accepted) and `archived`. Latest message first, cursor-paginated; `unread_count` counts messages after the side's read marker. Without `as_kind`/`as_id`, every party the caller speaks as (their shifter profile, the businesses they own or are an active teammate of, themselves in support threads).",
  request: { query: inboxQuery },
  responses: { 200: jsonContent(threadPageSchema, 'A page of threads.') },
});

export const lookup = authRoute({
  method: 'get',
  operationId: 'lookupMessageThread',
  authorization: 'party',
  path: '/v1/messaging/lookup',
  tags,
  summary: 'The direct thread between the caller and a party',
  description:
    "The caller's side is chosen as for sending (`as_kind`/`as_id`, or: toward a business, the caller's shifter profile; toward a shifter, the caller's only or default business). MSG-NOT-FND-ERR when the two have no thread yet.",
  request: { query: lookupQuery },
  responses: { 200: thread('The thread as the caller sees it.') },
  errors: ['MSG-NOT-FND-ERR', 'MSG-NOT-PARTICIPANT', 'MSG-NOT-CONNECTED-ERR'],
});

export const send = authRoute({
  method: 'post',
  operationId: 'sendMessage',
  authorization: 'party',
  path: '/v1/messaging/messages',
  tags,
  summary: 'Send a message to a connected counterparty, or in a thread',
  description: `With \`to\`, a direct message to a business (from the caller's shifter profile) or a shifter (from a business the caller owns or is an active teammate of) with an accepted connection between the two; the first message creates the thread, which sits in the recipient's Requests tab until they accept it or reply. Until then the sender may have ${MESSAGES_WHILE_PENDING} message in it (MSG-REQ-PENDING-ERR beyond). With \`conversation_id\`, in that thread (an escalated support thread too). The body is a string of at most ${MESSAGE_BODY_MAX} characters, not empty once trimmed, and is stored trimmed (MSG-BODY-ERR otherwise). Messages are numbered 1, 2, 3… per thread in the order stored; the recipient's people are notified (\`message.request\` while the thread waits for them, else \`message.received\`). With an Idempotency-Key, a retry answers the message stored the first time.`,
  request: { body: jsonBody(sendMessageInput) },
  responses: { 201: jsonContent(sentMessageSchema, 'The message as stored, and the thread as the sender now sees it.') },
  errors: [
    'MSG-BODY-ERR',
    'MSG-NOT-FND-ERR',
    'MSG-NOT-PARTICIPANT',
    'MSG-NOT-CONNECTED-ERR',
    'MSG-BLOCKED-ERR',
    'MSG-REQ-PENDING-ERR',
    'CONFLICT-ERR',
  ],
});

export const getThread = authRoute({
  method: 'get',
  operationId: 'getMessageThread',
  authorization: 'party',
  path: '/v1/messaging/threads/{id}',
  tags,
  summary: 'One thread as the caller sees it',
  request: { params: idParam, query: threadQuery },
  responses: { 200: thread('The thread.') },
  errors: IN_THREAD,
});

export const messages = authRoute({
  method: 'get',
  operationId: 'listThreadMessages',
  authorization: 'party',
  path: '/v1/messaging/threads/{id}/messages',
  tags,
  summary: "A thread's messages in order, cursor-paginated",
  description:
    'Straight from the thread, in seq order: `asc` from the first message on, `desc` from the latest back. Participants read; on an escalated support thread, admins over the person helped too.',
  request: { params: idParam, query: messagesQuery },
  responses: { 200: jsonContent(messagePageSchema, 'A page of messages.') },
  errors: IN_THREAD,
});

/** The per-thread state changes of the caller's side: one route each, same shape. */
function action<N extends string, B extends z.ZodType = typeof threadActionInput>(
  name: N,
  operationId: string,
  summary: string,
  description: string,
  errors: ErrorCode[] = [],
  body?: B,
) {
  return authRoute({
    method: 'post',
    operationId,
    authorization: 'party',
    path: `/v1/messaging/threads/{id}/${name}` as `/v1/messaging/threads/{id}/${N}`,
    tags,
    summary,
    description: `${description} Doing it again changes nothing. Answers the thread as the caller's side now sees it.`,
    request: {
      params: idParam,
      body: { required: false, content: { 'application/json': { schema: (body ?? threadActionInput) as B } } },
    },
    responses: { 200: thread('The thread.') },
    errors: [...IN_THREAD, ...errors],
  });
}

export const read = action(
  'read',
  'markMessageThreadRead',
  "Move the caller's read marker",
  'Up to `seq` (default: the latest message); never back, never past the latest message.',
  [],
  markReadInput,
);
export const pin = action('pin', 'pinMessageThread', 'Pin a thread', 'It shows in the Pinned tab.');
export const unpin = action('unpin', 'unpinMessageThread', 'Unpin a thread', 'It leaves the Pinned tab.');
export const archive = action(
  'archive',
  'archiveMessageThread',
  'Archive a thread',
  'It leaves All and Pinned for the Archived tab, until unarchived or until the other side writes again.',
);
export const unarchive = action('unarchive', 'unarchiveMessageThread', 'Unarchive a thread', 'It returns to its tab.');
export const accept = action(
  'accept',
  'acceptMessageThread',
  'Accept a message request',
  'The thread leaves the Requests tab for All, and the other side may write freely.',
);
export const block = action(
  'block',
  'blockMessageThread',
  'Block a direct thread',
  'While either side blocks, neither may write in it (MSG-BLOCKED-ERR).',
  ['CONFLICT-ERR'],
);
export const unblock = action('unblock', 'unblockMessageThread', 'Unblock a direct thread', "Lifts the caller's side's block.", [
  'CONFLICT-ERR',
]);

export const join = authRoute({
  method: 'post',
  operationId: 'joinSupportThread',
  authorization: 'admin',
  path: '/v1/messaging/threads/{id}/join',
  tags,
  summary: 'Join an escalated support thread (admin)',
  description:
    'An admin over the person helped joins a support thread escalated to the team: they take part as themselves, may answer with sendMessage (`conversation_id`) and see it in their inbox. CONFLICT-ERR while the help assistant still handles it (not escalated).',
  request: { params: idParam },
  responses: { 200: thread('The thread as the admin now sees it.') },
  errors: ['MSG-NOT-FND-ERR', 'MSG-NOT-PARTICIPANT', 'CONFLICT-ERR'],
});

export const supportQueue = authRoute({
  method: 'get',
  operationId: 'listSupportQueue',
  authorization: 'admin',
  path: '/v1/messaging/support_queue',
  tags,
  summary: 'Escalated support threads (admin)',
  description:
    'Support threads escalated to the team, latest activity first, cursor-paginated; `as` is null on those the admin has not joined.',
  request: { query: supportQueueQuery },
  responses: { 200: jsonContent(threadPageSchema, 'A page of support threads.') },
});
