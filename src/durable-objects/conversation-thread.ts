import { DurableObject } from 'cloudflare:workers';
import type { AppBindings } from '../env';
import { errorFields } from '../lib/log';
import { resolveSessionById } from '../services/accounts';
import {
  type AppendInput,
  type AppendOutcome,
  forgetLiveView,
  LIVE_CLOSE,
  LIVE_HEADERS,
  LIVE_LIMITS,
  type ListInput,
  type ListOutcome,
  type LiveViewer,
  mayReadThread,
  recordLiveView,
  type StoredMessage,
  syncInbox,
  type SyncPlan,
} from '../services/messaging';
import { consumeRateLimit, type ServiceContext, systemContext } from '../services/kernel';

/** Messages a reconnecting page is sent at most at once (it asks again from the last one). */
const LIVE_CATCH_UP = 200;
/** After this many failed D1 syncs of one message the object stops retrying it (the message stays stored). */
const MAX_SYNC_ATTEMPTS = 12;
/** Alarm backoff after the n-th failed sync: 5 s × 2ⁿ, at most an hour. */
const retryDelayMs = (attempts: number) => Math.min(3_600_000, 5_000 * 2 ** Math.max(0, attempts - 1));

/** What each live socket keeps across hibernation (serializeAttachment): whose it is, on which thread, until when. */
interface Viewing extends LiveViewer {
  conversationId: string;
  /** When the session expires: past it the socket hears nothing more. */
  expiresAt: number;
}

/** Socket tags, to find the sockets of a session or of a person. */
const sessionTag = (sessionId: string) => `s:${sessionId}`;
const userTag = (userId: string) => `u:${userId}`;

/** Closing a socket so its page reconnects (and is checked again as it opens). */
const RECONNECT = { code: 1012, reason: 'Reconnect to follow this thread.' } as const;
const FAILED = { code: 1011, reason: 'The thread could not check your access; reconnect shortly.' } as const;
type Closing = { readonly code: number; readonly reason: string };

interface Row extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  sender_kind: string;
  sender_id: string;
  body: string;
  automated: number;
  created_at: number;
}

const COLUMNS = 'seq, id, sender_kind, sender_id, body, automated, created_at';

const toMessage = (r: Row): StoredMessage => ({
  seq: r.seq,
  id: r.id,
  sender_kind: r.sender_kind as StoredMessage['sender_kind'],
  sender_id: r.sender_id,
  body: r.body,
  automated: r.automated === 1,
  created_at: r.created_at,
});

/**
 * One instance per message thread (named by the conversation id); the truth about its messages.
 *
 * Storage (SQLite, this object only): `messages(seq INTEGER PRIMARY KEY, id UNIQUE, sender_kind,
 * sender_id, body, automated, created_at, dedupe_key UNIQUE, sync_plan, sync_attempts)`.
 *
 * An append is one synchronous transaction on that storage: the de-duplication check, the
 * pending-request cap, the next sequence number (last + 1) and the insert. The object runs one
 * synchronous block at a time, so concurrent appends get 1, 2, 3… with no gap and no repeat, in the
 * order they are stored; a refused append takes no number. Only then does the object bring D1 up to
 * the message (services/messaging/sync.ts), outside the transaction so appends are not held behind
 * D1 round trips. Every D1 statement is idempotent by seq, so the syncs may finish in any order. A
 * failed sync keeps its plan on the row and is retried by the object's alarm: the message is never
 * lost, the inbox row only lags until the retry.
 */
export class ConversationThread extends DurableObject<AppBindings> {
  private readonly sql: SqlStorage;
  /** Sessions this object was told have ended, while it stays in memory: an upgrade of one under way is refused. */
  private readonly endedSessions = new Set<string>();

  constructor(state: DurableObjectState, env: AppBindings) {
    super(state, env);
    this.sql = state.storage.sql;
    this.createTable();
  }

  private createTable(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      sender_kind TEXT NOT NULL,
      sender_id TEXT NOT NULL,
      body TEXT NOT NULL,
      automated INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      dedupe_key TEXT UNIQUE,
      sync_plan TEXT,
      sync_attempts INTEGER NOT NULL DEFAULT 0
    )`);
  }

  async append(input: AppendInput): Promise<AppendOutcome> {
    const stored = this.ctx.storage.transactionSync(() => this.store(input));
    if (!stored.ok) return stored;
    const synced = await this.sync(stored.message.seq);
    // After the D1 sync, so a reader marking it read finds the inbox row at this seq.
    if (!stored.replayed) this.broadcast({ type: 'message', message: stored.message });
    return { ...stored, synced };
  }

  /**
   * The live view of an open thread (the inbox page): a hibernating WebSocket per open page. The
   * Worker lets through only a reader of the thread, from a page session (services/messaging/live.ts),
   * and names the session and person in the upgrade it hands here; every accepted socket hears each
   * new message as `{type: 'message', message}`. A page that (re)connects sends `{since: <seq>}` and
   * is answered the messages after it (`{type: 'messages', messages}`), so nothing stored while it was
   * away is missed. Between messages the object may hibernate: the sockets stay open and a ping is
   * answered without waking it.
   *
   * Each socket lasts as long as its standing: it keeps its session, person and thread (attachment,
   * tagged by session and person); a catch-up is counted against the session's budget and answered
   * only once the session still lives and its person may still read the thread; the domains that end
   * sessions or change standing call `closeSessions` and `recheckViewers`. A session has at most
   * LIVE_LIMITS.socketsPerSessionPerThread sockets here and the thread LIVE_LIMITS.socketsPerThread;
   * beyond them the upgrade is refused (429).
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') return new Response('Expected a WebSocket', { status: 426 });
    const sessionId = request.headers.get(LIVE_HEADERS.session);
    const userId = request.headers.get(LIVE_HEADERS.user);
    const conversationId = request.headers.get(LIVE_HEADERS.thread);
    if (!sessionId || !userId || !conversationId) return new Response('The live view opens through the Worker.', { status: 400 });
    const early = this.capRefusal(sessionId);
    if (early) return early;
    const ctx = this.liveContext();
    // Recorded before the session is read: a sign-out committing meanwhile either finds the row (and
    // tells this object, see endedSessions) or has not committed when the session is read.
    await recordLiveView(ctx, conversationId, { sessionId, userId });
    const session = await resolveSessionById(ctx.db, sessionId, Date.now());
    if (!session || session.userId !== userId || this.endedSessions.has(sessionId)) {
      await this.forgetIfLast(null, { sessionId, userId, conversationId, expiresAt: 0 });
      return new Response(LIVE_CLOSE.sessionEnded.reason, { status: 401 });
    }
    // Checked again after the awaits, in the same synchronous step as the accept: concurrent opens cannot pass it together.
    const late = this.capRefusal(sessionId);
    if (late) return late;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [sessionTag(sessionId), userTag(userId)]);
    server.serializeAttachment({ sessionId, userId, conversationId, expiresAt: session.expiresAt } satisfies Viewing);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The 429 for a socket beyond the session's or the thread's cap, or null. */
  private capRefusal(sessionId: string): Response | null {
    const refuse = (text: string) => new Response(text, { status: 429, headers: { 'Retry-After': '30' } });
    if (openSockets(this.ctx.getWebSockets(sessionTag(sessionId))).length >= LIVE_LIMITS.socketsPerSessionPerThread) {
      return refuse(
        `Too many live views of this thread in this session (at most ${LIVE_LIMITS.socketsPerSessionPerThread}); close one first.`,
      );
    }
    if (openSockets(this.ctx.getWebSockets()).length >= LIVE_LIMITS.socketsPerThread) {
      return refuse(`Too many live views of this thread are open (at most ${LIVE_LIMITS.socketsPerThread}); try again later.`);
    }
    return null;
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    let since: unknown;
    try {
      since = (JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data)) as { since?: unknown }).since;
    } catch {
      return;
    }
    if (typeof since !== 'number' || !Number.isInteger(since) || since < 0) return;
    const viewing = viewingOf(ws);
    if (!viewing) return closeSocket(ws, RECONNECT);
    const ctx = this.liveContext();
    try {
      // Counted first: a refused catch-up costs no D1 read.
      const hit = await consumeRateLimit(
        this.env,
        `live-replay:${viewing.sessionId}`,
        LIVE_LIMITS.replaysPerSession,
        LIVE_LIMITS.replayWindowSeconds,
      );
      if (!hit.allowed) {
        sendTo(ws, {
          type: 'error',
          code: 'RATE-LIMIT-ERR',
          message: `Too many catch-ups in this session (at most ${LIVE_LIMITS.replaysPerSession} a minute); ask again later.`,
          retry_after: Math.max(1, hit.retryAfter),
        });
        return;
      }
      const standing = await this.standingOf(ctx, viewing);
      if (standing !== 'ok') return this.endViewing([ws], LIVE_CLOSE[standing], viewing);
    } catch (err) {
      ctx.log.warn('a live catch-up could not check access', { conversation_id: viewing.conversationId, ...errorFields(err) });
      return closeSocket(ws, FAILED);
    }
    const page = this.list({ order: 'asc', from: since, limit: LIVE_CATCH_UP });
    sendTo(ws, { type: 'messages', messages: page.messages, has_more: page.hasMore });
  }

  override async webSocketClose(ws: WebSocket): Promise<void> {
    closeSocket(ws, { code: 1000, reason: 'closed' });
    await this.forgetIfLast(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.forgetIfLast(ws);
  }

  /** Sessions ended (services/messaging/live.ts): their sockets here close. Returns how many. */
  closeSessions(sessionIds: string[]): number {
    let closed = 0;
    if (this.endedSessions.size > 1000) this.endedSessions.clear();
    for (const id of sessionIds) {
      this.endedSessions.add(id);
      for (const ws of openSockets(this.ctx.getWebSockets(sessionTag(id)))) {
        closeSocket(ws, LIVE_CLOSE.sessionEnded);
        closed++;
      }
    }
    return closed;
  }

  /**
   * Someone's standing changed (services/messaging/live.ts): the sockets of that person (null: every
   * socket) ask again, once per session, and those whose session ended or whose person may no longer
   * read the thread close. Returns how many closed.
   */
  async recheckViewers(userId: string | null): Promise<number> {
    const bySession = new Map<string, { viewing: Viewing; sockets: WebSocket[] }>();
    for (const ws of openSockets(userId ? this.ctx.getWebSockets(userTag(userId)) : this.ctx.getWebSockets())) {
      const viewing = viewingOf(ws);
      if (!viewing) {
        closeSocket(ws, RECONNECT);
        continue;
      }
      const group = bySession.get(viewing.sessionId) ?? { viewing, sockets: [] };
      group.sockets.push(ws);
      bySession.set(viewing.sessionId, group);
    }
    const ctx = this.liveContext();
    let closed = 0;
    for (const { viewing, sockets } of bySession.values()) {
      let standing: 'ok' | keyof typeof LIVE_CLOSE;
      try {
        standing = await this.standingOf(ctx, viewing);
      } catch (err) {
        ctx.log.warn('a live view could not be checked again; its page reconnects', {
          conversation_id: viewing.conversationId,
          ...errorFields(err),
        });
        for (const ws of sockets) closeSocket(ws, FAILED);
        closed += sockets.length;
        continue;
      }
      if (standing === 'ok') continue;
      await this.endViewing(sockets, LIVE_CLOSE[standing], viewing);
      closed += sockets.length;
    }
    return closed;
  }

  /** Whether the socket's session still lives and its person may still read the thread. */
  private async standingOf(base: ServiceContext, v: Viewing): Promise<'ok' | keyof typeof LIVE_CLOSE> {
    const cred = await resolveSessionById(base.db, v.sessionId, Date.now());
    if (!cred || cred.userId !== v.userId) return 'sessionEnded';
    const { isAdmin, isDemo, demoAdmin } = cred;
    const actor = {
      kind: 'user' as const,
      userId: v.userId,
      via: 'session' as const,
      credentialId: v.sessionId,
      isAdmin,
      isDemo,
      demoAdmin,
    };
    return (await mayReadThread({ ...base, actor }, v.conversationId)) ? 'ok' : 'accessLost';
  }

  /** Closes sockets of one session that lost their standing, and forgets the session here once none is left. */
  private async endViewing(sockets: WebSocket[], why: Closing, viewing: Viewing): Promise<void> {
    for (const ws of sockets) closeSocket(ws, why);
    await this.forgetIfLast(null, viewing);
  }

  /** Drops the thread's row of a session once it has no open socket here (services/messaging/live.ts). */
  private async forgetIfLast(ws: WebSocket | null, viewing = ws ? viewingOf(ws) : null): Promise<void> {
    if (!viewing) return;
    const left = openSockets(this.ctx.getWebSockets(sessionTag(viewing.sessionId))).filter((o) => o !== ws);
    if (left.length) return;
    const ctx = this.liveContext();
    try {
      await forgetLiveView(ctx, viewing.conversationId, viewing.sessionId);
    } catch (err) {
      ctx.log.warn('forgetting a closed live view failed', { conversation_id: viewing.conversationId, ...errorFields(err) });
    }
  }

  private liveContext(): ServiceContext {
    return systemContext(this.env, this.ctx, 'thread-live');
  }

  private broadcast(event: { type: 'message'; message: StoredMessage }): void {
    const text = JSON.stringify(event);
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets()) {
      const viewing = viewingOf(ws);
      if (!viewing) {
        closeSocket(ws, RECONNECT);
        continue;
      }
      // A session that ran out while its page stayed open hears nothing more.
      if (viewing.expiresAt <= now) {
        void this.endViewing([ws], LIVE_CLOSE.sessionEnded, viewing);
        continue;
      }
      try {
        ws.send(text);
      } catch {
        // A socket closing meanwhile: its page reconnects and catches up with `since`.
      }
    }
  }

  private store(input: AppendInput): AppendOutcome {
    if (input.dedupeKey !== null) {
      const [again] = this.sql.exec<Row>(`SELECT ${COLUMNS} FROM messages WHERE dedupe_key = ?`, input.dedupeKey).toArray();
      if (again) return { ok: true, message: toMessage(again), replayed: true, synced: false };
    }
    const m = input.message;
    if (input.pendingCap !== null) {
      const mine = this.sql
        .exec<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE sender_kind = ? AND sender_id = ?', m.senderKind, m.senderId)
        .one().n;
      if (mine >= input.pendingCap) {
        return { ok: false, code: 'MSG-REQ-PENDING-ERR', reason: 'The other party has not accepted this thread yet.' };
      }
    }
    const [last] = this.sql
      .exec<{ seq: number; created_at: number }>('SELECT seq, created_at FROM messages ORDER BY seq DESC LIMIT 1')
      .toArray();
    const row: Row = {
      seq: (last?.seq ?? 0) + 1,
      id: m.id,
      sender_kind: m.senderKind,
      sender_id: m.senderId,
      body: m.body,
      automated: m.automated ? 1 : 0,
      // Times never go backwards within a thread, so time order and seq order agree.
      created_at: Math.max(m.createdAt, last?.created_at ?? 0),
    };
    this.sql.exec(
      `INSERT INTO messages (${COLUMNS}, dedupe_key, sync_plan) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.seq,
      row.id,
      row.sender_kind,
      row.sender_id,
      row.body,
      row.automated,
      row.created_at,
      input.dedupeKey,
      JSON.stringify(input.sync),
    );
    return { ok: true, message: toMessage(row), replayed: false, synced: false };
  }

  /** Runs the D1 sync of one stored message if it is still due; true when nothing is left to do. */
  private async sync(seq: number): Promise<boolean> {
    const [row] = this.sql
      .exec<Row & { sync_plan: string | null; sync_attempts: number }>(
        `SELECT ${COLUMNS}, sync_plan, sync_attempts FROM messages WHERE seq = ?`,
        seq,
      )
      .toArray();
    if (!row?.sync_plan) return true;
    const plan = JSON.parse(row.sync_plan) as SyncPlan;
    const ctx = { ...systemContext(this.env, this.ctx, 'thread-sync'), requestId: plan.requestId };
    try {
      await syncInbox(ctx, plan, toMessage(row));
      this.sql.exec('UPDATE messages SET sync_plan = NULL WHERE seq = ?', seq);
      return true;
    } catch (err) {
      const attempts = row.sync_attempts + 1;
      if (attempts >= MAX_SYNC_ATTEMPTS) {
        ctx.log.error('message inbox sync failed for good; the message stays stored', {
          conversation_id: plan.conversationId,
          seq,
          attempts,
          ...errorFields(err),
        });
        this.sql.exec('UPDATE messages SET sync_plan = NULL, sync_attempts = ? WHERE seq = ?', attempts, seq);
        return false;
      }
      ctx.log.warn('message inbox sync failed; retrying from the alarm', {
        conversation_id: plan.conversationId,
        seq,
        attempts,
        ...errorFields(err),
      });
      this.sql.exec('UPDATE messages SET sync_attempts = ? WHERE seq = ?', attempts, seq);
      const due = Date.now() + retryDelayMs(attempts);
      const current = await this.ctx.storage.getAlarm();
      if (current === null || current > due) await this.ctx.storage.setAlarm(due);
      return false;
    }
  }

  /** Retries the D1 syncs still due, oldest first; reschedules itself while some keep failing. */
  override async alarm(): Promise<void> {
    const due = this.sql
      .exec<{ seq: number }>('SELECT seq FROM messages WHERE sync_plan IS NOT NULL ORDER BY seq LIMIT 100')
      .toArray()
      .map((r) => r.seq);
    for (const seq of due) await this.sync(seq);
    const [left] = this.sql
      .exec<{ attempts: number }>('SELECT MAX(sync_attempts) AS attempts FROM messages WHERE sync_plan IS NOT NULL')
      .toArray();
    if (left && left.attempts !== null && (await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + retryDelayMs(left.attempts));
    }
  }

  list(input: ListInput): ListOutcome {
    const limit = Math.max(1, Math.min(input.limit, 500));
    const rows =
      input.order === 'asc'
        ? this.sql.exec<Row>(`SELECT ${COLUMNS} FROM messages WHERE seq > ? ORDER BY seq ASC LIMIT ?`, input.from ?? 0, limit + 1).toArray()
        : this.sql
            .exec<Row>(
              `SELECT ${COLUMNS} FROM messages WHERE seq < ? ORDER BY seq DESC LIMIT ?`,
              input.from ?? Number.MAX_SAFE_INTEGER,
              limit + 1,
            )
            .toArray();
    return { messages: rows.slice(0, limit).map(toMessage), hasMore: rows.length > limit };
  }

  /** One message by id, or null. */
  get(messageId: string): StoredMessage | null {
    const [row] = this.sql.exec<Row>(`SELECT ${COLUMNS} FROM messages WHERE id = ?`, messageId).toArray();
    return row ? toMessage(row) : null;
  }

  /** How many messages the thread holds, its last seq, and how many D1 syncs are still due. */
  stats(): { count: number; lastSeq: number; pendingSyncs: number } {
    const r = this.sql
      .exec<{ count: number; last: number | null; pending: number | null }>(
        'SELECT COUNT(*) AS count, MAX(seq) AS last, SUM(sync_plan IS NOT NULL) AS pending FROM messages',
      )
      .one();
    return { count: r.count, lastSeq: r.last ?? 0, pendingSyncs: r.pending ?? 0 };
  }

  /** Deletes every message (a thread removed from D1, e.g. by the demo reset). */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.createTable();
  }
}

const viewingOf = (ws: WebSocket): Viewing | null => (ws.deserializeAttachment() as Viewing | null) ?? null;

/** Sockets not closing already (one this object closed stays listed until its peer answers). */
const openSockets = (sockets: WebSocket[]) => sockets.filter((ws) => ws.readyState === WebSocket.OPEN);

function closeSocket(ws: WebSocket, why: Closing): void {
  try {
    ws.close(why.code, why.reason);
  } catch {
    // Already closed from this side (the runtime may answer the close itself).
  }
}

function sendTo(ws: WebSocket, event: unknown): void {
  try {
    ws.send(JSON.stringify(event));
  } catch {
    // A socket closing meanwhile.
  }
}
