// inside: services/help
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  conversationParticipants,
  conversations,
  helpArticleFeedback,
  helpArticles,
  helpVideos,
  outboxEvents,
  users,
} from '../../src/db/schema';
import { type AppBindings, getSettings } from '../../src/env';
import { DEMO_EMAIL_DOMAIN } from '../../src/local/demo';
import { ASK_ARTICLES } from '../../src/services/help/ask';
import { matchExpression } from '../../src/services/help/fts-query';
import { ASK_RATE, askHelp, ESCALATED_NOTICE, fallbackReply, queryTerms } from '../../src/services/help';
import { ASSISTANT_PARTY_ID, answerSupportThread, HELP_AUTOMATION_KIND, listMessages } from '../../src/services/messaging';
import { HELP_ANON_IP_LIMIT } from '../../src/routes/help/help.middleware';
import { consumeRateLimit } from '../../src/services/kernel';
import { call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { db, makeUser, type TestUser } from '../helpers/factory';
import { completion, FAKE_LLM_BASE, FAKE_LLM_KEY, interceptModel } from '../helpers/fake-model';
import { callWithEnv } from '../helpers/shifts';

const search = (query: unknown, limit?: number) => call('POST', '/v1/help/search', { body: { query, ...(limit ? { limit } : {}) } });
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe('seeded content', () => {
  it('has articles in every category and videos, each readable and listed in order', async () => {
    const list = await call('GET', '/v1/help/articles');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(12);
    const cats = list.body.categories.map((c: { id: string }) => c.id);
    expect(cats).toEqual(['getting-started', 'posting', 'working', 'clocking', 'money', 'team', 'account', 'developers']);
    // Ordered by category, then position.
    const order = list.body.data.map((a: { category: string; position: number }) => `${cats.indexOf(a.category)}.${a.position}`);
    expect(order).toEqual([...order].sort((a: string, b: string) => Number(a) - Number(b)));
    for (const a of list.body.data) {
      expect(a.path).toBe(`/v1/help/articles/${a.id}`);
      expect(a).not.toHaveProperty('body');
    }

    const one = await call('GET', '/v1/help/articles/clock-in-and-out');
    expect(one.status).toBe(200);
    expect(one.body.title).toBe('Clock in and out of a shift');
    expect(one.body.body).toContain('/v1/shift_request/{id}/clock_in');
    expect(one.body.helpful_count).toBe(0);

    const posting = await call('GET', '/v1/help/articles', { query: { category: 'posting' } });
    expect(posting.body.data.every((a: { category: string }) => a.category === 'posting')).toBe(true);
    expect(ids(posting.body.data)[0]).toBe('post-a-targeted-shift');

    const videos = await call('GET', '/v1/help/videos');
    expect(videos.status).toBe(200);
    expect(videos.body.data.length).toBeGreaterThanOrEqual(3);
    const v = await call('GET', `/v1/help/videos/${videos.body.data[0].id}`);
    expect(v.status).toBe(200);
    expect(v.body.transcript.length).toBeGreaterThan(200);
    expect(v.body.url).toBe(`/help/videos/${v.body.id}`);
    expect(v.body.duration_seconds).toBeGreaterThan(60);
  });

  it('answers HELP-NOT-FND-ERR for an unknown article or video', async () => {
    expectError(await call('GET', '/v1/help/articles/no-such-article'), 404, 'HELP-NOT-FND-ERR');
    expectError(await call('GET', '/v1/help/videos/no-such-video'), 404, 'HELP-NOT-FND-ERR');
    const u = await makeUser();
    expectError(
      await call('POST', '/v1/help/articles/no-such-article/feedback', { key: u.key, body: { helpful: true } }),
      404,
      'HELP-NOT-FND-ERR',
    );
    expectError(await call('GET', '/v1/help/articles', { query: { category: 'nope' } }), 400, 'VALIDATION-ERR');
  });
});

describe('search', () => {
  it('limits anonymous searches per client address (429 RATE-LIMIT-ERR with Retry-After); another address and a signed-in caller go on', async () => {
    const ip = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    const from = (addr: string, key?: string) =>
      call('POST', '/v1/help/search', { body: { query: 'clock in' }, headers: { 'CF-Connecting-IP': addr }, ...(key ? { key } : {}) });
    // Most of the address's budget is spent already (as by a scraper); the last searches pass, then none.
    const { limit, windowSeconds } = HELP_ANON_IP_LIMIT;
    for (let i = 0; i < limit - 3; i++) await consumeRateLimit(env as AppBindings, `help-ip:${ip}`, limit, windowSeconds);
    const answers = await Promise.all(Array.from({ length: 8 }, () => from(ip)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expectError(r, 429, 'RATE-LIMIT-ERR');
      expect(Number(r.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
    // The other help reads share the address's budget.
    expectError(await call('GET', '/v1/help/articles', { headers: { 'CF-Connecting-IP': ip } }), 429, 'RATE-LIMIT-ERR');
    expect((await from('198.51.100.251')).status).toBe(200);
    expect((await from(ip, (await makeUser()).key)).status).toBe(200);
  });

  it('ranks the article that answers the question first', async () => {
    const cases: Array<[string, string]> = [
      ['idempotency key retry', 'idempotency-keys'],
      ['backup codes trusted browser', 'two-factor-sign-in'],
      ['How do I get paid?', 'getting-paid'],
      ['How do I post a shift?', 'post-a-targeted-shift'],
      ['cancel a shift', 'cancel-change-and-no-shows'],
      ['connect with a business', 'crew-connections'],
      ['lost my phone backup codes', 'two-factor-sign-in'],
      ['mileage', 'earnings-and-mileage'],
      ['invite a teammate', 'teammates'],
      ['template generate weeks', 'shift-templates'],
      ['claim an open shift', 'claim-a-broadcast'],
      ['relevance score', 'claim-a-broadcast'],
      ['rate limit 429', 'api-keys-and-rate-limits'],
      ['MCP agent tools', 'mcp-server-for-ai-agents'],
      ['kiosk', 'geofence-photos-and-kiosk'],
    ];
    for (const [query, best] of cases) {
      const r = await search(query);
      expect(r.status, query).toBe(200);
      expect(r.body.articles[0]?.id, `${query} → ${ids(r.body.articles).join(', ')}`).toBe(best);
      const scores = r.body.articles.map((a: { score: number }) => a.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('matches word forms (porter stemming) and marks the words in the snippet', async () => {
    const r = await search('clocking');
    expect(ids(r.body.articles)).toContain('clock-in-and-out');
    expect(r.body.terms).toEqual(['clocking']);
    const hit = r.body.articles.find((a: { id: string }) => a.id === 'clock-in-and-out');
    expect(hit.snippet).toMatch(/«[Cc]lock\w*»/);
    expect(hit.path).toBe('/v1/help/articles/clock-in-and-out');
  });

  it('finds videos by their transcript', async () => {
    const r = await search('parking note');
    expect(ids(r.body.videos)[0]).toBe('post-your-first-shift');
    expect(r.body.videos[0].url).toBe('/help/videos/post-your-first-shift');
  });

  it('puts a title match above a body-only match', async () => {
    // Two articles of our own: the word is in one's title and only in the other's body, several times.
    const now = Date.now();
    const base = { summary: 'Test article.', category: 'getting-started', tags: '', position: 99, created_at: now, updated_at: now };
    await db()
      .insert(helpArticles)
      .values([
        {
          ...base,
          id: 'zz-body-only',
          title: 'Something else entirely',
          body: 'Quokkas. A quokka here, quokka there, the quokka everywhere.',
        },
        { ...base, id: 'zz-title', title: 'All about the quokka', body: 'This article is about a small marsupial of Western Australia.' },
      ]);
    try {
      const r = await search('quokka');
      expect(ids(r.body.articles)).toEqual(['zz-title', 'zz-body-only']);
    } finally {
      await db().delete(helpArticles).where(sql`${helpArticles.id} IN ('zz-body-only', 'zz-title')`);
    }
    // The triggers removed them from the index too.
    expect((await search('quokka')).body.articles).toEqual([]);
  });

  it('an edit of an article is searchable at once (triggers keep the index in step)', async () => {
    const before = await search('wombat');
    expect(before.body.articles).toEqual([]);
    const [orig] = await db().select().from(helpArticles).where(eq(helpArticles.id, 'getting-started'));
    await db()
      .update(helpArticles)
      .set({ body: `${orig!.body}\nWombat.` })
      .where(eq(helpArticles.id, 'getting-started'));
    try {
      expect(ids((await search('wombat')).body.articles)).toEqual(['getting-started']);
    } finally {
      await db().update(helpArticles).set({ body: orig!.body }).where(eq(helpArticles.id, 'getting-started'));
    }
    expect((await search('wombat')).body.articles).toEqual([]);
  });

  it('reads hostile input as plain words: never a syntax error, never an operator', async () => {
    const hostile = [
      '"',
      '""',
      '*',
      '-',
      'NEAR(',
      'NEAR(clock photo, 2)',
      'OR',
      'clock OR',
      'AND NOT',
      'clock -photo',
      'title:clock',
      '{title body}: clock',
      '^clock',
      'clock*',
      "'; DROP TABLE help_articles; --",
      '(((',
      ')',
      'clock" OR "1"="1',
      '\u0000\u0001',
      '🙂 emoji',
      'x'.repeat(200),
    ];
    for (const q of hostile) {
      const r = await search(q);
      expect(r.status, `${JSON.stringify(q)} → ${JSON.stringify(r.body).slice(0, 200)}`).toBe(200);
      expect(Array.isArray(r.body.articles)).toBe(true);
    }
    // Punctuation alone finds nothing; words around operators are still searched as words.
    expect((await search('"')).body).toMatchObject({ terms: [], articles: [], videos: [] });
    expect((await search('NEAR(')).body.terms).toEqual(['near']);
    expect((await search('clock -photo')).body.terms).toEqual(['clock', 'photo']);
    // "-photo" did not exclude the articles with "photo": the clock-in article holds both words.
    expect(ids((await search('clock -photo')).body.articles)).toContain('clock-in-and-out');
    expect((await search('title:clock')).body.terms).toEqual(['title', 'clock']);
    // The table is still there.
    expect((await call('GET', '/v1/help/articles/getting-started')).status).toBe(200);
  });

  it('builds MATCH expressions of quoted words only', () => {
    expect(queryTerms('How do I clock in?')).toEqual(['clock']);
    expect(queryTerms('how do I')).toEqual(['how', 'do', 'i']);
    expect(queryTerms('Clock clock CLOCK')).toEqual(['clock']);
    expect(queryTerms(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
    expect(matchExpression(queryTerms('NEAR(a "b" c*'))).toBe('"near" OR "b" OR "c"');
    expect(matchExpression([])).toBeNull();
  });

  it('refuses an empty or over-long query, and a bad limit', async () => {
    expectError(await search(''), 400, 'VALIDATION-ERR');
    expectError(await search('   '), 400, 'VALIDATION-ERR');
    expectError(await search('x'.repeat(201)), 400, 'VALIDATION-ERR');
    expectError(await search(42), 400, 'VALIDATION-ERR');
    expectError(await search('clock', 21), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/help/search', { body: {} }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/help/search', { body: { query: 'clock', extra: 1 } }), 400, 'VALIDATION-ERR');
  });

  it('honours limit', async () => {
    const r = await search('shift', 2);
    expect(r.body.articles).toHaveLength(2);
    expect(r.body.videos.length).toBeLessThanOrEqual(2);
  });

  it('is open to anyone, and a signed-in caller with a bad key is refused', async () => {
    expect((await search('clock')).status).toBe(200);
    const u = await makeUser();
    expect((await call('POST', '/v1/help/search', { key: u.key, body: { query: 'clock' } })).status).toBe(200);
    expectError(await call('POST', '/v1/help/search', { key: 'smk_notarealkey', body: { query: 'clock' } }), 401, 'AUTH-REQ-ERR');
  });
});

describe('article feedback', () => {
  const feedback = (key: string, body: unknown, article = 'getting-paid') =>
    call('POST', `/v1/help/articles/${article}/feedback`, { key, body });
  const stored = async (article: string) => {
    const [a] = await db().select().from(helpArticles).where(eq(helpArticles.id, article));
    const votes = await db().select().from(helpArticleFeedback).where(eq(helpArticleFeedback.article_id, article));
    return {
      helpful_count: a!.helpful_count,
      not_helpful_count: a!.not_helpful_count,
      votes: { yes: votes.filter((v) => v.helpful).length, no: votes.filter((v) => !v.helpful).length },
    };
  };

  it('needs a signed-in user', async () => {
    expectError(await call('POST', '/v1/help/articles/getting-paid/feedback', { body: { helpful: true } }), 401, 'AUTH-REQ-ERR');
  });

  it('keeps one vote per person: a second vote replaces the first', async () => {
    const u = await makeUser();
    const first = await feedback(u.key, { helpful: false, comment: 'Say when payouts arrive.' }, 'idempotency-keys');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ article_id: 'idempotency-keys', helpful: false, comment: 'Say when payouts arrive.' });
    expect(first.body).toMatchObject({ helpful_count: 0, not_helpful_count: 1 });

    const second = await feedback(u.key, { helpful: true }, 'idempotency-keys');
    expect(second.body).toMatchObject({ helpful: true, comment: null, helpful_count: 1, not_helpful_count: 0 });
    expect(second.body.created_at).toBe(first.body.created_at);

    const rows = await db().select().from(helpArticleFeedback).where(eq(helpArticleFeedback.article_id, 'idempotency-keys'));
    expect(rows).toHaveLength(1);
    expect((await call('GET', '/v1/help/articles/idempotency-keys')).body).toMatchObject({ helpful_count: 1, not_helpful_count: 0 });
  });

  it('validates the vote', async () => {
    const u = await makeUser();
    expectError(await feedback(u.key, {}), 400, 'VALIDATION-ERR');
    expectError(await feedback(u.key, { helpful: 'yes' }), 400, 'VALIDATION-ERR');
    expectError(await feedback(u.key, { helpful: true, comment: 'x'.repeat(1001) }), 400, 'VALIDATION-ERR');
  });

  it('keeps the counters equal to the votes under concurrent votes and changes of mind', async () => {
    const voters = await Promise.all(Array.from({ length: 24 }, () => makeUser()));
    // Everyone votes at once (even-numbered voters yes, odd no); then everyone flips, twice over, all at once.
    const round = (flip: boolean) =>
      Promise.all(
        voters.map(async (v, i) => {
          const r = await feedback(v.key, { helpful: (i % 2 === 0) !== flip });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
        }),
      );
    await round(false);
    expect(await stored('getting-paid')).toEqual({ helpful_count: 12, not_helpful_count: 12, votes: { yes: 12, no: 12 } });
    await Promise.all([round(true), round(true)]);
    const after = await stored('getting-paid');
    expect(after.helpful_count).toBe(after.votes.yes);
    expect(after.not_helpful_count).toBe(after.votes.no);
    expect(after.votes.yes + after.votes.no).toBe(24);
    expect(after).toEqual({ helpful_count: 12, not_helpful_count: 12, votes: { yes: 12, no: 12 } });

    // One person sending many different votes at once still has one vote, counted once.
    const one = voters[0]!;
    await Promise.all(Array.from({ length: 10 }, (_, i) => feedback(one.key, { helpful: i % 2 === 0, comment: `take ${i}` })));
    const final = await stored('getting-paid');
    expect(final.votes.yes + final.votes.no).toBe(24);
    expect(final.helpful_count).toBe(final.votes.yes);
    expect(final.not_helpful_count).toBe(final.votes.no);
  });

  it('a vote does not touch the article text or its place in the index', async () => {
    const u = await makeUser();
    await feedback(u.key, { helpful: true }, 'teammates');
    const [a] = await db().select().from(helpArticles).where(eq(helpArticles.id, 'teammates'));
    expect(a!.updated_at).toBe(a!.created_at);
    expect(ids((await search('invite a teammate')).body.articles)[0]).toBe('teammates');
    const rows = await env.DB.prepare(`SELECT count(*) AS n FROM help_articles_fts WHERE help_articles_fts MATCH '"teammate"'`).first<{
      n: number;
    }>();
    expect(rows!.n).toBeGreaterThan(0);
    expect(await db().select().from(helpVideos)).not.toHaveLength(0);
  });
});

// ── Ask and escalate ──────────────────────────────────────────────────────────────────────────

const MODEL_VARS = { OPENAI_API_KEY: FAKE_LLM_KEY, OPENAI_BASE_URL: FAKE_LLM_BASE, AI_MODEL: 'test-model' };
const ask = (who: TestUser, body: Record<string, unknown>) => call('POST', '/v1/help/ask', { key: who.key, body });
const askWithModel = (who: TestUser, body: Record<string, unknown>) =>
  callWithEnv('POST', '/v1/help/ask', { key: who.key, body }, MODEL_VARS);
const escalate = (who: TestUser, conversation_id: string) => call('POST', '/v1/help/escalate', { key: who.key, body: { conversation_id } });
const messagesOf = async (who: TestUser, conversationId: string) =>
  (await listMessages(contextAt(Date.now(), who), conversationId, null, { limit: 50 })).data;

/** Fails the test on any outbound HTTP at all (the fallback path must not call anyone). */
function noOutboundCalls() {
  const seen: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    seen.push(String(input instanceof Request ? input.url : input));
    throw new Error('no outbound call expected');
  });
  return seen;
}

describe('ask without a language model', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers with the fixed fallback reply listing the articles the search finds, in a support_ai thread', async () => {
    const u = await makeUser({ shifter: true });
    const outbound = noOutboundCalls();
    const question = 'How do I regenerate my API key after a leak?';
    const r = await ask(u, { question });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(outbound).toEqual([]);
    expect(r.body).toMatchObject({ kind: 'support_ai', answered_by: 'fallback', model: null });

    // The articles are the search's best matches for the question, best first.
    const found = (await search(question, ASK_ARTICLES)).body.articles.map((a: { id: string; title: string; path: string }) => ({
      id: a.id,
      title: a.title,
      path: a.path,
    }));
    expect(found.length).toBeGreaterThan(0);
    expect(found[0].id).toBe('api-keys-and-rate-limits');
    expect(r.body.articles).toEqual(found);
    // The exact fixed text, naming each article by title and path.
    expect(r.body.answer.body).toBe(fallbackReply(found));
    expect(r.body.answer.body).toBe(
      [
        "I can't answer in my own words right now, but these help articles match your question:",
        '',
        ...found.map((a: { title: string; path: string }) => `- ${a.title}: ${a.path}`),
        '',
        'If they do not answer your question, ask for a person: POST /v1/help/escalate with this conversation_id, and someone from the support team will reply here.',
      ].join('\n'),
    );
    expect(r.body.answer.body).toContain('- Personal API keys and rate limits: /v1/help/articles/api-keys-and-rate-limits');

    // Question then answer, in order; the answer is the automated assistant's.
    expect(r.body.question).toMatchObject({ seq: 1, body: question, automated: false, sender: { kind: 'user', id: u.userId } });
    expect(r.body.answer).toMatchObject({ seq: 2, automated: true, sender: { kind: 'assistant', id: ASSISTANT_PARTY_ID } });
    const stored = await messagesOf(u, r.body.conversation_id);
    expect(stored.map((m) => [m.seq, m.sender.kind, m.body])).toEqual([
      [1, 'user', question],
      [2, 'assistant', r.body.answer.body],
    ]);

    // The thread: support_ai, owned by the asker; the assistant takes part as an automated participant.
    const [conv] = await db().select().from(conversations).where(eq(conversations.id, r.body.conversation_id));
    expect(conv).toMatchObject({ kind: 'support_ai', owner_user_id: u.userId, escalated_at: null });
    const parts = await db()
      .select()
      .from(conversationParticipants)
      .where(eq(conversationParticipants.conversation_id, r.body.conversation_id));
    const assistant = parts.find((p) => p.party_kind === 'assistant');
    expect(assistant).toMatchObject({ party_id: ASSISTANT_PARTY_ID, is_automated: true, automation_kind: HELP_AUTOMATION_KIND });
    expect(parts.find((p) => p.party_kind === 'user')).toMatchObject({ party_id: u.userId, is_automated: false });
  });

  it('says so when no article matches, and still points to the articles and a person', async () => {
    const u = await makeUser();
    const r = await ask(u, { question: 'xylophone zeppelin' });
    expect(r.status).toBe(200);
    expect(r.body.articles).toEqual([]);
    expect(r.body.answer.body).toBe(fallbackReply([]));
    expect(r.body.answer.body).toContain('/v1/help/articles');
    expect(r.body.answer.body).toContain('POST /v1/help/escalate');
  });

  it('continues a conversation of the caller, and only of the caller', async () => {
    const [u, other] = await Promise.all([makeUser(), makeUser()]);
    const first = await ask(u, { question: 'How do I invite a teammate?' });
    const second = await ask(u, { question: 'And how do I suspend one?', conversation_id: first.body.conversation_id });
    expect(second.status).toBe(200);
    expect(second.body.conversation_id).toBe(first.body.conversation_id);
    expect(second.body.question.seq).toBe(3);
    expect(second.body.answer.seq).toBe(4);

    // Another person's conversation, an unknown id: 404, and nothing is added to it.
    expectError(await ask(other, { question: 'Let me in', conversation_id: first.body.conversation_id }), 404, 'MSG-NOT-FND-ERR');
    expectError(await ask(other, { question: 'Anyone?', conversation_id: 'cnv_doesnotexist0000000' }), 404, 'MSG-NOT-FND-ERR');
    expectError(await escalate(other, first.body.conversation_id), 404, 'MSG-NOT-FND-ERR');
    expect(await messagesOf(u, first.body.conversation_id)).toHaveLength(4);
  });

  it('validates the question and needs a signed-in user', async () => {
    const u = await makeUser();
    expectError(await call('POST', '/v1/help/ask', { body: { question: 'Anyone there?' } }), 401, 'AUTH-REQ-ERR');
    expectError(await ask(u, { question: '' }), 400, 'VALIDATION-ERR');
    expectError(await ask(u, { question: '   ' }), 400, 'VALIDATION-ERR');
    expectError(await ask(u, { question: 'x'.repeat(2001) }), 400, 'VALIDATION-ERR');
    expectError(await ask(u, { question: 'Hi', conversation_id: 'x'.repeat(65) }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/help/escalate', { key: u.key, body: {} }), 400, 'VALIDATION-ERR');
  });

  it('limits questions per person', async () => {
    const u = await makeUser();
    for (let i = 0; i < ASK_RATE.limit; i++)
      await consumeRateLimit(env as AppBindings, `help-ask:${u.userId}`, ASK_RATE.limit, ASK_RATE.windowSeconds);
    const r = await ask(u, { question: 'One more?' });
    expectError(r, 429, 'RATE-LIMIT-ERR');
    expect(Number(r.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Someone else still asks.
    expect((await ask(await makeUser(), { question: 'One more?' })).status).toBe(200);
  });
});

describe('ask with a language model (intercepted OpenAI-compatible API)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the model the articles the search found and stores its cited answer', async () => {
    const u = await makeUser({ shifter: true });
    const reply =
      'Upload the photo first with clock_photo, then pass its url as photo_url (see "Clock in and out of a shift", /v1/help/articles/clock-in-and-out).';
    const model = interceptModel([completion({ text: reply, usage: { prompt_tokens: 900, completion_tokens: 40 } })]);
    const question = 'The business wants a clock photo, how do I send it when I clock in?';
    const r = await askWithModel(u, { question });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(model.unexpected).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(r.body).toMatchObject({ kind: 'support_ai', answered_by: 'model', model: 'test-model' });
    expect(r.body.answer).toMatchObject({ body: reply, automated: true, sender: { kind: 'assistant' } });

    // The prompt: the articles the search finds for the question (title, path and body), then the question.
    const found = (await search(question, ASK_ARTICLES)).body.articles as Array<{ id: string; title: string; path: string }>;
    expect(ids(r.body.articles)).toEqual(ids(found));
    expect(ids(found)).toContain('clock-in-and-out');
    const sent = model.calls[0]!.body;
    expect(sent.model).toBe('test-model');
    expect(model.calls[0]!.headers.get('Authorization')).toBe(`Bearer ${FAKE_LLM_KEY}`);
    const messages = sent.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(messages[0]!.content).toContain('Cite every article you use by its title and path');
    const context = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const [clockArticle] = await db().select().from(helpArticles).where(eq(helpArticles.id, 'clock-in-and-out'));
    for (const a of found) {
      expect(context).toContain(`Article ${found.indexOf(a) + 1}: ${a.title}`);
      expect(context).toContain(`Path: ${a.path}`);
    }
    expect(context).toContain(clockArticle!.body.slice(0, 400));
    expect(messages.at(-1)).toEqual({ role: 'user', content: question });
    expect(sent.tools).toBeUndefined();

    const stored = await messagesOf(u, r.body.conversation_id);
    expect(stored.map((m) => m.body)).toEqual([question, reply]);
  });

  it('adds the sources when the model names none of them, and sends the earlier turns on a follow-up', async () => {
    const u = await makeUser();
    const model = interceptModel([
      completion({ text: 'Invite them by email from the business; they accept the invitation.' }),
      completion({ text: 'Send status 0 to suspend them (see /v1/help/articles/teammates).' }),
    ]);
    const first = await askWithModel(u, { question: 'How do I invite a teammate?' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.answer.body).toBe(
      `Invite them by email from the business; they accept the invitation.\n\nSources:\n${first.body.articles
        .map((a: { title: string; path: string }) => `- ${a.title}: ${a.path}`)
        .join('\n')}`,
    );
    expect(first.body.articles[0].id).toBe('teammates');

    const second = await askWithModel(u, { question: 'And how do I suspend one?', conversation_id: first.body.conversation_id });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.answer.body).toBe('Send status 0 to suspend them (see /v1/help/articles/teammates).');
    const turns = (model.calls[1]!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role !== 'system');
    expect(turns).toEqual([
      { role: 'user', content: 'How do I invite a teammate?' },
      { role: 'assistant', content: first.body.answer.body },
      { role: 'user', content: 'And how do I suspend one?' },
    ]);
    expect(model.unexpected).toEqual([]);
  });

  it('falls back to the fixed reply when the model call fails', async () => {
    const u = await makeUser();
    const model = interceptModel([new Response(JSON.stringify({ error: { code: 'server_error' } }), { status: 500 })]);
    const r = await askWithModel(u, { question: 'How do idempotency keys work?' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(model.calls).toHaveLength(1);
    expect(r.body).toMatchObject({ answered_by: 'fallback', model: null });
    expect(r.body.articles[0].id).toBe('idempotency-keys');
    expect(r.body.answer.body).toBe(fallbackReply(r.body.articles));
  });

  it('the helper itself picks the model from the settings (a fresh env with the key)', async () => {
    const u = await makeUser();
    const model = interceptModel([completion({ text: 'See /v1/help/articles/getting-paid.' })]);
    const bindings = { ...(env as AppBindings), ...MODEL_VARS } as AppBindings;
    const ctx = { ...contextAt(Date.now(), u), env: bindings, settings: getSettings(bindings), now: () => Date.now() };
    const r = await askHelp(ctx, { question: 'When do I get paid?' });
    expect(r.answered_by).toBe('model');
    expect(model.calls).toHaveLength(1);
    expect(r.articles[0]!.id).toBe('getting-paid');
  });
});

describe('escalate', () => {
  afterEach(() => vi.restoreAllMocks());

  it('turns the conversation into support; an admin joins and answers; the assistant stops answering', async () => {
    const [u, admin, stranger] = await Promise.all([makeUser({ shifter: true }), makeUser({ admin: true }), makeUser()]);
    const asked = await ask(u, { question: 'I lost my phone and my backup codes' });
    const id = asked.body.conversation_id as string;

    const r = await escalate(u, id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.conversation).toMatchObject({ id, kind: 'support' });
    expect(r.body.conversation.escalated_at).not.toBeNull();
    expect(r.body.notice).toMatchObject({ body: ESCALATED_NOTICE, automated: true, seq: 3 });
    const [conv] = await db().select().from(conversations).where(eq(conversations.id, id));
    expect(conv!.kind).toBe('support');

    // Again: unchanged, no second notice.
    const again = await escalate(u, id);
    expect(again.status).toBe(200);
    expect(again.body.notice).toBeNull();
    expect(await messagesOf(u, id)).toHaveLength(3);

    // The support team is told (a notification through the outbox, naming the admin and the conversation).
    const events = await db().select().from(outboxEvents).where(eq(outboxEvents.topic, 'notifications'));
    const told = events.map((e) => JSON.parse(e.body)).find((b) => b.kind === 'support.escalated' && b.data?.conversation_id === id);
    expect(told?.user_ids).toContain(admin.userId);

    // Asking the assistant in it now is refused: people answer.
    expectError(await ask(u, { question: 'Still there?', conversation_id: id }), 409, 'CONFLICT-ERR');

    // A person who is not an admin cannot join or answer; the admin can.
    await expect(answerSupportThread(contextAt(Date.now(), stranger), id, 'I can help!')).rejects.toMatchObject({
      code: 'MSG-NOT-PARTICIPANT',
    });
    const answer = await answerSupportThread(
      contextAt(Date.now(), admin, { isAdmin: true }),
      id,
      'Hi, I am from support. Let us verify it is you.',
    );
    expect(answer).toMatchObject({ seq: 4, automated: false, sender: { kind: 'user', id: admin.userId } });
    const seen = await messagesOf(u, id);
    expect(seen.map((m) => [m.seq, m.sender.kind, m.automated])).toEqual([
      [1, 'user', false],
      [2, 'assistant', true],
      [3, 'assistant', true],
      [4, 'user', false],
    ]);
    expect(seen[3]!.body).toBe('Hi, I am from support. Let us verify it is you.');
  });

  it('two escalations at once leave one notice', async () => {
    const u = await makeUser();
    const asked = await ask(u, { question: 'Help with invoices' });
    const id = asked.body.conversation_id as string;
    const both = await Promise.all([escalate(u, id), escalate(u, id)]);
    expect(both.map((b) => b.status)).toEqual([200, 200]);
    const notices = (await messagesOf(u, id)).filter((m) => m.body === ESCALATED_NOTICE);
    expect(notices).toHaveLength(1);
  });
});

describe('demo data', () => {
  it('has a support conversation the admin answered, and one left with the help assistant', async () => {
    const seeded = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: 1 } });
    expect(seeded.status, JSON.stringify(seeded.body).slice(0, 300)).toBe(200);
    const userOf = async (local: string) => {
      const [row] = await db()
        .select()
        .from(users)
        .where(eq(users.email, `${local}@${DEMO_EMAIL_DOMAIN}`));
      return { userId: row!.id, keyId: 'demo' };
    };
    const [jordan, priya, admin] = await Promise.all([userOf('jordan'), userOf('dual'), userOf('admin')]);
    const owned = (userId: string) => db().select().from(conversations).where(eq(conversations.owner_user_id, userId));

    const escalated = (await owned(jordan.userId)).find((c) => c.subject?.startsWith('I got a new phone'));
    expect(escalated).toMatchObject({ kind: 'support' });
    const msgs = (await listMessages(contextAt(Date.now(), jordan), escalated!.id, null, { limit: 50 })).data;
    expect(msgs.map((m) => [m.sender.kind, m.automated])).toEqual([
      ['user', false],
      ['assistant', true],
      ['assistant', true],
      ['user', false],
    ]);
    expect(msgs[1]!.body).toContain('/v1/help/articles/two-factor-sign-in');
    expect(msgs[2]!.body).toBe(ESCALATED_NOTICE);
    expect(msgs[3]!.sender.id).toBe(admin.userId);
    // In order, and in the past.
    const times = msgs.map((m) => Date.parse(m.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)!).toBeLessThan(Date.now());

    const open = (await owned(priya.userId)).find((c) => c.subject?.startsWith('How can I post the same broadcast'));
    expect(open).toMatchObject({ kind: 'support_ai' });
    const priyaMsgs = (await listMessages(contextAt(Date.now(), priya), open!.id, null)).data;
    expect(priyaMsgs.map((m) => m.sender.kind)).toEqual(['user', 'assistant']);
    expect(priyaMsgs[1]!.body).toContain('/v1/help/articles/');
  });
});
