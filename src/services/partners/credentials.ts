import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Settings } from '../../env';
import { type PartnerScope, type PartnerTier, partnerClients, partnerCredentials, partnerTokens } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';
import { newId, randomBase62 } from '../../lib/ids';

/**
 * Partner secrets. All three are high-entropy random strings, so, like personal keys
 * (services/accounts/credentials.ts), only a SHA-256 is stored and a lookup is one indexed read.
 *
 * - `x-api-key`: `smp_` + 40 base62 (≈238 bits), the first 12 characters shown as its prefix.
 * - OAuth client secret: `smcs_` + 40 base62, prefix shown likewise.
 * - OAuth access token: `smpt_` + 40 base62, short-lived, never shown again.
 */
export const PARTNER_KEY_PREFIX = 'smp_';
export const CLIENT_SECRET_PREFIX = 'smcs_';
export const PARTNER_TOKEN_PREFIX = 'smpt_';
const BODY_LENGTH = 40;
export const DISPLAY_LENGTH = 12;
const LAST_USED_GRANULARITY_MS = 60_000;

export type CredentialKind = 'api_key' | 'client_secret';

export const looksLikePartnerKey = (s: string) => /^smp_[0-9A-Za-z]{40}$/.test(s);
export const looksLikeClientSecret = (s: string) => /^smcs_[0-9A-Za-z]{40}$/.test(s);
export const looksLikePartnerToken = (s: string) => /^smpt_[0-9A-Za-z]{40}$/.test(s);

/** A new key or client secret: the full secret (shown once) and the row to insert. */
export async function mintCredential(clientId: string, kind: CredentialKind, now: number) {
  const secret = `${kind === 'api_key' ? PARTNER_KEY_PREFIX : CLIENT_SECRET_PREFIX}${randomBase62(BODY_LENGTH)}`;
  const row = {
    id: newId('partnerCredential'),
    client_id: clientId,
    kind,
    prefix: secret.slice(0, DISPLAY_LENGTH),
    secret_hash: await sha256Hex(secret),
    created_at: now,
  } satisfies typeof partnerCredentials.$inferInsert;
  return { secret, row };
}

/** A new access token and its row. */
export async function mintToken(clientId: string, scopes: PartnerScope[], now: number, ttlSeconds: number) {
  const token = `${PARTNER_TOKEN_PREFIX}${randomBase62(BODY_LENGTH)}`;
  const row = {
    id: newId('partnerToken'),
    client_id: clientId,
    token_hash: await sha256Hex(token),
    scopes,
    created_at: now,
    expires_at: now + ttlSeconds * 1000,
  } satisfies typeof partnerTokens.$inferInsert;
  return { token, row };
}

/** A live credential: not revoked, and not past the end of a rotation's overlap. */
const liveCredential = (now: number) =>
  and(isNull(partnerCredentials.revoked_at), or(isNull(partnerCredentials.expires_at), gt(partnerCredentials.expires_at, now)));

export interface ResolvedPartner {
  clientId: string;
  tier: PartnerTier;
  scopes: PartnerScope[];
  via: 'api_key' | 'oauth';
  credentialId: string;
  lastUsedAt: number | null;
}

/** The active client behind a live `x-api-key`, or null. */
export async function resolvePartnerKey(db: Db, key: string, now: number): Promise<ResolvedPartner | null> {
  if (!looksLikePartnerKey(key)) return null;
  const [row] = await db
    .select({
      id: partnerCredentials.id,
      clientId: partnerClients.id,
      tier: partnerClients.client_tier,
      scopes: partnerClients.scopes,
      lastUsedAt: partnerCredentials.last_used_at,
    })
    .from(partnerCredentials)
    .innerJoin(partnerClients, eq(partnerClients.id, partnerCredentials.client_id))
    .where(
      and(
        eq(partnerCredentials.secret_hash, await sha256Hex(key)),
        eq(partnerCredentials.kind, 'api_key'),
        liveCredential(now),
        eq(partnerClients.status, 'active'),
      ),
    )
    .limit(1);
  if (!row) return null;
  return { clientId: row.clientId, tier: row.tier, scopes: row.scopes, via: 'api_key', credentialId: row.id, lastUsedAt: row.lastUsedAt };
}

/**
 * The active client behind a live access token, or null. The token's scopes are cut to the client's
 * current ones, so a scope the owner removes stops working at once for tokens already issued.
 */
export async function resolvePartnerToken(db: Db, token: string, now: number): Promise<ResolvedPartner | null> {
  if (!looksLikePartnerToken(token)) return null;
  const [row] = await db
    .select({
      id: partnerTokens.id,
      clientId: partnerClients.id,
      tier: partnerClients.client_tier,
      granted: partnerTokens.scopes,
      scopes: partnerClients.scopes,
    })
    .from(partnerTokens)
    .innerJoin(partnerClients, eq(partnerClients.id, partnerTokens.client_id))
    .where(
      and(
        eq(partnerTokens.token_hash, await sha256Hex(token)),
        isNull(partnerTokens.revoked_at),
        gt(partnerTokens.expires_at, now),
        eq(partnerClients.status, 'active'),
      ),
    )
    .limit(1);
  if (!row) return null;
  const scopes = row.granted.filter((s) => row.scopes.includes(s));
  return { clientId: row.clientId, tier: row.tier, scopes, via: 'oauth', credentialId: row.id, lastUsedAt: null };
}

/** Whether `secret` is a live client secret of the client (the current one, or an old one in its overlap). */
export async function clientSecretMatches(db: Db, clientId: string, secret: string, now: number): Promise<boolean> {
  if (!looksLikeClientSecret(secret)) return false;
  const [row] = await db
    .select({ id: partnerCredentials.id })
    .from(partnerCredentials)
    .where(
      and(
        eq(partnerCredentials.secret_hash, await sha256Hex(secret)),
        eq(partnerCredentials.client_id, clientId),
        eq(partnerCredentials.kind, 'client_secret'),
        liveCredential(now),
      ),
    )
    .limit(1);
  return !!row;
}

/** Whether a use now should be recorded (at most once a minute per key). */
export const partnerUseIsStale = (lastUsedAt: number | null, now: number) =>
  lastUsedAt === null || lastUsedAt < now - LAST_USED_GRANULARITY_MS;

/** Records a key's use, at most once a minute. */
export function touchPartnerKey(db: Db, credentialId: string, now: number) {
  return db
    .update(partnerCredentials)
    .set({ last_used_at: now })
    .where(
      and(
        eq(partnerCredentials.id, credentialId),
        or(isNull(partnerCredentials.last_used_at), lt(partnerCredentials.last_used_at, now - LAST_USED_GRANULARITY_MS)),
      ),
    );
}

/** A tier's budget: requests per window, all of a client's credentials together (operator settings). */
export function tierLimit(settings: Settings, tier: PartnerTier): { limit: number; windowSeconds: number } {
  const limit =
    tier === 'internal'
      ? settings.PARTNER_RATE_LIMIT_INTERNAL
      : tier === 'trusted'
        ? settings.PARTNER_RATE_LIMIT_TRUSTED
        : settings.PARTNER_RATE_LIMIT_SELF_SERVE;
  return { limit, windowSeconds: settings.PARTNER_RATE_WINDOW_SECONDS };
}
