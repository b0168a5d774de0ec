import type { PersonActor, ServiceContext } from '../../services/kernel';
import { articlePath, escalateHelp, fallbackReply, queryTerms, searchArticles } from '../../services/help';
import { ASSISTANT_PARTY_ID, answerSupportThread, appendMessage, openSupportThread } from '../../services/messaging';
import type { DemoExtra, DemoWorld } from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Conversation {
  person: string;
  /** How long ago the question was asked. */
  ago: number;
  question: string;
  /** The support team's answer after escalation (by the demo admin); absent: left with the assistant. */
  escalation?: { after: number; answer: string; answerAfter: number };
}

/**
 * Help conversations of the demo cast, written through the messaging services as the help center
 * writes them: a question, the help assistant's answer (the fallback reply, so seeding never calls a
 * language model), and for one of them the escalation and the demo admin's answer.
 */
const PLAN: Conversation[] = [
  {
    person: 'jordan',
    ago: 26 * HOUR,
    question: 'I got a new phone and lost my backup codes. How do I sign in now?',
    escalation: {
      after: 5 * MINUTE,
      answerAfter: 3 * HOUR,
      answer:
        'Hi Jordan, Dana from support here. Your personal API key still works for your automations in the meantime. To get you back into the web pages, reply here with the email you registered with and the business of your last shift, and we will check it is you before we reset your second factor.',
    },
  },
  { person: 'priya', ago: 4 * HOUR, question: 'How can I post the same broadcast every Friday evening?' },
];

const personActor = (userId: string, demoAdmin = false): PersonActor => ({
  kind: 'user',
  userId,
  isAdmin: false,
  isDemo: true,
  ...(demoAdmin ? { demoAdmin: true } : {}),
  via: 'session',
  credentialId: 'demo-seed',
});

/** The context as `userId`, its clock at `at`. */
const as = (ctx: ServiceContext, userId: string, at: number, demoAdmin = false): ServiceContext => ({
  ...ctx,
  actor: personActor(userId, demoAdmin),
  now: () => at,
});

async function seedConversation(ctx: ServiceContext, world: DemoWorld, c: Conversation): Promise<void> {
  const userId = world.userId(c.person);
  const asked = world.now - c.ago;
  const me = as(ctx, userId, asked);
  const thread = await openSupportThread(me, { kind: 'support_ai', ownerUserId: userId, subject: c.question });
  const hits = await searchArticles(ctx, queryTerms(c.question), 4);
  await appendMessage(me, thread.id, { senderKind: 'user', senderId: userId, body: c.question });
  await appendMessage(as(ctx, userId, asked + 2000), thread.id, {
    senderKind: 'assistant',
    senderId: ASSISTANT_PARTY_ID,
    body: fallbackReply(hits.map((h) => ({ id: h.id, title: h.title, path: articlePath(h.id) }))),
  });
  if (!c.escalation) return;
  await escalateHelp(as(ctx, userId, asked + c.escalation.after), { conversation_id: thread.id });
  await answerSupportThread(as(ctx, world.userId('admin'), asked + c.escalation.answerAfter, true), thread.id, c.escalation.answer);
}

export const demoHelp: DemoExtra = {
  name: 'help_conversations',
  async seed(ctx, world) {
    for (const c of PLAN) await seedConversation(ctx, world, c);
    return PLAN.length;
  },
};
