import { and, eq, inArray } from 'drizzle-orm';
import { threadLiveViews } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import { requirePerson, type ServiceContext } from '../kernel';
import { readerOf } from './messages';
import { threadStub } from './thread-store';
import { loadThread } from './threads';

/*
 * The live view of a thread: WebSockets from the inbox page to the thread's Durable Object
 * (durable-objects/conversation-thread.ts). Each socket belongs to the page session that opened it
 * and lasts only as long as that session and its person's standing toward the thread:
 * - the object keeps the session and person on each socket (its hibernation attachment and tags);
 * - a catch-up (`{since}`) is counted against the session's budget and answered only after the object
 *   asked again whether the session lives and its person may read the thread;
 * - when sessions end or someone's standing changes, the domain that made the change tells the
 *   objects where that session or person has sockets open, found in `thread_live_views`.
 */

/** How far live views go (docs/decisions/messaging.md "Live views"). */
export const LIVE_LIMITS = {
  /** Open sockets of one session on one thread. */
  socketsPerSessionPerThread: 5,
  /** Open sockets on one thread, whoever opened them. */
  socketsPerThread: 50,
  /** Catch-ups (`{since}`) one session may ask for per window, across its sockets. */
  replaysPerSession: 30,
  replayWindowSeconds: 60,
} as const;

/** How the object closes a socket whose standing ended (WebSocket close codes of the application range). */
export const LIVE_CLOSE = {
  sessionEnded: { code: 4401, reason: 'The session ended; sign in again to follow this thread.' },
  accessLost: { code: 4403, reason: 'You no longer have access to this thread.' },
} as const;

/** Headers on the upgrade the Worker hands the object: the thread, and the session and person the socket belongs to. */
export const LIVE_HEADERS = { thread: 'X-Live-Thread', session: 'X-Live-Session', user: 'X-Live-User' } as const;

/** The session and person a live socket belongs to. */
export interface LiveViewer {
  sessionId: string;
  userId: string;
}

/**
 * Opens the live view of a thread for a reader of it: a participant, or an admin over the person an
 * escalated support thread helps. Only a page session opens one (it is what a sign-out ends).
 * `request` is the page's upgrade request; the caller has checked that it comes from the
 * application's own pages (its Origin). The object is handed a new upgrade request naming the
 * session and person, so nothing the browser sent reaches it.
 */
export async function openLiveThread(ctx: ServiceContext, conversationId: string, request: Request): Promise<Response> {
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    throw new AppError('VALIDATION-ERR', 'The live view of a thread is a WebSocket.');
  }
  const actor = requirePerson(ctx);
  if (actor.kind !== 'user' || actor.via !== 'session') {
    throw new AppError('FORBIDDEN-ERR', 'The live view of a thread is opened from a signed-in page.');
  }
  const t = await loadThread(ctx, conversationId);
  await readerOf(ctx, t);
  const headers = new Headers({
    Upgrade: 'websocket',
    [LIVE_HEADERS.thread]: conversationId,
    [LIVE_HEADERS.session]: actor.credentialId,
    [LIVE_HEADERS.user]: actor.userId,
  });
  return threadStub(ctx, conversationId).fetch(new Request('https://thread.internal/live', { headers }));
}

/**
 * Whether the context's person may still read the thread (the same rule as opening it). The object
 * asks before each catch-up and when told someone's standing changed.
 */
export async function mayReadThread(ctx: ServiceContext, conversationId: string): Promise<boolean> {
  try {
    await readerOf(ctx, await loadThread(ctx, conversationId));
    return true;
  } catch (err) {
    if (err instanceof AppError && [401, 403, 404].includes(err.status)) return false;
    throw err;
  }
}

/** The object accepted a socket of this session: remember where the session has the thread open. */
export async function recordLiveView(ctx: ServiceContext, conversationId: string, viewer: LiveViewer): Promise<void> {
  await ctx.db
    .insert(threadLiveViews)
    .values({ conversation_id: conversationId, session_id: viewer.sessionId, user_id: viewer.userId, opened_at: ctx.now() })
    .onConflictDoNothing();
}

/** The session's last socket on the thread closed. */
export async function forgetLiveView(ctx: ServiceContext, conversationId: string, sessionId: string): Promise<void> {
  await ctx.db
    .delete(threadLiveViews)
    .where(and(eq(threadLiveViews.conversation_id, conversationId), eq(threadLiveViews.session_id, sessionId)));
}

/**
 * Sessions of a person ended (signed out, signed out from elsewhere, a password change, the oldest
 * beyond the cap): every thread where one of their other sessions than `liveSessionIds` has sockets
 * open closes them (LIVE_CLOSE.sessionEnded), and their rows go. Called by accounts after the change
 * committed; it never throws (the sessions are ended whatever happens here, and the object asks again
 * before any catch-up), a failure is logged.
 */
export async function closeLiveViewsOfEndedSessions(ctx: ServiceContext, userId: string, liveSessionIds: readonly string[]): Promise<void> {
  try {
    const live = new Set(liveSessionIds);
    const rows = await ctx.db
      .select({ conversationId: threadLiveViews.conversation_id, sessionId: threadLiveViews.session_id })
      .from(threadLiveViews)
      .where(eq(threadLiveViews.user_id, userId));
    const ended = rows.filter((r) => !live.has(r.sessionId));
    if (!ended.length) return;
    const byThread = new Map<string, string[]>();
    for (const r of ended) byThread.set(r.conversationId, [...(byThread.get(r.conversationId) ?? []), r.sessionId]);
    await tellThreads(ctx, [...byThread.keys()], (id) => threadStub(ctx, id).closeSessions(byThread.get(id)!));
    for (const ids of chunk([...new Set(ended.map((r) => r.sessionId))], 50)) {
      await ctx.db.delete(threadLiveViews).where(and(eq(threadLiveViews.user_id, userId), inArray(threadLiveViews.session_id, ids)));
    }
  } catch (err) {
    ctx.log.warn('closing the live views of ended sessions failed', { user_id: userId, ...errorFields(err) });
  }
}

/**
 * A person's standing changed (a teammate suspended or reactivated): every thread where they have
 * sockets open asks again whether each of their sessions may still read it, and closes those that
 * may not (LIVE_CLOSE.accessLost). Called after the change committed; never throws.
 */
export async function recheckLiveViewsOf(ctx: ServiceContext, userId: string): Promise<void> {
  try {
    const rows = await ctx.db
      .selectDistinct({ conversationId: threadLiveViews.conversation_id })
      .from(threadLiveViews)
      .where(eq(threadLiveViews.user_id, userId));
    await tellThreads(
      ctx,
      rows.map((r) => r.conversationId),
      (id) => threadStub(ctx, id).recheckViewers(userId),
    );
  } catch (err) {
    ctx.log.warn('re-checking the live views of a person failed', { user_id: userId, ...errorFields(err) });
  }
}

/** The standing of a thread's sides changed (a block): its object asks again for every socket. Never throws. */
export async function recheckLiveThread(ctx: ServiceContext, conversationId: string): Promise<void> {
  await tellThreads(ctx, [conversationId], (id) => threadStub(ctx, id).recheckViewers(null));
}

async function tellThreads(ctx: ServiceContext, ids: string[], tell: (id: string) => Promise<unknown>): Promise<void> {
  const outcomes = await Promise.allSettled(ids.map(tell));
  outcomes.forEach((o, i) => {
    if (o.status === 'rejected') {
      ctx.log.warn('a thread object could not be told of a change of standing', { conversation_id: ids[i], ...errorFields(o.reason) });
    }
  });
}
