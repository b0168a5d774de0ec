import type { ServiceContext } from '../kernel';
import type { ParticipantKind } from './schemas';

/*
 * What crosses between the services and a thread's Durable Object (durable-objects/conversation-thread.ts).
 * The object holds the thread's messages in its own SQLite storage: it gives each a gapless sequence
 * number, one append at a time, and then brings the D1 inbox row up to that sequence (sync.ts).
 */

/** A message as the thread stores it. */
export interface StoredMessage {
  seq: number;
  id: string;
  sender_kind: ParticipantKind;
  sender_id: string;
  body: string;
  automated: boolean;
  created_at: number;
}

/**
 * What the D1 side of an append must do once the message is stored: move the inbox row to it, mark it
 * read for its sender (and accept the thread for them, when their reply is their acceptance), notify
 * the other side's people, and mark the request's Idempotency-Key committed. Kept with the message
 * until done, so the object can retry it (alarm) after a failure.
 */
export interface SyncPlan {
  conversationId: string;
  /** The sender's side accepts the thread with this message (a reply to a request). */
  acceptSender: boolean;
  /** Who hears of the message (user ids), the notification's kind and title; null: nobody. */
  notify: { kind: 'message.received' | 'message.request'; userIds: string[]; title: string } | null;
  /** The request's Idempotency-Key record, marked committed with the message as its subject. */
  idempotencyRecordId: string | null;
  requestId: string;
}

export interface AppendInput {
  message: {
    id: string;
    senderKind: ParticipantKind;
    senderId: string;
    body: string;
    automated: boolean;
    /** The sender's clock (ctx.now()); the object keeps times from going backwards within a thread. */
    createdAt: number;
  };
  /** A retried request (same key) gets the message it stored the first time instead of a second one. */
  dedupeKey: string | null;
  /** When set, the append is refused if the sender already has this many messages in the thread. */
  pendingCap: number | null;
  sync: SyncPlan;
}

export type AppendOutcome =
  | { ok: true; message: StoredMessage; replayed: boolean; synced: boolean }
  | { ok: false; code: 'MSG-REQ-PENDING-ERR'; reason: string };

export interface ListInput {
  order: 'asc' | 'desc';
  /** asc: messages after this seq; desc: messages before it (null: from the start, resp. the end). */
  from: number | null;
  limit: number;
}

export interface ListOutcome {
  messages: StoredMessage[];
  hasMore: boolean;
}

/** The Durable Object of a thread: one per conversation id. */
export function threadStub(ctx: ServiceContext, conversationId: string) {
  return ctx.env.THREADS.get(ctx.env.THREADS.idFromName(conversationId));
}
