// Every help article, as a visitor reads it on a 360 px phone and at 1280 px, light and dark: axe-clean
// (a wide table or code block scrolls inside a focusable, named region) and nothing scrolls sideways.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORIGIN, screenshots } from './app.mjs';
import { assertAccessible, launchBrowser } from './offline.mjs';

describe('help articles', { skip: !ORIGIN && 'run with `npm run test:browser`' }, () => {
  it('each article is accessible at 360 and 1280 px in both schemes', { timeout: 300_000 }, async () => {
    const browser = await launchBrowser();
    const screenshot = screenshots('help-articles');
    try {
      const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await page.goto(`${ORIGIN}/help`);
      const paths = [...new Set(await page.$$eval('a[href^="/help/articles/"]', (links) => links.map((a) => new URL(a.href).pathname)))];
      assert.ok(paths.length >= 5, `the help center lists its articles (${paths.length})`);
      for (const path of paths) {
        await page.goto(`${ORIGIN}${path}`);
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const width of [360, 1280]) {
            await page.setViewportSize({ width, height: 800 });
            await assertAccessible(page, `${path}, ${scheme}, ${width} px`);
            const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            assert.ok(wide <= 0, `${path} scrolls sideways by ${wide} px at ${width} px (${scheme})`);
          }
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await page.setViewportSize({ width: 360, height: 800 });
      }
      await page.goto(`${ORIGIN}/help/articles/broadcast-a-shift`);
      await screenshot(page, 'broadcast-a-shift-360');
    } finally {
      await browser.close();
    }
  });
});
