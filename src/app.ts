import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import { mountDocs } from './docs';
import { createRouter } from './http/create-app';
import { notFound, onError } from './http/error-handler';
import { resolveAuth } from './http/middleware/auth';
import { limitBody } from './http/middleware/body-limit';
import { idempotency } from './http/middleware/idempotency';
import { assignRequestId, requestContext } from './http/middleware/request-context';
import { apiRouter } from './routes';
import { demoRouter } from './routes/demo/demo.index';
import { webRouter } from './web';
import { resolveKioskRequest } from './web/features/kiosk';

export function createApp() {
  const app = createRouter();
  // API answers are never framed, sniffed or embedded elsewhere; the docs pages set their own
  // Content-Security-Policy, which this one does not overwrite.
  app.use('*', secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] }, overwrite: false }));
  app.use('*', assignRequestId);
  app.use('*', requestContext);
  app.use(
    '*',
    cors({
      origin: (origin, c) => (c.get('settings').corsOrigins.includes(origin) ? origin : null),
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: [
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'Idempotent-Replayed',
      ],
      maxAge: 600,
      credentials: true,
    }),
  );
  app.use('/v1/*', resolveAuth);
  // A kiosk's requests carry its actor from here, so the body limit below lets a punch's photo through.
  app.use('/kiosk', resolveKioskRequest);
  app.use('/kiosk/*', resolveKioskRequest);
  // Bodies are bounded before anything reads them; the cap depends on the caller (set by resolveAuth).
  app.use('*', limitBody);
  app.use('/v1/*', idempotency);
  const api = app.route('/', apiRouter);
  app.route('/', demoRouter);
  app.route('/', webRouter);
  mountDocs(app);
  // `/` is the front door for people (web/features/public); programs find the service's index here.
  app.get('/v1', (c) => c.json({ service: 'shiftmarket', docs: '/v1/docs', openapi: '/v1/openapi.json', mcp: '/v1/mcp/' }));
  app.notFound(notFound);
  app.onError(onError);
  return api;
}

export type App = ReturnType<typeof createApp>;
/** The whole API's type, for a typed `hc<AppType>()` client from hono/client. */
export type AppType = App;
