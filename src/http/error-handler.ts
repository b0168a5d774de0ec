import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-types';
import { AppError, ERROR_CODES, type ErrorCode, errorBody } from '../lib/errors';
import { createLogger, errorFields } from '../lib/log';

const HTTP_EXCEPTION_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION-ERR',
  401: 'AUTH-REQ-ERR',
  403: 'FORBIDDEN-ERR',
  404: 'NOT-FOUND-ERR',
  413: 'PAYLOAD-TOO-LARGE-ERR',
  415: 'UNSUPPORTED-MEDIA-ERR',
  429: 'RATE-LIMIT-ERR',
};

function requestIdOf(c: Context<AppEnv>): string {
  return c.get('requestId') ?? `req_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Turns anything thrown into the one error envelope. Unknown errors are logged and answered generically. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = requestIdOf(c);
  if (err instanceof AppError) {
    const res = c.json(errorBody(err.code, err.message, requestId, err.details), err.status);
    for (const [k, v] of Object.entries(err.headers ?? {})) res.headers.set(k, v);
    return res;
  }
  if (err instanceof HTTPException && HTTP_EXCEPTION_CODES[err.status]) {
    const code = HTTP_EXCEPTION_CODES[err.status]!;
    // Hono's own messages (e.g. "Malformed JSON in request body") are safe to pass on.
    return c.json(errorBody(code, err.message || ERROR_CODES[code].description, requestId), err.status as ContentfulStatusCode);
  }
  (c.get('log') ?? createLogger({ request_id: requestId })).error('unhandled error', errorFields(err));
  return c.json(
    errorBody('INTERNAL-ERR', 'Something went wrong on our side. Quote the request id if you contact support.', requestId),
    500,
  );
};

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  c.json(errorBody('NOT-FOUND-ERR', `No route for ${c.req.method} ${c.req.path}.`, requestIdOf(c)), 404);
