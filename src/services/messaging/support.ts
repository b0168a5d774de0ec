import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { admins, auditLog, conversationParticipants, conversations, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { DEFAULT_LIMIT, decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { adminOverUser, adminReach, userIsDemo } from '../access';
import { auditRow, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { appendAs, checkBody } from './append';
import { supportAdmin } from './messages';
import { partyNames } from './parties';
import type { MessageView, SupportQueueQuery, ThreadPage, ThreadView } from './schemas';
import { type LoadedThread, loadThread, messageView, namesFor, participantsOf, threadView, viewOf } from './threads';

export { listMessages } from './messages';

/*
 * Support threads (spec 3.5): the help center opens a `support_ai` thread between a person and the
 * help assistant; escalating makes it `support`, and an admin (over that person) may then join and
 * answer. The help center's services call these; the messaging routes serve reading, writing and
 * the admin's join and queue.
 */

/** The help assistant's party id in every support thread (participant kind `assistant`). */
export const ASSISTANT_PARTY_ID = 'help_assistant';
/** `automation_kind` of the help assistant's participant row. */
export const HELP_AUTOMATION_KIND = 'help_assistant';
export const SUPPORT_SUBJECT_MAX = 200;

const isPerson = (ctx: ServiceContext) => ctx.actor.kind === 'user' || ctx.actor.kind === 'agent';

function supportOnly(t: LoadedThread) {
  if (t.row.kind === 'direct') throw new AppError('CONFLICT-ERR', 'This is a direct thread, not a support thread.');
}

/** The person's own participant row in a support thread (the person helped, or an admin who joined). */
const personRow = (t: LoadedThread, userId: string) => t.participants.find((p) => p.party_kind === 'user' && p.party_id === userId) ?? null;

/**
 * Opens a `support_ai` thread for `ownerUserId` with the help assistant. The person is its owner
 * (and its first participant, accepted); the assistant takes part as `assistant:help_assistant`,
 * `is_automated`, `automation_kind: help_assistant`. Only that person (or a system job) opens one.
 */
export async function openSupportThread(
  ctx: ServiceContext,
  input: { kind: 'support_ai'; ownerUserId: string; subject: string },
): Promise<ThreadView> {
  if (isPerson(ctx) && requirePerson(ctx).userId !== input.ownerUserId) {
    throw new AppError('FORBIDDEN-ERR', 'A support thread is opened by the person it helps.');
  }
  const subject = input.subject.replace(/\s+/g, ' ').trim().slice(0, SUPPORT_SUBJECT_MAX) || null;
  const id = newId('conversation');
  const now = ctx.now();
  const base = { conversation_id: id, accepted_at: now, last_read_seq: 0, joined_at: now };
  await runBatch(ctx.db, [
    ctx.db.insert(conversations).values({
      id,
      kind: input.kind,
      pair_key: null,
      subject,
      created_by_user_id: input.ownerUserId,
      owner_user_id: input.ownerUserId,
      last_message_seq: 0,
      created_at: now,
      updated_at: now,
    }),
    ctx.db.insert(conversationParticipants).values([
      { ...base, party_kind: 'user', party_id: input.ownerUserId, is_automated: false, automation_kind: null },
      { ...base, party_kind: 'assistant', party_id: ASSISTANT_PARTY_ID, is_automated: true, automation_kind: HELP_AUTOMATION_KIND },
    ]),
    ctx.db
      .insert(auditLog)
      .values(auditRow(ctx, { type: 'conversation', id }, { action: 'conversation.support_open', data: { kind: input.kind } })),
  ]);
  const t = await loadThread(ctx, id);
  return viewOf(ctx, t, personRow(t, input.ownerUserId));
}

/**
 * Appends a message to a support thread as one of its participants: `user` (the person helped, or an
 * admin who joined; a person may write only as themselves) or `assistant` (the help assistant,
 * automated unless told otherwise). The thread's Durable Object gives it the next seq. Other people
 * in the thread are notified of messages that are not automated. With an Idempotency-Key on the
 * request, a retry gets the message stored the first time (per sender), or pass `dedupeKey`.
 */
export async function appendMessage(
  ctx: ServiceContext,
  conversationId: string,
  input: { senderKind: 'user' | 'assistant'; senderId: string; body: string; automated?: boolean; dedupeKey?: string },
): Promise<MessageView> {
  const text = checkBody(input.body);
  const t = await loadThread(ctx, conversationId);
  supportOnly(t);
  const row = t.participants.find((p) => p.party_kind === input.senderKind && p.party_id === input.senderId);
  if (!row) throw new AppError('MSG-NOT-PARTICIPANT', 'That sender takes no part in this thread.');
  if (input.senderKind === 'user' && isPerson(ctx) && requirePerson(ctx).userId !== input.senderId) {
    throw new AppError('MSG-NOT-PARTICIPANT', 'You may write only as yourself.');
  }
  const idem = ctx.idempotency;
  const { message } = await appendAs(ctx, t, row, text, {
    automated: input.automated ?? input.senderKind === 'assistant',
    dedupeKey: input.dedupeKey ?? (idem ? `idem:${idem.recordId}:${input.senderKind}:${input.senderId}` : null),
    idempotencyRecordId: null,
  });
  return messageView(conversationId, message, await namesFor(ctx, [t]));
}

/**
 * support_ai → support (spec 3.5): by the person helped (or an admin over them). Admins who may
 * answer are notified (`support.escalated`). Escalating an escalated thread answers it unchanged.
 */
export async function escalateSupportThread(ctx: ServiceContext, conversationId: string): Promise<ThreadView> {
  const actor = requirePerson(ctx);
  const t = await loadThread(ctx, conversationId);
  supportOnly(t);
  const mine = personRow(t, actor.userId);
  const owner = t.row.owner_user_id;
  if (!mine && !(owner && (await adminOverUser(ctx, actor, owner)))) throw new AppError('MSG-NOT-PARTICIPANT');
  if (t.row.kind === 'support_ai' && owner) {
    const now = ctx.now();
    const w = prepareWrite(ctx, { type: 'conversation', id: t.row.id });
    await w.commit({
      guard: ctx.db
        .update(conversations)
        .set({ kind: 'support', escalated_at: now, updated_at: now })
        .where(and(eq(conversations.id, t.row.id), eq(conversations.kind, 'support_ai'))),
      audit: { action: 'conversation.escalate' },
      notify: [
        {
          kind: 'support.escalated',
          userIds: await supportAdmins(ctx, owner),
          title: 'A support conversation needs an answer',
          body: t.row.subject ?? 'A person asked for help from the support team.',
          data: { conversation_id: t.row.id },
        },
      ],
    });
  }
  const fresh = await loadThread(ctx, conversationId);
  return viewOf(ctx, fresh, personRow(fresh, actor.userId));
}

/** Admins who may answer a support thread for `ownerUserId`: every admin, and the demo cast's only for demo accounts. */
async function supportAdmins(ctx: ServiceContext, ownerUserId: string): Promise<string[]> {
  const ownerIsDemo = await userIsDemo(ctx, ownerUserId);
  const rows = await ctx.db
    .select({ id: admins.user_id })
    .from(admins)
    .innerJoin(users, eq(users.id, admins.user_id))
    .where(ownerIsDemo ? sql`1 = 1` : eq(users.is_demo, false));
  return rows.map((r) => r.id).filter((id) => id !== ownerUserId);
}

/**
 * An admin (over the person helped) joins an escalated support thread: they become a participant
 * (`user`, their own id), may answer, and see it in their inbox. Joining twice changes nothing.
 * A thread not escalated yet is CONFLICT-ERR; anyone but such an admin is MSG-NOT-PARTICIPANT.
 */
export async function joinSupportThread(ctx: ServiceContext, conversationId: string): Promise<ThreadView> {
  const actor = requirePerson(ctx);
  const t = await loadThread(ctx, conversationId);
  supportOnly(t);
  const mine = personRow(t, actor.userId);
  if (mine) return viewOf(ctx, t, mine);
  const owner = t.row.owner_user_id;
  if (!owner || !(await adminOverUser(ctx, actor, owner))) throw new AppError('MSG-NOT-PARTICIPANT');
  if (t.row.kind !== 'support') throw new AppError('CONFLICT-ERR', 'The thread has not been escalated to the support team.');
  const now = ctx.now();
  await runBatch(ctx.db, [
    ctx.db
      .insert(conversationParticipants)
      .values({
        conversation_id: t.row.id,
        party_kind: 'user',
        party_id: actor.userId,
        is_automated: false,
        automation_kind: null,
        accepted_at: now,
        last_read_seq: 0,
        joined_at: now,
      })
      .onConflictDoNothing(),
    ctx.db.insert(auditLog).values(auditRow(ctx, { type: 'conversation', id: t.row.id }, { action: 'conversation.join' })),
  ]);
  const fresh = await loadThread(ctx, conversationId);
  return viewOf(ctx, fresh, personRow(fresh, actor.userId));
}

/** An admin answers an escalated support thread, joining it first when they have not. */
export async function answerSupportThread(ctx: ServiceContext, conversationId: string, body: string): Promise<MessageView> {
  const actor = requirePerson(ctx);
  checkBody(body);
  await joinSupportThread(ctx, conversationId);
  return appendMessage(ctx, conversationId, { senderKind: 'user', senderId: actor.userId, body });
}

/**
 * The support team's queue: escalated threads of people the admin is admin over, latest activity
 * first, cursor-paginated. Each is shown as the admin sees it (`as` null until they join).
 */
export async function listSupportQueue(ctx: ServiceContext, q: SupportQueueQuery): Promise<ThreadPage> {
  const actor = requirePerson(ctx);
  const reach = adminReach(actor, 'Only admins see the support queue.');
  const limit = q.limit ?? DEFAULT_LIMIT;
  const sortAt = sql<number>`COALESCE(${conversations.last_message_at}, ${conversations.escalated_at}, ${conversations.created_at})`;
  const after = q.cursor ? decodeCursor(q.cursor, isKeysetCursor) : null;
  const rows = await ctx.db
    .select({ c: conversations, sortAt })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.owner_user_id))
    .where(
      and(
        eq(conversations.kind, 'support'),
        reach === 'all' ? undefined : eq(users.is_demo, true),
        after ? or(lt(sortAt, after[0]), and(eq(sortAt, after[0]), lt(conversations.id, after[1]))) : undefined,
      ),
    )
    .orderBy(desc(sortAt), desc(conversations.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const parts = await participantsOf(
    ctx,
    page.map((r) => r.c.id),
  );
  const threads = page.map((r) => ({ row: r.c, participants: parts.get(r.c.id) ?? [] }));
  const names = await partyNames(
    ctx,
    threads.flatMap((t) => t.participants.map((p) => ({ kind: p.party_kind, id: p.party_id }))),
  );
  const last = page.at(-1);
  return {
    data: threads.map((t) => threadView(t, personRow(t, actor.userId), names)),
    next_cursor: rows.length > limit && last ? encodeCursor([last.sortAt, last.c.id]) : null,
  };
}

export { supportAdmin };
