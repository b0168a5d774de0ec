import { and, eq, type SQL, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { auditLog, conversationParticipants } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { auditRow, type ServiceContext } from '../kernel';
import { recheckLiveThread } from './live';
import { callerParties } from './parties';
import type { MarkReadInput, ThreadView } from './schemas';
import { loadThread, sideOf, viewOf } from './threads';

export const THREAD_ACTIONS = ['read', 'pin', 'unpin', 'archive', 'unarchive', 'accept', 'block', 'unblock'] as const;
export type ThreadAction = (typeof THREAD_ACTIONS)[number];

/** Actions worth an audit row: they decide who may write to whom. Read markers, pins and archives are inbox housekeeping. */
const AUDITED: ReadonlySet<ThreadAction> = new Set(['accept', 'block', 'unblock']);

/**
 * The caller's side of a thread changes state. Each change is one idempotent update of their own
 * participant row (doing it twice changes nothing more), so concurrent clicks cannot disagree:
 *
 * - read: the read marker moves up to `seq` (default: the latest message), never down and never past
 *   the latest message;
 * - pin / unpin, archive / unarchive: the flags the inbox tabs read (a new message from the other side
 *   brings an archived thread back);
 * - accept: a direct thread leaves the Requests tab and the other side may write freely;
 * - block / unblock (direct threads): while either side blocks, neither may write (MSG-BLOCKED-ERR).
 */
export async function changeThread(ctx: ServiceContext, id: string, action: ThreadAction, input: MarkReadInput): Promise<ThreadView> {
  const parties = await callerParties(ctx);
  const t = await loadThread(ctx, id);
  const me = sideOf(t, parties, input.as);
  if ((action === 'block' || action === 'unblock') && t.row.kind !== 'direct') {
    throw new AppError('CONFLICT-ERR', 'Only direct threads are blocked; leave a support thread instead of blocking it.');
  }
  const now = ctx.now();
  const set = changeOf(action, now, input.seq ?? t.row.last_message_seq, t.row.last_message_seq);
  const update = ctx.db
    .update(conversationParticipants)
    .set(set)
    .where(
      and(
        eq(conversationParticipants.conversation_id, t.row.id),
        eq(conversationParticipants.party_kind, me.party_kind),
        eq(conversationParticipants.party_id, me.party_id),
      ),
    );
  await runBatch(
    ctx.db,
    AUDITED.has(action)
      ? [
          update,
          ctx.db
            .insert(auditLog)
            .values(
              auditRow(
                ctx,
                { type: 'conversation', id: t.row.id },
                { action: `conversation.${action}`, data: { party: `${me.party_kind}:${me.party_id}` } },
              ),
            ),
        ]
      : [update],
  );
  // Who may follow the thread is asked again of every live view (a block leaves both sides readers today).
  if (action === 'block') await recheckLiveThread(ctx, t.row.id);
  const fresh = await loadThread(ctx, id);
  return viewOf(ctx, fresh, fresh.participants.find((p) => p.party_kind === me.party_kind && p.party_id === me.party_id) ?? null);
}

interface ParticipantChange {
  last_read_seq?: SQL;
  pinned_at?: SQL | null;
  archived_at?: SQL | null;
  accepted_at?: SQL | null;
  blocked_at?: SQL | null;
}

function changeOf(action: ThreadAction, now: number, seq: number, lastSeq: number): ParticipantChange {
  const p = conversationParticipants;
  switch (action) {
    case 'read':
      return { last_read_seq: sql`MAX(${p.last_read_seq}, ${Math.min(seq, lastSeq)})` };
    case 'pin':
      return { pinned_at: sql`COALESCE(${p.pinned_at}, ${now})` };
    case 'unpin':
      return { pinned_at: null };
    case 'archive':
      return { archived_at: sql`COALESCE(${p.archived_at}, ${now})` };
    case 'unarchive':
      return { archived_at: null };
    case 'accept':
      return { accepted_at: sql`COALESCE(${p.accepted_at}, ${now})` };
    case 'block':
      return { blocked_at: sql`COALESCE(${p.blocked_at}, ${now})` };
    case 'unblock':
      return { blocked_at: null };
  }
}
