import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createDb } from '../db/client';
import { getSettings } from '../env';
import type { ServiceContext } from '../services/kernel';
import type { AppEnv } from './app-types';
import { AppError } from '../lib/errors';
// Installs the words every failed check says (a side effect, once per isolate).
import '../lib/validation-words';

/**
 * Every router is built here so all of them share the validation hook: a failed zod check becomes
 * a VALIDATION-ERR in the one error envelope, with the failing fields in details.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) {
        const details = result.error.issues.map((i) => ({
          field: [result.target, ...i.path.map(String)].join('.'),
          message: i.message,
          code: i.code,
        }));
        // The message names each field as a caller wrote it ("hourly_rate: must be at most 10000");
        // details keep the part of the request it came from (json.hourly_rate, query.weeks).
        const words = details.map((d, n) => `${result.error.issues[n]?.path.map(String).join('.') || result.target}: ${d.message}`);
        throw new AppError('VALIDATION-ERR', words.join('; '), details);
      }
    },
  });
}

/** The service context for a request: actor, db, settings, request id, logger. */
export function serviceCtx(c: Context<AppEnv>): ServiceContext {
  return {
    env: c.env,
    db: c.get('db') ?? createDb(c.env.DB),
    settings: c.get('settings') ?? getSettings(c.env),
    actor: c.get('actor'),
    requestId: c.get('requestId'),
    log: c.get('log'),
    now: () => Date.now(),
    waitUntil: (p) => c.executionCtx.waitUntil(p),
    idempotency: c.get('idempotency'),
  };
}
