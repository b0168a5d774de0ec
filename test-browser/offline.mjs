// Helpers for the browser tests: headless Debian Chromium driven by playwright-core, with every
// request to a host other than the Worker's origin aborted and recorded, so a page that still
// reaches for a CDN fails the test on any machine, online or not.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Launch flags from PLATFORM-NOTES "Browser"; the resolver rule also fails any name lookup but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

/** Chromium with a fresh temporary profile: playwright-core creates its user-data-dir and removes it on close. */
export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/**
 * A new context and page on which nothing but `origin` is reachable. Every foreign request is
 * recorded (also those the page's Content-Security-Policy stops before they reach the network),
 * then aborted; uncaught page errors, console errors and CSP violations are recorded too.
 */
export async function openOffline(browser, origin, { colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block', colorScheme, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(20_000);
  const record = { foreign: [], loadedForeign: [], pageErrors: [], consoleErrors: [], csp: [], responses: [] };
  // A WebSocket to the same host and port (ws: for http:, wss: for https:) is the page's own.
  const ownOrigin = (u) => `${u.protocol === 'ws:' ? 'http:' : u.protocol === 'wss:' ? 'https:' : u.protocol}//${u.host}`;
  const isForeign = (url) => /^(https?|wss?):/.test(url) && ownOrigin(new URL(url)) !== origin;
  const note = (type, url) => {
    if (!record.foreign.some((f) => f.url === url && f.type === type)) record.foreign.push({ type, url });
  };

  await context.route('**/*', (route) => {
    const req = route.request();
    if (!isForeign(req.url())) return route.continue();
    note(req.resourceType(), req.url());
    return route.abort('internetdisconnected');
  });
  await context.routeWebSocket(
    (url) => isForeign(url.href),
    (ws) => {
      note('websocket', ws.url());
      ws.close();
    },
  );
  // CSP violations are reported to the page only; collect them where the test can read them.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push({ directive: e.effectiveDirective, blocked: e.blockedURI });
    });
  });

  const page = await context.newPage();
  page.on('request', (req) => {
    if (isForeign(req.url())) note(req.resourceType(), req.url());
  });
  page.on('response', (res) => {
    if (isForeign(res.url())) record.loadedForeign.push(res.url());
    else record.responses.push({ url: res.url(), status: res.status(), type: res.request().resourceType() });
  });
  page.on('pageerror', (err) => record.pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') record.consoleErrors.push(msg.text());
  });

  return {
    context,
    page,
    record,
    async cspViolations() {
      record.csp = await page.evaluate(() => window.__cspViolations ?? []);
      return record.csp;
    },
    close: () => context.close(),
  };
}

/**
 * Throws unless the page stayed on its origin: no foreign request attempted except the `allowed`
 * ones (harmless images such as a footer logo, each `{ type, url }` with the exact URL), nothing
 * foreign loaded, no uncaught page error, no console error but about an allowed URL, and no CSP
 * violation but of an allowed request or an allowed `{ directive, blocked }` (a capability probe).
 * Returns the allowed requests that were attempted and blocked, for the test's output.
 */
export async function assertStayedOffline(session, allowed = []) {
  const { record } = session;
  const csp = await session.cspViolations();
  const requests = allowed.filter((a) => a.url);
  const isAllowed = (f) => requests.some((a) => a.type === f.type && a.url === f.url);
  const mentionsAllowed = (text) => requests.some((a) => text.includes(a.url));
  const cspAllowed = (v) => mentionsAllowed(v.blocked) || allowed.some((a) => a.directive === v.directive && a.blocked === v.blocked);
  const problems = [];
  const unexpected = record.foreign.filter((f) => !isAllowed(f));
  if (unexpected.length) problems.push(`requests to other hosts: ${unexpected.map((f) => `${f.type} ${f.url}`).join(', ')}`);
  if (record.loadedForeign.length) problems.push(`loaded from other hosts: ${record.loadedForeign.join(', ')}`);
  if (record.pageErrors.length) problems.push(`page errors: ${record.pageErrors.join(' | ')}`);
  const consoleErrors = record.consoleErrors.filter((t) => !mentionsAllowed(t));
  if (consoleErrors.length) problems.push(`console errors: ${consoleErrors.join(' | ')}`);
  const violations = csp.filter((v) => !cspAllowed(v));
  if (violations.length) problems.push(`CSP violations: ${violations.map((v) => `${v.directive} ${v.blocked}`).join(', ')}`);
  if (problems.length) throw new Error(`the page did not stay offline and clean:\n- ${problems.join('\n- ')}`);
  return record.foreign.filter(isAllowed);
}

let artifacts;
/** The folder for screenshots and records of failed steps: the runner's, else a new temporary one. */
export function artifactsDir() {
  if (!artifacts) {
    artifacts = process.env.BROWSER_ARTIFACTS || mkdtempSync(join(tmpdir(), 'shiftmarket-browser-'));
    mkdirSync(artifacts, { recursive: true });
  }
  return artifacts;
}

/** Runs `fn`; on failure saves a screenshot and the session's record, and names them in the error. */
export async function withEvidence(session, name, fn) {
  try {
    return await fn();
  } catch (err) {
    const dir = artifactsDir();
    const base = join(dir, name.replace(/[^A-Za-z0-9_-]+/g, '-'));
    await session.page.screenshot({ path: `${base}.png`, fullPage: false }).catch(() => {});
    writeFileSync(`${base}.json`, `${JSON.stringify({ url: session.page.url(), ...session.record }, null, 2)}\n`);
    if (err instanceof Error) {
      const { foreign, pageErrors } = session.record;
      if (foreign.length && !err.message.includes('other hosts'))
        err.message += `\nrequests to other hosts: ${foreign.map((f) => `${f.type} ${f.url}`).join(', ')}`;
      if (pageErrors.length) err.message += `\npage errors: ${pageErrors.join(' | ')}`;
      err.message += `\n(screenshot and record: ${base}.png, ${base}.json)`;
    }
    throw err;
  }
}

/** Code or styles from another host fail at once: the page cannot be offline, whatever renders. */
export function assertNoForeignCode(session) {
  const code = session.record.foreign.filter((f) => ['script', 'stylesheet', 'font', 'document'].includes(f.type));
  if (code.length) throw new Error(`the page loads code or styles from other hosts: ${code.map((f) => `${f.type} ${f.url}`).join(', ')}`);
}

/** Presses Tab until `matches(activeElement)` holds, at most `max` times; returns the presses needed, or null. */
export async function tabUntil(page, matches, max = 8) {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(matches)) return presses;
  }
  return null;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on the page as it stands (WCAG 2.1 A and AA rules): throws with every violation, its rule,
 * impact and the elements it found, so a page with one is a failed test. `label` names the page and
 * state in the message (e.g. "bulk posting, dark, 360 px").
 */
export async function assertAccessible(page, label) {
  // A page reached by a click may have its DOM before its stylesheet: unstyled dark text fails contrast.
  await page.waitForLoadState('load');
  const loaded = await page.evaluate(() => typeof window.axe !== 'undefined');
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not govern.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  if (violations.length) {
    throw new Error(
      `axe: ${violations.length} accessibility violation(s) on ${label}:\n${violations.map((v) => `- ${v.id} (${v.impact}): ${v.help} at ${v.nodes.join(', ')}`).join('\n')}`,
    );
  }
}

/**
 * assertAccessible in the light and the dark scheme, the page as it stands in each (re-drawn by the
 * browser, not reloaded); the page is left in the scheme it had.
 */
export async function assertAccessibleInBothSchemes(page, label) {
  const was = (await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)) ? 'dark' : 'light';
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await assertAccessible(page, `${label}, ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: was });
}
