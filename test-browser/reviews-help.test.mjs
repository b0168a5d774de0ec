// Reviews, help and the admin queues in a real browser, three people in their own browsers: a shifter
// (Jordan) reviews a worked shift at the bistro, the bistro's owner disputes the review, the demo admin
// upholds the dispute, and the review leaves the bistro's public reviews and average (read through the
// API as a program would). Help: a search, an article and its feedback, a question the help assistant
// answers with articles (the fallback reply: the local model stand-in answers no help conversation), the
// request for a person, and the conversation in the admin's support queue, joined from there; a visitor
// reading help from the front door, and led to sign in to ask. Every page is axe-clean and fits the
// width in light and dark at 1280 and 360 px, with screenshots as reviews-help-<n>-<step>.png. Run
// through `npm run test:browser` (BROWSER_TESTS=reviews-help for this file alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, apiCall as api, checkEverywhere, NO_OWNER, ORIGIN, owner, screenshots, signIn } from './app.mjs';
import { assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const jordan = account('jordan');
const admin = account('admin');
const skip = NO_OWNER || ((!jordan || !admin) && 'BROWSER_ACCOUNTS lists no demo shifter or admin: run `npm run test:browser`');
const screenshot = screenshots('reviews-help');

let browser;
/** The three people's browser sessions, opened once. */
const who = {};

/** The notice the page shows after a form's success. */
const noticeText = (page) => page.locator('.notice-success').textContent();

before(async () => {
  if (skip) return;
  browser = await launchBrowser();
  for (const [key, person, landing] of [
    ['jordan', jordan, '/reviews'],
    ['owner', owner, '/reviews'],
    ['admin', admin, '/admin'],
  ]) {
    who[key] = await openOffline(browser, ORIGIN);
    await signIn(who[key].page, person, landing);
  }
});
after(async () => {
  await browser?.close();
});

describe('reviews, help and the admin queues', { skip }, () => {
  const review = { text: `Kitchen ran out of aprons; otherwise fine (${Date.now().toString(36)}).` };

  test('a shifter reviews a worked shift, pinned to it, and sees the review among those written', async () => {
    const session = who.jordan;
    await withEvidence(session, 'reviews-help-shifter-review', async () => {
      const { page } = session;
      await page.goto(`${ORIGIN}/reviews`);
      await page.waitForSelector('[data-island="review-trend"][data-island-ready="true"]');
      await checkEverywhere(page, screenshot, 'reviews-shifter');

      const todo = page.locator('li.review-todo', { hasText: 'Harbor Street Bistro' }).first();
      review.shift = await todo.locator('input[name=shift_request_id]').inputValue();
      review.businessId = await todo.locator('input[name=review_on_id]').inputValue();
      const before = await api(page, 'GET', `/v1/review/get_avg_review?review_on=business&review_on_id=${review.businessId}`);
      assert.equal(before.status, 200);
      review.before = before.body;

      // Sent without a rating: refused beside the rating, the text kept.
      await todo.locator('summary').click();
      await todo.locator('textarea[name=review_text]').fill(review.text);
      await todo.getByRole('button', { name: 'Leave the review' }).click();
      const again = page.locator(`#new-${review.shift}`);
      assert.match(await again.locator('.field-error').first().textContent(), /rating from 1 to 5/);
      assert.equal(await again.locator('textarea[name=review_text]').inputValue(), review.text);

      await again.locator('input[name=rating][value="2"]').check();
      await again.getByRole('button', { name: 'Leave the review' }).click();
      assert.match(await noticeText(page), /review was saved/);
      // The shift is reviewed: it leaves the list, and the review is among those written.
      assert.equal(await page.locator(`#new-${review.shift}`).count(), 0);
      const written = page.locator('li.review', { hasText: review.text });
      await written.waitFor();
      const stored = await api(page, 'GET', `/v1/review/list?review_by=shifter&review_by_id=${await shifterIdOf(page)}&limit=5`);
      const mine = stored.body.data.find((r) => r.review_text === review.text);
      assert.ok(mine, 'the review is stored');
      assert.equal(mine.shift_request_id, review.shift, 'pinned to the worked shift it was left for');
      assert.equal(mine.rating, 2);
      review.id = mine.id;
      const withIt = await api(page, 'GET', `/v1/review/get_avg_review?review_on=business&review_on_id=${review.businessId}`);
      assert.equal(withIt.body.count, review.before.count + 1);
    });
  });

  test('the reviewed business disputes it, and the admin upholds the dispute: it leaves the public reviews and the average', async () => {
    assert.ok(review.id, 'the review of the first test');
    await withEvidence(who.owner, 'reviews-help-dispute', async () => {
      const { page } = who.owner;
      await page.goto(`${ORIGIN}/reviews?as=business&business_id=${review.businessId}`);
      const item = page.locator(`#review-${review.id}`);
      await item.locator('summary', { hasText: 'Dispute' }).click();
      await item.locator('textarea[name=reason]').fill('Aprons were in the storeroom as the brief said; not about the shift.');
      await item.getByRole('button', { name: 'Send the dispute' }).click();
      assert.match(await noticeText(page), /dispute was sent/);
      await page.locator(`#review-${review.id} .badge`, { hasText: 'waiting for an admin' }).waitFor();
      await checkEverywhere(page, screenshot, 'reviews-business-disputed');
    });

    await withEvidence(who.admin, 'reviews-help-uphold', async () => {
      const { page } = who.admin;
      await page.goto(`${ORIGIN}/admin`);
      const item = page.locator(`#dispute-${review.id}`);
      await item.waitFor();
      assert.match(await item.textContent(), /Aprons were in the storeroom/);
      await checkEverywhere(page, screenshot, 'admin-disputes');
      await item.getByRole('button', { name: /Uphold/ }).click();
      assert.match(await noticeText(page), /upheld/);
      assert.equal(await page.locator(`#dispute-${review.id}`).count(), 0);
    });

    // The public read (any signed-in caller, as a profile page or a program reads it).
    const { page } = who.jordan;
    const avg = await api(page, 'GET', `/v1/review/get_avg_review?review_on=business&review_on_id=${review.businessId}`);
    assert.deepEqual(
      { average: avg.body.average, count: avg.body.count },
      { average: review.before.average, count: review.before.count },
      'the average is back to what it was without the review',
    );
    const list = await api(page, 'GET', `/v1/review/list?review_on=business&review_on_id=${review.businessId}&limit=100`);
    assert.equal(list.status, 200);
    assert.ok(!list.body.data.some((r) => r.id === review.id), 'the upheld review left the public list');
    await page.goto(`${ORIGIN}/reviews`);
    assert.equal(await page.locator(`#review-${review.id}`).count(), 0, 'and the writer no longer sees it either');
  });

  test('help: search, an article with feedback, the assistant answering with articles, a person asked for, and the admin joining', async () => {
    const ask = { question: `How do I clock in with a photo at the door? (${Date.now().toString(36)})` };
    await withEvidence(who.jordan, 'reviews-help-help', async () => {
      const { page } = who.jordan;
      await page.goto(`${ORIGIN}/help`);
      await page.fill('input[name=q]', 'clock photo');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'clock photo');
      const first = page.locator('.help-results a').first();
      assert.match(await first.textContent(), /clock/i);
      await checkEverywhere(page, screenshot, 'help-search');

      await first.click();
      await page.waitForURL(/\/help\/articles\//);
      assert.ok((await page.locator('.article-body h2').count()) > 0, 'the article body is rendered from its Markdown');
      const counts = () => page.locator('#feedback-title ~ form .hint').textContent();
      const helpfulBefore = Number((await counts()).match(/^(\d+) found/)[1]);
      await page.getByRole('button', { name: 'Yes, it helped' }).click();
      assert.match(await noticeText(page), /feedback was saved/);
      assert.equal(Number((await counts()).match(/^(\d+) found/)[1]), helpfulBefore + 1);
      await checkEverywhere(page, screenshot, 'help-article');

      await page.goto(`${ORIGIN}/help`);
      await page.fill('#ask-question', ask.question);
      await page.getByRole('button', { name: 'Ask the help assistant' }).click();
      await page.waitForURL(/\/help\/conversations\//);
      ask.id = new URL(page.url()).pathname.split('/').pop();
      const answer = page.locator('.chat-assistant').last();
      assert.match(await answer.textContent(), /help articles match your question/);
      // The fixed reply's API instruction reads as the button beside it on this page.
      assert.match(await answer.textContent(), /with the “Ask for a person” button of this conversation in the help center/);
      assert.doesNotMatch(await answer.textContent(), /POST \/v1\/help\/escalate/);
      assert.ok((await answer.locator('a[href^="/help/articles/"]').count()) > 0, 'the answer links the articles it lists');
      assert.equal(await page.locator(`a[href="/inbox/${ask.id}"]`).count(), 1, 'the conversation links to its inbox address');
      await checkEverywhere(page, screenshot, 'help-answer');

      await page.getByRole('button', { name: 'Ask for a person' }).click();
      assert.match(await noticeText(page), /person from the support team/);
      await page.locator('.badge', { hasText: 'With the support team' }).waitFor();
      const thread = await api(page, 'GET', `/v1/messaging/threads/${ask.id}`);
      if (thread.status === 200) assert.equal(thread.body.kind, 'support');
    });

    await withEvidence(who.admin, 'reviews-help-support-queue', async () => {
      const { page } = who.admin;
      await page.goto(`${ORIGIN}/admin/support`);
      const item = page.locator(`#support-${ask.id}`);
      await item.waitFor();
      assert.match(await item.textContent(), /clock in with a photo/);
      await checkEverywhere(page, screenshot, 'admin-support');
      await item.getByRole('button', { name: 'Join and answer' }).click();
      await page.waitForURL((u) => u.pathname === `/inbox/${ask.id}`);
      await page.goto(`${ORIGIN}/admin/support`);
      await page.locator(`#support-${ask.id} .badge`, { hasText: 'Joined' }).waitFor();

      await page.goto(`${ORIGIN}/admin/deliveries`);
      assert.ok((await page.locator('.deliveries-table tbody tr').count()) > 0, 'the deliveries of the demo accounts are listed');
      await checkEverywhere(page, screenshot, 'admin-deliveries');
    });
  });

  test('help for a visitor: from the front door to an article in the visitor header; asking leads to sign-in and back', async () => {
    const visitor = await openOffline(browser, ORIGIN);
    const { page } = visitor;
    try {
      await withEvidence(visitor, 'reviews-help-visitor', async () => {
        await page.goto(`${ORIGIN}/`);
        await Promise.all([page.waitForURL((u) => u.pathname === '/help'), page.getByRole('link', { name: 'Help', exact: true }).click()]);
        assert.equal(await page.locator('.public-links a[aria-current="page"]').textContent(), 'Help');
        await page.fill('input[name=q]', 'clock photo');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.waitForURL((u) => u.searchParams.get('q') === 'clock photo');
        await checkEverywhere(page, screenshot, 'help-visitor-search');

        await page.locator('.help-results a').first().click();
        await page.waitForURL(/\/help\/articles\//);
        const articlePath = new URL(page.url()).pathname;
        assert.ok((await page.locator('.article-body h2').count()) > 0, 'the article body is rendered for a visitor');
        assert.equal(await page.getByRole('button', { name: 'Yes, it helped' }).count(), 0, 'a visitor is offered a vote');
        await checkEverywhere(page, screenshot, 'help-visitor-article');
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === articlePath),
          page.getByRole('link', { name: 'Sign in to say whether it helped' }).click(),
        ]);

        await page.goto(`${ORIGIN}/help`);
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === '/help'),
          page.getByRole('link', { name: 'Sign in to ask' }).click(),
        ]);
        await page.fill('input[name=email]', jordan.email);
        await page.fill('input[name=password]', jordan.password);
        await Promise.all([page.waitForURL((u) => u.pathname === '/help'), page.press('input[name=password]', 'Enter')]);
        await page.locator('#ask-question').waitFor();
        assertNoForeignCode(visitor);
      });
    } finally {
      await visitor.context.close();
    }
  });

  test('the admin pages are for admins: anyone else gets the 403 page', async () => {
    const { page } = who.jordan;
    for (const path of ['/admin', '/admin/support', '/admin/deliveries']) {
      const res = await page.goto(`${ORIGIN}${path}`);
      assert.equal(res.status(), 403, path);
    }
    for (const key of Object.keys(who)) assertNoForeignCode(who[key]);
  });
});

/** The signed-in shifter's id, as the API tells the page. */
async function shifterIdOf(page) {
  const me = await api(page, 'GET', '/v1/user/details');
  return me.body.shifter_id;
}
