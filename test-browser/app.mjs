// What the web application's browser tests share: the Worker's origin and the demo accounts the
// runner seeded, numbered screenshots in the artifacts folder, signing in through the page, dates
// ahead of today, API calls with the page's session (as the page's own scripts make them), the
// Worker's local D1 and mailbox, and the check of a page in both schemes at two widths.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactsDir, assertAccessible } from './offline.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const ORIGIN = process.env.DOCS_BASE_URL ? new URL(process.env.DOCS_BASE_URL).origin : undefined;
if (!ORIGIN) throw new Error('DOCS_BASE_URL is not set: run `npm run test:browser`');

/** Demo accounts from the runner's seed ({ role, email, password }); none when run against another server. */
export const ACCOUNTS = JSON.parse(process.env.BROWSER_ACCOUNTS || '[]');
export const account = (local) => ACCOUNTS.find((a) => a.email.startsWith(`${local}@`));
export const owner = account('owner');
export const NO_OWNER = !owner && 'BROWSER_ACCOUNTS lists no demo owner: run `npm run test:browser`';

/** The Worker's local state (its D1 and the local mailbox); unset when run against another server. */
export const STATE_DIR = process.env.BROWSER_STATE_DIR;

/** Reads the Worker's local D1 with wrangler (the same SQLite files `wrangler dev` uses). */
export function queryD1(sql) {
  const args = ['d1', 'execute', 'DB', '--local', '--persist-to', STATE_DIR, '--json', '--command', sql];
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'wrangler'), args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  if (run.status !== 0) throw new Error(`wrangler d1 execute failed (exit ${run.status}): ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout)[0]?.results ?? [];
}

/**
 * What `pattern` finds in the newest `template` email to `to` in the local mailbox
 * (the first group), waiting up to 30 s for the Worker's write to show; null when none comes.
 */
export async function fromMailbox(to, template, pattern) {
  const deadline = Date.now() + 30_000;
  const quoted = to.replaceAll("'", "''");
  while (Date.now() < deadline) {
    const rows = queryD1(
      `SELECT text_body FROM email_outbox WHERE to_address = '${quoted}' AND template = '${template}' ORDER BY created_at DESC LIMIT 1`,
    );
    const found = pattern.exec(rows[0]?.text_body ?? '')?.[1];
    if (found) return found;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return null;
}

/** Screenshots named `<prefix>-<n>-<step>.png`, numbered in the order they are taken. */
export function screenshots(prefix) {
  let shot = 0;
  return async (page, step) => {
    shot += 1;
    await page.screenshot({ path: join(artifactsDir(), `${prefix}-${String(shot).padStart(2, '0')}-${step}.png`), fullPage: true });
  };
}

/** The elements reaching past the window's right edge (none when the page fits), named for the failure message. */
const overflowing = (page) =>
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

/**
 * The page as it stands, axe-clean and fitting the width, in both schemes at 1280 and 360 px, with a
 * screenshot of each (`screenshot` from screenshots()); it is left light at 1280 px.
 */
export async function checkEverywhere(page, screenshot, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await assertAccessible(page, `${name}, ${scheme}, ${width} px`);
      assert.deepEqual(await overflowing(page), [], `${name} scrolls sideways at ${width} px (${scheme})`);
      await screenshot(page, `${name}-${scheme}-${width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Signs in through /login (with `next` when given) and waits for the page it lands on: `next`, else
 * the person's side (/dashboard for a business, /dashboard/shifter for a shifter without one).
 */
export async function signIn(page, who = owner, next = undefined) {
  const lands = (path) => (next ? path === next : path === '/dashboard' || path === '/dashboard/shifter');
  await page.goto(`${ORIGIN}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.fill('input[name=email]', who.email);
  await page.fill('input[name=password]', who.password);
  await Promise.all([page.waitForURL((u) => lands(u.pathname)), page.press('input[name=password]', 'Enter')]);
}

/** A date `days` from today as YYYY-MM-DD (UTC; far enough ahead that the business's zone agrees). */
export const ahead = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** An API call with the page's session and CSRF token; writes carry a fresh Idempotency-Key. */
export function apiCall(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = document.querySelector('meta[name="csrf-token"]').content;
      const headers = { 'X-CSRF-Token': token, Accept: 'application/json' };
      if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() });
      const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
}

/** Wall-clock date and HH:MM in New York, `minutes` from now (rounded up to the minute). */
export function nyAt(minutes) {
  const t = new Date(Math.ceil((Date.now() + minutes * 60_000) / 60_000) * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(t)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * The header's and the section navigation's targets as drawn now (links, buttons, disclosures,
 * fields; those inside a closed disclosure or a hidden part are not drawn and not counted), with the
 * ones under 44 × 44 px named.
 */
export function measureTargets(page) {
  return page.evaluate((min) => {
    const selector = [
      'header a[href]',
      'header button',
      'header summary',
      'header select',
      'header input:not([type=hidden])',
      '.app-nav a[href]',
      '.app-nav summary',
    ].join(', ');
    const small = [];
    let header = 0;
    let nav = 0;
    for (const el of document.querySelectorAll(selector)) {
      // Not drawn: hidden, or inside a closed disclosure (whose content still has a box when asked).
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (el.closest('header')) header++;
      else nav++;
      // Half a pixel for rounding of rem sizes.
      if (r.width < min - 0.5 || r.height < min - 0.5)
        small.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${r.width.toFixed(1)}×${r.height.toFixed(1)}`,
        );
    }
    return { header, nav, small };
  }, 44);
}
