import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { requireAuth } from './middleware/auth';
import { AUTH_ERRORS, type ErrorCode, errorResponses, PUBLIC_ERRORS } from '../lib/errors';
import { ID_MAX_LENGTH } from '../lib/ids';

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, description, content: { 'application/json': { schema } } } as const;
}

/**
 * Who may call an operation, declared in its contract and written into the document as the
 * operation's `x-authorization` field. The authorization walk (test/authorization.test.ts) reads it
 * and runs the checks of the class (docs/decisions/authorization-test.md).
 */
export const AUTHORIZATION_CLASSES = {
  public: 'Anyone: no credentials.',
  self: "The caller's own account and what only it holds (sessions, keys, notifications, its partner clients, invitations addressed to it).",
  'signed-in': 'Any signed-in user: nobody in particular, or what every signed-in user may read (the going rate, reviews).',
  admin: 'Admins only.',
  'business-owner': "A business's owner (or an admin); its active teammates are refused.",
  'business-member': "A business's owner, its active teammates, or an admin.",
  shifter: "A shifter's own records: that shifter (or an admin).",
  party: 'What a business and a shifter share (a shift, a connection, a thread, a review, a deliverable): each party on its own side.',
  partner: 'A partner client (x-api-key, OAuth token or its client credentials), on the businesses that linked it.',
} as const;
export type AuthorizationClass = keyof typeof AUTHORIZATION_CLASSES;

/**
 * What every route adds to a plain RouteConfig. `operationId` is required: client generators name
 * their methods from it, so it is part of the contract (stable, camelCase, unique; a test holds it).
 */
type Extra = { operationId: string; errors?: ErrorCode[] };

/**
 * Codes the app's middleware answers before any handler: 413 for a body over its limit (any method
 * that carries one), and the Idempotency-Key conflicts on a write (POST, PUT, PATCH) from a signed-in caller.
 */
function middlewareErrors(method: string): ErrorCode[] {
  const writes = method === 'post' || method === 'put' || method === 'patch';
  return writes ? ['PAYLOAD-TOO-LARGE-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR'] : [];
}

/**
 * A route that needs a signed-in caller (personal API key or session). Adds the bearer security
 * requirement, the auth middleware and the documented auth/validation/rate-limit errors;
 * `authorization` is the route's class, written into the document as `x-authorization`.
 */
export function authRoute<const R extends RouteConfig>(
  config: R & Extra & { authorization: Exclude<AuthorizationClass, 'public' | 'partner'> },
) {
  const { errors = [], authorization, ...rest } = config;
  return createRoute({
    ...rest,
    'x-authorization': authorization,
    security: [{ bearerAuth: [] }],
    middleware: [requireAuth, ...((rest.middleware as MiddlewareHandler[] | undefined) ?? [])],
    responses: { ...rest.responses, ...errorResponses(...AUTH_ERRORS, ...middlewareErrors(rest.method), ...errors) },
  } as unknown as R);
}

/** A route open to anyone: declares an empty security requirement, so generators send no credentials. */
export function publicRoute<const R extends RouteConfig>(config: R & Extra) {
  const { errors = [], ...rest } = config;
  return createRoute({
    ...rest,
    'x-authorization': 'public' satisfies AuthorizationClass,
    security: [],
    responses: { ...rest.responses, ...errorResponses(...PUBLIC_ERRORS, ...middlewareErrors(rest.method), ...errors) },
  } as unknown as R);
}

/** A required path parameter, documented under its own name; ids are short, so it is bounded. */
export const pathParam = (name: string) =>
  z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name, in: 'path' } });

/** A 1/0 flag as responses write it; defined in lib so the services' response schemas share it. */
export { flag01 } from '../lib/flags';

/** The `{id}` path parameter most routes take. */
export const idParam = z.object({ id: pathParam('id') });
