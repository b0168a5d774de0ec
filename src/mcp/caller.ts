import type { OAuthResourceAuth } from '@cloudflare/workers-oauth-provider';
import type { Db } from '../db/client';
import type { AppBindings, Settings } from '../env';
import { sha256Hex } from '../lib/crypto';
import { accountRights } from '../services/accounts';
import { consumeRateLimit, rateLimitHeaders } from '../services/kernel';
import type { McpCaller } from './register';
import type { ToolScope } from '@shiftmarket/tool-specs';

/**
 * Who calls the agent tool server: what a grant or a personal key carries (the provider in oauth.ts
 * verifies it and hands it over as the request's props) and the caller the server (server.ts) acts for.
 */

export const MCP_SCOPES = ['read', 'write', 'payment'] as const satisfies readonly ToolScope[];

/** What a grant (and every token of it) carries; the token's own scopes may be narrower. */
export interface GrantProps {
  kind: 'oauth';
  user_id: string;
  scopes: ToolScope[];
  acting_as: 'human';
}

/** A personal API key presented on the MCP endpoint (personal automation, all three scopes). */
export interface PersonalKeyProps {
  kind: 'personal_key';
  user_id: string;
  key_id: string;
}

export type TokenProps = GrantProps | PersonalKeyProps;

export function isToolScope(s: string): s is ToolScope {
  return (MCP_SCOPES as readonly string[]).includes(s);
}

function refusal(status: 401 | 403, error: string, description: string, resource: string | null): Response {
  const headers = new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  if (status === 401 && resource) {
    const url = new URL(resource);
    headers.set(
      'WWW-Authenticate',
      `Bearer error="${error}", error_description="${description}", resource_metadata="${url.origin}/.well-known/oauth-protected-resource${url.pathname}"`,
    );
  }
  return new Response(JSON.stringify({ error, error_description: description }), { status, headers });
}

export type ResolvedCaller = { ok: true; caller: McpCaller; headers: Record<string, string> } | { ok: false; response: Response };

/**
 * The caller of an MCP request, from what the provider verified: an OAuth token gives the agent actor
 * (`acting_as` must be `human`), with the token's own scopes; a personal key gives the user, with all
 * three. Both count against a rate budget of the account (personal key: the key's, agents: their own).
 */
export async function resolveCaller(
  db: Db,
  props: TokenProps | undefined,
  auth: OAuthResourceAuth | undefined,
  env: AppBindings,
  settings: Settings,
): Promise<ResolvedCaller> {
  const resource = auth?.audience ?? null;
  if (!props || typeof props.user_id !== 'string')
    return { ok: false, response: refusal(401, 'invalid_token', 'Unknown credential', resource) };
  // As for every credential (services/accounts/credentials.ts): a demo account is never a full admin.
  const rights = await accountRights(db, props.user_id);
  if (!rights) return { ok: false, response: refusal(401, 'invalid_token', 'The account no longer exists', resource) };

  let caller: McpCaller;
  let subject: string;
  if (props.kind === 'personal_key') {
    caller = {
      actor: { kind: 'user', userId: props.user_id, via: 'api_key', credentialId: props.key_id, ...rights },
      tokenId: props.key_id,
      scopes: [...MCP_SCOPES],
    };
    subject = `user:${props.user_id}`;
  } else {
    if (props.acting_as !== 'human')
      return { ok: false, response: refusal(403, 'invalid_token', 'Tokens acting as an agent are not accepted', resource) };
    const scopes = (auth?.scope ?? []).filter(isToolScope);
    const tokenId = auth?.token ? await sha256Hex(auth.token) : 'unknown';
    caller = { actor: { kind: 'agent', userId: props.user_id, tokenId, scopes, ...rights }, tokenId, scopes };
    subject = `agent:${props.user_id}`;
  }
  const limit = await consumeRateLimit(env, subject, settings.API_KEY_RATE_LIMIT, settings.API_KEY_RATE_WINDOW_SECONDS);
  const headers = rateLimitHeaders(limit);
  if (!limit.allowed) {
    return {
      ok: false,
      response: Response.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'RATE-LIMIT-ERR: too many requests; see Retry-After.' }, id: null },
        { status: 429, headers: { ...headers, 'Retry-After': String(limit.retryAfter) } },
      ),
    };
  }
  return { ok: true, caller, headers };
}
