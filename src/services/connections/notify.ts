import type { SQL } from 'drizzle-orm';
import { businessRecipients } from '../access';
import { requirePerson, type ServiceContext } from '../context';
import { draftEvent } from '../events/outbox';
import type { Side } from './schemas';

export interface Parties {
  business: { id: string; name: string };
  shifter: { id: string; name: string; userId: string };
}

/** Users on one side of the pair, minus the acting user (who need not hear about their own action). */
async function usersOf(ctx: ServiceContext, side: Side, p: Parties): Promise<string[]> {
  const actor = requirePerson(ctx);
  const ids = side === 'shifter' ? [p.shifter.userId] : await businessRecipients(ctx, p.business.id);
  return ids.filter((u) => u !== actor.userId);
}

/**
 * The outbox notification telling `to` about a request or an acceptance. The dedupe key names the
 * connection, the event and the version, so a request re-sent after a decline is announced again
 * but a retried delivery of one event is not.
 */
export async function connectionNote(
  ctx: ServiceContext,
  kind: 'connection_request' | 'connection_accepted',
  to: Side,
  p: Parties,
  connectionId: string,
  version: number,
  onlyIf?: SQL,
) {
  const userIds = await usersOf(ctx, to, p);
  if (userIds.length === 0) return null;
  const from = to === 'shifter' ? p.business.name : p.shifter.name;
  const title =
    kind === 'connection_request'
      ? to === 'shifter'
        ? `${from} wants to add you to their crew`
        : `${from} wants to join your crew at ${p.business.name}`
      : `${from} accepted your connection request`;
  return draftEvent(
    ctx,
    'notifications',
    {
      type: 'notify',
      dedupe_key: `${kind}:${connectionId}:${version}`,
      user_ids: userIds,
      kind,
      title,
      body: kind === 'connection_request' ? 'Accept or decline it in your connections.' : `${p.business.name} and ${p.shifter.name} are now connected.`,
      data: { connection_id: connectionId, business_id: p.business.id, shifter_id: p.shifter.id },
    },
    onlyIf,
  );
}
