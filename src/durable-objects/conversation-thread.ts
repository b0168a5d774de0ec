import { DurableObject } from 'cloudflare:workers';
import type { AppBindings } from '../env';
import { errorFields } from '../lib/log';
import {
  type AppendInput,
  type AppendOutcome,
  type ListInput,
  type ListOutcome,
  type StoredMessage,
  syncInbox,
  type SyncPlan,
} from '../services/messaging';
import { systemContext } from '../services/kernel';

/** Messages a reconnecting page is sent at most at once (it asks again from the last one). */
const LIVE_CATCH_UP = 200;
/** After this many failed D1 syncs of one message the object stops retrying it (the message stays stored). */
const MAX_SYNC_ATTEMPTS = 12;
/** Alarm backoff after the n-th failed sync: 5 s × 2ⁿ, at most an hour. */
const retryDelayMs = (attempts: number) => Math.min(3_600_000, 5_000 * 2 ** Math.max(0, attempts - 1));

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
   * Worker lets through only a reader of the thread (services/messaging/live.ts); here every
   * accepted socket hears each new message as `{type: 'message', message}`. A page that (re)connects
   * sends `{since: <seq>}` and is answered the messages after it (`{type: 'messages', messages}`), so
   * nothing stored while it was away is missed. Between messages the object may hibernate: the
   * sockets stay open and a ping is answered without waking it.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') return new Response('Expected a WebSocket', { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
    return new Response(null, { status: 101, webSocket: client });
  }

  override webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): void {
    let since: unknown;
    try {
      since = (JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data)) as { since?: unknown }).since;
    } catch {
      return;
    }
    if (typeof since !== 'number' || !Number.isInteger(since) || since < 0) return;
    const page = this.list({ order: 'asc', from: since, limit: LIVE_CATCH_UP });
    ws.send(JSON.stringify({ type: 'messages', messages: page.messages, has_more: page.hasMore }));
  }

  override webSocketClose(ws: WebSocket): void {
    try {
      ws.close(1000, 'closed');
    } catch {
      // Already closed from this side (the runtime may answer the close itself).
    }
  }

  private broadcast(event: { type: 'message'; message: StoredMessage }): void {
    const text = JSON.stringify(event);
    for (const ws of this.ctx.getWebSockets()) {
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
