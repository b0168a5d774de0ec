import { Hono } from 'hono';
import { SERVICE_WORKER, WEB_ENTRIES, WEB_FILES } from '../../generated/web/assets';
import type { AppEnv } from '../http/app-types';
import { CLIENT_SCRIPT } from './client-script';
import { FAVICON_SVG } from './favicon';
import { FINANCE_SCRIPT } from './finance-script';

/**
 * The pages' stylesheet and scripts, served by the Worker itself (no asset from another host) at
 * paths that carry a hash of their content, so they can be cached for a year: a changed file gets a
 * new path. The stylesheet and the islands are built from src/web/ (scripts/build-web.mjs, which
 * names them by a SHA-256 of their content); the two small page scripts below are named here by
 * FNV-1a (32 bit) over the UTF-16 code units, computed once at module load: it names a version, it
 * does not protect anything.
 */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

const JS_FILE = `app.${fnv1a(CLIENT_SCRIPT)}.js`;
const FINANCE_JS_FILE = `finance.${fnv1a(FINANCE_SCRIPT)}.js`;
const FAVICON_FILE = `favicon.${fnv1a(FAVICON_SVG)}.svg`;
const SVG_TYPE = 'image/svg+xml';

/** The hashed addresses the layout links to. */
export const assetPaths = {
  css: WEB_ENTRIES.css,
  js: `/assets/${JS_FILE}`,
  financeJs: `/assets/${FINANCE_JS_FILE}`,
  favicon: `/assets/${FAVICON_FILE}`,
} as const;

const FILES: Record<string, { body: string; type: string }> = {
  ...WEB_FILES,
  [JS_FILE]: { body: CLIENT_SCRIPT, type: 'text/javascript; charset=utf-8' },
  [FINANCE_JS_FILE]: { body: FINANCE_SCRIPT, type: 'text/javascript; charset=utf-8' },
  [FAVICON_FILE]: { body: FAVICON_SVG, type: SVG_TYPE },
};

/** `GET /assets/:file` for the current hashed names (anything else is the app's 404), and `/favicon.ico`. */
export const assetsRouter = new Hono<AppEnv>();

// Asked for by browsers and crawlers that do not read the page's <link rel="icon">: the same SVG, for a day.
assetsRouter.get('/favicon.ico', (c) => c.body(FAVICON_SVG, 200, { 'Content-Type': SVG_TYPE, 'Cache-Control': 'public, max-age=86400' }));

// The service worker (src/web/service-worker/): at the root so its scope is the whole app, checked
// for a new version on every navigation (no-cache), its version in the ETag.
// The worker keeps its own script's Content-Security-Policy: it may fetch this origin (pages on their
// way, queued punches) and nothing else; under the API's default-src 'none' every fetch it made failed.
assetsRouter.get('/sw.js', (c) =>
  c.body(SERVICE_WORKER.body, 200, {
    'Content-Security-Policy': "default-src 'none'; connect-src 'self'",
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'no-cache',
    ETag: `"${SERVICE_WORKER.version}"`,
    'Service-Worker-Allowed': '/',
  }),
);

// The installable shifter app (linked from the shifter pages): opens on the clock, in its own window.
assetsRouter.get('/app.webmanifest', (c) =>
  c.body(
    JSON.stringify({
      name: 'Shiftmarket for shifters',
      short_name: 'Shiftmarket',
      description: 'Clock in and out, see your shifts and earnings, on your phone, with or without network.',
      id: '/dashboard/shifter',
      start_url: '/dashboard/shifter/clock',
      scope: '/dashboard/shifter',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#0b57d0',
      icons: [{ src: assetPaths.favicon, sizes: 'any', type: SVG_TYPE, purpose: 'any' }],
    }),
    200,
    { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  ),
);

assetsRouter.get('/assets/:file', (c) => {
  const file = Object.hasOwn(FILES, c.req.param('file')) ? FILES[c.req.param('file')] : undefined;
  if (!file) return c.notFound();
  return c.body(file.body, 200, {
    'Content-Type': file.type,
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
});
