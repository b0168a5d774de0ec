import { z } from '@hono/zod-openapi';
import { CONVERSATION_KINDS, PARTICIPANT_KINDS } from '../../db/schema/messaging';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { pagingQuery } from '../kernel';

// The messaging domain's request and response schemas: the route contracts import them, the services
// take z.infer of the request schemas and build z.infer of the response schemas.

/** The longest message body as sent, in characters (UTF-16 code units, as JavaScript and most clients count). */
export const MESSAGE_BODY_MAX = 4000;
/** How long the inbox's preview of the latest message is, in characters. */
export const PREVIEW_MAX = 140;
/** While the other party has not accepted a direct thread, a party may have this many messages in it. */
export const MESSAGES_WHILE_PENDING = 1;

export const DIRECT_PARTY_KINDS = ['shifter', 'business'] as const;
export type DirectPartyKind = (typeof DIRECT_PARTY_KINDS)[number];
export type ParticipantKind = (typeof PARTICIPANT_KINDS)[number];
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];
export const INBOX_TABS = ['all', 'pinned', 'requests', 'archived'] as const;
export type InboxTab = (typeof INBOX_TABS)[number];

const id = () => z.string().min(1).max(ID_MAX_LENGTH);

export const partyRefSchema = z
  .object({
    kind: z.enum(DIRECT_PARTY_KINDS),
    id: id().openapi({ description: 'The shifter profile id (shf_…) or business id (biz_…).' }),
  })
  .openapi('MessagingParty', { description: 'A party of a direct thread: a shifter profile or a business.' });
export type PartyRef = z.infer<typeof partyRefSchema>;

const asDescription =
  'The party the caller acts as: their shifter profile, or a business they own or are an active teammate of. Needed only when the caller could act as several (see each operation).';

// ---- Requests ----

/** A `body` the schema refuses is answered MSG-BODY-ERR (the route's hook); the service checks the rest (checkBody). */
export const sendMessageInput = z
  .object({
    to: partyRefSchema.optional().openapi({
      description: 'The counterparty of a direct message (connected to the sender). Give `to` or `conversation_id`.',
    }),
    conversation_id: id().optional().openapi({ description: 'An existing thread to write in. Give `to` or `conversation_id`.' }),
    as: partyRefSchema.optional().openapi({
      description: `${asDescription} Default toward a shifter: the caller's only business, else their default business; toward a business: the caller's shifter profile.`,
    }),
    body: z
      .string()
      .max(MESSAGE_BODY_MAX)
      .openapi({
        description: `The text: at most ${MESSAGE_BODY_MAX} characters, not empty once trimmed; stored trimmed. Anything else is MSG-BODY-ERR.`,
      }),
  })
  .openapi('SendMessage');
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** Optional body of the per-thread state changes (pin, archive, accept, block, read). */
export const threadActionInput = z
  .object({
    as: partyRefSchema.optional().openapi({ description: `${asDescription} Needed only on a thread where the caller is on both sides.` }),
  })
  .openapi('ThreadAction');
export type ThreadActionInput = z.infer<typeof threadActionInput>;

export const markReadInput = threadActionInput
  .extend({
    seq: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .openapi({ description: 'Read up to and including this message sequence number (default: the latest message).' }),
  })
  .openapi('MarkThreadRead');
export type MarkReadInput = z.infer<typeof markReadInput>;

const asQuery = {
  as_kind: z.enum(DIRECT_PARTY_KINDS).optional().openapi({ description: 'With as_id: the party the caller acts as.' }),
  as_id: id()
    .optional()
    .openapi({ description: `With as_kind. ${asDescription}` }),
};

const pageQuery = pagingQuery({ cursorMax: 300 });

export const inboxQuery = z.object({
  tab: z.enum(INBOX_TABS).default('all').openapi({
    description:
      'all: accepted threads that are not archived; pinned: those of them pinned; requests: direct threads the caller has not accepted yet; archived: archived threads.',
  }),
  ...asQuery,
  ...pageQuery,
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const lookupQuery = z.object({
  with_kind: z.enum(DIRECT_PARTY_KINDS).openapi({ description: 'The other party: shifter or business.' }),
  with_id: id().openapi({ description: "The other party's id." }),
  ...asQuery,
});
export type LookupQuery = z.infer<typeof lookupQuery>;

export const threadQuery = z.object({ ...asQuery });
export type ThreadQuery = z.infer<typeof threadQuery>;

export const messagesQuery = z.object({
  order: z.enum(['asc', 'desc']).default('asc').openapi({
    description: 'asc: oldest first, the cursor continues to newer messages; desc: newest first, the cursor continues to older ones.',
  }),
  ...pageQuery,
});
export type MessagesQuery = z.infer<typeof messagesQuery>;

export const supportQueueQuery = z.object({ ...pageQuery });
export type SupportQueueQuery = z.infer<typeof supportQueueQuery>;

// ---- Responses ----

export const participantSchema = z
  .object({
    kind: z.enum(PARTICIPANT_KINDS).openapi({ description: 'shifter or business (direct threads); user or assistant (support threads).' }),
    id: z.string(),
    name: z.string().nullable(),
    is_automated: z.boolean().openapi({ description: 'True for the help assistant.' }),
    automation_kind: z.string().nullable().openapi({ description: 'What automation speaks here (help_assistant), else null.' }),
    accepted: z.boolean().openapi({ description: 'This party has accepted the thread (a direct thread waits for its recipient).' }),
  })
  .openapi('ThreadParticipant');
export type ParticipantView = z.infer<typeof participantSchema>;

export const messageSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    seq: z.number().int().openapi({ description: 'Position in the thread: 1, 2, 3… without gaps, in the order the thread stored them.' }),
    sender: z.object({ kind: z.enum(PARTICIPANT_KINDS), id: z.string(), name: z.string().nullable() }),
    body: z.string(),
    automated: z.boolean().openapi({ description: 'Written by an automation (the help assistant).' }),
    created_at: z.string(),
  })
  .openapi('Message');
export type MessageView = z.infer<typeof messageSchema>;

export const messagePageSchema = z.object({ data: z.array(messageSchema), next_cursor: z.string().nullable() }).openapi('MessagePage');
export type MessagePage = z.infer<typeof messagePageSchema>;

export const threadSchema = z
  .object({
    id: z.string(),
    kind: z.enum(CONVERSATION_KINDS),
    subject: z.string().nullable(),
    as: z
      .object({ kind: z.enum(PARTICIPANT_KINDS), id: z.string() })
      .nullable()
      .openapi({ description: 'The party the caller takes part as (null for an admin who has not joined a support thread).' }),
    counterparty: participantSchema
      .nullable()
      .openapi({ description: 'Direct threads: the other party. Support threads: the help assistant, or null.' }),
    participants: z.array(participantSchema).max(50),
    last_message: z
      .object({
        seq: z.number().int(),
        preview: z.string(),
        sender: z.object({ kind: z.enum(PARTICIPANT_KINDS), id: z.string() }),
        at: z.string(),
      })
      .nullable(),
    unread_count: z.number().int().openapi({ description: "Messages after the caller's party's read marker." }),
    last_read_seq: z.number().int(),
    tab: z.enum(['all', 'requests', 'archived']).nullable().openapi({
      description: "Where the thread sits in the caller's inbox (pinned threads are in all); null when the caller takes no part.",
    }),
    accepted: z.boolean().openapi({ description: "The caller's party has accepted the thread (false: it is in their Requests tab)." }),
    awaiting_acceptance: z
      .boolean()
      .openapi({ description: 'The other party has not accepted yet: until then the caller may send no more than one message.' }),
    pinned: z.boolean(),
    archived: z.boolean(),
    blocked_by_me: z.boolean(),
    blocked_by_other: z.boolean(),
    owner_user_id: z.string().nullable().openapi({ description: 'Support threads: the person helped.' }),
    escalated_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('MessageThread');
export type ThreadView = z.infer<typeof threadSchema>;

export const threadPageSchema = z.object({ data: z.array(threadSchema), next_cursor: z.string().nullable() }).openapi('MessageThreadPage');
export type ThreadPage = z.infer<typeof threadPageSchema>;

export const sentMessageSchema = z
  .object({ message: messageSchema, thread: threadSchema })
  .openapi('SentMessage', { description: 'The message as stored, and the thread as the sender now sees it.' });
export type SentMessage = z.infer<typeof sentMessageSchema>;
