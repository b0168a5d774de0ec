import type { OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { sha256Hex } from '../../lib/crypto';
import { errorFields } from '../../lib/log';
import { auditInsert, type ServiceContext } from '../kernel';
import { grantOf } from './grants';

/**
 * What the app remembers beside the OAuth provider's own records (OAUTH_KV, under keys of our own:
 * the provider never reads them, and we never read or write its keys), for the rules it adds to the
 * agent tool server's token and registration endpoints (docs/decisions/mcp.md):
 * - every refresh token issued (by its SHA-256, never the token), and when it was
 *   exchanged: presented again, it is a reuse and the grant is revoked (OAuth 2.1, RFC 9700 4.14.2);
 * - a step-up asked of a grant (the 403 `insufficient_scope` named a scope it lacks), so that a refresh
 *   which cannot bring that scope is refused instead of answered with the same narrow token;
 * - dynamically registered clients that never got a token, which the maintenance cron deletes after
 *   UNUSED_CLIENT_DAYS.
 */

/** A refresh token's record lives as long as the longest grant (the provider's refreshTokenTTL). */
export const REFRESH_RECORD_TTL_SECONDS = 30 * 24 * 3600;
/** A step-up asked of a grant is remembered this long (the client refreshes at once when it steps up). */
export const STEP_UP_TTL_SECONDS = 300;
/** A registration that got no token for this many days is deleted (the client registers again). */
export const UNUSED_CLIENT_DAYS = 7;
/** At most this many unused registrations are deleted per sweep (each deletion scans the grants). */
export const UNUSED_CLIENT_SWEEP_MAX = 20;

const REFRESH_PREFIX = 'mcp-rt:';
const STEP_UP_PREFIX = 'mcp-stepup:';
const UNUSED_CLIENT_PREFIX = 'mcp-client-unused:';

interface RefreshRecord {
  user_id: string;
  grant_id: string;
  /** Epoch ms of its exchange; null while it is the grant's live refresh token. */
  used_at: number | null;
}

/** `userId:grantId:secret`, the provider's token shape; null for anything else. */
export function tokenOwner(token: string): { userId: string; grantId: string } | null {
  const parts = token.split(':');
  if (parts.length !== 3 || !parts[0] || !parts[1] || !parts[2]) return null;
  return { userId: parts[0], grantId: parts[1] };
}

const refreshKey = async (token: string) => `${REFRESH_PREFIX}${await sha256Hex(token)}`;

/** The record of a refresh token this app saw issued, or null (unknown, or issued before records were kept). */
export async function refreshRecord(ctx: ServiceContext, token: string): Promise<RefreshRecord | null> {
  return ctx.env.OAUTH_KV.get<RefreshRecord>(await refreshKey(token), 'json');
}

/** Records a refresh token the token endpoint just issued. Best effort: a failed write only loses its reuse check. */
export async function recordIssuedRefreshToken(ctx: ServiceContext, token: string): Promise<void> {
  const owner = tokenOwner(token);
  if (!owner) return;
  const record: RefreshRecord = { user_id: owner.userId, grant_id: owner.grantId, used_at: null };
  try {
    await ctx.env.OAUTH_KV.put(await refreshKey(token), JSON.stringify(record), { expirationTtl: REFRESH_RECORD_TTL_SECONDS });
  } catch (err) {
    ctx.log.error('refresh token record not written', errorFields(err));
  }
}

/** Marks a refresh token exchanged: from now on, presenting it again is a reuse. */
export async function markRefreshTokenUsed(ctx: ServiceContext, token: string): Promise<void> {
  const owner = tokenOwner(token);
  if (!owner) return;
  const record: RefreshRecord = { user_id: owner.userId, grant_id: owner.grantId, used_at: ctx.now() };
  try {
    await ctx.env.OAUTH_KV.put(await refreshKey(token), JSON.stringify(record), { expirationTtl: REFRESH_RECORD_TTL_SECONDS });
  } catch (err) {
    ctx.log.error('refresh token use not recorded', errorFields(err));
  }
}

/**
 * A refresh token of a grant was presented after it was exchanged, or the provider refused one this
 * app saw issued: someone holds a copy. The whole grant goes (every access and refresh token of it),
 * with an audit row; the person connects the app again.
 */
export async function revokeGrantOnReuse(ctx: ServiceContext, oauth: OAuthHelpers, record: RefreshRecord): Promise<void> {
  const grant = await grantOf(oauth, record.user_id, record.grant_id);
  if (!grant) return; // revoked or expired already
  await oauth.revokeGrant(grant.id, record.user_id);
  ctx.log.warn('refresh token reused: grant revoked', { user_id: record.user_id, grant_id: grant.id });
  await auditInsert(
    ctx,
    'agent_grant.revoke',
    { type: 'agent_grant', id: grant.id },
    { reason: 'refresh_token_reuse', user_id: record.user_id, client_id: grant.clientId.slice(0, 200) },
  );
}

/** Remembers that a token of this grant was told it needs `scopes` (the 403 insufficient_scope). */
export async function rememberStepUp(ctx: ServiceContext, accessToken: string, scopes: readonly string[]): Promise<void> {
  const owner = tokenOwner(accessToken);
  if (!owner) return;
  try {
    await ctx.env.OAUTH_KV.put(`${STEP_UP_PREFIX}${owner.userId}:${owner.grantId}`, JSON.stringify(scopes), {
      expirationTtl: STEP_UP_TTL_SECONDS,
    });
  } catch (err) {
    ctx.log.error('step-up not recorded', errorFields(err));
  }
}

/** The scopes a grant was recently told it needs, if any. */
export async function pendingStepUp(ctx: ServiceContext, userId: string, grantId: string): Promise<string[] | null> {
  return ctx.env.OAUTH_KV.get<string[]>(`${STEP_UP_PREFIX}${userId}:${grantId}`, 'json');
}

/** The scopes of a grant as the provider keeps them, or null when it is gone. */
export async function grantScopes(oauth: OAuthHelpers, userId: string, grantId: string): Promise<string[] | null> {
  return (await grantOf(oauth, userId, grantId))?.scope ?? null;
}

/** A client just registered dynamically: unused until it gets its first token. */
export async function recordRegisteredClient(ctx: ServiceContext, clientId: string, registeredAt: number): Promise<void> {
  try {
    await ctx.env.OAUTH_KV.put(`${UNUSED_CLIENT_PREFIX}${clientId}`, '', {
      metadata: { registered_at: registeredAt },
      // Outlives the sweep's deadline, so a marker never vanishes before its client is deleted.
      expirationTtl: (UNUSED_CLIENT_DAYS + 7) * 24 * 3600,
    });
  } catch (err) {
    ctx.log.error('client registration not recorded', errorFields(err));
  }
}

/** A client got a token (a code exchanged): it is in use and stays. */
export async function recordClientUsed(ctx: ServiceContext, clientId: string): Promise<void> {
  try {
    await ctx.env.OAUTH_KV.delete(`${UNUSED_CLIENT_PREFIX}${clientId}`);
  } catch (err) {
    ctx.log.error('client use not recorded', errorFields(err));
  }
}

/**
 * The maintenance cron: deletes dynamically registered clients that got no token within
 * UNUSED_CLIENT_DAYS of registering (through the provider's deleteClient, which also revokes any
 * grant of them), at most UNUSED_CLIENT_SWEEP_MAX per run, oldest first. Clients in use are kept by
 * the provider's own rule (a registration unused for 90 days expires; each token exchange renews it).
 */
export async function expireUnusedClients(ctx: ServiceContext, oauth: OAuthHelpers): Promise<{ deleted: number }> {
  const cutoff = Math.floor(ctx.now() / 1000) - UNUSED_CLIENT_DAYS * 24 * 3600;
  const due: Array<{ clientId: string; at: number }> = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.env.OAUTH_KV.list<{ registered_at?: number }>({ prefix: UNUSED_CLIENT_PREFIX, ...(cursor ? { cursor } : {}) });
    for (const key of page.keys) {
      const at = key.metadata?.registered_at;
      if (typeof at === 'number' && at <= cutoff) due.push({ clientId: key.name.slice(UNUSED_CLIENT_PREFIX.length), at });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor && due.length < UNUSED_CLIENT_SWEEP_MAX * 10);
  due.sort((a, b) => a.at - b.at);
  let deleted = 0;
  for (const { clientId } of due.slice(0, UNUSED_CLIENT_SWEEP_MAX)) {
    await oauth.deleteClient(clientId);
    await ctx.env.OAUTH_KV.delete(`${UNUSED_CLIENT_PREFIX}${clientId}`);
    deleted++;
  }
  return { deleted };
}
