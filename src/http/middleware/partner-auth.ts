import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { AppError, type ErrorCode, errorResponses } from '../../lib/errors';
import { asPartner, assertPartnerScope } from '../../services/access';
import {
  looksLikePartnerToken,
  PARTNER_TOKEN_PREFIX,
  partnerUseIsStale,
  resolvePartnerKey,
  resolvePartnerToken,
  tierLimit,
  touchPartnerKey,
} from '../../services/partners';
import { consumeRateLimit, type PartnerScope, rateLimitError, rateLimitHeaders } from '../../services/kernel';
import type { AppEnv } from '../app-types';
import type { AuthorizationClass } from '../openapi';

/** The OAuth token route: the client authenticates itself there (Basic or form), not through this middleware. */
export const PARTNER_TOKEN_PATH = '/v1/partner/oauth/token';
const PARTNER_PREFIX = '/v1/partner/';

/** The token route, with or without a trailing slash (the router matches both). */
const isTokenRoute = (c: Context<AppEnv>) => c.req.path.replace(/\/+$/, '') === PARTNER_TOKEN_PATH;

/**
 * True when the request is the partner surface's to authenticate: under /v1/partner/, an `x-api-key`
 * header, an `Authorization: Bearer smpt_…` partner token, or the token route. resolveAuth (auth.ts)
 * asks this first and hands such requests to `resolvePartnerAuth`; everything else there (the client
 * management routes under /v1/partner/clients, which take the owner's personal key or session) is
 * a person's request as usual. Outside /v1/partner/ partner credentials are not read at all.
 */
export function carriesPartnerAuth(c: Context<AppEnv>): boolean {
  if (!c.req.path.startsWith(PARTNER_PREFIX)) return false;
  if (isTokenRoute(c)) return true;
  if (c.req.header('x-api-key') !== undefined) return true;
  return (c.req.header('Authorization') ?? '').trim().startsWith(`Bearer ${PARTNER_TOKEN_PREFIX}`);
}

const bearer = (header: string) => /^Bearer ([^\s]+)$/.exec(header.trim())?.[1];

/**
 * Resolves a partner credential: `x-api-key: smp_…` or `Authorization: Bearer smpt_…` (an OAuth
 * access token). Unknown, revoked, expired or of a disabled client: 401 AUTH-REQ-ERR; both headers at
 * once: 401 too (one credential per request). The actor becomes `{ kind: 'partner', partnerId, scopes,
 * tier, via, credentialId }`. Every request is counted against the client (all its credentials
 * together) with its tier's budget; every answer, errors included, carries the X-RateLimit-* headers,
 * and past the budget 429 RATE-LIMIT-ERR with Retry-After.
 */
export const resolvePartnerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isTokenRoute(c)) return next();
  const apiKey = c.req.header('x-api-key');
  const authorization = c.req.header('Authorization');
  if (apiKey !== undefined && authorization !== undefined) {
    throw new AppError('AUTH-REQ-ERR', 'Send one credential: x-api-key or Authorization, not both.');
  }
  const db = c.get('db');
  const now = Date.now();
  let cred: Awaited<ReturnType<typeof resolvePartnerKey>>;
  if (apiKey !== undefined) {
    cred = await resolvePartnerKey(db, apiKey.trim(), now);
    if (!cred) throw new AppError('AUTH-REQ-ERR', 'The x-api-key is unknown, revoked or expired, or its client is disabled.');
  } else {
    const token = bearer(authorization ?? '');
    cred = token && looksLikePartnerToken(token) ? await resolvePartnerToken(db, token, now) : null;
    if (!cred) throw new AppError('AUTH-REQ-ERR', 'The partner access token is unknown, revoked or expired, or its client is disabled.');
  }

  const budget = tierLimit(c.get('settings'), cred.tier);
  const limit = await consumeRateLimit(c.env, `partner:${cred.clientId}`, budget.limit, budget.windowSeconds);
  if (!limit.allowed) throw rateLimitError(limit, `Rate limit exceeded for this partner client (${cred.tier} tier).`, true);
  c.set('actor', {
    kind: 'partner',
    partnerId: cred.clientId,
    scopes: cred.scopes,
    tier: cred.tier,
    via: cred.via,
    credentialId: cred.credentialId,
  });
  if (cred.via === 'api_key' && partnerUseIsStale(cred.lastUsedAt, now)) {
    c.executionCtx.waitUntil(
      touchPartnerKey(db, cred.credentialId, now)
        .run()
        .catch(() => undefined),
    );
  }
  await next();
  for (const [k, v] of Object.entries(rateLimitHeaders(limit))) c.res.headers.set(k, v);
};

/**
 * Route guard: the caller is a partner client whose credential carries `scope` (when given). A person's
 * key or session is 401 AUTH-REQ-ERR here; a missing scope 403 SCOPE-ERR naming it. Which businesses
 * the partner reaches is the service's to check, through `partnerBusiness` (services/access/partner.ts).
 */
export function requirePartner(scope?: PartnerScope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = asPartner(c.get('actor'));
    if (scope) assertPartnerScope(actor, scope);
    return next();
  };
}

/** The security requirement of a partner route: an x-api-key, or an OAuth token carrying `scope`. */
export function partnerSecurity(scope?: PartnerScope) {
  return [{ partnerApiKey: [] }, { partnerOAuth: scope ? [scope] : [] }];
}

/** Codes every partner route can answer with (credentials, scope, rate limit). */
export const PARTNER_ERRORS: ErrorCode[] = ['VALIDATION-ERR', 'AUTH-REQ-ERR', 'SCOPE-ERR', 'RATE-LIMIT-ERR', 'INTERNAL-ERR'];

/** What a partner route adds to a plain RouteConfig (like authRoute's; `scope` is the one it needs). */
type PartnerExtra = { operationId: string; scope?: PartnerScope; errors?: ErrorCode[] };

/**
 * A route for partner clients (under /v1/partner/): declares the partnerApiKey / partnerOAuth
 * security with its scope, adds the `requirePartner(scope)` guard and the documented errors (a POST
 * also 413 and the Idempotency-Key conflicts, as for people). The handler calls a service that
 * reaches businesses only through `partnerBusiness`.
 */
export function partnerRoute<const R extends RouteConfig>(config: R & PartnerExtra) {
  const { errors = [], scope, ...rest } = config;
  const extra: ErrorCode[] =
    rest.method === 'post'
      ? ['PAYLOAD-TOO-LARGE-ERR', 'IDEMPOTENCY-MISMATCH-ERR', 'IDEMPOTENCY-IN-PROGRESS-ERR']
      : rest.method === 'put' || rest.method === 'patch'
        ? ['PAYLOAD-TOO-LARGE-ERR']
        : [];
  return createRoute({
    ...rest,
    'x-authorization': 'partner' satisfies AuthorizationClass,
    security: partnerSecurity(scope),
    middleware: [requirePartner(scope), ...((rest.middleware as MiddlewareHandler[] | undefined) ?? [])],
    responses: { ...rest.responses, ...errorResponses(...PARTNER_ERRORS, ...extra, ...errors) },
  } as unknown as R);
}
