import { cors } from 'hono/cors';
import { mountDocs } from './docs';
import { createRouter } from './http/create-app';
import { notFound, onError } from './http/error-handler';
import { resolveAuth } from './http/middleware/auth';
import { limitBody } from './http/middleware/body-limit';
import { idempotency } from './http/middleware/idempotency';
import { requestContext } from './http/middleware/request-context';
import { routers } from './routes';
import { demoRouter } from './routes/demo/demo.index';

export function createApp() {
  const app = createRouter();
  app.use('*', requestContext);
  app.use(
    '*',
    cors({
      origin: (origin, c) => (c.get('settings').corsOrigins.includes(origin) ? origin : null),
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
      credentials: true,
    }),
  );
  app.use('/v1/*', resolveAuth);
  // Bodies are bounded before anything reads them; the cap depends on the caller (set by resolveAuth).
  app.use('*', limitBody);
  app.use('/v1/*', idempotency);
  for (const router of routers) app.route('/', router);
  app.route('/', demoRouter);
  mountDocs(app);
  app.get('/', (c) => c.json({ service: 'shiftmarket', docs: '/v1/docs', openapi: '/v1/openapi.json' }));
  app.notFound(notFound);
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;
