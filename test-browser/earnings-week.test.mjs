// The shifter's earnings by week on a 360 px phone, as the demo shifter Jordan (New York): this week,
// then the week before it by shift (reached from the keyboard), the nine weeks and the month under
// them. No amount wraps inside itself (every `.money` element is one line box of one line's height),
// the page never scrolls sideways, the stacked tables fit, the one region that may scroll is
// focusable and named, the week links are 44 px targets; axe-clean in light and dark at 360 and
// 1280 px, with screenshots (earnings-week-<n>-<step>.png).
// Run through `npm run test:browser` (BROWSER_TESTS=earnings-week for this file alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { account, screenshots, signIn } from './app.mjs';
import { assertAccessibleInBothSchemes, launchBrowser } from './offline.mjs';

const jordan = account('jordan');
const skip = !jordan && 'BROWSER_ACCOUNTS lists no demo shifter jordan: run `npm run test:browser`';
const PATH = '/dashboard/shifter/earnings';
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('earnings-week');

/** Every `.money` element that is not one line: more than one line box, or taller than its line. */
const brokenAmounts = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.money')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const style = getComputedStyle(el);
        const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
        const boxes = el.getClientRects().length;
        const { height } = el.getBoundingClientRect();
        return { text: el.textContent, boxes, height: Math.round(height), line: Math.round(line) };
      })
      .filter((m) => m.boxes !== 1 || m.height > m.line + 1),
  );

/** How many `.money` elements are shown (so the check above is not vacuous). */
const amountsShown = (page) =>
  page.evaluate(() => [...document.querySelectorAll('.money')].filter((el) => el.getClientRects().length > 0).length);

/** The elements past the window's right edge that nothing clips (none when the page fits). */
const sideways = (page) =>
  page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    const clipped = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(el))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(el.getBoundingClientRect().right)} px)`);
  });

/** Tables wider than their box, and scroll regions that scroll without being focusable and named. */
const tableProblems = (page) =>
  page.evaluate(() => {
    const out = [];
    for (const t of document.querySelectorAll('main table')) {
      const box = t.parentElement;
      if (t.getBoundingClientRect().width > box.getBoundingClientRect().width + 1 && !box.matches('.table-wrap'))
        out.push(`${t.className} overflows`);
    }
    for (const r of document.querySelectorAll('.table-wrap')) {
      if (
        r.scrollWidth > r.clientWidth &&
        !(r.getAttribute('tabindex') === '0' && r.getAttribute('aria-label') && r.matches('.scroll-cue'))
      )
        out.push(`${r.className} scrolls without a cue, focus or name`);
    }
    return out;
  });

/** Links of the week view shorter than a 44 px target. */
const smallTargets = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.week-pager a, .weeks-table a')]
      .map((a) => ({ text: a.textContent.trim(), height: Math.round(a.getBoundingClientRect().height) }))
      .filter((a) => a.height < 44),
  );

async function checkPhone(page, step) {
  assert.ok((await amountsShown(page)) > 5, `${step}: amounts are shown`);
  assert.deepEqual(await brokenAmounts(page), [], `${step}: an amount wraps inside itself`);
  assert.deepEqual(await sideways(page), [], `${step}: the page scrolls sideways`);
  assert.deepEqual(await tableProblems(page), [], `${step}: a table does not fit`);
  assert.deepEqual(await smallTargets(page), [], `${step}: a week link is smaller than 44 px`);
  // The 12 months' table (three columns, the bar over the amount) fits a phone: its region need not scroll.
  const trend = await page.locator('.table-wrap.scroll-cue').evaluate((r) => ({ scroll: r.scrollWidth, box: r.clientWidth }));
  assert.ok(trend.scroll <= trend.box, `${step}: the 12 months' table scrolls (${trend.scroll} > ${trend.box} px)`);
  await assertAccessibleInBothSchemes(page, `earnings, ${step}, 360 px`);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `${step}-${scheme}-360`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('earnings by week on a phone', { skip }, () => {
  test('this week, the week before by shift, the nine weeks: nothing broken at 360 px', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
    const page = await context.newPage();
    try {
      await signIn(page, jordan, PATH);
      await page.locator('figure[data-island="earnings-chart"][data-chart-totals]').waitFor();
      await page.getByRole('heading', { name: 'This week', level: 2 }).waitFor();
      // Nine weeks, newest first, this one marked.
      const rows = page.locator('.weeks-table tbody tr');
      assert.equal(await rows.count(), 9);
      assert.equal(await rows.first().getAttribute('aria-current'), 'true');
      assert.equal(await page.getByRole('link', { name: 'Next week' }).count(), 0, 'no week after this one');
      await checkPhone(page, 'this-week');

      // The week before, from the keyboard: its shifts one by one, their pay adding up to the week's gross.
      await page.getByRole('link', { name: 'Previous week' }).focus();
      await Promise.all([page.waitForURL((u) => u.searchParams.has('week')), page.keyboard.press('Enter')]);
      await page.getByRole('heading', { name: 'Last week', level: 2 }).waitFor();
      const lines = page.locator('.week-shifts tbody tr');
      assert.ok((await lines.count()) > 0, 'the demo shifter worked last week');
      const cents = (text) => Math.round(Number(text.replace(/[^0-9.]/g, '')) * 100);
      const pays = await page.locator('.week-shifts tbody tr .money').allTextContents();
      const gross = await page.locator('[data-week-gross]').textContent();
      // Jordan is paid in dollars; a line in another currency would be listed apart from the gross.
      const dollars = pays.filter((p) => p.startsWith('$'));
      assert.equal(
        dollars.reduce((t, p) => t + cents(p), 0),
        cents(gross),
        'the week is the sum of its lines',
      );
      // The stacked rows show a shift's business, hours and pay on the phone; the column heads are for readers.
      const head = await page.locator('.week-shifts thead').boundingBox();
      assert.ok(!head || head.height <= 1, 'the column heads are visually hidden on a phone');
      // The nine weeks now end with the week shown (the API's `weeks`), newest first.
      const week = new URL(page.url()).searchParams.get('week');
      assert.equal(await rows.first().getAttribute('aria-current'), 'true');
      assert.equal(await rows.first().getAttribute('data-week'), week);
      await page.getByRole('link', { name: 'Next week' }).waitFor();
      await checkPhone(page, 'last-week');

      // The same page on a desk: the tables spread into columns, still axe-clean.
      await page.setViewportSize({ width: 1280, height: 900 });
      assert.deepEqual(await brokenAmounts(page), [], 'an amount wraps at 1280 px');
      assert.deepEqual(await sideways(page), [], 'the page scrolls sideways at 1280 px');
      const desk = await page.locator('.week-shifts thead').boundingBox();
      assert.ok(desk && desk.height > 10, 'the column heads show on a desk');
      await assertAccessibleInBothSchemes(page, 'earnings, last week, 1280 px');
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `last-week-${scheme}-1280`);
      }
    } finally {
      await context.close();
    }
  });
});
