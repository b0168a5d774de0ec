import { type Context, Hono } from 'hono';
import { EXAMPLE_HOST_PAGE, WIDGET_BUNDLES } from '../../../generated/widgets/bundles';
import type { AppEnv } from '../../http/app-types';
import { serviceCtx } from '../../http/create-app';
import { type PublicWidget, type ServiceContext, widgetCacheKey } from '../../services/kernel';
import { cachedWidgetData, exampleSlugs, loadWidgetData } from '../../services/widgets';
import { requestOrigin } from '../../http/origin';
import { EmptyState, NOT_FOUND, PublicBody } from './frame';
import { limitFramesByIp } from './limit';
import { CSS_FILE, IMMUTABLE, renderFrame, SCRIPT_CACHE_CONTROL, type Version } from './render';
import { signedInPages } from './signed-in';
import { FRAME_CSS } from './styles';

/**
 * The embeddable widgets (spec 4.10, 9.3; docs/widgets.md): the scripts partners include
 * (`/embed/v1/<name>.js`), the frame pages those scripts put in a sandboxed iframe
 * (`/embed/v1/frame/<name>`), the frames' stylesheet and script at content-hashed paths, the
 * first-party pages of the signed-in widgets (signed-in.tsx) and, with DEMO_MODE on, an example host
 * page. Each version has its own prefix and its own build (generated/widgets/bundles.ts from
 * widgets/v1/): a v2 is added beside v1, and pinned v1 partners keep getting v1.
 */

const PUBLIC: readonly PublicWidget[] = ['profile', 'shifts', 'reviews', 'rate'];
const SLUG = /^[a-z0-9][a-z0-9-]{0,79}$/;
const ROLE = /^[a-z0-9][a-z0-9_-]{0,59}$/;

const isVersion = (v: string): v is Version => Object.hasOwn(WIDGET_BUNDLES, v);

/** Headers every answer under /embed/ carries so that other sites may load it. */
function crossSite(c: Context<AppEnv>) {
  c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  c.header('X-Content-Type-Options', 'nosniff');
}

/** A context reading public data: no caller (the system), the request's clock, db and logger. */
function publicCtx(c: Context<AppEnv>): ServiceContext {
  return { ...serviceCtx(c), actor: { kind: 'system', job: 'widgets' } };
}

export const embedRouter = new Hono<AppEnv>();

embedRouter.use('/embed/*', async (c, next) => {
  // Not on the first-party pages of connect and schedule (personal data): the app's defaults hold there.
  if (!/^\/embed\/v\d+\/(connect\/|schedule$)/.test(c.req.path)) crossSite(c);
  await next();
});

embedRouter.get('/embed/:version/:file{[a-z]+\\.js}', (c) => {
  const version = c.req.param('version');
  const name = c.req.param('file').slice(0, -3);
  if (!isVersion(version)) return c.notFound();
  const scripts = WIDGET_BUNDLES[version].scripts as Record<string, { body: string; etag: string; integrity: string }>;
  const script = Object.hasOwn(scripts, name) ? scripts[name] : undefined;
  if (!script) return c.notFound();
  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': SCRIPT_CACHE_CONTROL,
    ETag: script.etag,
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
  };
  const match = c.req.header('If-None-Match');
  if (match?.split(',').some((t) => t.trim().replace(/^W\//, '') === script.etag)) return c.body(null, 304, headers);
  return c.body(script.body, 200, headers);
});

/** Each script's address and SRI hash, for partners who pin one (`integrity="sha384-…"`). */
embedRouter.get('/embed/:version/manifest.json', (c) => {
  const version = c.req.param('version');
  if (!isVersion(version)) return c.notFound();
  const origin = requestOrigin(c);
  const scripts = Object.fromEntries(
    Object.entries(WIDGET_BUNDLES[version].scripts).map(([name, s]) => [
      name,
      { url: `${origin}/embed/${version}/${name}.js`, integrity: s.integrity },
    ]),
  );
  return c.json({ version, scripts }, 200, { 'Cache-Control': SCRIPT_CACHE_CONTROL, 'Access-Control-Allow-Origin': '*' });
});

embedRouter.get('/embed/:version/assets/:file', (c) => {
  const version = c.req.param('version');
  if (!isVersion(version)) return c.notFound();
  const file = c.req.param('file');
  if (file === CSS_FILE) return c.body(FRAME_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': IMMUTABLE });
  const frameScript = WIDGET_BUNDLES[version].frameScript;
  if (file === frameScript.file)
    return c.body(frameScript.body, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': IMMUTABLE });
  return c.notFound();
});

// Every frame page, the public widgets' and connect/schedule's, counts against its client address.
embedRouter.use('/embed/:version/frame/*', limitFramesByIp);

// connect and schedule first: their frames and first-party pages (signed-in.tsx).
embedRouter.route('/', signedInPages);

embedRouter.get('/embed/v1/frame/:name', async (c) => {
  const name = c.req.param('name') as PublicWidget;
  if (!PUBLIC.includes(name)) return c.notFound();
  const kind = c.req.query('kind') === 'shifter' ? 'shifter' : 'business';
  const slug = c.req.query('slug') ?? '';
  const roleRaw = (c.req.query('role') ?? '').toLowerCase();
  const role = name === 'rate' && ROLE.test(roleRaw) ? roleRaw : '';
  if (!SLUG.test(slug)) return renderFrame(c, NOT_FOUND.title, <EmptyState {...NOT_FOUND} />, 404);
  const ctx = publicCtx(c);
  const { data, hit } = await cachedWidgetData(ctx, widgetCacheKey(name, kind, slug, role), () =>
    loadWidgetData(ctx, name, kind, slug, role),
  );
  const state = hit ? 'hit' : 'miss';
  if (!data) return renderFrame(c, NOT_FOUND.title, <EmptyState {...NOT_FOUND} />, 404, state);
  return renderFrame(c, `${data.party.name} on Shiftmarket`, <PublicBody data={data} role={role} />, 200, state);
});

/** The example host page, filled with the demo data's slugs; only where DEMO_MODE is on. */
// Both /embed/examples and /embed/examples/ (the app router ignores a trailing slash).
embedRouter.get('/embed/examples', async (c) => {
  if (!c.get('settings').DEMO_MODE) return c.notFound();
  const slugs = await exampleSlugs(publicCtx(c));
  const html = EXAMPLE_HOST_PAGE.replace(/\{\{(\w+)\}\}/g, (_, key: string) =>
    Object.hasOwn(slugs, key) ? slugs[key as keyof typeof slugs] : '',
  );
  const self = requestOrigin(c);
  return c.html(html, 200, {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; style-src 'self'; script-src 'self'; frame-src ${self}; base-uri 'none'; frame-ancestors 'none'`,
  });
});

embedRouter.get('/embed/examples/host.css', (c) => {
  if (!c.get('settings').DEMO_MODE) return c.notFound();
  return c.body(HOST_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' });
});

/** The example partner page's own look (it is the partner's, not the widgets'). */
const HOST_CSS = `body{margin:0;font:16px/1.5 Georgia,serif;background:#f4efe6;color:#222}
main{max-width:1100px;margin:0 auto;padding:24px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:20px}
.grid>div{background:#fff;padding:12px;border-radius:8px}
.grid>div.dark{background:#222;color:#eee}
h2{font-size:1rem;margin:0 0 8px}`;
