import { AppError } from '../../lib/errors';
import { requirePerson, type ServiceContext } from '../kernel';
import { appendAs, checkBody } from './append';
import { callerParties, requireConnected, senderToward } from './parties';
import type { PartyRef, SendMessageInput, SentMessage } from './schemas';
import { directThread, loadThread, messageView, namesFor, othersOf, sideOf, threadView } from './threads';

/**
 * POST /v1/messaging/messages. To a party (`to`): the caller writes as their side toward it (`as`,
 * or the default, see senderToward), the two must be connected (an accepted connection), and the
 * direct thread of the pair is created by the first message. In a thread (`conversation_id`): as the
 * caller's side in it; a direct thread still needs the connection, a support thread must have been
 * escalated (before that the help center's assistant answers it).
 *
 * Until the recipient accepts (or replies, which accepts), the sender may have one message in the
 * thread: a second is MSG-REQ-PENDING-ERR. A block by either side is MSG-BLOCKED-ERR. With an
 * Idempotency-Key, a retried request answers the message stored the first time.
 */
export async function sendMessage(ctx: ServiceContext, input: SendMessageInput): Promise<SentMessage> {
  const actor = requirePerson(ctx);
  const body = checkBody(input.body);
  if (!input.to === !input.conversation_id) {
    throw new AppError('VALIDATION-ERR', 'to: give either `to` (a party) or `conversation_id` (a thread), not both', [
      { field: 'to', message: 'give either to or conversation_id' },
    ]);
  }
  const parties = await callerParties(ctx);
  let threadId: string;
  let from: PartyRef | undefined = input.as;
  if (input.to) {
    from = await senderToward(ctx, parties, input.to, input.as);
    await requireConnected(ctx, from, input.to);
    threadId = await directThread(ctx, from, input.to, actor.userId);
  } else {
    threadId = input.conversation_id!;
  }
  const t = await loadThread(ctx, threadId);
  const me = sideOf(t, parties, from);
  if (t.row.kind === 'direct' && !input.to) {
    const other = othersOf(t, me)[0];
    if (other) await requireConnected(ctx, { kind: me.party_kind, id: me.party_id }, { kind: other.party_kind, id: other.party_id });
  }
  if (t.row.kind === 'support_ai') {
    throw new AppError(
      'CONFLICT-ERR',
      'The help assistant answers this thread (ask through the help center), or escalate it to write to the support team.',
    );
  }
  const idem = ctx.idempotency;
  const { message } = await appendAs(ctx, t, me, body, {
    automated: false,
    dedupeKey: idem ? `idem:${idem.recordId}` : null,
    idempotencyRecordId: idem?.recordId ?? null,
  });
  const fresh = await loadThread(ctx, threadId);
  const names = await namesFor(ctx, [fresh]);
  const mine = fresh.participants.find((p) => p.party_kind === me.party_kind && p.party_id === me.party_id) ?? null;
  return { message: messageView(threadId, message, names), thread: threadView(fresh, mine, names) };
}
