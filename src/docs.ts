import type { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import { html } from 'hono/html';
import type { AppEnv } from './http/app-types';

export const OPENAPI_PATH = '/v1/openapi.json';

/** The interface descriptions (spec 4.11): the OpenAPI document, an interactive and a read-only reference. */
export function mountDocs(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal API key (`smk_…`) or a session token from /v1/auth/login.',
  });
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Shiftmarket API',
      version: '1.0.0',
      description:
        'The versioned JSON API of Shiftmarket, the marketplace for shift work. Errors share one envelope: ' +
        '`{ "error": { "code", "message", "details" }, "request_id" }`. POSTs honour `Idempotency-Key`.',
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  app.get('/v1/docs', Scalar({ url: OPENAPI_PATH, pageTitle: 'Shiftmarket API reference' }));
  app.get('/v1/redoc', (c) =>
    c.html(html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>Shiftmarket API (read-only reference)</title>
        </head>
        <body style="margin:0">
          <redoc spec-url="${OPENAPI_PATH}"></redoc>
          <script src="https://cdn.redoc.ly/redoc/v2.5.1/bundles/redoc.standalone.js"></script>
        </body>
      </html>`),
  );
}
