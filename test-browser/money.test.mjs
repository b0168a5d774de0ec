// The money and settings pages in a real browser, as the demo owner: both pages axe-clean in light
// and dark at 1280 and 360 px; an invoice charged and then refunded in part through the confirmation
// steps; the weekly budget changed in place from the keyboard, with the chart's data and its table
// moving to the new budget. Each step's page is axe-clean in both schemes. Screenshots of each step
// go to the artifacts folder as money-<n>-<step>.png.
// Run through `npm run test:browser` (BROWSER_TESTS=money for this file alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NO_OWNER, ORIGIN, screenshots, signIn as signInTo } from './app.mjs';
import {
  assertAccessible,
  assertAccessibleInBothSchemes,
  assertNoForeignCode,
  assertStayedOffline,
  launchBrowser,
  openOffline,
  withEvidence,
} from './offline.mjs';

const skip = NO_OWNER;

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const screenshot = screenshots('money');

/** Signs in and lands on the money page (sign-in's `next`), so only the pages under test are loaded. */
const signIn = (page) => signInTo(page, undefined, '/dashboard/money');

/** The money page with its chart drawn (the island marks its figure ready, uPlot has its canvas). */
async function openMoney(page, query = '') {
  await page.goto(`${ORIGIN}/dashboard/money${query}`);
  await page.locator('figure[data-island="labor-chart"][data-island-ready] canvas').first().waitFor();
}

const sidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('money and settings pages', { skip }, () => {
  for (const scheme of ['light', 'dark']) {
    test(`money and settings are axe-clean at 1280 and 360 px (${scheme})`, async () => {
      const session = await openOffline(browser, ORIGIN, { colorScheme: scheme });
      const { page } = session;
      try {
        await withEvidence(session, `money-${scheme}-pages`, async () => {
          await signIn(page);
          for (const width of [1280, 360]) {
            await page.setViewportSize({ width, height: 900 });
            await openMoney(page);
            await page.getByRole('heading', { name: 'Money', exact: true }).waitFor();
            await assertAccessible(page, `money, ${scheme}, ${width} px`);
            assert.equal(await sidewaysScroll(page), false, `the money page scrolls sideways at ${width} px`);
            await screenshot(page, `money-${scheme}-${width}`);

            await page.goto(`${ORIGIN}/dashboard/settings`);
            await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
            await assertAccessible(page, `settings, ${scheme}, ${width} px`);
            assert.equal(await sidewaysScroll(page), false, `the settings page scrolls sideways at ${width} px`);
            await screenshot(page, `settings-${scheme}-${width}`);
          }
          await page.goto(`${ORIGIN}/dashboard/money/cards/new`);
          await assertAccessible(page, `add a card, ${scheme}`);
          assertNoForeignCode(session);
          await assertStayedOffline(session);
        });
      } finally {
        await session.context.close();
      }
    });
  }

  test('charges a pending invoice, then refunds part of it, each after its confirmation step', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'light' });
    const { page } = session;
    try {
      await withEvidence(session, 'money-refund', async () => {
        await signIn(page);
        await openMoney(page, '?status=pending');
        // The first pending invoice that can be charged now (not one waiting for 3-D Secure).
        const links = await page.locator('#invoices tbody a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        assert.ok(links.length > 0, 'the demo bistro has pending invoices');
        let opened = false;
        for (const href of links) {
          await page.goto(`${ORIGIN}${href}`);
          if (await page.getByRole('button', { name: 'Charge now…' }).count()) {
            opened = true;
            break;
          }
        }
        assert.ok(opened, 'a pending invoice offers "Charge now"');
        const invoicePath = new URL(page.url()).pathname;
        await page.getByRole('button', { name: 'Charge now…' }).click();
        await page.getByRole('heading', { name: 'Confirm the charge' }).waitFor();
        await assertAccessibleInBothSchemes(page, 'confirm the charge');
        await screenshot(page, 'confirm-charge');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'charged'),
          page.getByRole('button', { name: /^Charge / }).click(),
        ]);
        await page.getByText('The charge went through: the invoice is paid.').waitFor();
        assert.equal(new URL(page.url()).pathname, invoicePath);

        // Part of it back, from the keyboard.
        await page.focus('#field-amount');
        await page.keyboard.type('5');
        await page.focus('#field-reason');
        await page.keyboard.type('Started late');
        await page.getByRole('button', { name: 'Refund…' }).click();
        await page.getByRole('heading', { name: 'Confirm the refund' }).waitFor();
        await page.getByText('Refund $5.00 of the invoice').waitFor();
        await assertAccessibleInBothSchemes(page, 'confirm the refund');
        await screenshot(page, 'confirm-refund');
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('notice') === 'refunded'),
          page.getByRole('button', { name: 'Refund $5.00' }).click(),
        ]);
        await page.getByText('The refund was made').waitFor();
        await page.getByText('Paid, partly refunded').waitFor();
        assert.match((await page.locator('dl.pairs').first().textContent()) ?? '', /\$5\.00 \(\$[\d,.]+ left to refund\)/);
        await assertAccessibleInBothSchemes(page, 'invoice partly refunded');
        await screenshot(page, 'partly-refunded');

        // A refund of more than is left keeps the amount and says why beside it, before any
        // confirmation step (the service's own check, nothing written).
        await page.fill('#field-amount', '999999');
        await page.getByRole('button', { name: 'Refund…' }).click();
        await page.locator('#field-amount-error').waitFor();
        assert.equal(await page.getByRole('button', { name: /^Refund \$999,999\.00$/ }).count(), 0);
        assert.match((await page.locator('#field-amount-error').textContent()) ?? '', /is left to refund on this invoice/);
        assert.equal(await page.inputValue('#field-amount'), '999999');
        await assertAccessibleInBothSchemes(page, 'refund refused');
        await screenshot(page, 'refund-refused');
        assertNoForeignCode(session);
      });
    } finally {
      await session.context.close();
    }
  });

  test('changes the weekly budget in place from the keyboard, and the chart and its table move', async () => {
    const session = await openOffline(browser, ORIGIN, { colorScheme: 'dark' });
    const { page } = session;
    try {
      await withEvidence(session, 'money-budget', async () => {
        await signIn(page);
        await openMoney(page);
        const figure = page.locator('figure[data-island="labor-chart"]');
        const before = await figure.getAttribute('data-chart-budget');
        const caption = page.locator('[data-budget-caption]');
        const captionBefore = await caption.textContent();
        await screenshot(page, 'budget-before');
        const next = String((Number(before) || 1000) + 250);

        await page.focus('#field-weekly_labor_budget');
        await page.keyboard.press('Control+A');
        await page.keyboard.type(next);
        await page.keyboard.press('Enter');
        await page.waitForFunction((v) => document.querySelector('figure[data-island="labor-chart"]')?.dataset.chartBudget === v, next);
        await page.getByText(/^Budget saved: /).waitFor();
        const captionAfter = await caption.textContent();
        assert.notEqual(captionAfter, captionBefore);
        assert.match(captionAfter ?? '', new RegExp(`Weekly budget: \\$${Number(next).toLocaleString('en-US')}\\.00\\.`));
        // The page was not reloaded: the island sent it through the API.
        assert.equal(new URL(page.url()).searchParams.get('notice'), null);
        const against = await page.locator('[data-against-total]').allTextContents();
        assert.ok(
          against.every((t) => / (under|over)$|^on budget$/.test(t)),
          against.join(' | '),
        );
        await assertAccessibleInBothSchemes(page, 'money, budget changed');
        await screenshot(page, 'budget-after');

        // Stored: the page drawn again from the server has the new budget.
        await openMoney(page);
        assert.equal(await figure.getAttribute('data-chart-budget'), next);
        assert.match((await page.locator('#field-weekly_labor_budget').inputValue()) ?? '', new RegExp(`^${next}$`));

        await assertStayedOffline(session);

        // A refused budget keeps what was typed, with the service's message beside it (the browser logs
        // the 400 answer to the console, so this comes after the check above).
        await page.fill('#field-weekly_labor_budget', '12.345');
        await page.keyboard.press('Enter');
        await page.locator('#field-weekly_labor_budget-error').waitFor();
        assert.match(
          (await page.locator('#field-weekly_labor_budget-error').textContent()) ?? '',
          /12\.345 has more decimals than USD allows/,
        );
        assert.equal(await page.inputValue('#field-weekly_labor_budget'), '12.345');
        assert.equal(await figure.getAttribute('data-chart-budget'), next);
        await assertAccessibleInBothSchemes(page, 'money, budget refused');
        await screenshot(page, 'budget-refused');
        assertNoForeignCode(session);
      });
    } finally {
      await session.context.close();
    }
  });
});
