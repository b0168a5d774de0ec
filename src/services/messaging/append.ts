import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { ServiceContext } from '../kernel';
import { type AnyParty, partyNames, peopleOf } from './parties';
import { MESSAGE_BODY_MAX, MESSAGES_WHILE_PENDING } from './schemas';
import { MESSAGE_NOTICE_KINDS } from './sync';
import { type StoredMessage, type SyncPlan, threadStub } from './thread-store';
import { type LoadedThread, othersOf, type ParticipantRow } from './threads';

/**
 * A message body: a string of at most MESSAGE_BODY_MAX characters as sent (UTF-16 code units, as
 * JavaScript counts), not empty once trimmed. Anything else is MSG-BODY-ERR. Returns the trimmed text,
 * which is what is stored.
 */
export function checkBody(body: unknown): string {
  if (typeof body !== 'string') throw new AppError('MSG-BODY-ERR', 'The message body must be a string.');
  if (body.length > MESSAGE_BODY_MAX) {
    throw new AppError('MSG-BODY-ERR', `The message body is ${body.length} characters long; the most is ${MESSAGE_BODY_MAX}.`);
  }
  const text = body.trim();
  if (!text) throw new AppError('MSG-BODY-ERR', 'The message body is empty.');
  return text;
}

export interface AppendOptions {
  automated: boolean;
  /** Same key → the message stored the first time is answered again (a retried request). */
  dedupeKey: string | null;
  /** The request's Idempotency-Key record, to mark committed with the message (the REST send). */
  idempotencyRecordId: string | null;
}

/**
 * Appends a message from `me` to a thread through its Durable Object, which numbers and stores it and
 * then brings the D1 inbox row up to it. The rules that hold on D1 state are checked here first (a
 * block in a direct thread); the one that must hold under concurrent sends, the pending-request cap
 * (while the other party has not accepted, at most MESSAGES_WHILE_PENDING messages from this party),
 * is checked by the object in the same step that numbers the message. A party that has not accepted
 * accepts by replying.
 */
export async function appendAs(
  ctx: ServiceContext,
  t: LoadedThread,
  me: ParticipantRow,
  body: string,
  opts: AppendOptions,
): Promise<{ message: StoredMessage; replayed: boolean }> {
  const others = othersOf(t, me);
  const direct = t.row.kind === 'direct';
  if (direct && me.blocked_at !== null) {
    throw new AppError('MSG-BLOCKED-ERR', 'You blocked this thread; unblock it to write again.');
  }
  if (direct && others.some((p) => p.blocked_at !== null)) {
    throw new AppError('MSG-BLOCKED-ERR', 'The other party has blocked messages in this thread.');
  }
  const pendingCap = direct && others.some((p) => p.accepted_at === null) ? MESSAGES_WHILE_PENDING : null;
  const sender: AnyParty = { kind: me.party_kind, id: me.party_id };

  // Who hears of it: the people of every other party that is a person or a profile (not the assistant),
  // never the writer themselves. Automated messages (the assistant's answers) notify nobody: the
  // person asking is waiting for them.
  let notify: SyncPlan['notify'] = null;
  if (!opts.automated) {
    const self = ctx.actor.kind === 'user' || ctx.actor.kind === 'agent' ? ctx.actor.userId : null;
    const kind = pendingCap !== null ? MESSAGE_NOTICE_KINDS.request : MESSAGE_NOTICE_KINDS.received;
    const [people, names] = await Promise.all([
      Promise.all(others.filter((p) => !p.is_automated).map((p) => peopleOf(ctx, { kind: p.party_kind, id: p.party_id }, kind))),
      partyNames(ctx, [sender]),
    ]);
    const userIds = [...new Set(people.flat())].filter((u) => u !== self);
    const from = names.get(`${sender.kind}:${sender.id}`);
    if (userIds.length) {
      notify =
        kind === MESSAGE_NOTICE_KINDS.request
          ? { kind, userIds, title: from ? `Message request from ${from}` : 'New message request' }
          : { kind, userIds, title: from ? `New message from ${from}` : 'New message' };
    }
  }

  const outcome = await threadStub(ctx, t.row.id).append({
    message: {
      id: newId('message'),
      senderKind: me.party_kind,
      senderId: me.party_id,
      body,
      automated: opts.automated,
      createdAt: ctx.now(),
    },
    dedupeKey: opts.dedupeKey,
    pendingCap,
    sync: {
      conversationId: t.row.id,
      acceptSender: me.accepted_at === null,
      notify,
      idempotencyRecordId: opts.idempotencyRecordId,
      requestId: ctx.requestId,
    },
  });
  if (!outcome.ok) throw new AppError(outcome.code, outcome.reason);
  return { message: outcome.message, replayed: outcome.replayed };
}
