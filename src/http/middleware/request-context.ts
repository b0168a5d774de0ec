import type { MiddlewareHandler } from 'hono';
import { createDb } from '../../db/client';
import { getSettings } from '../../env';
import type { AppEnv } from '../app-types';
import { createLogger } from '../../lib/log';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Request id, logger, settings and db for every request; one structured access-log line each. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const incoming = c.req.header('X-Request-Id');
  const requestId = incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : `req_${crypto.randomUUID().replaceAll('-', '')}`;
  const settings = getSettings(c.env);
  const log = createLogger({ request_id: requestId }, settings.LOG_LEVEL);
  c.set('requestId', requestId);
  c.set('log', log);
  c.set('actor', { kind: 'anonymous' });
  c.set('settings', settings);
  c.set('db', createDb(c.env.DB));
  const started = Date.now();
  await next();
  c.res.headers.set('X-Request-Id', requestId);
  const actor = c.get('actor');
  log.info('request', {
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    duration_ms: Date.now() - started,
    actor: actor.kind === 'user' || actor.kind === 'agent' ? actor.userId : actor.kind,
  });
};
