// What the web application's browser tests share: the Worker's origin and the demo accounts the
// runner seeded, numbered screenshots in the artifacts folder, signing in through the page, dates
// ahead of today, and API calls with the page's session (as the page's own scripts make them).
import { join } from 'node:path';
import { artifactsDir } from './offline.mjs';

export const ORIGIN = process.env.DOCS_BASE_URL ? new URL(process.env.DOCS_BASE_URL).origin : undefined;
if (!ORIGIN) throw new Error('DOCS_BASE_URL is not set: run `npm run test:browser`');

/** Demo accounts from the runner's seed ({ role, email, password }); none when run against another server. */
export const ACCOUNTS = JSON.parse(process.env.BROWSER_ACCOUNTS || '[]');
export const account = (local) => ACCOUNTS.find((a) => a.email.startsWith(`${local}@`));
export const owner = account('owner');
export const NO_OWNER = !owner && 'BROWSER_ACCOUNTS lists no demo owner: run `npm run test:browser`';

/** Screenshots named `<prefix>-<n>-<step>.png`, numbered in the order they are taken. */
export function screenshots(prefix) {
  let shot = 0;
  return async (page, step) => {
    shot += 1;
    await page.screenshot({ path: join(artifactsDir(), `${prefix}-${String(shot).padStart(2, '0')}-${step}.png`), fullPage: true });
  };
}

/** Signs in through /login (with `next` when given) and waits for the page it lands on. */
export async function signIn(page, who = owner, next = undefined) {
  const landing = next ?? '/dashboard';
  await page.goto(`${ORIGIN}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.fill('input[name=email]', who.email);
  await page.fill('input[name=password]', who.password);
  await Promise.all([page.waitForURL((u) => u.pathname === landing), page.press('input[name=password]', 'Enter')]);
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
