import type { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import type { Context, MiddlewareHandler } from 'hono';
import { html } from 'hono/html';
import { NONCE, type SecureHeadersVariables, secureHeaders } from 'hono/secure-headers';
import type { AppBindings } from './env';
import type { AppEnv } from './http/app-types';
import { requestDefaultsOptional } from './http/request-defaults';
import { AppError } from './lib/errors';
import { registerWebhookEvents } from './routes/partner/webhooks.events';

export const OPENAPI_PATH = '/v1/openapi.json';
/** Where the viewer bundles are served; each file name carries its package version. */
export const DOCS_ASSETS_PATH = '/v1/docs/assets';

/** File names written by scripts/docs-assets.mjs into the Worker's static assets. */
interface DocsAssets {
  scalar: string;
  redoc: string;
}

const ASSETS_ORIGIN = 'https://assets.invalid';
let manifest: Promise<DocsAssets> | undefined;

/** The current bundle names, read once per isolate (a failed read is retried on the next request). */
function docsAssets(env: AppBindings): Promise<DocsAssets> {
  manifest ??= env.ASSETS.fetch(`${ASSETS_ORIGIN}/manifest.json`)
    .then(async (res) => {
      if (!res.ok) throw new Error(`docs assets manifest answered ${res.status}; run npm run docs:assets`);
      return (await res.json()) as DocsAssets;
    })
    .catch((err: unknown) => {
      manifest = undefined;
      throw err;
    });
  return manifest;
}

/**
 * The pages may load code and data from this origin only: the policy makes "works offline" hold in
 * the browser too. Inline styles are allowed (both viewers inject them); inline scripts need the
 * per-request nonce.
 */
const docsPageHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
  },
}) as unknown as MiddlewareHandler<AppEnv>;

type DocsEnv = AppEnv & { Variables: SecureHeadersVariables };

/** The document's info and server: this server's own origin. */
const documentConfig = (c: Context<AppEnv>) => ({
  openapi: '3.1.0' as const,
  info: {
    title: 'Shiftmarket API',
    version: '1.0.0',
    description:
      'The versioned JSON API of Shiftmarket, the marketplace for shift work. Errors share one envelope: ' +
      '`{ "error": { "code", "message", "details" }, "request_id" }`. Signed-in POSTs honour `Idempotency-Key` (a retry replays the first answer for 24 hours). Request bodies are at most 64 KB (uploads: their file limit).',
  },
  servers: [{ url: new URL(c.req.url).origin, description: 'This server.' }],
});

/** The interface descriptions (spec 4.11): the OpenAPI document, an interactive and a read-only reference. */
export function mountDocs(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal API key (`smk_…`) or a session token from /v1/auth/login.',
  });
  registerWebhookEvents(app.openAPIRegistry);
  // As app.doc31 serves it, with request defaults kept optional for generated clients (request-defaults.ts).
  app.get(OPENAPI_PATH, (c) => c.json(requestDefaultsOptional(app.getOpenAPI31Document(documentConfig(c)))));

  app.get(
    '/v1/docs',
    docsPageHeaders,
    Scalar<DocsEnv>(async (c) => ({
      url: OPENAPI_PATH,
      pageTitle: 'Shiftmarket API reference',
      cdn: `${DOCS_ASSETS_PATH}/${(await docsAssets(c.env)).scalar}`,
      nonce: c.get('secureHeadersNonce'),
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
    })) as unknown as MiddlewareHandler<AppEnv>,
  );

  app.get('/v1/redoc', docsPageHeaders, async (c) => {
    const bundle = `${DOCS_ASSETS_PATH}/${(await docsAssets(c.env)).redoc}`;
    return c.html(html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>Shiftmarket API (read-only reference)</title>
        </head>
        <body style="margin:0">
          <redoc spec-url="${OPENAPI_PATH}"></redoc>
          <script src="${bundle}"></script>
        </body>
      </html>`);
  });

  // Only the bundles the manifest names; their names change with each version, so they never go stale.
  app.get(`${DOCS_ASSETS_PATH}/:file`, async (c) => {
    const file = c.req.param('file');
    const notFound = () => new AppError('NOT-FOUND-ERR', `No route for GET ${c.req.path}.`);
    if (!Object.values(await docsAssets(c.env)).includes(file)) throw notFound();
    const res = await c.env.ASSETS.fetch(`${ASSETS_ORIGIN}/${encodeURIComponent(file)}`);
    if (!res.ok || !res.body) throw notFound();
    const etag = res.headers.get('ETag');
    return c.body(res.body, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      ...(etag ? { ETag: etag } : {}),
    });
  });
}
