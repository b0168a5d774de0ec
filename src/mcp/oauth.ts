import {
  getOAuthApi,
  type OAuthHelpers,
  OAuthProvider,
  type ResolveExternalTokenInput,
  type ResolveExternalTokenResult,
} from '@cloudflare/workers-oauth-provider';
import type { Context } from 'hono';
import { createDb } from '../db/client';
import { type AppBindings, getSettings, type Settings } from '../env';
import type { AppEnv } from '../http/app-types';
import { looksLikeApiKey, resolveApiKey } from '../services/accounts';
import { REFRESH_RECORD_TTL_SECONDS } from '../services/agents';
import { boundRegistration, registrationEndpoint, tokenEndpoint } from './oauth-endpoints';
import { MCP_SCOPES, type PersonalKeyProps } from './caller';
import { MCP_ROUTE, mcpApiHandler } from './server';

/**
 * OAuth 2.1 for the agent tool server (spec 5.3), with @cloudflare/workers-oauth-provider wrapping the
 * whole Worker (src/index.ts): it serves the authorization-server and protected-resource metadata,
 * the token endpoint (code exchange with S256 PKCE only, refresh with rotation, revocation), dynamic
 * client registration for older clients, Client ID Metadata Documents, and checks every request to
 * /v1/mcp/ for a token bound to this server as audience. The consent page is ours
 * (web/features/oauth). Every other route reaches the app untouched, personal API keys included.
 */

/** The protected resource (token audience) for requests reaching this origin, or null: not served here. */
export function resourceFor(origin: string): string | null {
  const url = new URL(origin);
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return null;
  return `${url.origin}${MCP_ROUTE}`;
}

async function resolveExternalToken({
  token,
  request,
  env,
}: ResolveExternalTokenInput<AppBindings>): Promise<ResolveExternalTokenResult | null> {
  if (!looksLikeApiKey(token)) return null;
  const resource = resourceFor(new URL(request.url).origin);
  if (!resource) return null;
  const cred = await resolveApiKey(createDb(env.DB), token);
  if (!cred) return null;
  const props: PersonalKeyProps = { kind: 'personal_key', user_id: cred.userId, key_id: cred.credentialId };
  return { props, audience: resource };
}

const providers = new Map<string, OAuthProvider<AppBindings>>();

function authOriginFor(origin: string, settings: Settings): string {
  const raw = settings.AUTH_URL?.trim();
  return raw ? new URL(raw).origin : origin;
}

/** The provider for one origin (cached): its resource is that origin's /v1/mcp/. */
export function providerFor(origin: string, env: AppBindings, app: { fetch: WorkerFetch }): OAuthProvider<AppBindings> | null {
  const resource = resourceFor(origin);
  if (!resource) return null;
  const settings = getSettings(env);
  const authOrigin = authOriginFor(origin, settings);
  const cacheKey = `${origin} ${authOrigin}`;
  const hit = providers.get(cacheKey);
  if (hit) return hit;
  const provider = new OAuthProvider<AppBindings>({
    apiRoute: MCP_ROUTE,
    apiHandler: mcpApiHandler as never,
    defaultHandler: app as never,
    authorizeEndpoint: authOrigin === origin ? '/oauth/authorize' : `${authOrigin}/oauth/authorize`,
    tokenEndpoint: '/oauth/token',
    clientRegistrationEndpoint: '/oauth/register',
    scopesSupported: [...MCP_SCOPES],
    // The protected resource advertises every scope (its metadata and the 401's scope=), so a client
    // asks for all of them and the person chooses on the consent page; a 403 names what is missing.
    requiredScopes: [...MCP_SCOPES],
    resourceMetadata: { resource, resource_name: 'Shiftmarket agent tools' } as never,
    resolveExternalToken,
    accessTokenTTL: 3600,
    refreshTokenTTL: REFRESH_RECORD_TTL_SECONDS,
    // A registration unused for 90 days expires (each token exchange renews it); one that never got a
    // token is deleted sooner by the maintenance cron (services/agents: expireUnusedClients).
    clientRegistrationTTL: 90 * 24 * 3600,
    clientRegistrationCallback: boundRegistration,
    clientIdMetadataDocumentEnabled: cimdAvailable(),
  });
  if (providers.size > 32) providers.clear();
  providers.set(cacheKey, provider);
  return provider;
}

/** CIMD needs the global_fetch_strictly_public flag (wrangler.toml); the provider refuses it otherwise. */
function cimdAvailable(): boolean {
  const flags = (globalThis as { Cloudflare?: { compatibilityFlags?: Record<string, boolean> } }).Cloudflare?.compatibilityFlags;
  return flags?.global_fetch_strictly_public === true;
}

/** The provider's helpers, which it hands the default handler as env.OAUTH_PROVIDER. */
export function oauthHelpers(c: Context<AppEnv>): OAuthHelpers | undefined {
  return (c.env as AppBindings & { OAUTH_PROVIDER?: OAuthHelpers }).OAUTH_PROVIDER;
}

/** Where the helpers' own copy stands in for the resource: see grantHelpers. */
const GRANT_STORE_RESOURCE = 'https://localhost/v1/mcp/';

/**
 * The provider's helpers for a person's grants. Grants and their tokens live in OAUTH_KV keyed by user
 * and grant, whatever the origin, so where the provider did not take the request (an origin the MCP
 * server is not served from, e.g. plain http) the same helpers are built over the same storage; only
 * listing, client lookup and revocation are used from them, none of which reads the resource.
 */
export function grantHelpers(env: AppBindings): OAuthHelpers {
  const own = (env as AppBindings & { OAUTH_PROVIDER?: OAuthHelpers }).OAUTH_PROVIDER;
  if (own) return own;
  return getOAuthApi<AppBindings>(
    {
      apiRoute: MCP_ROUTE,
      apiHandler: mcpApiHandler as never,
      defaultHandler: { fetch: () => new Response(null, { status: 404 }) } as never,
      authorizeEndpoint: '/oauth/authorize',
      tokenEndpoint: '/oauth/token',
      scopesSupported: [...MCP_SCOPES],
      resourceMetadata: { resource: GRANT_STORE_RESOURCE } as never,
    },
    env,
  );
}

/**
 * The Worker's fetch: `/v1/mcp` is served as `/v1/mcp/`; on an origin the MCP server can be served
 * from (https, or http on loopback) the provider takes the request, anywhere else the app does.
 */
/**
 * The provider puts its helpers on `env.OAUTH_PROVIDER` once and reuses them, so each provider (one per
 * origin) gets its own view of the env: the bindings through the prototype, its helpers on top.
 */
const envViews = new WeakMap<AppBindings, WeakMap<OAuthProvider<AppBindings>, AppBindings>>();
function envFor(env: AppBindings, provider: OAuthProvider<AppBindings>): AppBindings {
  let views = envViews.get(env);
  if (!views) {
    views = new WeakMap();
    envViews.set(env, views);
  }
  let view = views.get(provider);
  // An own OAUTH_PROVIDER from the start: an assignment then stays on the view, even where env is a
  // proxy whose set trap would otherwise write it through to the shared env.
  if (!view) {
    view = Object.create(env, {
      OAUTH_PROVIDER: { value: undefined, writable: true, configurable: true, enumerable: false },
    }) as AppBindings;
    views.set(provider, view);
  }
  return view;
}

export type WorkerFetch = (request: Request, env: AppBindings, ctx: ExecutionContext) => Response | Promise<Response>;

export function withOAuth(app: { fetch: WorkerFetch }): (request: Request, env: AppBindings, ctx: ExecutionContext) => Promise<Response> {
  return async (request, env, ctx) => {
    const url = new URL(request.url);
    let req = request;
    if (url.pathname === '/v1/mcp') {
      url.pathname = MCP_ROUTE;
      req = new Request(url, request);
    }
    const provider = providerFor(url.origin, env, app);
    if (!provider) return app.fetch(req, env, ctx);
    const view = envFor(env, provider);
    const forward = (r: Request) => provider.fetch(r as Parameters<OAuthProvider<AppBindings>['fetch']>[0], view, ctx);
    if (req.method === 'POST' && url.pathname === '/oauth/token') return tokenEndpoint(req, env, ctx, grantHelpers(env), forward);
    if (req.method === 'POST' && url.pathname === '/oauth/register') return registrationEndpoint(req, env, ctx, forward);
    return forward(req);
  };
}
