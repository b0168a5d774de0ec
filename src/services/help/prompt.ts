import type { ChatMessage } from '../ai';
import type { CitedArticle } from './schemas';

/** How much of each article the model reads (the seeded ones are 2–3 thousand characters). */
export const ARTICLE_CHARS_IN_PROMPT = 6000;
/** Earlier turns of the conversation the model reads, besides the new question. */
export const HISTORY_TURNS = 8;

export interface GroundingArticle extends CitedArticle {
  body: string;
}

export const SYSTEM_PROMPT = [
  'You are the help assistant of Shiftmarket, a marketplace for shift work: businesses post shifts to one shifter or broadcast them to their crew; shifters claim or accept them, clock in and out, and track their earnings.',
  'Answer the question using only the help articles given below. Do not make up routes, fields, settings or rules that the articles do not state.',
  'Cite every article you use by its title and path, for example: (see "Clock in and out of a shift", /v1/help/articles/clock-in-and-out).',
  'If the articles do not answer the question, say so plainly and suggest asking for a person from the support team (POST /v1/help/escalate with this conversation_id).',
  "You cannot see or change the person's account, shifts or payments; for anything about their own data, suggest asking for a person.",
  'Keep answers short: a few sentences or a short list of steps. Answer in the language of the question.',
].join('\n');

/** The articles as the model reads them: title, path, then the Markdown body (cut at a bound). */
export function articlesContext(articles: GroundingArticle[]): string {
  if (!articles.length) return 'Help articles: none matched this question.';
  const parts = articles.map((a, i) => {
    const body = a.body.length > ARTICLE_CHARS_IN_PROMPT ? `${a.body.slice(0, ARTICLE_CHARS_IN_PROMPT)}…` : a.body;
    return `### Article ${i + 1}: ${a.title}\nPath: ${a.path}\n\n${body}`;
  });
  return `Help articles (best match first):\n\n${parts.join('\n\n')}`;
}

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** System prompt, the articles, the earlier turns (oldest first), then the question. */
export function buildPrompt(question: string, articles: GroundingArticle[], history: Turn[]): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'system', content: articlesContext(articles) },
    ...history.slice(-HISTORY_TURNS).map((t): ChatMessage => ({ role: t.role, content: t.content })),
    { role: 'user', content: question },
  ];
}

/**
 * The fixed reply when there is no language model (none configured, or the call failed): the articles
 * the search found, by title and path, and how to reach a person. Spelled out in docs/decisions/help-center.md.
 */
export function fallbackReply(articles: CitedArticle[]): string {
  const person =
    'If they do not answer your question, ask for a person: POST /v1/help/escalate with this conversation_id, and someone from the support team will reply here.';
  if (!articles.length) {
    return [
      "I can't answer in my own words right now, and no help article matches your question.",
      '',
      'Browse the help articles at /v1/help/articles, or ask for a person: POST /v1/help/escalate with this conversation_id, and someone from the support team will reply here.',
    ].join('\n');
  }
  return [
    "I can't answer in my own words right now, but these help articles match your question:",
    '',
    ...articles.map((a) => `- ${a.title}: ${a.path}`),
    '',
    person,
  ].join('\n');
}

/**
 * The model's reply as stored: trimmed, and when it names none of the articles it was given, followed
 * by the list of them, so every answer points to its sources.
 */
export function withSources(reply: string, articles: CitedArticle[]): string {
  const text = reply.trim();
  if (!articles.length || articles.some((a) => text.includes(a.path))) return text;
  return `${text}\n\nSources:\n${articles.map((a) => `- ${a.title}: ${a.path}`).join('\n')}`;
}
