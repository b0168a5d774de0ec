import type { MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import { createDb } from '../../db/client';
import { getSettings } from '../../env';
import type { AppEnv } from '../app-types';
import { createLogger } from '../../lib/log';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * hono's requestId middleware (mounted in app.ts before requestContext). Its own check would keep ids
 * shorter than 8 characters or holding '=', so the generator makes the whole decision: a client's id
 * matching CLIENT_REQUEST_ID is kept, anything else gets a fresh `req_` id. With no headerName the
 * middleware neither reads nor writes the header itself; requestContext echoes it on the final
 * response (error and not-found answers included).
 */
export const assignRequestId = requestId({
  headerName: '',
  generator: (c) => {
    const incoming = c.req.header('X-Request-Id');
    return incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : `req_${crypto.randomUUID().replaceAll('-', '')}`;
  },
});

/** Logger, settings and db for every request, keyed by the request id; one structured access-log line each. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = c.get('requestId');
  const settings = getSettings(c.env);
  const log = createLogger({ request_id: requestId }, settings.LOG_LEVEL);
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
