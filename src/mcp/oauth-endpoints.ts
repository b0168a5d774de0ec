import type { ClientRegistrationCallbackOptions, ClientRegistrationCallbackResult, OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import type { AppBindings } from '../env';
import {
  grantScopes,
  markRefreshTokenUsed,
  pendingStepUp,
  recordClientUsed,
  recordIssuedRefreshToken,
  recordRegisteredClient,
  refreshRecord,
  revokeGrantOnReuse,
  tokenOwner,
} from '../services/agents';
import { consumeRateLimit, rateLimitHeaders, type ServiceContext, systemContext } from '../services/kernel';

/**
 * What the app adds in front of the OAuth provider's token and registration endpoints (the provider
 * still answers everything it answers; docs/decisions/mcp.md "Token and registration endpoints"):
 * - a budget per client address on each (429 `temporarily_unavailable` with Retry-After, OAuth's
 *   error shape, as the provider answers its own storage limits);
 * - refresh tokens: a token presented after it was exchanged revokes its grant; a refresh asking for
 *   a scope the grant lacks is `invalid_scope` (the provider would quietly narrow it); a scope-less
 *   refresh right after a step-up challenge that cannot bring the challenged scope is `invalid_grant`,
 *   so the client authorizes again instead of retrying with the same token;
 * - registrations: bounded fields (`invalid_client_metadata`, RFC 7591 3.2.2), and a record of
 *   clients that never got a token, for the maintenance cron to delete.
 */

/** Per client address: code exchanges, refreshes and revocations together. */
export const TOKEN_ROUTE_LIMIT = { limit: 60, windowSeconds: 600 } as const;
/** Per client address: dynamic client registrations. */
export const REGISTRATION_LIMIT = { limit: 10, windowSeconds: 3600 } as const;
/** A token request is a short form; a longer one is refused before it is read further. */
const TOKEN_FORM_MAX_BYTES = 16 * 1024;

/** Bounds of a dynamic registration (RFC 7591 metadata). */
export const REGISTRATION_BOUNDS = {
  /** The whole metadata document, as JSON. */
  documentChars: 8 * 1024,
  fields: 40,
  localizedFields: 10,
  nameChars: 100,
  uriChars: 512,
  redirectUris: 10,
  contacts: 5,
  contactChars: 254,
  listEntries: 10,
  entryChars: 100,
  scopeChars: 200,
  /** Any other string field; any other list. */
  otherChars: 1000,
  otherEntries: 20,
} as const;

const URI_FIELDS = new Set(['logo_uri', 'client_uri', 'policy_uri', 'tos_uri', 'jwks_uri']);

/** The client's address as Cloudflare reports it (absent locally, where every caller shares one budget). */
function clientAddress(request: Request): string {
  return request.headers.get('CF-Connecting-IP')?.trim() || 'unknown';
}

/** The provider's CORS answer for its endpoints, for the answers given here instead of it. */
function withCors(res: Response, request: Request): Response {
  const origin = request.headers.get('Origin');
  if (!origin) return res;
  res.headers.set('Access-Control-Allow-Origin', origin);
  res.headers.set('Access-Control-Allow-Methods', '*');
  res.headers.set('Access-Control-Allow-Headers', 'Authorization, *');
  res.headers.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Retry-After');
  res.headers.append('Vary', 'Origin');
  return res;
}

function oauthError(request: Request, status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  const res = new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers },
  });
  return withCors(res, request);
}

async function overBudget(
  env: AppBindings,
  request: Request,
  what: string,
  budget: { limit: number; windowSeconds: number },
  message: string,
): Promise<Response | null> {
  const r = await consumeRateLimit(env, `${what}-ip:${clientAddress(request)}`, budget.limit, budget.windowSeconds);
  if (r.allowed) return null;
  return oauthError(request, 429, 'temporarily_unavailable', `RATE-LIMIT-ERR: ${message} Retry after ${r.retryAfter} seconds.`, {
    ...rateLimitHeaders(r),
    'Retry-After': String(r.retryAfter),
  });
}

/** The form of a token request, read from a copy (the provider reads the original); null when it is no form. */
async function readForm(request: Request): Promise<URLSearchParams | 'too_large' | null> {
  const type = (request.headers.get('Content-Type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded') || !request.body) return null;
  if (Number(request.headers.get('Content-Length') ?? '0') > TOKEN_FORM_MAX_BYTES) return 'too_large';
  const reader = request.clone().body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > TOKEN_FORM_MAX_BYTES) {
      await reader.cancel();
      return 'too_large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

/** The client a token request names: `client_id` in the form, or HTTP Basic authentication. */
function clientIdOf(request: Request, form: URLSearchParams): string | null {
  const fromForm = form.get('client_id');
  if (fromForm) return fromForm;
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('Authorization') ?? '')?.[1];
  if (!basic) return null;
  try {
    const decoded = atob(basic);
    const colon = decoded.indexOf(':');
    return colon > 0 ? decodeURIComponent(decoded.slice(0, colon)) : null;
  } catch {
    return null;
  }
}

async function issuedRefreshToken(res: Response): Promise<string | null> {
  try {
    const body = (await res.clone().json()) as { refresh_token?: unknown };
    return typeof body.refresh_token === 'string' ? body.refresh_token : null;
  } catch {
    return null;
  }
}

async function errorCodeOf(res: Response): Promise<string | null> {
  try {
    const body = (await res.clone().json()) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : null;
  } catch {
    return null;
  }
}

const scopeList = (raw: string | null) => (raw ?? '').split(' ').filter(Boolean);

type Forward = (request: Request) => Promise<Response>;

/** POST /oauth/token. */
export async function tokenEndpoint(
  request: Request,
  env: AppBindings,
  exec: ExecutionContext,
  oauth: OAuthHelpers,
  forward: Forward,
): Promise<Response> {
  const limited = await overBudget(env, request, 'oauth-token', TOKEN_ROUTE_LIMIT, 'Too many token requests from this address.');
  if (limited) return limited;
  const form = await readForm(request);
  if (form === 'too_large') return oauthError(request, 400, 'invalid_request', 'The token request is larger than 16 KB.');
  if (!form) return forward(request);
  const ctx = systemContext(env, exec, 'oauth-token');
  const grantType = form.get('grant_type');
  if (grantType === 'refresh_token') return refreshGrant(ctx, request, form, oauth, forward);
  const res = await forward(request);
  if (grantType === 'authorization_code' && res.status === 200) {
    const issued = await issuedRefreshToken(res);
    if (issued) await recordIssuedRefreshToken(ctx, issued);
    const clientId = clientIdOf(request, form);
    if (clientId) await recordClientUsed(ctx, clientId);
  }
  return res;
}

async function refreshGrant(
  ctx: ServiceContext,
  request: Request,
  form: URLSearchParams,
  oauth: OAuthHelpers,
  forward: Forward,
): Promise<Response> {
  const token = form.get('refresh_token') ?? '';
  const owner = tokenOwner(token);
  if (!owner) return forward(request);
  const record = await refreshRecord(ctx, token);
  if (record?.used_at !== null && record?.used_at !== undefined) {
    await revokeGrantOnReuse(ctx, oauth, record);
    return oauthError(
      request,
      400,
      'invalid_grant',
      'This refresh token was used already, so a copy of it is in other hands: the grant is revoked. Ask the person to authorize again.',
    );
  }

  const asked = scopeList(form.get('scope'));
  const challenged = asked.length ? null : await pendingStepUp(ctx, owner.userId, owner.grantId);
  if (asked.length || challenged?.length) {
    const granted = await grantScopes(oauth, owner.userId, owner.grantId);
    if (granted) {
      const beyond = (asked.length ? asked : (challenged ?? [])).filter((s) => !granted.includes(s));
      if (beyond.length && asked.length)
        return oauthError(
          request,
          400,
          'invalid_scope',
          `The person did not grant ${beyond.join(' ')} to this app; a refresh cannot add it. Ask for it through the authorization endpoint.`,
        );
      if (beyond.length)
        return oauthError(
          request,
          400,
          'invalid_grant',
          `The grant lacks ${beyond.join(' ')}, which this app was just told it needs; a refresh cannot add it. Authorize again asking for it (this refresh token still works for what was granted).`,
        );
    }
  }

  const res = await forward(request);
  if (res.status === 200) {
    await markRefreshTokenUsed(ctx, token);
    const issued = await issuedRefreshToken(res);
    if (issued) await recordIssuedRefreshToken(ctx, issued);
  } else if (record && (await errorCodeOf(res)) === 'invalid_grant') {
    // A token this app saw issued, live a moment ago by its record, is no longer the grant's own.
    await revokeGrantOnReuse(ctx, oauth, record);
  }
  return res;
}

/** POST /oauth/register. */
export async function registrationEndpoint(
  request: Request,
  env: AppBindings,
  exec: ExecutionContext,
  forward: Forward,
): Promise<Response> {
  const limited = await overBudget(env, request, 'oauth-register', REGISTRATION_LIMIT, 'Too many client registrations from this address.');
  if (limited) return limited;
  const res = await forward(request);
  if (res.status === 201) {
    try {
      const body = (await res.clone().json()) as { client_id?: unknown; client_id_issued_at?: unknown };
      if (typeof body.client_id === 'string') {
        const at = typeof body.client_id_issued_at === 'number' ? body.client_id_issued_at : Math.floor(Date.now() / 1000);
        await recordRegisteredClient(systemContext(env, exec, 'oauth-register'), body.client_id, at);
      }
    } catch {
      // The provider's answer is passed on as it is; without a record the client is simply never swept.
    }
  }
  return res;
}

/** A field's problem, or null. */
function fieldProblem(key: string, value: unknown): string | null {
  const B = REGISTRATION_BOUNDS;
  const base = key.split('#')[0]!;
  const str = (max: number) => (typeof value === 'string' && value.length > max ? `${key} is longer than ${max} characters` : null);
  const list = (maxEntries: number, maxChars: number) => {
    if (!Array.isArray(value)) return null;
    if (value.length > maxEntries) return `${key} has more than ${maxEntries} entries`;
    const long = value.find((v) => typeof v === 'string' && v.length > maxChars);
    return long === undefined ? null : `an entry of ${key} is longer than ${maxChars} characters`;
  };
  if (base === 'client_name') return str(B.nameChars);
  if (URI_FIELDS.has(base)) return str(B.uriChars);
  if (base === 'redirect_uris') return list(B.redirectUris, B.uriChars);
  if (base === 'contacts') return list(B.contacts, B.contactChars);
  if (base === 'grant_types' || base === 'response_types') return list(B.listEntries, B.entryChars);
  if (base === 'scope') return str(B.scopeChars);
  return str(B.otherChars) ?? list(B.otherEntries, B.otherChars);
}

/** The provider's registration callback: refuses metadata past REGISTRATION_BOUNDS (400 invalid_client_metadata). */
export function boundRegistration({ clientMetadata }: ClientRegistrationCallbackOptions): ClientRegistrationCallbackResult | undefined {
  const B = REGISTRATION_BOUNDS;
  const refuse = (description: string): ClientRegistrationCallbackResult => ({ code: 'invalid_client_metadata', description, status: 400 });
  if (JSON.stringify(clientMetadata).length > B.documentChars)
    return refuse(`The client metadata is larger than ${B.documentChars} characters.`);
  const keys = Object.keys(clientMetadata);
  if (keys.length > B.fields) return refuse(`The client metadata has more than ${B.fields} fields.`);
  if (keys.filter((k) => k.includes('#')).length > B.localizedFields)
    return refuse(`The client metadata has more than ${B.localizedFields} localized fields.`);
  for (const k of keys) {
    const problem = fieldProblem(k, clientMetadata[k]);
    if (problem) return refuse(`${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
  }
  return undefined;
}
