import { DurableObject } from 'cloudflare:workers';
import type { AppBindings } from '../env';
import { errorFields } from '../lib/log';
import { resolveSessionById } from '../services/accounts';
import { type ServiceContext, systemContext } from '../services/kernel';
import {
  BUSINESS_LIVE_CLOSE,
  BUSINESS_LIVE_HEADERS,
  BUSINESS_LIVE_LIMITS,
  type LiveChanged,
  type LiveSignal,
  mayFollowBusiness,
} from '../services/live';

/** What each socket keeps across hibernation (serializeAttachment): whose it is, on which business, until when. */
interface Following {
  sessionId: string;
  userId: string;
  businessId: string;
  /** When the session expires: past it the socket hears nothing more. */
  expiresAt: number;
  /** When the session and the person's standing were last found good. */
  checkedAt: number;
}

const sessionTag = (sessionId: string) => `s:${sessionId}`;
const userTag = (userId: string) => `u:${userId}`;

/** Closing a socket so its page reconnects (and is checked again as it opens). */
const RECONNECT = { code: 1012, reason: 'Reconnect to keep this page up to date.' } as const;
const FAILED = { code: 1011, reason: 'Your access could not be checked; reconnect shortly.' } as const;
type Closing = { readonly code: number; readonly reason: string };

/**
 * One instance per business (named by its id): the live updates of its pages (Today, the schedule,
 * the header's counts, the crew). A hibernating WebSocket per open page; the object tells them that
 * something changed (`{type: 'changed', kind, seq}`), never what, and the page fetches what it shows
 * again with its own session. Between signals the object may hibernate: the sockets stay open and a
 * `ping` is answered `pong` without waking it.
 *
 * Storage (SQLite, this object only): `live_seq(id = 1, seq)`, the last sequence number sent, so the
 * numbers keep growing across evictions. Nothing of the business's data is kept here.
 *
 * Each socket lasts as long as its standing: the Worker lets through only a person who may see the
 * business, from a page session (services/live/follow.ts); the object keeps the session and person
 * on the socket (attachment, tagged by session and person), stops a socket whose session ran out,
 * asks again at the first signal after BUSINESS_LIVE_LIMITS.recheckAfterMs, and is told by the
 * domains that end sessions or change a standing (`closeEndedSessions`, `recheckViewers`). A session
 * has at most BUSINESS_LIVE_LIMITS.socketsPerSession sockets here and the business
 * BUSINESS_LIVE_LIMITS.socketsPerBusiness; beyond them the upgrade is refused (429).
 */
export class BusinessLive extends DurableObject<AppBindings> {
  private readonly sql: SqlStorage;
  /**
   * Sign-outs told while in memory: person → their sessions still live then, and the sign-out's number.
   * An upgrade that read its session before a sign-out told during its read is refused unless the
   * session stayed live; an upgrade begun after the sign-out trusts its own read (a new sign-in's
   * session is not in the list, and must not be refused).
   */
  private readonly signedOut = new Map<string, { live: Set<string>; seq: number }>();
  private signOuts = 0;

  constructor(state: DurableObjectState, env: AppBindings) {
    super(state, env);
    this.sql = state.storage.sql;
    this.sql.exec('CREATE TABLE IF NOT EXISTS live_seq (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL)');
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') return new Response('Expected a WebSocket', { status: 426 });
    const sessionId = request.headers.get(BUSINESS_LIVE_HEADERS.session);
    const userId = request.headers.get(BUSINESS_LIVE_HEADERS.user);
    const businessId = request.headers.get(BUSINESS_LIVE_HEADERS.business);
    if (!sessionId || !userId || !businessId) return new Response('The live updates open through the Worker.', { status: 400 });
    const early = this.capRefusal(sessionId);
    if (early) return early;
    const signOutsBefore = this.signOuts;
    const session = await resolveSessionById(this.liveContext().db, sessionId, Date.now());
    const told = this.signedOut.get(userId);
    const endedMeanwhile = told !== undefined && told.seq > signOutsBefore && !told.live.has(sessionId);
    if (!session || session.userId !== userId || endedMeanwhile) {
      return new Response(BUSINESS_LIVE_CLOSE.sessionEnded.reason, { status: 401 });
    }
    // Checked again after the await, in the same synchronous step as the accept: concurrent opens cannot pass it together.
    const late = this.capRefusal(sessionId);
    if (late) return late;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [sessionTag(sessionId), userTag(userId)]);
    server.serializeAttachment({
      sessionId,
      userId,
      businessId,
      expiresAt: session.expiresAt,
      checkedAt: Date.now(),
    } satisfies Following);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The 429 for a socket beyond the session's or the business's cap, or null. */
  private capRefusal(sessionId: string): Response | null {
    const refuse = (text: string) => new Response(text, { status: 429, headers: { 'Retry-After': '30' } });
    const { socketsPerSession, socketsPerBusiness } = BUSINESS_LIVE_LIMITS;
    if (openSockets(this.ctx.getWebSockets(sessionTag(sessionId))).length >= socketsPerSession) {
      return refuse(`Too many pages of this business follow its changes in this session (at most ${socketsPerSession}); close one first.`);
    }
    if (openSockets(this.ctx.getWebSockets()).length >= socketsPerBusiness) {
      return refuse(`Too many pages follow this business’s changes (at most ${socketsPerBusiness}); try again later.`);
    }
    return null;
  }

  /**
   * Signals from the queue consumer (services/live/publish.ts): each is sent, with the next sequence
   * number, to every socket of the business or only to the sockets of its `userIds`. Then the sockets
   * not checked for a while are checked again (those whose standing ended close). Returns how many
   * messages went out.
   */
  async signal(signals: LiveSignal[]): Promise<number> {
    const now = Date.now();
    let sent = 0;
    const stale = new Map<string, { following: Following; sockets: WebSocket[] }>();
    for (const s of signals) {
      const seq = this.nextSeq();
      const text = JSON.stringify({ type: 'changed', kind: s.kind, seq } satisfies LiveChanged);
      const sockets = s.userIds ? [...new Set(s.userIds)].flatMap((u) => this.ctx.getWebSockets(userTag(u))) : this.ctx.getWebSockets();
      for (const ws of openSockets(sockets)) {
        const following = followingOf(ws);
        if (!following) {
          closeSocket(ws, RECONNECT);
          continue;
        }
        // A session that ran out while its page stayed open hears nothing more.
        if (following.expiresAt <= now) {
          closeSocket(ws, BUSINESS_LIVE_CLOSE.sessionEnded);
          continue;
        }
        try {
          ws.send(text);
          sent++;
        } catch {
          // A socket closing meanwhile: its page reconnects and fetches again.
        }
        if (now - following.checkedAt >= BUSINESS_LIVE_LIMITS.recheckAfterMs) {
          const group = stale.get(following.sessionId) ?? { following, sockets: [] };
          if (!group.sockets.includes(ws)) group.sockets.push(ws);
          stale.set(following.sessionId, group);
        }
      }
    }
    if (stale.size) await this.recheck([...stale.values()]);
    return sent;
  }

  /** A sign-out (services/live/follow.ts): the person's sockets of every session but `liveSessionIds` close. Returns how many. */
  closeEndedSessions(userId: string, liveSessionIds: string[]): number {
    if (this.signedOut.size > 1000) this.signedOut.clear();
    const live = new Set(liveSessionIds);
    this.signedOut.set(userId, { live, seq: ++this.signOuts });
    let closed = 0;
    for (const ws of openSockets(this.ctx.getWebSockets(userTag(userId)))) {
      const following = followingOf(ws);
      if (following && live.has(following.sessionId)) continue;
      closeSocket(ws, BUSINESS_LIVE_CLOSE.sessionEnded);
      closed++;
    }
    return closed;
  }

  /** Someone's standing changed: that person's sockets (null: every socket) are asked again, once per session. Returns how many closed. */
  async recheckViewers(userId: string | null): Promise<number> {
    const bySession = new Map<string, { following: Following; sockets: WebSocket[] }>();
    for (const ws of openSockets(userId ? this.ctx.getWebSockets(userTag(userId)) : this.ctx.getWebSockets())) {
      const following = followingOf(ws);
      if (!following) {
        closeSocket(ws, RECONNECT);
        continue;
      }
      const group = bySession.get(following.sessionId) ?? { following, sockets: [] };
      group.sockets.push(ws);
      bySession.set(following.sessionId, group);
    }
    return this.recheck([...bySession.values()]);
  }

  /** Asks again for each session whether it lives and its person may still follow the business; closes those that may not. */
  private async recheck(groups: { following: Following; sockets: WebSocket[] }[]): Promise<number> {
    const ctx = this.liveContext();
    let closed = 0;
    for (const { following, sockets } of groups) {
      let standing: 'ok' | keyof typeof BUSINESS_LIVE_CLOSE;
      try {
        standing = await standingOf(ctx, following);
      } catch (err) {
        ctx.log.warn('a live page could not be checked again; it reconnects', { business_id: following.businessId, ...errorFields(err) });
        for (const ws of sockets) closeSocket(ws, FAILED);
        closed += sockets.length;
        continue;
      }
      if (standing === 'ok') {
        const checkedAt = Date.now();
        for (const ws of sockets) ws.serializeAttachment({ ...(followingOf(ws) ?? following), checkedAt });
        continue;
      }
      for (const ws of sockets) closeSocket(ws, BUSINESS_LIVE_CLOSE[standing]);
      closed += sockets.length;
    }
    return closed;
  }

  override async webSocketMessage(): Promise<void> {
    // Pages send only `ping` (answered without waking the object); anything else is ignored.
  }

  override async webSocketClose(ws: WebSocket): Promise<void> {
    closeSocket(ws, { code: 1000, reason: 'closed' });
  }

  /** The last sequence number sent (0 before any). */
  lastSeq(): number {
    return this.sql.exec<{ seq: number }>('SELECT seq FROM live_seq WHERE id = 1').toArray()[0]?.seq ?? 0;
  }

  private nextSeq(): number {
    return this.sql
      .exec<{ seq: number }>('INSERT INTO live_seq (id, seq) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET seq = seq + 1 RETURNING seq')
      .one().seq;
  }

  private liveContext(): ServiceContext {
    return systemContext(this.env, this.ctx, 'business-live');
  }
}

/** Whether the socket's session still lives and its person may still follow the business. */
async function standingOf(base: ServiceContext, f: Following): Promise<'ok' | keyof typeof BUSINESS_LIVE_CLOSE> {
  const cred = await resolveSessionById(base.db, f.sessionId, Date.now());
  if (!cred || cred.userId !== f.userId) return 'sessionEnded';
  const { isAdmin, isDemo, demoAdmin } = cred;
  const actor = { kind: 'user' as const, userId: f.userId, via: 'session' as const, credentialId: f.sessionId, isAdmin, isDemo, demoAdmin };
  return (await mayFollowBusiness({ ...base, actor }, f.businessId)) ? 'ok' : 'accessLost';
}

const followingOf = (ws: WebSocket): Following | null => (ws.deserializeAttachment() as Following | null) ?? null;

/** Sockets not closing already (one this object closed stays listed until its peer answers). */
const openSockets = (sockets: WebSocket[]) => sockets.filter((ws) => ws.readyState === WebSocket.OPEN);

function closeSocket(ws: WebSocket, why: Closing): void {
  try {
    ws.close(why.code, why.reason);
  } catch {
    // Already closed from this side.
  }
}
