import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import { findTargetHandler } from 'hono/utils/handler';
import { AppError } from '../../lib/errors';
import { type UploadCap, uploadCapOf } from '../../lib/uploads';
import type { AppEnv } from '../app-types';

const limiters = new Map<string, MiddlewareHandler>();

/** hono's bodyLimit for one size, answering in the error envelope. */
function limiter(maxSize: number, message: string): MiddlewareHandler {
  const key = `${maxSize} ${message}`;
  let mw = limiters.get(key);
  if (!mw) {
    mw = bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError('PAYLOAD-TOO-LARGE-ERR', message);
      },
    });
    limiters.set(key, mw);
  }
  return mw;
}

/** The upload cap of the matched route, for a signed-in caller sending multipart. */
function uploadCap(c: Parameters<MiddlewareHandler<AppEnv>>[0]): UploadCap | undefined {
  if (c.get('actor').kind === 'anonymous') return undefined;
  if (!(c.req.header('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) return undefined;
  for (const route of matchedRoutes(c)) {
    const cap = uploadCapOf(findTargetHandler(route.handler));
    if (cap) return cap;
  }
  return undefined;
}

/**
 * Bounds every request body before anything reads it (the idempotency fingerprint, validators,
 * multipart parsing). Upload routes (those with an `uploadGuard`) allow their file limit plus the
 * multipart overhead to signed-in callers; every other body, and every anonymous one, gets
 * `BODY_LIMIT_BYTES`. Over the cap is 413 `PAYLOAD-TOO-LARGE-ERR`.
 *
 * Content-Length is never trusted to let a body through: a declared length over the cap is refused
 * without reading, and otherwise the header is dropped so hono's bodyLimit counts the bytes as they
 * arrive and stops reading at the cap (a chunked body has no length; a lying one is caught the same
 * way). The body is held in memory only up to the cap, so a refused upload never reaches a handler or R2.
 * A GET or HEAD with a body is 400 `VALIDATION-ERR` on every route, API and page alike.
 */
export const limitBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.raw.body) return next();
  // A GET or HEAD has no body in HTTP's semantics, and the Fetch API cannot rebuild a request that
  // carries one (below), though the runtime delivers it: refused in the envelope rather than dropped
  // unseen, so a client that put its input there learns it. An empty one (Content-Length: 0) passes.
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    if (c.req.header('Content-Length') === '0') return next();
    throw new AppError('VALIDATION-ERR', `A ${c.req.method} request takes no body: send its input in the query string.`);
  }
  const cap = uploadCap(c);
  const max = cap?.maxBodyBytes ?? c.get('settings').BODY_LIMIT_BYTES;
  const message = cap?.message ?? `The request body must be at most ${Math.floor(max / 1024)} KB.`;
  const declared = Number(c.req.header('Content-Length'));
  if (declared > max) throw new AppError('PAYLOAD-TOO-LARGE-ERR', message);
  const headers = new Headers(c.req.raw.headers);
  headers.delete('Content-Length');
  c.req.raw = new Request(c.req.raw, { headers });
  return limiter(max, message)(c, next);
};
