import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { assistantMessages } from '../../db/schema';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { toIso } from '../../lib/time';
import { accessBusiness, type BusinessRole, type BusinessRow } from '../access';
import { type ChatMessage, type LanguageModel, LanguageModelError, languageModelFor } from '../ai';
import {
  committedSubject,
  enforceRateLimit,
  prepareWrite,
  type RateLimitResult,
  rateLimitError,
  releaseRateLimit,
  type Reservation,
  reserveBudget,
  type ServiceContext,
  settleBudget,
} from '../kernel';
import { INVITE_EVENT, type Invite } from './actions';
import { systemPrompt } from './prompt';
import {
  type AssistantAction,
  type AssistantChat,
  type AssistantExchange,
  type AssistantMessageView,
  ASSISTANT_WINDOW,
  assistantActionSchema,
  type SendAssistantMessageInput,
} from './schemas';
import { runTool, TOOL_SPECS, type ToolScope } from './tools';

/** The reply stored when no language model is configured (README, docs/decisions/language-models-and-assistant.md). */
export const COPILOT_NOT_CONFIGURED =
  'The business copilot is not configured yet, so it cannot answer. Your message has been saved; an operator can turn the copilot on by configuring a language model.';
/** The reply stored when the model failed (error status, timeout, unreadable answer). */
export const COPILOT_UNAVAILABLE =
  'Sorry, the copilot could not answer just now: the language model did not respond. Your message has been saved; please try again in a moment.';

/** The reply stored when an answer used up its share of the day's token budget before it was done. */
export const COPILOT_OVER_BUDGET =
  'I stopped before finishing: this question needed more of the language model than one answer may use. Please ask about one thing at a time.';

/**
 * Tokens one answer may use at most (its reservation from the business's daily budget), and the least
 * worth starting one with: an answer stops calling the model once it has used its reservation.
 */
export const ANSWER_TOKEN_CEILING = 24_000;
export const ANSWER_TOKEN_FLOOR = 2_000;
const HOUR_S = 3600;
const DAY_S = 86_400;

/** Tool rounds per answer; one more model call without tools follows if the model still asks for tools. */
export const MAX_TOOL_ROUNDS = 4;
/** Tool calls handled per round; further calls in the same round are answered with an error. */
export const MAX_CALLS_PER_ROUND = 6;
const MAX_REPLY_TOKENS = 800;
/** The longest answer kept (characters). */
const REPLY_MAX = 4000;
/** Earlier messages sent as context: at most this many, and at most this many characters together. */
const HISTORY_MESSAGES = 12;
const HISTORY_CHARS = 12_000;

/** Idempotency subject of one exchange: both message ids, so a retry after the commit answers both. */
const SUBJECT = 'assistant_exchange';

type Row = typeof assistantMessages.$inferSelect;
const actionsList = z.array(assistantActionSchema);

function view(r: Row): AssistantMessageView {
  let actions: AssistantAction[] = [];
  if (r.actions) {
    try {
      actions = actionsList.parse(JSON.parse(r.actions));
    } catch {
      actions = [];
    }
  }
  return {
    id: r.id,
    business_id: r.business_id,
    role: r.role,
    content: r.content,
    user_id: r.user_id,
    actions,
    model: r.model,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    created_at: toIso(r.created_at),
  };
}

async function recent(ctx: ServiceContext, businessId: string, limit: number): Promise<Row[]> {
  const rows = await ctx.db
    .select()
    .from(assistantMessages)
    .where(eq(assistantMessages.business_id, businessId))
    .orderBy(desc(assistantMessages.created_at), desc(assistantMessages.id))
    .limit(limit);
  return rows.reverse();
}

/** GET /v1/ai/chat/business/{business_id}: the 50 most recent messages, oldest first (owner, active teammate, admin). */
export async function getAssistantChat(ctx: ServiceContext, businessId: string): Promise<AssistantChat> {
  await accessBusiness(ctx, businessId);
  return { data: (await recent(ctx, businessId, ASSISTANT_WINDOW)).map(view) };
}

interface Reply {
  content: string;
  actions: AssistantAction[];
  invites: Invite[];
  model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Earlier turns for the model: user messages and the model's own answers (not the fallback texts), newest kept. */
function historyOf(rows: Row[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let chars = 0;
  for (const r of [...rows].reverse()) {
    if (r.role === 'assistant' && (r.model === null || r.content === COPILOT_UNAVAILABLE)) continue;
    chars += r.content.length;
    if (chars > HISTORY_CHARS || out.length >= HISTORY_MESSAGES) break;
    out.unshift(r.role === 'user' ? { role: 'user', content: r.content } : { role: 'assistant', content: r.content });
  }
  return out;
}

/**
 * One answer: the model with the tools, at most MAX_TOOL_ROUNDS rounds of tool calls, then an answer.
 * Token usage of every call is summed. A model failure anywhere gives the COPILOT_UNAVAILABLE reply with
 * the tokens already spent and no actions (nothing of a half-finished answer is kept).
 */
async function converse(
  ctx: ServiceContext,
  model: LanguageModel,
  business: BusinessRow,
  role: BusinessRole,
  message: string,
  allowance: number,
): Promise<Reply> {
  const scope: ToolScope = { ctx, business, actions: [], invites: [] };
  const messages: ChatMessage[] = [
    { role: 'system', content: await systemPrompt(ctx, business, role) },
    ...historyOf(await recent(ctx, business.id, HISTORY_MESSAGES * 2)),
    { role: 'user', content: message },
  ];
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  let modelName = model.model;
  try {
    for (let round = 0; ; round++) {
      if (round > 0 && usage.prompt_tokens + usage.completion_tokens >= allowance) {
        ctx.log.warn('business assistant: the answer used its token reservation; stopping', { business_id: business.id, allowance });
        return { content: COPILOT_OVER_BUDGET, actions: [], invites: [], model: modelName, ...usage };
      }
      const last = round >= MAX_TOOL_ROUNDS;
      const res = await model.chat({ messages, tools: last ? undefined : TOOL_SPECS, maxTokens: MAX_REPLY_TOKENS, temperature: 0.2 });
      usage.prompt_tokens += res.usage.prompt_tokens;
      usage.completion_tokens += res.usage.completion_tokens;
      modelName = res.model;
      if (last || res.toolCalls.length === 0) {
        const text = res.text.trim().slice(0, REPLY_MAX);
        return {
          content: text || (scope.actions.length ? 'Here is what I suggest.' : 'I have no answer to that.'),
          actions: scope.actions,
          invites: scope.invites,
          model: modelName,
          ...usage,
        };
      }
      messages.push({ role: 'assistant', content: res.text, tool_calls: res.toolCalls });
      for (const [i, call] of res.toolCalls.entries()) {
        const content =
          i < MAX_CALLS_PER_ROUND
            ? await runTool(scope, call)
            : JSON.stringify({ error: { code: 'VALIDATION-ERR', message: `At most ${MAX_CALLS_PER_ROUND} tool calls per turn.` } });
        messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content });
      }
    }
  } catch (err) {
    if (!(err instanceof LanguageModelError)) throw err;
    ctx.log.warn('business assistant: the model failed; storing the fallback reply', { business_id: business.id, ...errorFields(err) });
    return { content: COPILOT_UNAVAILABLE, actions: [], invites: [], model: modelName, ...usage };
  }
}

async function exchangeOf(ctx: ServiceContext, businessId: string, subjectId: string): Promise<AssistantExchange> {
  const [userId, assistantId] = subjectId.split('.');
  const rows = await ctx.db
    .select()
    .from(assistantMessages)
    .where(and(eq(assistantMessages.business_id, businessId), inArray(assistantMessages.id, [userId ?? '', assistantId ?? ''])));
  const user = rows.find((r) => r.id === userId);
  const assistant = rows.find((r) => r.id === assistantId);
  if (!user || !assistant) throw new Error(`assistant exchange ${subjectId} is committed but not found`);
  return { user_message: view(user), assistant_message: view(assistant) };
}

export interface SendOptions {
  /** The model to use; default the configured one (languageModelFor). Null: as if none were configured. */
  model?: LanguageModel | null;
}

/**
 * The copilot's budget per business (docs/decisions/language-models-and-assistant.md): a message
 * counts against ASSISTANT_MESSAGES_PER_HOUR, and with a model an answer reserves up to
 * ANSWER_TOKEN_CEILING of ASSISTANT_TOKENS_PER_DAY before its first model call (refused when less
 * than ANSWER_TOKEN_FLOOR is left), settled with the tokens really used. Both are counted by the
 * rate limiter's Durable Object, one per business and budget, so concurrent messages cannot pass them
 * together. A refusal is 429 RATE-LIMIT-ERR with Retry-After; a message refused for tokens gives its
 * message hit back.
 */
async function admitMessage(
  ctx: ServiceContext,
  businessId: string,
  withModel: boolean,
): Promise<{ allowance: number; settle: (spent: number) => Promise<void> }> {
  const { ASSISTANT_MESSAGES_PER_HOUR, ASSISTANT_TOKENS_PER_DAY } = ctx.settings;
  const msgSubject = `assistant-messages:${businessId}`;
  const hit: RateLimitResult = await enforceRateLimit(
    ctx.env,
    msgSubject,
    ASSISTANT_MESSAGES_PER_HOUR,
    HOUR_S,
    `This business's copilot takes at most ${ASSISTANT_MESSAGES_PER_HOUR} messages an hour; try again later.`,
  );
  if (!withModel) return { allowance: 0, settle: async () => undefined };
  const tokenSubject = `assistant-tokens:${businessId}`;
  const want = Math.min(ANSWER_TOKEN_CEILING, ASSISTANT_TOKENS_PER_DAY);
  const r: Reservation = await reserveBudget(
    ctx.env,
    tokenSubject,
    ASSISTANT_TOKENS_PER_DAY,
    DAY_S,
    want,
    Math.min(ANSWER_TOKEN_FLOOR, want),
  );
  if (!r.allowed) {
    await releaseRateLimit(ctx.env, msgSubject, HOUR_S, hit);
    throw rateLimitError(r, "This business's copilot has used its language-model budget for today; try again later.");
  }
  return {
    allowance: r.granted,
    settle: async (spent) => {
      try {
        await settleBudget(ctx.env, tokenSubject, DAY_S, r, spent);
      } catch (err) {
        // The reservation stands in for the spend: the budget errs on the safe side.
        ctx.log.error('business assistant: settling the token reservation failed', { business_id: businessId, ...errorFields(err) });
      }
    },
  };
}

/**
 * POST /v1/ai/chat/business/{business_id} (owner, active teammate, admin). Admitted by the business's
 * budget first (admitMessage). The model answers first (tools read the business with the caller's own
 * access); then the user's message and the reply are written in one batch with the
 * copilot:invite-shifter events of the proposed invitations, so a message is never stored without its
 * reply, and a failed model still stores both (the reply says so).
 */
export async function sendAssistantMessage(
  ctx: ServiceContext,
  businessId: string,
  input: SendAssistantMessageInput,
  opts: SendOptions = {},
): Promise<AssistantExchange> {
  const { business, role, actor } = await accessBusiness(ctx, businessId);
  const replayed = committedSubject(ctx, SUBJECT);
  if (replayed) return exchangeOf(ctx, business.id, replayed);

  const receivedAt = ctx.now();
  const model = opts.model !== undefined ? opts.model : languageModelFor(ctx.env, ctx.settings, ctx.log);
  const budget = await admitMessage(ctx, business.id, model !== null);
  let reply: Reply;
  if (model) {
    let spent = budget.allowance;
    try {
      reply = await converse(ctx, model, business, role, input.message, budget.allowance);
      spent = reply.prompt_tokens + reply.completion_tokens;
    } finally {
      await budget.settle(spent);
    }
  } else reply = { content: COPILOT_NOT_CONFIGURED, actions: [], invites: [], model: null, prompt_tokens: 0, completion_tokens: 0 };

  const user: Row = {
    id: newId('assistantMessage'),
    business_id: business.id,
    user_id: actor.userId,
    role: 'user',
    content: input.message,
    actions: null,
    model: null,
    prompt_tokens: null,
    completion_tokens: null,
    created_at: receivedAt,
  };
  const assistant: Row = {
    id: newId('assistantMessage'),
    business_id: business.id,
    user_id: actor.userId,
    role: 'assistant',
    content: reply.content,
    actions: JSON.stringify(reply.actions),
    model: reply.model,
    prompt_tokens: reply.prompt_tokens,
    completion_tokens: reply.completion_tokens,
    // After the question, even when the clock has not moved.
    created_at: Math.max(ctx.now(), receivedAt + 1),
  };
  const w = prepareWrite(ctx, { type: SUBJECT, id: `${user.id}.${assistant.id}` });
  await w.commit({
    guard: ctx.db.insert(assistantMessages).values(user),
    follow: [ctx.db.insert(assistantMessages).values(assistant)],
    // The internal event (spec 6.3): to the asking user's notifications, one per proposed invitation.
    events: reply.invites.map((inv) => ({
      topic: 'notifications' as const,
      body: {
        type: 'notify',
        dedupe_key: `${INVITE_EVENT}:${assistant.id}:${inv.shifterId}`,
        user_ids: [actor.userId],
        kind: INVITE_EVENT,
        title: `Invite ${inv.shifterName} to ${business.name}'s crew?`,
        body: 'The business copilot suggests this invitation. It is sent only when you click Invite.',
        data: { event: INVITE_EVENT, business_id: business.id, shifter_id: inv.shifterId, assistant_message_id: assistant.id },
      },
    })),
  });
  return { user_message: view(user), assistant_message: view(assistant) };
}
