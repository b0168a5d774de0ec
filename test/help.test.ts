import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { helpArticleFeedback, helpArticles, helpVideos } from '../src/db/schema';
import { matchExpression, queryTerms } from '../src/services/help/fts-query';
import { call, expectError } from './helpers/api';
import { db, makeUser } from './helpers/factory';

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
