import { and, eq, lt } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { PARTNER_SCOPES, type PartnerScope, partnerClients, partnerTokens } from '../../db/schema';
import type { ServiceContext } from '../kernel';
import { clientSecretMatches, mintToken } from './credentials';
import type { OAuthErrorBody, OAuthErrorCode, TokenRequest, TokenResponse } from './schemas';

/** Expired tokens are deleted a day after they expire, by the next token request of their client. */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

export type TokenResult = { ok: true; body: TokenResponse } | { ok: false; status: 400 | 401; body: OAuthErrorBody; challenge: boolean };

const fail = (error: OAuthErrorCode, description: string, challenge = false): TokenResult => ({
  ok: false,
  status: error === 'invalid_client' ? 401 : 400,
  body: { error, error_description: description },
  challenge,
});

/** `Authorization: Basic` client credentials (RFC 6749 §2.3.1: each part form-urlencoded), or null when malformed. */
export function parseBasic(header: string): { clientId: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m?.[1]) return null;
  try {
    const decoded = atob(m[1]);
    const at = decoded.indexOf(':');
    if (at < 0) return null;
    const form = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
    return { clientId: form(decoded.slice(0, at)), secret: form(decoded.slice(at + 1)) };
  } catch {
    return null;
  }
}

/**
 * The client-credentials grant (RFC 6749 §4.4): the client authenticates with its id and secret
 * (HTTP Basic or the form, never both) and gets a short-lived opaque bearer token for the scopes it
 * asks, a subset of its own (all of them when it asks none). Refusals are the RFC's: invalid_request,
 * invalid_client (401; with a Basic challenge when Basic was used), unsupported_grant_type, invalid_scope.
 */
export async function issueClientToken(ctx: ServiceContext, authorization: string | undefined, form: TokenRequest): Promise<TokenResult> {
  if (!form.grant_type) return fail('invalid_request', 'grant_type is required.');
  if (form.grant_type !== 'client_credentials') return fail('unsupported_grant_type', 'Only grant_type=client_credentials is supported.');

  let clientId: string | undefined;
  let secret: string | undefined;
  const basic = authorization !== undefined;
  if (basic) {
    if (form.client_secret !== undefined) return fail('invalid_request', 'Send the client secret once: HTTP Basic or the form, not both.');
    const parsed = parseBasic(authorization);
    if (!parsed) return fail('invalid_client', 'The Authorization header must be HTTP Basic with client_id:client_secret.', true);
    if (form.client_id !== undefined && form.client_id !== parsed.clientId)
      return fail('invalid_request', 'client_id differs from the Basic credentials.');
    ({ clientId, secret } = parsed);
  } else {
    clientId = form.client_id;
    secret = form.client_secret;
  }
  if (!clientId || !secret) return fail('invalid_client', 'Client authentication is required: client_id and client_secret.', basic);

  const now = ctx.now();
  const [client] = await ctx.db.select().from(partnerClients).where(eq(partnerClients.id, clientId)).limit(1);
  // One answer for an unknown client, a wrong secret and a disabled client.
  if (client?.status !== 'active' || !(await clientSecretMatches(ctx.db, client.id, secret, now))) {
    return fail('invalid_client', 'Client authentication failed.', basic);
  }

  const asked = (form.scope ?? '').split(' ').filter(Boolean);
  const unknown = asked.filter((s) => !(PARTNER_SCOPES as readonly string[]).includes(s) || !client.scopes.includes(s as PartnerScope));
  if (unknown.length) return fail('invalid_scope', `Not among this client's scopes: ${unknown.join(' ')}.`);
  const scopes = asked.length ? client.scopes.filter((s) => asked.includes(s)) : client.scopes;

  const ttl = ctx.settings.PARTNER_TOKEN_TTL_SECONDS;
  const { token, row } = await mintToken(client.id, scopes, now, ttl);
  await runBatch(ctx.db, [
    ctx.db.insert(partnerTokens).values(row),
    ctx.db.delete(partnerTokens).where(and(eq(partnerTokens.client_id, client.id), lt(partnerTokens.expires_at, now - KEEP_EXPIRED_MS))),
  ]);
  return { ok: true, body: { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') } };
}
