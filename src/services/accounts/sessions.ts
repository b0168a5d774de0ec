import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { verifyPassword } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { auditInsert, changedRows, requirePerson, type ServiceContext } from '../kernel';
import { cancelPendingSignIn, completeSecondFactor, PENDING_SESSION_TTL_MS } from './two-factor/challenge';
import { isEnabled, loadTwoFactor, methodsOf } from './two-factor/state';
import { type DeviceCookie, useTrustedDevice } from './two-factor/trusted-devices';
import { describeUserAgent } from './devices';
import { closeLiveViewsOfEndedSessionsOf } from './live-views';
import { capSessions, mintSession, resolvePendingSession, SESSION_TTL_MS, signInPlace } from './credentials';
import { budget, chargeAttempt, KNOWN_PLACE_MS, LIMITS, MAX_LIVE_SESSIONS } from './limits';
import { NO_ACCOUNT_HASH } from './register';
import type {
  LoginInput,
  SecondFactorBody,
  SessionList,
  SessionRevoked,
  SessionsRevoked,
  SessionView,
  SignedIn,
  SignedOut,
} from './schemas';

/**
 * Email + password sign-in; returns a bearer session token. Only failures count toward the limits,
 * and they hold back where they come from: a client IP that keeps failing for one email (or for many)
 * is refused, while the account's owner signing in from elsewhere is not. Failures for one email
 * from many addresses have a higher cap; past it only places the account signed in from before pass.
 */
export async function login(ctx: ServiceContext, input: LoginInput, ip: string, opts: LoginOptions = {}): Promise<LoginOutcome> {
  const { email } = input;
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
  const attempt = await chargeAttempt(
    ctx.env,
    [
      budget(`login-fail:${email}:${ip}`, LIMITS.loginFailuresPerEmailAndIp),
      budget(`login-fail-ip:${ip}`, LIMITS.loginFailuresPerIp),
      budget(`login-fail-email:${email}`, LIMITS.loginFailuresPerEmail),
    ],
    'Too many failed sign-ins; wait before trying again, or reset the password.',
    async (spent) => spent.subject.startsWith('login-fail-email:') && !!user && (await signedInFromBefore(ctx, user.id, ip)),
  );
  // Hash even for unknown emails so timing does not reveal which accounts exist.
  const ok = await verifyPassword(input.password, user?.password_hash ?? NO_ACCOUNT_HASH);
  if (!user || !ok) throw new AppError('LOGIN-FAILED-ERR');
  await attempt.succeeded();
  if (user.email_verified_at === null) throw new AppError('EMAIL-UNVERIFIED-ERR');
  return openSession(ctx, user, ip, opts);
}

/**
 * A new session for an account that has just proved itself (its password at sign-in, or its
 * sign-up's emailed code from the browser that set the password): pending when two-factor is on and
 * the browser is not a trusted device, full otherwise, within the account's session caps.
 */
export async function openSession(
  ctx: ServiceContext,
  user: { id: string; phone: string | null },
  ip: string,
  opts: LoginOptions = {},
): Promise<LoginOutcome> {
  // Two-factor on: the session is born pending, unless the browser is a trusted device of the account
  // (its cookie is then rotated and handed back).
  const tf = await loadTwoFactor(ctx.db, user.id);
  const device = isEnabled(tf) ? await useTrustedDevice(ctx, user.id, opts.deviceCookie) : null;
  const pending = isEnabled(tf) && device === null;
  const now = ctx.now();
  const { token, row } = await mintSession(user.id, now, ip, pending ? PENDING_SESSION_TTL_MS : undefined, opts.userAgent);
  const [, capped] = await runBatch(ctx.db, [
    ctx.db.insert(sessions).values(row),
    // At most MAX_LIVE_SESSIONS full sessions: the oldest beyond them end. A pending sign-in counts
    // only against the pending cap, so it never ends a full session (it is capped when promoted).
    capSessions(ctx.db, user.id, now, pending ? 'pending' : 'full'),
    auditInsert(
      ctx,
      'session.create',
      { type: 'user', id: user.id },
      { session_id: row.id, pending_two_factor: pending, trusted_device: !!device },
    ),
  ]);
  // A full session beyond the cap ended: its live views close too.
  if (!pending && changedRows(capped) > 0) await closeLiveViewsOfEndedSessionsOf(ctx, user.id);
  return {
    view: {
      user_id: user.id,
      session_token: token,
      expires_at: toIso(row.expires_at),
      two_factor_required: pending,
      two_factor_methods: pending ? methodsOf(tf, ctx.settings.TWO_FACTOR_SMS_ENABLED, !!user.phone) : [],
    },
    sessionId: row.id,
    device,
  };
}

export interface LoginOptions {
  /** The trusted-device cookie the browser sent (web sign-in only). */
  deviceCookie?: string | undefined;
  /** The request's User-Agent, kept with the session so the person can tell their sessions apart. */
  userAgent?: string | undefined;
}

export interface LoginOutcome {
  view: SignedIn;
  sessionId: string;
  /** The rotated trusted-device cookie, when a trusted device skipped the second factor. */
  device: DeviceCookie | null;
}

/**
 * The second step of signing in with two-factor on: the pending session token and a code (or a
 * backup code) make it a full session. The token is the one sign-in returned, sent in the body.
 */
export async function completeTwoFactorLogin(ctx: ServiceContext, input: SecondFactorBody): Promise<SignedIn> {
  const now = ctx.now();
  const pending = await resolvePendingSession(ctx.db, input.session_token, now);
  if (!pending) throw new AppError('AUTH-REQ-ERR', 'This sign-in has expired or was cancelled; sign in again.');
  await completeSecondFactor(ctx, pending, input);
  const [s] = await ctx.db.select({ expires_at: sessions.expires_at }).from(sessions).where(eq(sessions.id, pending.sessionId)).limit(1);
  return {
    user_id: pending.userId,
    session_token: input.session_token,
    expires_at: toIso(s?.expires_at ?? now + SESSION_TTL_MS),
    two_factor_required: false,
    two_factor_methods: [],
  };
}

/** Gives up a sign-in waiting for its second factor: the pending session ends (signed out). */
export async function cancelTwoFactorLogin(ctx: ServiceContext, sessionToken: string): Promise<SignedOut> {
  const pending = await resolvePendingSession(ctx.db, sessionToken, ctx.now());
  if (pending) await cancelPendingSignIn(ctx, pending);
  return { status: 'signed_out' };
}

/** True when the account signed in from this IP before (a session made there lately). */
async function signedInFromBefore(ctx: ServiceContext, userId: string, ip: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.user_id, userId),
        eq(sessions.ip_hash, await signInPlace(userId, ip)),
        gt(sessions.created_at, ctx.now() - KNOWN_PLACE_MS),
      ),
    )
    .limit(1);
  return !!row;
}

export function sessionView(s: typeof sessions.$inferSelect, currentId: string | null): SessionView {
  return {
    id: s.id,
    created_at: toIso(s.created_at),
    last_seen_at: toIso(s.last_seen_at ?? s.created_at),
    expires_at: toIso(s.expires_at),
    current: s.id === currentId,
    user_agent: s.user_agent,
    device: describeUserAgent(s.user_agent),
  };
}

const currentSessionId = (ctx: ServiceContext) => {
  const a = requirePerson(ctx);
  return a.kind === 'user' && a.via === 'session' ? a.credentialId : null;
};

/**
 * The caller's live sessions, newest first (at most MAX_LIVE_SESSIONS exist). Sign-ins still waiting
 * for their second factor are not sessions yet and are not listed ("sign out everywhere else" ends them too).
 */
export async function listSessions(ctx: ServiceContext): Promise<SessionList> {
  const actor = requirePerson(ctx);
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.user_id, actor.userId),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, ctx.now()),
        eq(sessions.pending_two_factor, false),
      ),
    )
    .orderBy(desc(sessions.created_at), desc(sessions.id))
    .limit(MAX_LIVE_SESSIONS);
  const current = currentSessionId(ctx);
  return { data: rows.map((s) => sessionView(s, current)) };
}

/** Ends one of the caller's sessions; another user's session is 404, as one that does not exist. */
export async function revokeSession(ctx: ServiceContext, sessionId: string): Promise<SessionRevoked> {
  const actor = requirePerson(ctx);
  const now = ctx.now();
  const [changed] = await runBatch(ctx.db, [
    ctx.db
      .update(sessions)
      .set({ revoked_at: now })
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.user_id, actor.userId), isNull(sessions.revoked_at), gt(sessions.expires_at, now)),
      ),
    auditInsert(ctx, 'session.revoke', { type: 'session', id: sessionId }, undefined, revokedNow(sessionId, now)),
  ]);
  if (changedRows(changed) === 0) throw new AppError('SESSION-NOT-FND-ERR');
  await closeLiveViewsOfEndedSessionsOf(ctx, actor.userId);
  return { id: sessionId, status: 'revoked' };
}

const revokedNow = (sessionId: string, now: number) =>
  sql`EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.id} = ${sessionId} AND ${sessions.revoked_at} = ${now})`;

/** Ends every live session of the caller except the one making the request (all, for a key). */
export async function revokeOtherSessions(ctx: ServiceContext): Promise<SessionsRevoked> {
  const actor = requirePerson(ctx);
  const now = ctx.now();
  const current = currentSessionId(ctx);
  const [changed] = await runBatch(ctx.db, [
    ctx.db
      .update(sessions)
      .set({ revoked_at: now })
      .where(and(eq(sessions.user_id, actor.userId), isNull(sessions.revoked_at), current ? ne(sessions.id, current) : undefined)),
    auditInsert(
      ctx,
      'session.revoke_others',
      { type: 'user', id: actor.userId },
      undefined,
      sql`EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.user_id} = ${actor.userId} AND ${sessions.revoked_at} = ${now})`,
    ),
  ]);
  await closeLiveViewsOfEndedSessionsOf(ctx, actor.userId);
  return { revoked: changedRows(changed) };
}

/** Signs out the session making the request. */
export async function logout(ctx: ServiceContext): Promise<SignedOut> {
  const actor = requirePerson(ctx);
  if (actor.kind !== 'user' || actor.via !== 'session') {
    throw new AppError('VALIDATION-ERR', 'Only a session token can be signed out; regenerate an API key instead.');
  }
  await revokeSession(ctx, actor.credentialId);
  return { status: 'signed_out' };
}
