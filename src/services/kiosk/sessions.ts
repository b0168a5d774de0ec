import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { businesses, kioskSessions, users } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { newId, randomBase62 } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { closeLiveViewsOfEndedSessionsOf, confirmPassword, endSessionWhere } from '../accounts';
import { accessBusiness } from '../access';
import { type Actor, enforceRateLimit, prepareWrite, requirePerson, type ServiceContext } from '../kernel';

/*
 * Kiosk mode: a venue's tablet on which shifters clock themselves in and out (spec 2.4: the kiosk
 * passes the shifter's id, and the punch is the shifter's). The owner starts it from the clock board
 * in the tablet's browser; that browser's own session ends in the same batch and the tablet keeps a
 * kiosk token instead: a credential of its own kind, bound to one business, that nothing but the
 * kiosk pages reads (the API and every other page refuse a browser that holds one). It acts as the
 * owner who started it, through the clock service's kiosk path only (services/kiosk/punch.ts), and
 * ends with the owner's password at the tablet, from the board, or after KIOSK_TTL_MS.
 */

/** Kiosk tokens: `smq_` + 40 base62 characters (≈ 238 bits); only the SHA-256 is stored. */
export const KIOSK_TOKEN_PREFIX = 'smq_';
const KIOSK_TOKEN = /^smq_[0-9A-Za-z]{40}$/;
/** A kiosk lasts a week: a venue's tablet is not re-armed every morning, and it never outlives a week unseen. */
export const KIOSK_TTL_MS = 7 * 24 * 3600 * 1000;
/** Kiosks live at once per business; the owner ends one on the board to start another. */
export const MAX_LIVE_KIOSKS = 10;
export const KIOSK_LIMITS = {
  /** Kiosks started per business per hour. */
  startsPerBusiness: { limit: 20, windowSeconds: 3600 },
  /** Punches (and photo uploads) per kiosk per 15 minutes: a busy shift change, never a flood. */
  punchesPerKiosk: { limit: 120, windowSeconds: 900 },
} as const;
const USER_AGENT_MAX = 512;
const LAST_SEEN_GRANULARITY_MS = 60_000;

/** A live kiosk, as the kiosk pages know it. */
export interface ResolvedKiosk {
  id: string;
  businessId: string;
  businessName: string;
  timezone: string;
  requireClockPhoto: boolean;
  /** The owner who started it (and still owns the business). */
  startedBy: string;
  ownerIsDemo: boolean;
  expiresAt: number;
  lastSeenAt: number | null;
}

/** What the owner sees of a live kiosk on the board. */
export interface KioskView {
  id: string;
  started_at: string;
  expires_at: string;
  last_seen_at: string | null;
  user_agent: string | null;
}

export const looksLikeKioskToken = (token: string) => KIOSK_TOKEN.test(token);

const live = (now: number) => and(isNull(kioskSessions.ended_at), gt(kioskSessions.expires_at, now));

/**
 * The kiosk's actor: the owner who started it, with no admin standing whatever their account has,
 * marked `via: 'kiosk'` so the audit log tells its punches from the owner's own.
 */
export function kioskActor(k: ResolvedKiosk): Actor {
  return { kind: 'user', userId: k.startedBy, isAdmin: false, isDemo: k.ownerIsDemo, demoAdmin: false, via: 'kiosk', credentialId: k.id };
}

/**
 * Starts a kiosk for the business on the caller's browser: the owner only, from a page session (which
 * ends in the same batch: the tablet holds no person's session from then on). At most
 * MAX_LIVE_KIOSKS live at once, held in the insert's SQL condition. Returns the token, once.
 */
export async function startKiosk(
  ctx: ServiceContext,
  businessId: string,
  opts: { userAgent?: string | undefined } = {},
): Promise<{ token: string; id: string; expiresAt: number }> {
  const actor = requirePerson(ctx);
  const { business } = await accessBusiness(ctx, businessId, ['owner']);
  if (actor.kind !== 'user' || actor.via !== 'session') {
    throw new AppError('FORBIDDEN-ERR', 'A kiosk is started from the clock board, in the browser of the device that becomes the kiosk.');
  }
  const { limit, windowSeconds } = KIOSK_LIMITS.startsPerBusiness;
  await enforceRateLimit(
    ctx.env,
    `kiosk-start:${business.id}`,
    limit,
    windowSeconds,
    'Too many kiosks started for this business; try again later.',
  );
  const now = ctx.now();
  const token = `${KIOSK_TOKEN_PREFIX}${randomBase62(40)}`;
  const row = {
    id: newId('kiosk'),
    business_id: business.id,
    started_by_user_id: actor.userId,
    token_hash: await sha256Hex(token),
    created_at: now,
    expires_at: now + KIOSK_TTL_MS,
    last_seen_at: now,
    ended_at: null,
    ended_by: null,
    user_agent: opts.userAgent?.trim().slice(0, USER_AGENT_MAX) || null,
  };
  const liveCount = sql`(SELECT COUNT(*) FROM ${kioskSessions} WHERE ${kioskSessions.business_id} = ${business.id} AND ${kioskSessions.ended_at} IS NULL AND ${kioskSessions.expires_at} > ${now})`;
  const w = prepareWrite(
    ctx,
    { type: 'kiosk', id: row.id },
    () => sql`EXISTS (SELECT 1 FROM ${kioskSessions} WHERE ${kioskSessions.id} = ${row.id})`,
  );
  const r = await w.commit({
    guard: insertWhere(ctx.db, kioskSessions, row, sql`${liveCount} < ${MAX_LIVE_KIOSKS}`),
    follow: [endSessionWhere(ctx.db, actor.credentialId, actor.userId, now, w.applied)],
    audit: { action: 'kiosk.start', data: { business_id: business.id, ended_session: actor.credentialId } },
  });
  if (!r.applied) {
    throw new AppError('CONFLICT-ERR', `A business keeps at most ${MAX_LIVE_KIOSKS} kiosks at once: end one on the clock board first.`);
  }
  // The browser's own session ended with the kiosk's start: so do its live views.
  await closeLiveViewsOfEndedSessionsOf(ctx, actor.userId);
  return { token, id: row.id, expiresAt: row.expires_at };
}

/**
 * The live kiosk a token names, or null: unknown, ended, expired, or started by someone who no longer
 * owns the business (the kiosk then ends with their ownership).
 */
export async function resolveKiosk(db: Db, token: string, now: number): Promise<ResolvedKiosk | null> {
  if (!looksLikeKioskToken(token)) return null;
  const [row] = await db
    .select({
      k: kioskSessions,
      name: businesses.name,
      timezone: businesses.timezone,
      photo: businesses.require_clock_photo,
      demo: users.is_demo,
    })
    .from(kioskSessions)
    .innerJoin(businesses, and(eq(businesses.id, kioskSessions.business_id), eq(businesses.user_id, kioskSessions.started_by_user_id)))
    .innerJoin(users, eq(users.id, kioskSessions.started_by_user_id))
    .where(and(eq(kioskSessions.token_hash, await sha256Hex(token)), live(now)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.k.id,
    businessId: row.k.business_id,
    businessName: row.name,
    timezone: row.timezone,
    requireClockPhoto: row.photo,
    startedBy: row.k.started_by_user_id,
    ownerIsDemo: row.demo,
    expiresAt: row.k.expires_at,
    lastSeenAt: row.k.last_seen_at,
  };
}

/** A kiosk's last-seen time, written at most once a minute. */
export function touchKiosk(db: Db, kioskId: string, now: number) {
  return db
    .update(kioskSessions)
    .set({ last_seen_at: now })
    .where(
      and(
        eq(kioskSessions.id, kioskId),
        or(isNull(kioskSessions.last_seen_at), lt(kioskSessions.last_seen_at, now - LAST_SEEN_GRANULARITY_MS)),
      ),
    );
}

export const kioskSeenIsStale = (k: ResolvedKiosk, now: number) => k.lastSeenAt === null || k.lastSeenAt < now - LAST_SEEN_GRANULARITY_MS;

async function endKioskRow(ctx: ServiceContext, kioskId: string, endedBy: 'kiosk' | 'board', businessId: string): Promise<boolean> {
  const now = ctx.now();
  const w = prepareWrite(
    ctx,
    { type: 'kiosk', id: kioskId },
    () => sql`EXISTS (SELECT 1 FROM ${kioskSessions} WHERE ${kioskSessions.id} = ${kioskId} AND ${kioskSessions.ended_at} = ${now})`,
  );
  const r = await w.commit({
    guard: ctx.db
      .update(kioskSessions)
      .set({ ended_at: now, ended_by: endedBy })
      .where(and(eq(kioskSessions.id, kioskId), eq(kioskSessions.business_id, businessId), isNull(kioskSessions.ended_at))),
    audit: { action: 'kiosk.end', data: { business_id: businessId, ended_by: endedBy } },
  });
  return r.applied;
}

/**
 * Signs the tablet out of kiosk mode: the password of the owner who started it (wrong ones limited
 * per account, like a password change). The caller is the kiosk itself (its actor is that owner).
 */
export async function endKioskWithPassword(ctx: ServiceContext, kiosk: ResolvedKiosk, password: string): Promise<void> {
  await confirmPassword(ctx, kiosk.startedBy, password);
  await endKioskRow(ctx, kiosk.id, 'kiosk', kiosk.businessId);
}

/** The business's live kiosks, newest first: the owner's (and an admin's) to see and end. */
export async function listKiosks(ctx: ServiceContext, businessId: string): Promise<KioskView[]> {
  await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const rows = await ctx.db
    .select()
    .from(kioskSessions)
    .where(and(eq(kioskSessions.business_id, businessId), live(ctx.now())))
    .orderBy(desc(kioskSessions.created_at))
    .limit(MAX_LIVE_KIOSKS);
  return rows.map((k) => ({
    id: k.id,
    started_at: toIso(k.created_at),
    expires_at: toIso(k.expires_at),
    last_seen_at: k.last_seen_at === null ? null : toIso(k.last_seen_at),
    user_agent: k.user_agent,
  }));
}

/** The owner (or an admin) ends a kiosk from the board, e.g. a tablet that went missing. */
export async function endKiosk(ctx: ServiceContext, businessId: string, kioskId: string): Promise<void> {
  await accessBusiness(ctx, businessId, ['owner', 'admin']);
  if (!(await endKioskRow(ctx, kioskId, 'board', businessId))) throw new AppError('NOT-FOUND-ERR', 'No such live kiosk of this business.');
}
