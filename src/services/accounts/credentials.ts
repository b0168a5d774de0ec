import { and, desc, eq, gt, isNull, lt, notInArray, or, type SQL } from 'drizzle-orm';
import { USER_AGENT_MAX } from './devices';
import type { Db } from '../../db/client';
import { admins, apiKeys, sessions, users } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';
import { newId, randomBase62 } from '../../lib/ids';
import { toIso } from '../../lib/time';
import type { PersonRights } from '../kernel';
import { MAX_LIVE_SESSIONS, MAX_PENDING_SESSIONS } from './limits';
import type { ApiKeyIssued } from './schemas';

/** `smk_` + 32 base62 characters ≈ 190 bits of entropy. */
export const API_KEY_PREFIX = 'smk_';
export const API_KEY_BODY_LENGTH = 32;
export const API_KEY_DISPLAY_LENGTH = 12;
/** Session tokens: `sms_` + 40 base62 characters. */
export const SESSION_PREFIX = 'sms_';
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
const LAST_USED_GRANULARITY_MS = 60_000;

export interface ResolvedCredential extends PersonRights {
  userId: string;
  credentialId: string;
  via: 'api_key' | 'session';
  /** When the credential was last recorded as used (key `last_used_at`, session `last_seen_at`). */
  lastUsedAt: number | null;
}

/** Whether a use now should be recorded: at most once a minute, so the lookup says when to skip the write. */
export function useIsStale(lastUsedAt: number | null, now: number): boolean {
  return lastUsedAt === null || lastUsedAt < now - LAST_USED_GRANULARITY_MS;
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX) && /^smk_[0-9A-Za-z]{32}$/.test(token);
}
export function looksLikeSession(token: string): boolean {
  return /^sms_[0-9A-Za-z]{40}$/.test(token);
}

/** A new personal key: the full key (shown once), its display prefix and the row to insert. */
export async function mintApiKey(userId: string, now: number) {
  const key = `${API_KEY_PREFIX}${randomBase62(API_KEY_BODY_LENGTH)}`;
  const row = {
    id: newId('apiKey'),
    user_id: userId,
    kind: 'personal' as const,
    prefix: key.slice(0, API_KEY_DISPLAY_LENGTH),
    key_hash: await sha256Hex(key),
    created_at: now,
  };
  return { key, row };
}

/** A newly minted key as its one answer shows it: in full, this once. */
export function issuedKeyView(key: string, row: { prefix: string; created_at: number }): ApiKeyIssued {
  return { key, prefix: row.prefix, created_at: toIso(row.created_at) };
}

/** Where a sign-in came from, kept only as a hash bound to the account. */
export const signInPlace = (userId: string, ip: string) => sha256Hex(`${userId}:${ip}`);

/**
 * A new session token and its row. A pending one (the account has two-factor on) lives `pendingTtlMs`
 * and reaches only the second-factor step until a code promotes it.
 */
export async function mintSession(userId: string, now: number, ip: string, pendingTtlMs?: number, userAgent?: string) {
  const token = `${SESSION_PREFIX}${randomBase62(40)}`;
  const row = {
    id: newId('session'),
    user_id: userId,
    token_hash: await sha256Hex(token),
    created_at: now,
    expires_at: now + (pendingTtlMs ?? SESSION_TTL_MS),
    last_seen_at: now,
    ip_hash: await signInPlace(userId, ip),
    user_agent: userAgent?.trim().slice(0, USER_AGENT_MAX) || null,
    pending_two_factor: pendingTtlMs !== undefined,
  };
  return { token, row };
}

/**
 * The rights a credential carries. A demo account is never a full admin: the demo cast's admin row
 * becomes `demoAdmin`, honoured by the access layer toward demo subjects only.
 */
function rights(isDemo: boolean, hasAdminRow: boolean): PersonRights {
  return { isAdmin: hasAdminRow && !isDemo, isDemo, demoAdmin: hasAdminRow && isDemo };
}

export async function resolveApiKey(db: Db, key: string): Promise<ResolvedCredential | null> {
  const rows = await db
    .select({ id: apiKeys.id, userId: apiKeys.user_id, admin: admins.user_id, isDemo: users.is_demo, lastUsedAt: apiKeys.last_used_at })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.user_id))
    .leftJoin(admins, eq(admins.user_id, apiKeys.user_id))
    .where(and(eq(apiKeys.key_hash, await sha256Hex(key)), isNull(apiKeys.revoked_at)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    userId: row.userId,
    credentialId: row.id,
    via: 'api_key',
    lastUsedAt: row.lastUsedAt,
    ...rights(row.isDemo, row.admin !== null),
  };
}

/** Records use at most once a minute per key, so hot keys do not write on every request. */
export function touchApiKey(db: Db, keyId: string, now: number) {
  return db
    .update(apiKeys)
    .set({ last_used_at: now })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.last_used_at), lt(apiKeys.last_used_at, now - LAST_USED_GRANULARITY_MS))));
}

/** A session's last-seen time, written at most once a minute. */
export function touchSession(db: Db, sessionId: string, now: number) {
  return db
    .update(sessions)
    .set({ last_seen_at: now })
    .where(and(eq(sessions.id, sessionId), or(isNull(sessions.last_seen_at), lt(sessions.last_seen_at, now - LAST_USED_GRANULARITY_MS))));
}

/**
 * Ends one session of the account inside the batch of a guarded change (`onlyIf`): a browser that
 * becomes a venue's kiosk is signed out in the same batch that starts the kiosk (services/kiosk).
 */
export function endSessionWhere(db: Db, sessionId: string, userId: string, now: number, onlyIf?: SQL) {
  return db
    .update(sessions)
    .set({ revoked_at: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.user_id, userId), isNull(sessions.revoked_at), onlyIf));
}

/**
 * A live session's credential; `'pending'` for a session still waiting for its second factor, which
 * reaches neither the API nor any page.
 */
export async function resolveSession(db: Db, token: string, now: number): Promise<ResolvedCredential | 'pending' | null> {
  const rows = await db
    .select({
      id: sessions.id,
      userId: sessions.user_id,
      admin: admins.user_id,
      isDemo: users.is_demo,
      lastUsedAt: sessions.last_seen_at,
      pending: sessions.pending_two_factor,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .leftJoin(admins, eq(admins.user_id, sessions.user_id))
    .where(and(eq(sessions.token_hash, await sha256Hex(token)), isNull(sessions.revoked_at), gt(sessions.expires_at, now)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (row.pending) return 'pending';
  return {
    userId: row.userId,
    credentialId: row.id,
    via: 'session',
    lastUsedAt: row.lastUsedAt,
    ...rights(row.isDemo, row.admin !== null),
  };
}

/**
 * A live full session named by its id (not its token), with the account's rights and when it
 * expires: what a long-lived connection (the live view of a thread) asks again while it stays open.
 * Null once the session is revoked, expired or still waiting for its second factor.
 */
export async function resolveSessionById(
  db: Db,
  sessionId: string,
  now: number,
): Promise<(ResolvedCredential & { expiresAt: number }) | null> {
  const [row] = await db
    .select({
      userId: sessions.user_id,
      admin: admins.user_id,
      isDemo: users.is_demo,
      lastUsedAt: sessions.last_seen_at,
      expiresAt: sessions.expires_at,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .leftJoin(admins, eq(admins.user_id, sessions.user_id))
    .where(
      and(eq(sessions.id, sessionId), isNull(sessions.revoked_at), gt(sessions.expires_at, now), eq(sessions.pending_two_factor, false)),
    )
    .limit(1);
  if (!row) return null;
  return {
    userId: row.userId,
    credentialId: sessionId,
    via: 'session',
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    ...rights(row.isDemo, row.admin !== null),
  };
}

/** The session of a token that waits for its second factor, if it is one and still live. */
export async function resolvePendingSession(db: Db, token: string, now: number): Promise<{ sessionId: string; userId: string } | null> {
  if (!looksLikeSession(token)) return null;
  const [row] = await db
    .select({ sessionId: sessions.id, userId: sessions.user_id })
    .from(sessions)
    .where(
      and(
        eq(sessions.token_hash, await sha256Hex(token)),
        eq(sessions.pending_two_factor, true),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * The rights of an account named by id alone (the tool server's grants carry the user id, not a
 * credential of this table); null when the account no longer exists.
 */
export async function accountRights(db: Db, userId: string): Promise<PersonRights | null> {
  const [row] = await db
    .select({ id: users.id, isDemo: users.is_demo, admin: admins.user_id })
    .from(users)
    .leftJoin(admins, eq(admins.user_id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  return rights(row.isDemo, row.admin !== null);
}

/** The email and display name of the account a page session belongs to; undefined when it is gone. */
export async function signedInUser(db: Db, userId: string) {
  const [user] = await db.select({ email: users.email, displayName: users.display_name }).from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

/**
 * The statement that ends an account's oldest sessions of one kind (full or pending) beyond its cap,
 * for the batch that adds or promotes one (`onlyIf`: only when that change took effect).
 */
export function capSessions(db: Db, userId: string, now: number, kind: 'full' | 'pending', onlyIf?: SQL) {
  const ofKind = and(eq(sessions.user_id, userId), isNull(sessions.revoked_at), eq(sessions.pending_two_factor, kind === 'pending'));
  const newest = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(ofKind, gt(sessions.expires_at, now)))
    .orderBy(desc(sessions.created_at), desc(sessions.id))
    .limit(kind === 'pending' ? MAX_PENDING_SESSIONS : MAX_LIVE_SESSIONS);
  return db
    .update(sessions)
    .set({ revoked_at: now })
    .where(and(ofKind, notInArray(sessions.id, newest), onlyIf));
}
