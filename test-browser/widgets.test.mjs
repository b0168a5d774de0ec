// The embeddable widgets in a real browser: the example host page (widgets/examples/index.html, served
// by the Worker at /embed/examples/ with DEMO_MODE on, filled with the demo slugs) loads the widget
// scripts, each puts a sandboxed iframe on the page, and each frame sizes itself to its content through
// postMessage. Run through `npm run test:browser` (starts the Worker with demo data, then this file
// with DOCS_BASE_URL set). A screenshot of every widget, in both themes, goes to the artifacts folder
// as widget-<name>-<theme>.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { artifactsDir, assertNoForeignCode, assertStayedOffline, launchBrowser, openOffline, withEvidence } from './offline.mjs';

const ORIGIN = process.env.DOCS_BASE_URL ? new URL(process.env.DOCS_BASE_URL).origin : undefined;
if (!ORIGIN) throw new Error('DOCS_BASE_URL is not set: run `npm run test:browser`');

/** The demo review an admin upheld (src/services/demo/reviews.ts): it must show nowhere. */
const UPHELD_TEXT = 'Worst place ever';
const INITIAL_HEIGHT = 80;
const HEIGHT_MESSAGE = 'shiftmarket:v1:height';

let browser;
let session;
/** Every widget frame on the example page: { name, theme, slug, kind, handle, frame }. */
let widgets = [];
/** Console errors with where they came from. */
const consoleErrors = [];

before(async () => {
  browser = await launchBrowser();
  session = await openOffline(browser, ORIGIN);
  session.page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} @ ${m.location()?.url ?? ''}`);
  });
  await withEvidence(session, 'widgets-load', async () => {
    const res = await session.page.goto(`${ORIGIN}/embed/examples/`, { waitUntil: 'load' });
    assert.equal(res?.status(), 200, 'the example host page is served (DEMO_MODE on)');
    assertNoForeignCode(session);
    await session.page.waitForFunction(() => document.querySelectorAll('iframe[data-shiftmarket-frame]').length === 13);
    const handles = await session.page.$$('iframe[data-shiftmarket-frame]');
    widgets = [];
    for (const handle of handles) {
      // The frames load lazily: bring each into view, then wait for its document.
      await handle.scrollIntoViewIfNeeded();
      const info = await handle.evaluate((f) => {
        const u = new URL(f.src);
        return {
          name: f.dataset.shiftmarketFrame,
          theme: u.searchParams.get('theme'),
          slug: u.searchParams.get('slug'),
          kind: u.searchParams.get('kind'),
          id: u.searchParams.get('id'),
        };
      });
      const frame = await handle.contentFrame();
      assert.ok(frame, `${info.name} has a frame`);
      await frame.waitForSelector('#widget');
      widgets.push({ ...info, handle, frame });
    }
  });
});

after(async () => {
  await session?.close();
  await browser?.close();
});

const find = (pred) => {
  const found = widgets.filter(pred);
  assert.ok(found.length > 0, 'the example page has such a widget');
  return found;
};

/** Waits until the iframe's height is the frame document's content height (the frame told the host). */
async function settledHeight(w) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const outer = await w.handle.evaluate((f) => f.getBoundingClientRect().height);
    const inner = await w.frame.evaluate(() => ({
      content: Math.ceil(document.getElementById('widget').getBoundingClientRect().height),
      doc: document.documentElement.scrollHeight,
    }));
    if (Math.abs(outer - inner.content) <= 1 && Math.abs(outer - inner.doc) <= 1) return { outer, ...inner };
    if (Date.now() > deadline) return { outer, ...inner, timedOut: true };
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('widgets on the example host page', () => {
  test('every frame resizes to its content: taller than it started, equal to its document height', async () => {
    await withEvidence(session, 'widgets-resize', async () => {
      for (const w of widgets) {
        const h = await settledHeight(w);
        assert.ok(!h.timedOut, `${w.name} (${w.theme}, ${w.slug}): iframe ${h.outer}px, content ${h.content}px, document ${h.doc}px`);
        assert.ok(h.outer > INITIAL_HEIGHT, `${w.name} (${w.theme}) grew from ${INITIAL_HEIGHT}px to ${h.outer}px`);
      }
    });
  });

  test('a frame whose content grows tells the host again (ResizeObserver): the iframe follows', async () => {
    await withEvidence(session, 'widgets-grow', async () => {
      const [w] = find((x) => x.name === 'profile' && x.theme === 'light' && x.kind === 'business');
      // Chromium does not render (nor run the resize observers of) a cross-origin frame out of view.
      await w.handle.scrollIntoViewIfNeeded();
      const before = (await settledHeight(w)).outer;
      await w.frame.evaluate(() => {
        const extra = document.createElement('div');
        extra.style.height = '300px';
        document.getElementById('widget').appendChild(extra);
      });
      const deadline = Date.now() + 5_000;
      let h = await settledHeight(w);
      while (h.outer < before + 300 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        h = await settledHeight(w);
      }
      assert.equal(h.outer, before + 300, `grew from ${before}px to ${h.outer}px`);
      await w.frame.evaluate(() => document.getElementById('widget').lastElementChild.remove());
      await settledHeight(w);
    });
  });

  test('each public widget renders the seeded demo data in both themes; a screenshot of each is kept', async () => {
    await withEvidence(session, 'widgets-render', async () => {
      for (const name of ['profile', 'shifts', 'reviews', 'rate']) {
        for (const theme of ['light', 'dark']) {
          const [w] = find((x) => x.name === name && x.theme === theme && x.kind === 'business' && !x.slug.startsWith('no-such'));
          const text = await w.frame.evaluate(() => document.getElementById('widget').textContent);
          assert.doesNotMatch(text, /Profile not found/, `${name} (${theme}) found its demo business`);
          const look = await w.frame.evaluate(() => ({
            theme: document.documentElement.dataset.theme,
            lang: document.documentElement.lang,
            bg: getComputedStyle(document.body).backgroundColor,
          }));
          assert.equal(look.theme, theme);
          assert.equal(look.lang, 'en');
          assert.equal(look.bg, theme === 'dark' ? 'rgb(22, 24, 27)' : 'rgb(255, 255, 255)', `${name} (${theme}) background`);
          if (name === 'shifts') {
            const items = await w.frame.$$eval('ul.list li', (lis) => lis.map((li) => li.textContent));
            assert.ok(items.length > 0, 'the demo business has open broadcasts listed');
            assert.match(items[0], /\/h/, 'each open shift shows its rate and role');
          }
          if (name === 'reviews') {
            const items = await w.frame.$$eval('ul.list li', (lis) => lis.length);
            assert.ok(items > 0, 'the demo reviews are listed');
            assert.ok(!text.includes(UPHELD_TEXT), 'the upheld-dispute review is left out');
          }
          if (name === 'rate') assert.match(text, /Going rate/);
          if (name === 'profile') assert.match(text, /\S/);
          await w.handle.screenshot({ path: join(artifactsDir(), `widget-${name}-${theme}.png`) });
        }
      }
      for (const theme of ['light', 'dark']) {
        const [paused] = find((x) => x.name === 'profile' && x.kind === 'shifter' && x.theme === theme);
        const badge = await paused.frame.$eval('.badge', (b) => b.textContent);
        assert.equal(badge.trim(), 'Paused', 'the paused demo shifter shows the Paused badge');
        await paused.handle.screenshot({ path: join(artifactsDir(), `widget-profile-paused-${theme}.png`) });
      }
      const [connect] = find((x) => x.name === 'connect');
      assert.match(await connect.frame.evaluate(() => document.getElementById('widget').textContent), /Ask to connect on Shiftmarket/);
      await connect.handle.screenshot({ path: join(artifactsDir(), 'widget-connect-light.png') });
      const [schedule] = find((x) => x.name === 'schedule');
      assert.match(await schedule.frame.evaluate(() => document.getElementById('widget').textContent), /Open my schedule/);
      await schedule.handle.screenshot({ path: join(artifactsDir(), 'widget-schedule-dark.png') });
    });
  });

  test('an unknown slug shows a clear empty state inside its frame, not an error page', async () => {
    await withEvidence(session, 'widgets-unknown', async () => {
      const [w] = find((x) => x.slug.startsWith('no-such'));
      const text = await w.frame.evaluate(() => document.getElementById('widget').textContent);
      assert.match(text, /Profile not found/);
      assert.match(text, /could not be found/);
      await w.handle.screenshot({ path: join(artifactsDir(), 'widget-unknown-slug.png') });
    });
  });

  test('the host page cannot reach into a frame: the frames run in an opaque origin', async () => {
    await withEvidence(session, 'widgets-isolation', async () => {
      const reach = await session.page.evaluate(() =>
        [...document.querySelectorAll('iframe[data-shiftmarket-frame]')].map((f) => {
          let doc;
          try {
            doc = f.contentDocument;
          } catch {
            doc = 'threw';
          }
          let winDoc;
          try {
            winDoc = f.contentWindow.document ? 'reachable' : 'null';
          } catch {
            winDoc = 'threw';
          }
          return { doc: doc === null ? 'null' : doc === 'threw' ? 'threw' : 'reachable', winDoc, sandbox: f.getAttribute('sandbox') };
        }),
      );
      for (const r of reach) {
        assert.notEqual(r.doc, 'reachable', 'iframe.contentDocument is null or throws');
        assert.equal(r.winDoc, 'threw', 'iframe.contentWindow.document throws');
        assert.ok(!r.sandbox.split(' ').includes('allow-same-origin'), 'the sandbox has no allow-same-origin');
      }
      const origin = await widgets[0].frame.evaluate(() => window.origin);
      assert.equal(origin, 'null', 'the frame document has an opaque origin');
      // Nor can a frame reach the host page.
      const up = await widgets[0].frame.evaluate(() => {
        try {
          return window.parent.document ? 'reachable' : 'null';
        } catch {
          return 'threw';
        }
      });
      assert.equal(up, 'threw');
    });
  });

  test("a frame cannot resize another widget's iframe (the host checks the message's source and id)", async () => {
    await withEvidence(session, 'widgets-spoof', async () => {
      const [a, b] = widgets;
      const before = await b.handle.evaluate((f) => f.getBoundingClientRect().height);
      // Frame a posts b's id (it could read it from nowhere, but even knowing it is not enough).
      await a.frame.evaluate(([type, id]) => window.parent.postMessage({ type, id, height: 4321 }, '*'), [HEIGHT_MESSAGE, b.id]);
      // And the host page's own messages (not from b's window) are ignored too.
      await session.page.evaluate(([type, id]) => window.postMessage({ type, id, height: 4321 }, '*'), [HEIGHT_MESSAGE, b.id]);
      await new Promise((r) => setTimeout(r, 300));
      const after = await b.handle.evaluate((f) => f.getBoundingClientRect().height);
      assert.equal(after, before);
      assert.notEqual(after, 4321);
    });
  });

  test('keyboard focus is visible in a frame (connect button)', async () => {
    await withEvidence(session, 'widgets-focus', async () => {
      const [connect] = find((x) => x.name === 'connect');
      const ring = await connect.frame.evaluate(() => {
        const a = document.querySelector('a.button');
        a.focus({ focusVisible: true });
        const s = getComputedStyle(a);
        return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth), focused: document.activeElement === a };
      });
      assert.ok(ring.focused);
      assert.notEqual(ring.style, 'none');
      assert.ok(ring.width >= 2);
    });
  });

  test('nothing but the Worker was reached, and nothing broke', async () => {
    // The one 404 is the unknown slug's frame page (its empty state is a 404 page, by choice).
    const missing = session.record.responses.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.type} ${r.url}`);
    assert.deepEqual(
      missing.map((m) => m.replace(/\?.*$/, '')),
      [`404 document ${ORIGIN}/embed/v1/frame/profile`],
      missing.join('\n'),
    );
    // Chromium logs the 404 of that frame page as a console error: allowed, and nothing else.
    const unexpected = consoleErrors.filter(
      (e) => !(/status of 404/.test(e) && e.includes('/embed/v1/frame/profile?') && e.includes('slug=no-such')),
    );
    assert.deepEqual(unexpected, []);
    session.record.consoleErrors = [];
    await assertStayedOffline(session);
  });
});
