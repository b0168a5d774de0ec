import { eq, inArray } from 'drizzle-orm';
import { conversations, helpArticles } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { LanguageModelError, languageModelFor } from '../ai';
import { enforceRateLimit, requirePerson, type ServiceContext } from '../kernel';
import {
  ASSISTANT_PARTY_ID,
  appendMessage,
  escalateSupportThread,
  listMessages,
  MESSAGE_BODY_MAX,
  type MessageView,
  openSupportThread,
} from '../messaging';
import { articlePath } from './articles';
import { queryTerms } from './fts-query';
import { buildPrompt, fallbackReply, type GroundingArticle, HISTORY_TURNS, type Turn, withSources } from './prompt';
import type { AskInput, AskResult, CitedArticle, EscalateInput, EscalateResult } from './schemas';
import { searchArticles } from './search';

/** Articles the answer is grounded in (passed to the model, cited in the answer). */
export const ASK_ARTICLES = 4;
/** Questions per person and hour: each may cost a model call. */
export const ASK_RATE = { limit: 60, windowSeconds: 3600 } as const;
/** Longest answer the model may write (tokens); the stored message is cut at MESSAGE_BODY_MAX anyway. */
const ANSWER_MAX_TOKENS = 700;

export const ESCALATED_NOTICE =
  'I have passed this conversation to the support team. A person will answer here; you can add details by writing to this conversation (POST /v1/messaging/messages with its conversation_id).';

/**
 * A help conversation of the caller's: one they own, of kind support_ai or support. Anything else
 * (another person's, a direct thread, an unknown id) is MSG-NOT-FND-ERR, so ids cannot be probed.
 */
async function ownConversation(ctx: ServiceContext, id: string) {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  if (!row || row.kind === 'direct' || row.owner_user_id !== actor.userId) {
    throw new AppError('MSG-NOT-FND-ERR', 'No such help conversation of yours.');
  }
  return row;
}

/** The best articles for the question, with their bodies, best first. */
async function groundingFor(ctx: ServiceContext, text: string): Promise<GroundingArticle[]> {
  const hits = await searchArticles(ctx, queryTerms(text), ASK_ARTICLES);
  if (!hits.length) return [];
  const bodies = await ctx.db
    .select({ id: helpArticles.id, body: helpArticles.body })
    .from(helpArticles)
    .where(
      inArray(
        helpArticles.id,
        hits.map((h) => h.id),
      ),
    );
  const byId = new Map(bodies.map((b) => [b.id, b.body]));
  return hits.map((h) => ({ id: h.id, title: h.title, path: articlePath(h.id), body: byId.get(h.id) ?? '' }));
}

const turnOf = (m: MessageView): Turn => ({ role: m.sender.kind === 'assistant' ? 'assistant' : 'user', content: m.body });

function cut(text: string): string {
  return text.length <= MESSAGE_BODY_MAX ? text : `${text.slice(0, MESSAGE_BODY_MAX - 1)}…`;
}

/**
 * POST /v1/help/ask: the question goes into a support_ai conversation (a new one, or the caller's own
 * `conversation_id`), the search finds the articles for it, and the help assistant answers in the same
 * conversation: the language model grounded in those articles (citing them), or without a model (or
 * when the call fails) the fixed fallback reply listing them. Escalated conversations are answered by
 * people, so asking in one is CONFLICT-ERR.
 */
export async function askHelp(ctx: ServiceContext, input: AskInput): Promise<AskResult> {
  const actor = requirePerson(ctx);
  const existing = input.conversation_id ? await ownConversation(ctx, input.conversation_id) : null;
  if (existing?.kind === 'support') {
    throw new AppError(
      'CONFLICT-ERR',
      'This conversation is with the support team now: write to it with POST /v1/messaging/messages and its conversation_id.',
    );
  }
  await enforceRateLimit(
    ctx.env,
    `help-ask:${actor.userId}`,
    ASK_RATE.limit,
    ASK_RATE.windowSeconds,
    'Too many questions to the help assistant; try again later or search the help articles.',
  );

  const conversationId =
    existing?.id ?? (await openSupportThread(ctx, { kind: 'support_ai', ownerUserId: actor.userId, subject: input.question })).id;
  // The earlier turns, read before the question is added (newest first from the thread, then put in order).
  const history = existing ? (await listMessages(ctx, conversationId, null, { order: 'desc', limit: HISTORY_TURNS })).data.reverse() : [];

  let articles = await groundingFor(ctx, input.question);
  const lastQuestion = history.findLast((m) => m.sender.kind !== 'assistant');
  // A follow-up ("and on a kiosk?") may hold no word of its own to search for: use the earlier question's.
  if (!articles.length && lastQuestion) articles = await groundingFor(ctx, `${lastQuestion.body} ${input.question}`);
  const cited: CitedArticle[] = articles.map(({ id, title, path }) => ({ id, title, path }));

  const question = await appendMessage(ctx, conversationId, { senderKind: 'user', senderId: actor.userId, body: input.question });

  let reply: string | null = null;
  let modelName: string | null = null;
  const model = languageModelFor(ctx.env, ctx.settings, ctx.log);
  if (model) {
    try {
      const result = await model.chat({
        messages: buildPrompt(input.question, articles, history.map(turnOf)),
        maxTokens: ANSWER_MAX_TOKENS,
        temperature: 0.2,
      });
      if (result.text.trim()) {
        reply = withSources(result.text, cited);
        modelName = result.model;
      } else {
        ctx.log.warn('help assistant: the model answered no text; the fallback reply is used', { conversation_id: conversationId });
      }
    } catch (err) {
      if (!(err instanceof LanguageModelError)) throw err;
      ctx.log.warn('help assistant: the model call failed; the fallback reply is used', {
        conversation_id: conversationId,
        reason: err.reason,
        status: err.status,
      });
    }
  }
  const answer = await appendMessage(ctx, conversationId, {
    senderKind: 'assistant',
    senderId: ASSISTANT_PARTY_ID,
    body: cut(reply ?? fallbackReply(cited)),
  });
  return {
    conversation_id: conversationId,
    kind: 'support_ai',
    question,
    answer,
    answered_by: reply === null ? 'fallback' : 'model',
    model: modelName,
    articles: cited,
  };
}

/**
 * POST /v1/help/escalate: the conversation becomes `support` (messaging's escalateSupportThread: the
 * support team is notified, and an admin may join and answer), and the help assistant says so in it
 * once. Escalating again answers the conversation as it is, with no second notice.
 */
export async function escalateHelp(ctx: ServiceContext, input: EscalateInput): Promise<EscalateResult> {
  const before = await ownConversation(ctx, input.conversation_id);
  const conversation = await escalateSupportThread(ctx, before.id);
  const notice =
    before.kind === 'support_ai'
      ? // One notice, even when two escalations race: the same dedupe key answers the stored one.
        await appendMessage(ctx, before.id, {
          senderKind: 'assistant',
          senderId: ASSISTANT_PARTY_ID,
          body: ESCALATED_NOTICE,
          dedupeKey: 'help:escalated',
        })
      : null;
  return { conversation, notice };
}
