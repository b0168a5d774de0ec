import { eq, inArray } from 'drizzle-orm';
import { isUniqueViolation, runBatch } from '../../db/client';
import { auditLog, conversationParticipants, conversations } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { auditRow, type ServiceContext } from '../kernel';
import { type AnyParty, type CallerParties, pairKey, partyKey, partyNames, sameParty } from './parties';
import type { MessageView, ParticipantView, PartyRef, ThreadView } from './schemas';
import type { StoredMessage } from './thread-store';

export type ConversationRow = typeof conversations.$inferSelect;
export type ParticipantRow = typeof conversationParticipants.$inferSelect;

export interface LoadedThread {
  row: ConversationRow;
  participants: ParticipantRow[];
}

const asParty = (p: ParticipantRow): AnyParty => ({ kind: p.party_kind, id: p.party_id });

/** A thread and its participants; MSG-NOT-FND-ERR when there is none. */
export async function loadThread(ctx: ServiceContext, id: string): Promise<LoadedThread> {
  const [rows, participants] = await ctx.db.batch([
    ctx.db.select().from(conversations).where(eq(conversations.id, id)).limit(1),
    ctx.db.select().from(conversationParticipants).where(eq(conversationParticipants.conversation_id, id)),
  ]);
  const row = rows[0];
  if (!row) throw new AppError('MSG-NOT-FND-ERR', 'No such thread.');
  return { row, participants };
}

/** Participant rows the caller speaks as in this thread (the assistant is nobody's). */
export function sidesOf(t: LoadedThread, parties: CallerParties): ParticipantRow[] {
  return t.participants.filter((p) => {
    if (p.party_kind === 'shifter') return p.party_id === parties.shifterId;
    if (p.party_kind === 'business') return parties.businessIds.includes(p.party_id);
    if (p.party_kind === 'user') return p.party_id === parties.userId;
    return false;
  });
}

/**
 * The caller's side of a thread. Given `as`, that party (MSG-NOT-PARTICIPANT when it takes no part);
 * otherwise the one side they have. Someone who takes no part is told so (MSG-NOT-PARTICIPANT): thread
 * ids are random and unguessable, so the answer reveals nothing a caller could probe for. A caller on
 * both sides of a direct thread (a teammate who is also the shifter in it) names the side.
 */
export function sideOf(t: LoadedThread, parties: CallerParties, as?: PartyRef | null): ParticipantRow {
  const sides = sidesOf(t, parties);
  if (as) {
    const side = sides.find((p) => sameParty(p, as));
    if (!side) throw new AppError('MSG-NOT-PARTICIPANT', 'You take no part in this thread as that party.');
    return side;
  }
  if (sides.length === 0) throw new AppError('MSG-NOT-PARTICIPANT');
  if (sides.length > 1) {
    throw new AppError('VALIDATION-ERR', 'as: required: you take part in this thread on both sides; name the one you act as', [
      { field: 'as', message: 'required: you take part on both sides' },
    ]);
  }
  return sides[0]!;
}

export const othersOf = (t: LoadedThread, me: ParticipantRow) =>
  t.participants.filter((p) => !(p.party_kind === me.party_kind && p.party_id === me.party_id));

/**
 * The direct thread of two parties, created on the first message: the sender has accepted it, the
 * recipient has not (it sits in their Requests tab). `pair_key` is unique, so when two first
 * messages race, one insert wins and the other reads the thread it made.
 */
export async function directThread(ctx: ServiceContext, from: PartyRef, to: PartyRef, createdBy: string): Promise<string> {
  const key = pairKey(from, to);
  const existing = async () =>
    (await ctx.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.pair_key, key)).limit(1))[0]?.id;
  const found = await existing();
  if (found) return found;
  const id = newId('conversation');
  const now = ctx.now();
  const side = (p: PartyRef, accepted: boolean) => ({
    conversation_id: id,
    party_kind: p.kind,
    party_id: p.id,
    is_automated: false,
    automation_kind: null,
    accepted_at: accepted ? now : null,
    last_read_seq: 0,
    joined_at: now,
  });
  try {
    await runBatch(ctx.db, [
      ctx.db.insert(conversations).values({
        id,
        kind: 'direct',
        pair_key: key,
        subject: null,
        created_by_user_id: createdBy,
        owner_user_id: null,
        last_message_seq: 0,
        created_at: now,
        updated_at: now,
      }),
      ctx.db.insert(conversationParticipants).values([side(from, true), side(to, false)]),
      ctx.db
        .insert(auditLog)
        .values(auditRow(ctx, { type: 'conversation', id }, { action: 'conversation.create', data: { pair_key: key } })),
    ]);
    return id;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await existing();
    if (!winner) throw err;
    return winner;
  }
}

/** The thread as `me` sees it (me null: an admin looking at a support thread they have not joined). */
export function threadView(t: LoadedThread, me: ParticipantRow | null, names: Map<string, string | null>): ThreadView {
  const c = t.row;
  const participant = (p: ParticipantRow): ParticipantView => ({
    kind: p.party_kind,
    id: p.party_id,
    name: names.get(partyKey(asParty(p))) ?? null,
    is_automated: p.is_automated,
    automation_kind: p.automation_kind,
    accepted: p.accepted_at !== null,
  });
  const others = me ? othersOf(t, me) : t.participants;
  const counterparty = c.kind === 'direct' ? (others[0] ?? null) : (t.participants.find((p) => p.is_automated) ?? null);
  const lastRead = me?.last_read_seq ?? 0;
  return {
    id: c.id,
    kind: c.kind,
    subject: c.subject,
    as: me ? { kind: me.party_kind, id: me.party_id } : null,
    counterparty: counterparty ? participant(counterparty) : null,
    participants: t.participants.map(participant),
    last_message:
      c.last_message_seq > 0 && c.last_message_at !== null && c.last_sender_kind && c.last_sender_id
        ? {
            seq: c.last_message_seq,
            preview: c.last_message_preview ?? '',
            sender: { kind: c.last_sender_kind, id: c.last_sender_id },
            at: toIso(c.last_message_at),
          }
        : null,
    unread_count: me ? Math.max(0, c.last_message_seq - lastRead) : 0,
    last_read_seq: lastRead,
    tab: me ? (me.archived_at !== null ? 'archived' : me.accepted_at === null ? 'requests' : 'all') : null,
    accepted: me ? me.accepted_at !== null : false,
    awaiting_acceptance: c.kind === 'direct' && others.some((p) => p.accepted_at === null),
    pinned: me?.pinned_at !== null && me?.pinned_at !== undefined,
    archived: me?.archived_at !== null && me?.archived_at !== undefined,
    blocked_by_me: me?.blocked_at !== null && me?.blocked_at !== undefined,
    blocked_by_other: others.some((p) => p.blocked_at !== null),
    owner_user_id: c.owner_user_id,
    escalated_at: toIso(c.escalated_at),
    created_at: toIso(c.created_at),
  };
}

/** Names for the participants of the given threads. */
export function namesFor(ctx: ServiceContext, threads: LoadedThread[]) {
  return partyNames(
    ctx,
    threads.flatMap((t) => t.participants.map(asParty)),
  );
}

/** One thread's view for `me`, names looked up. */
export async function viewOf(ctx: ServiceContext, t: LoadedThread, me: ParticipantRow | null): Promise<ThreadView> {
  return threadView(t, me, await namesFor(ctx, [t]));
}

/** Participants of many threads at once (slices under D1's parameter limit). */
export async function participantsOf(ctx: ServiceContext, ids: string[]): Promise<Map<string, ParticipantRow[]>> {
  const out = new Map<string, ParticipantRow[]>(ids.map((id) => [id, []]));
  for (const slice of chunk(ids, 50)) {
    const rows = await ctx.db.select().from(conversationParticipants).where(inArray(conversationParticipants.conversation_id, slice));
    for (const r of rows) out.get(r.conversation_id)?.push(r);
  }
  return out;
}

export function messageView(conversationId: string, m: StoredMessage, names: Map<string, string | null>): MessageView {
  return {
    id: m.id,
    conversation_id: conversationId,
    seq: m.seq,
    sender: { kind: m.sender_kind, id: m.sender_id, name: names.get(`${m.sender_kind}:${m.sender_id}`) ?? null },
    body: m.body,
    automated: m.automated,
    created_at: toIso(m.created_at),
  };
}
