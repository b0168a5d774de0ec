import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversations, helpArticles, reviews } from '../../src/db/schema';
import { call } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { connect, db, makeUser } from '../helpers/factory';
import { daysFromToday, insertShift } from '../helpers/rows';
import { WebClient } from '../helpers/web';
import { ESCALATED_NOTICE, fallbackReply } from '../../src/services/help';
import { inWebWords } from '../../src/web/features/help/help-wording.model';
import { signedIn } from '../helpers/signed-in';

const NY = 'America/New_York';

/** A business and a connected shifter with one worked shift together, three days ago. */
async function workedPair() {
  const [owner, shifterUser] = await Promise.all([makeUser({ business: true }), makeUser({ shifter: { timezone: NY } })]);
  await connect(owner.businessId!, shifterUser.shifterId!);
  const shift = await insertShift({
    businessId: owner.businessId!,
    shifterId: shifterUser.shifterId!,
    date: daysFromToday(-3, NY),
    in: '09:00',
    out: '17:00',
    rate: 2000,
    tz: NY,
  });
  return { owner, shifterUser, business: owner.businessId!, shifter: shifterUser.shifterId!, shift };
}

const average = async (key: string, business: string) =>
  (await call('GET', `/v1/review/get_avg_review?review_on=business&review_on_id=${business}`, { key })).body as {
    average: number | null;
    count: number;
  };

describe('the reviews pages', () => {
  it('a shifter reviews a worked shift pinned to it; a refused form keeps its words; one review per worked shift', async () => {
    const p = await workedPair();
    const b = await signedIn(p.shifterUser);
    const page = await b.get('/reviews');
    expect(page.status).toBe(200);
    expect(page.html).toContain(`value="${p.shift}"`);

    const form = { review_on: 'business', review_on_id: p.business, shift_request_id: p.shift, review_text: 'Calm kitchen, fair breaks.' };
    const noRating = await b.post('/reviews/new?as=shifter', { ...form, _idem: crypto.randomUUID() });
    expect(noRating.status).toBe(400);
    expect(noRating.html).toContain('Choose a rating from 1 to 5 stars.');
    expect(noRating.html).toContain('Calm kitchen, fair breaks.');

    const ok = await b.post('/reviews/new?as=shifter', { ...form, rating: '4', _idem: crypto.randomUUID() });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/reviews?as=shifter&notice=reviewed');
    const [row] = await db().select().from(reviews).where(eq(reviews.review_by_id, p.shifter));
    expect(row).toMatchObject({ review_on: 'business', review_on_id: p.business, shift_request_id: p.shift, rating: 4 });
    expect((await b.get('/reviews')).html).not.toContain(`value="${p.shift}"`);

    const twice = await b.post('/reviews/new?as=shifter', { ...form, rating: '5', _idem: crypto.randomUUID() });
    expect(twice.status).toBe(409);
    expect(twice.html).toContain('already reviewed that worked shift');
  });

  it('the reviewee disputes, an admin upholds from /admin, and the review leaves the public list and the average', async () => {
    const p = await workedPair();
    const admin = await makeUser({ admin: true });
    const shifterPage = await signedIn(p.shifterUser);
    await shifterPage.get('/reviews');
    const sent = await shifterPage.post('/reviews/new?as=shifter', {
      review_on: 'business',
      review_on_id: p.business,
      shift_request_id: p.shift,
      rating: '1',
      _idem: crypto.randomUUID(),
    });
    expect(sent.status).toBe(303);
    const [row] = await db().select().from(reviews).where(eq(reviews.review_by_id, p.shifter));
    expect(await average(p.owner.key, p.business)).toMatchObject({ average: 1, count: 1 });

    const ownerPage = await signedIn(p.owner);
    expect((await ownerPage.get(`/reviews?as=business&business_id=${p.business}`)).html).toContain(`id="review-${row!.id}"`);
    const disputed = await ownerPage.post(`/reviews/${row!.id}/dispute?as=business&business_id=${p.business}`, {
      reason: 'Not about the shift.',
      _idem: crypto.randomUUID(),
    });
    expect(disputed.status).toBe(303);

    // Only admins reach the queues, as the API answers.
    expect((await ownerPage.get('/admin')).status).toBe(403);
    expect((await ownerPage.post(`/admin/disputes/${row!.id}/resolve`, { decision: 'upheld', _idem: crypto.randomUUID() })).status).toBe(
      403,
    );

    const adminPage = await signedIn(admin);
    const queue = await adminPage.get('/admin');
    expect(queue.status).toBe(200);
    expect(queue.html).toContain(`id="dispute-${row!.id}"`);
    expect(queue.html).toContain('Not about the shift.');
    const upheld = await adminPage.post(`/admin/disputes/${row!.id}/resolve`, { decision: 'upheld', _idem: crypto.randomUUID() });
    expect(upheld.status).toBe(303);
    expect(upheld.location).toBe('/admin?notice=upheld');

    expect(await average(p.owner.key, p.business)).toMatchObject({ average: null, count: 0 });
    const list = await call('GET', `/v1/review/list?review_on=business&review_on_id=${p.business}`, { key: p.shifterUser.key });
    expect((list.body as { data: unknown[] }).data).toHaveLength(0);
    expect((await adminPage.get('/admin')).html).not.toContain(`id="dispute-${row!.id}"`);
  });
});

describe('the help pages', () => {
  it('search, an article with feedback, a question answered with articles, escalation into the support queue', async () => {
    const [person, other, admin] = await Promise.all([makeUser({ shifter: true }), makeUser({ shifter: true }), makeUser({ admin: true })]);
    const b = await signedIn(person);
    const found = await b.get('/help?q=clock+photo');
    expect(found.status).toBe(200);
    const firstArticle = /href="\/help\/articles\/([a-z0-9-]+)"/.exec(found.html.slice(found.html.indexOf('Results for')))?.[1];
    expect(firstArticle).toBeTruthy();

    const article = await b.get(`/help/articles/${firstArticle}`);
    expect(article.status).toBe(200);
    expect(article.html).toContain('<h2>');
    expect(article.html).not.toMatch(/\/v1\/help\/articles\/[a-z]/); // article links lead to the pages
    const [before] = await db().select().from(helpArticles).where(eq(helpArticles.id, firstArticle!));
    const voted = await b.post(`/help/articles/${firstArticle}/feedback`, { helpful: 'yes', comment: '', _idem: crypto.randomUUID() });
    expect(voted.status).toBe(303);
    const [afterVote] = await db().select().from(helpArticles).where(eq(helpArticles.id, firstArticle!));
    expect(afterVote!.helpful_count).toBe(before!.helpful_count + 1);
    expect((await b.get('/help/articles/no-such-article')).status).toBe(404);

    await b.get('/help');
    const asked = await b.post('/help/ask', { question: 'How do I clock in with a photo?', _idem: crypto.randomUUID() });
    expect(asked.status).toBe(303);
    const id = /\/help\/conversations\/([^#?]+)/.exec(asked.location ?? '')?.[1];
    expect(id).toBeTruthy();
    const thread = await b.get(`/help/conversations/${id}`);
    expect(thread.html).toContain('help articles match your question');
    expect(thread.html).toMatch(/href="\/help\/articles\/[a-z0-9-]+"/);
    expect(thread.html).toContain(`href="/inbox/${id}"`);
    // The fixed reply's API instructions read as the page's button here (the stored text is the API's).
    expect(thread.html).not.toContain('POST /v1/help/escalate');
    expect(thread.html).toContain('“Ask for a person” button of this conversation in the help center');
    // The inbox shows the same words, and the help assistant by name.
    const inInbox = await b.get(`/inbox/${id}`);
    expect(inInbox.status).toBe(200);
    expect(inInbox.html).not.toContain('POST /v1/help/escalate');
    expect(inInbox.html).toContain('“Ask for a person” button of this conversation in the help center');
    expect(inInbox.html).toContain('<p class="chat-who">Help assistant</p>');
    expect((await (await signedIn(other)).get(`/help/conversations/${id}`)).status).toBe(404);

    const escalated = await b.post(`/help/conversations/${id}/escalate`, { _idem: crypto.randomUUID() });
    expect(escalated.status).toBe(303);
    const [conv] = await db()
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id!), eq(conversations.owner_user_id, person.userId)));
    expect(conv!.kind).toBe('support');
    const withTeam = await b.get(`/help/conversations/${id}`);
    expect(withTeam.html).toContain('you can add details by writing to the support team below.');
    expect(withTeam.html).not.toContain('/v1/messaging/messages');

    const adminPage = await signedIn(admin);
    const queue = await adminPage.get('/admin/support');
    expect(queue.html).toContain(`id="support-${id}"`);
    const joined = await adminPage.post(`/admin/support/${id}/join`, { _idem: crypto.randomUUID() });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe(`/inbox/${id}`);
    expect((await adminPage.get('/admin/deliveries')).status).toBe(200);
  });

  it('a visitor reads help in the visitor header: search, categories, an article, a video; asking and voting lead to sign-in and back', async () => {
    const v = new WebClient(undefined, { 'CF-Connecting-IP': randomIp() });
    const home = await v.get('/help?q=clock+photo');
    expect(home.status).toBe(200);
    expect(home.html).toContain('class="public"'); // the visitor's header, not the app shell
    expect(home.html).toContain('href="/help" aria-current="page"');
    expect(home.html).toContain('Results for');
    expect(home.html).toContain(`href="/login?next=${encodeURIComponent('/help')}"`);
    expect(home.html).not.toContain('action="/help/ask"');
    const slug = /href="\/help\/articles\/([a-z0-9-]+)"/.exec(home.html.slice(home.html.indexOf('Results for')))?.[1];
    expect(slug).toBeTruthy();
    expect((await v.get('/help?category=clocking')).status).toBe(200);

    const article = await v.get(`/help/articles/${slug}`);
    expect(article.status).toBe(200);
    expect(article.html).toContain('<h2>');
    expect(article.html).toContain(`href="/login?next=${encodeURIComponent(`/help/articles/${slug}`)}"`);
    expect(article.html).not.toContain('/feedback"');
    const video = /href="\/help\/videos\/([^"]+)"/.exec(home.html)?.[1];
    if (video) expect((await v.get(`/help/videos/${video}`)).status).toBe(200);

    // Writing needs an account: the ask form, feedback and the conversations send a visitor to sign in.
    const asked = await v.post('/help/ask', { question: 'How do I clock in?', _idem: crypto.randomUUID() });
    expect(asked.status).toBe(303);
    expect(asked.location).toMatch(/^\/login\?next=/);
    const voted = await v.post(`/help/articles/${slug}/feedback`, { helpful: 'yes', _idem: crypto.randomUUID() });
    expect(voted.location).toMatch(/^\/login\?next=/);
    expect((await v.get('/help/conversations/cnv_x')).location).toMatch(/^\/login\?next=/);

    // The front door and the sign-in page lead to help.
    expect((await v.get('/')).html).toContain('href="/help"');
    expect((await v.get('/login')).html).toContain('href="/help"');
  });

  it('every API instruction of the fixed replies has its web wording', () => {
    const article = { id: 'a', title: 'A', path: '/v1/help/articles/a' };
    for (const text of [fallbackReply([]), fallbackReply([article]), ESCALATED_NOTICE]) {
      expect(inWebWords(text)).not.toMatch(/POST |conversation_id|\/v1\/help\/articles(?!\/a)/);
    }
  });
});
