// Every page of the business dashboard on a 360 px phone, in Chromium: the demo owner (a week of
// shifts, a crew, invoices, templates) and an owner who has just signed up (every empty state) visit
// each page; none may scroll sideways (document.scrollingElement.scrollWidth <= clientWidth), no
// region of its content either (a table that would need a sideways scroll stacks instead), and each is
// axe-clean (WCAG 2.1 A/AA) in light and dark. The crew page and bulk posting with rows in it, the
// two that once scrolled, are checked with checkEverywhere (1280 and 360 px). Screenshots go to the
// artifacts folder as phone-fit-<n>-<step>.png. Run through `npm run test:browser`
// (BROWSER_TESTS=phone-fit alone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ahead, apiCall, checkEverywhere, fromMailbox, NO_OWNER, ORIGIN, owner, STATE_DIR, screenshots, signIn } from './app.mjs';
import { assertAccessible, assertNoForeignCode, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const skip = NO_OWNER || (!STATE_DIR && 'no Worker state to read the local mailbox from: run `npm run test:browser`');
const screenshot = screenshots('phone-fit');
const PHONE = { width: 360, height: 800 };

/** The dashboard pages every business has, by name. */
const PAGES = [
  ['today', '/dashboard'],
  ['post-shift', '/dashboard/shifts/new'],
  ['schedule-week', '/dashboard/schedule?view=week'],
  ['schedule-day', '/dashboard/schedule?view=day'],
  ['schedule-list', '/dashboard/schedule?view=list'],
  ['bulk', '/dashboard/bulk'],
  ['assistant', '/dashboard/assistant'],
  ['templates', '/dashboard/templates'],
  ['timesheets', '/dashboard/timesheets'],
  ['money', '/dashboard/money'],
  ['new-card', '/dashboard/money/cards/new'],
  ['settings', '/dashboard/settings'],
  ['crew', '/dashboard/crew'],
  ['crew-search', '/dashboard/crew/invite?shifter=Jordan'],
  ['board', '/dashboard/board'],
  ['kiosk-start', '/dashboard/board/kiosk/start'],
];

/** Pages of one invoice or crew member: the first link of its kind on a list page (the demo world has them). */
const LINKED = [
  ['invoice', '/dashboard/money', /^\/dashboard\/money\/invoices\/[^/.]+$/],
  ['crew-member', '/dashboard/crew', /^\/dashboard\/crew\/shifters\/[^/]+$/],
];

/** How far the page, and each region inside it that scrolls sideways, reaches past its width. */
const sideways = (page) =>
  page.evaluate(() => {
    const doc = document.scrollingElement;
    const out = [];
    if (doc.scrollWidth > doc.clientWidth) out.push(`the page by ${doc.scrollWidth - doc.clientWidth} px`);
    // The page's content; the section navigation above it is a row that scrolls by design on a phone.
    for (const el of document.querySelectorAll('main *')) {
      const style = getComputedStyle(el);
      if (!['auto', 'scroll'].includes(style.overflowX) || !el.getClientRects().length) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        const name = el.getAttribute('aria-label') || el.id || [...el.classList].join('.');
        out.push(`${el.tagName.toLowerCase()} "${name}" by ${el.scrollWidth - el.clientWidth} px`);
      }
    }
    return out;
  });

/**
 * At 360 px in light and dark: what scrolls sideways and what axe finds, added to `problems` (so one
 * run names every page that fails); a screenshot of each.
 */
async function checkPhone(page, name, problems) {
  await page.setViewportSize(PHONE);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const what of await sideways(page)) problems.push(`${name} (${scheme}): ${what}`);
    await assertAccessible(page, `${name}, ${scheme}, 360 px`).catch((err) => problems.push(err.message));
    await screenshot(page, `${name}-${scheme}-360`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function visit(page, path) {
  const res = await page.goto(`${ORIGIN}${path}`);
  assert.ok(res && res.status() < 400, `${path} answered ${res?.status()}`);
  await page.locator('h1').first().waitFor();
}

/**
 * The pages of one shift, one template and the join poster, for a business that may have none yet: a
 * broadcast and a template made through the API (as the pages' own scripts call it), the join link
 * made from the crew page. Paths by name.
 */
async function detailPages(page) {
  await visit(page, '/dashboard/crew');
  const businessId = await page.locator('#invite-shifter input[name=business_id]').inputValue();
  const shift = await apiCall(page, 'POST', '/v1/shift_request/send_request', {
    business_id: businessId,
    shift_date: ahead(25),
    shift_in: '10:00',
    shift_out: '14:00',
    shiftrole_id: 1,
    hourly_rate: 19,
    is_broadcast: 1,
    note: 'Phone fit: a shift to look at',
  });
  assert.equal(shift.status, 201, JSON.stringify(shift.body));
  const template = await apiCall(page, 'POST', '/v1/shift_templates/create', {
    business_id: businessId,
    label: 'Phone fit weekday lunch',
    days_of_week: '1,3,5',
    shift_in: '11:00',
    shift_out: '15:00',
    shiftrole_id: 1,
    hourly_rate: 18.5,
  });
  assert.equal(template.status, 201, JSON.stringify(template.body));
  const make = page.getByRole('button', { name: 'Make a join link' });
  if (await make.count()) await Promise.all([page.waitForURL((u) => u.searchParams.get('notice') === 'link_made'), make.click()]);
  const q = `?business_id=${encodeURIComponent(businessId)}`;
  return [
    ['shift', `/dashboard/shifts/${shift.body.id}${q}`],
    ['shift-change', `/dashboard/shifts/${shift.body.id}/change${q}`],
    ['shift-cancel', `/dashboard/shifts/${shift.body.id}/cancel${q}`],
    ['template-edit', `/dashboard/templates/${template.body.id}/edit${q}`],
    ['template-generate', `/dashboard/templates/${template.body.id}/generate${q}&weeks=2`],
    ['join-poster', `/dashboard/crew/join-poster${q}`],
  ];
}

/**
 * Every page of PAGES, the pages of one shift, template and the join poster (detailPages), then each
 * page of LINKED whose list links one; what failed (checkPhone) and the LINKED pages not found.
 */
async function walk(page, who) {
  const problems = [];
  for (const [name, path] of [...PAGES, ...(await detailPages(page))]) {
    await visit(page, path);
    await checkPhone(page, `${who} ${name}`, problems);
  }
  const missing = [];
  for (const [name, list, pattern] of LINKED) {
    await visit(page, list);
    const href = await page.evaluate(
      (source) =>
        [...document.querySelectorAll('main a[href]')].map((a) => a.href).find((h) => new RegExp(source).test(new URL(h).pathname)),
      pattern.source,
    );
    if (!href) {
      missing.push(name);
      continue;
    }
    await visit(page, `${new URL(href).pathname}${new URL(href).search}`);
    await checkPhone(page, `${who} ${name}`, problems);
  }
  return { problems, missing };
}

/** Bulk posting with rows in its table (a broadcast, a targeted row, a refused one), in both schemes at both widths. */
async function bulkWithRows(page, who) {
  await visit(page, '/dashboard/bulk');
  await page.locator('[data-island="bulk"][data-island-ready]').waitFor();
  const date = ahead(20);
  await page.fill(
    '#bulk-text',
    [
      `${date}, 9am, 5pm, Server, 18.50, broadcast, A long lunch rush note that needs room to wrap on a phone`,
      `${date}, 18:00, 23:00, Server, 21, Jordan Rivera, Dinner`,
      `${date}, 25:00, 05:00, Nobody, 15000, Someone Unknown, Refused`,
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Check rows' }).click();
  await page.locator('tr[data-row="3"][data-state="invalid"]').waitFor();
  await page.getByText('3 row(s) read').waitFor();
  await checkEverywhere(page, screenshot, `${who}-bulk-rows`);
}

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('the business dashboard on a phone', { skip }, () => {
  test('the demo owner: every page fits 360 px and is axe-clean in both schemes', { timeout: 600_000 }, async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    try {
      await withEvidence(session, 'phone-fit-demo-owner', async () => {
        await signIn(page, owner);
        const { problems, missing } = await walk(page, 'demo');
        assert.deepEqual(problems, [], 'every page fits 360 px, axe-clean');
        assert.deepEqual(missing, [], 'the demo world links an invoice and a crew member');
        await visit(page, '/dashboard/crew');
        await page.locator('.crew-table').waitFor();
        await checkEverywhere(page, screenshot, 'demo-crew');
        await bulkWithRows(page, 'demo');
        assertNoForeignCode(session);
      });
    } finally {
      await session.close();
    }
  });

  test('a new owner: every page, in its empty state, fits 360 px and is axe-clean in both schemes', { timeout: 600_000 }, async () => {
    const session = await openOffline(browser, ORIGIN);
    const { page } = session;
    const email = `phone-fit-${Date.now()}@example.test`;
    const password = 'a phone fit owner password';
    try {
      await withEvidence(session, 'phone-fit-new-owner', async () => {
        await page.setViewportSize(PHONE);
        await page.goto(`${ORIGIN}/signup`);
        await page.getByLabel('Post shifts for my business (a business account)').check();
        await page.getByLabel('Your name').fill('Casey Corner');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(password);
        await page.getByLabel('Business name').fill('Corner Cup Café');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByRole('heading', { level: 1, name: 'Confirm your email' }).waitFor();
        const code = await fromMailbox(email, 'email_verification', /code is (\d{6})/);
        assert.ok(code, `a verification code reached ${email}`);
        await page.getByLabel('Code').fill(code);
        // The step may ask for the password again (older builds) or keep it server-side.
        const again = page.getByLabel('Password');
        if (await again.count()) await again.fill(password);
        await Promise.all([
          page.waitForURL((u) => u.pathname === '/dashboard'),
          page.getByRole('button', { name: 'Confirm and sign in' }).click(),
        ]);
        const { problems, missing } = await walk(page, 'new');
        assert.deepEqual(problems, [], 'every page fits 360 px, axe-clean');
        // A new business has no invoice and no crew member yet.
        assert.deepEqual(missing, ['invoice', 'crew-member']);
        await visit(page, '/dashboard/crew');
        await checkEverywhere(page, screenshot, 'new-crew');
        await bulkWithRows(page, 'new');
        assertNoForeignCode(session);
      });
    } finally {
      await session.close();
    }
  });
});
