import { z } from '@hono/zod-openapi';

// The business assistant's request and response schemas (spec 2.12, 4.8): the route contracts
// import them, the service takes and builds z.infer of them.

/** The longest message a user may send (characters, after trimming). */
export const ASSISTANT_MESSAGE_MAX = 2000;
/** Messages GET returns: the most recent ones, oldest first (spec 8). */
export const ASSISTANT_WINDOW = 50;
/** Actions one assistant message may carry. */
export const MAX_ACTIONS = 3;

export const sendAssistantMessageInput = z
  .object({
    message: z
      .string()
      .trim()
      .min(1)
      .max(ASSISTANT_MESSAGE_MAX)
      .openapi({
        description: `What to ask the assistant (1–${ASSISTANT_MESSAGE_MAX} characters).`,
        example: 'How are labor costs this week?',
      }),
  })
  .openapi('SendBusinessAssistantMessage');
export type SendAssistantMessageInput = z.infer<typeof sendAssistantMessageInput>;

const label = z.string().min(1).max(80).openapi({ description: 'Button text.' });

export const inviteShifterActionSchema = z
  .object({
    type: z.literal('invite_shifter'),
    label,
    shifter_id: z.string(),
    shifter_name: z.string(),
  })
  .openapi('AssistantInviteShifterAction', {
    description:
      'Invite this shifter to the crew. Proposing it fired the internal event copilot:invite-shifter; the invitation itself is sent only when a person clicks (POST /v1/request_authorization/send).',
  });

export const openShiftFormActionSchema = z
  .object({
    type: z.literal('open_shift_form'),
    label,
    url: z.string().openapi({ example: '/dashboard?openShift=1&date=2026-12-01&in=09:00&out=17:00&business_id=biz_…' }),
    date: z.string(),
    in: z.string(),
    out: z.string(),
  })
  .openapi('AssistantOpenShiftFormAction', { description: 'Open the new-shift form prefilled (a dashboard link, in-app).' });

export const openUrlActionSchema = z
  .object({
    type: z.literal('open_url'),
    label,
    url: z.string(),
    target: z.enum(['in_app', 'new_tab']).openapi({ description: 'in_app: a relative path of the app; new_tab: a full https URL.' }),
  })
  .openapi('AssistantOpenUrlAction');

export const assistantActionSchema = z
  .discriminatedUnion('type', [inviteShifterActionSchema, openShiftFormActionSchema, openUrlActionSchema])
  .openapi('AssistantAction');
export type AssistantAction = z.infer<typeof assistantActionSchema>;

export const assistantMessageSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    user_id: z.string().nullable().openapi({ description: 'Who wrote a user message, and whom an assistant message answered.' }),
    actions: z
      .array(assistantActionSchema)
      .max(MAX_ACTIONS)
      .openapi({ description: 'Proposed one-click actions (assistant messages only).' }),
    model: z.string().nullable().openapi({ description: 'The language model that answered; null for user messages and fallback replies.' }),
    prompt_tokens: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Prompt tokens of every model call behind this answer; null on user messages.' }),
    completion_tokens: z.number().int().nullable(),
    created_at: z.string(),
  })
  .openapi('BusinessAssistantMessage');
export type AssistantMessageView = z.infer<typeof assistantMessageSchema>;

export const assistantChatSchema = z
  .object({
    data: z
      .array(assistantMessageSchema)
      .max(ASSISTANT_WINDOW)
      .openapi({ description: `The ${ASSISTANT_WINDOW} most recent messages, oldest first.` }),
  })
  .openapi('BusinessAssistantChat');
export type AssistantChat = z.infer<typeof assistantChatSchema>;

export const assistantExchangeSchema = z
  .object({ user_message: assistantMessageSchema, assistant_message: assistantMessageSchema })
  .openapi('BusinessAssistantExchange');
export type AssistantExchange = z.infer<typeof assistantExchangeSchema>;
