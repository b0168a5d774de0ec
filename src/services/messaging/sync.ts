import { and, eq, lt, ne, or, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { conversationParticipants, conversations, idempotencyKeys } from '../../db/schema';
import { errorFields } from '../../lib/log';
import { draftEvent, publishOutbox, type ServiceContext } from '../kernel';
import { PREVIEW_MAX } from './schemas';
import type { StoredMessage, SyncPlan } from './thread-store';

/**
 * Notification kinds of a new message (the notifications catalog's `messages` group): a request while
 * the recipient has not accepted the thread, else a received message. The de-duplication key is
 * `<kind>:<message id>`, fixed when the message is stored, so a repeated sync cannot notify twice.
 */
export const MESSAGE_NOTICE_KINDS = { received: 'message.received', request: 'message.request' } as const;
export type MessageNoticeKind = (typeof MESSAGE_NOTICE_KINDS)[keyof typeof MESSAGE_NOTICE_KINDS];

/** The inbox's one-line preview of a message: whitespace folded, cut at PREVIEW_MAX characters. */
export function previewOf(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_MAX ? flat : `${flat.slice(0, PREVIEW_MAX - 1)}…`;
}

/**
 * Brings D1 up to a message the thread's Durable Object stored. Called by the object after each
 * append, and again from its alarm when that failed: every statement is idempotent by `seq`, so
 * running it twice, or after a later message's sync, changes nothing more.
 *
 * - the inbox row moves to the message only if it is newer than what the row shows (`last_message_seq < seq`);
 * - the sender's read marker moves up to it (never down), and a reply accepts the thread for the sender;
 * - a thread another party archived comes back to their inbox (archived before this message);
 * - the other side's people are notified, de-duplicated by message id (`message.received:<id>` or
 *   `message.request:<id>`), so a repeated sync cannot notify twice;
 * - the request's Idempotency-Key is marked committed with the message as its subject.
 */
export async function syncInbox(ctx: ServiceContext, plan: SyncPlan, m: StoredMessage): Promise<void> {
  const conv = plan.conversationId;
  const sender = and(
    eq(conversationParticipants.conversation_id, conv),
    eq(conversationParticipants.party_kind, m.sender_kind),
    eq(conversationParticipants.party_id, m.sender_id),
  );
  const statements = [
    ctx.db
      .update(conversations)
      .set({
        last_message_at: m.created_at,
        last_message_seq: m.seq,
        last_message_preview: previewOf(m.body),
        last_sender_kind: m.sender_kind,
        last_sender_id: m.sender_id,
        updated_at: sql`MAX(${conversations.updated_at}, ${m.created_at})`,
      })
      .where(and(eq(conversations.id, conv), lt(conversations.last_message_seq, m.seq))),
    ctx.db
      .update(conversationParticipants)
      .set({
        last_read_seq: sql`MAX(${conversationParticipants.last_read_seq}, ${m.seq})`,
        ...(plan.acceptSender ? { accepted_at: sql`COALESCE(${conversationParticipants.accepted_at}, ${m.created_at})` } : {}),
      })
      .where(sender),
    ctx.db
      .update(conversationParticipants)
      .set({ archived_at: null })
      .where(
        and(
          eq(conversationParticipants.conversation_id, conv),
          or(ne(conversationParticipants.party_kind, m.sender_kind), ne(conversationParticipants.party_id, m.sender_id)),
          lt(conversationParticipants.archived_at, m.created_at),
        ),
      ),
  ];
  const draft = plan.notify?.userIds.length
    ? draftEvent(ctx, 'notifications', {
        type: 'notify',
        dedupe_key: `${plan.notify.kind}:${m.id}`,
        user_ids: [...new Set(plan.notify.userIds)],
        kind: plan.notify.kind,
        title: plan.notify.title,
        body: previewOf(m.body),
        data: { conversation_id: conv, message_id: m.id, seq: m.seq },
      })
    : null;
  const idem = plan.idempotencyRecordId
    ? ctx.db
        .update(idempotencyKeys)
        .set({ state: 'committed', resource_type: 'message', resource_id: m.id })
        .where(and(eq(idempotencyKeys.id, plan.idempotencyRecordId), eq(idempotencyKeys.state, 'processing')))
    : null;
  await runBatch(ctx.db, [...statements, ...(draft ? [draft.statement] : []), ...(idem ? [idem] : [])]);
  if (draft) {
    // The message and its inbox row stand; an unsent notification stays in the outbox for the sweep.
    try {
      await publishOutbox(ctx, [draft.id]);
    } catch (err) {
      ctx.log.warn('message notification publish failed; the sweep will send it', { message_id: m.id, ...errorFields(err) });
    }
  }
}
