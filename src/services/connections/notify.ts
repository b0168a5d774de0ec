import { businessRecipients } from '../notifications';
import { appLinkOrigin, type Notice, requirePerson, type ServiceContext } from '../kernel';
import type { Side } from './schemas';

export interface Parties {
  business: { id: string; name: string };
  shifter: { id: string; name: string; userId: string };
}

/** Users on one side of the pair, minus the acting user (who need not hear about their own action). */
async function usersOf(ctx: ServiceContext, side: Side, p: Parties, kind: string): Promise<string[]> {
  const actor = requirePerson(ctx);
  const ids = side === 'shifter' ? [p.shifter.userId] : await businessRecipients(ctx, p.business.id, kind);
  return ids.filter((u) => u !== actor.userId);
}

/**
 * The page where a side answers and sees its connections: the shifter's connections page, or the
 * business's crew (the business kept in the address).
 */
export function connectionsPagePath(side: Side, businessId: string): string {
  return side === 'shifter' ? '/dashboard/shifter/connections' : `/dashboard/crew?business_id=${encodeURIComponent(businessId)}`;
}

/**
 * The notification telling `to` about a request or an acceptance, for the guarded write's `notify`
 * (which names the connection and de-duplicates on the write's operation id, so a request re-sent
 * after a decline is announced again but a retried delivery of one event is not). Null when nobody
 * on that side is left to tell. Like every notification that leads to a page, it carries the link in
 * its text (emails and texts) and as `data.url`.
 */
export async function connectionNotice(
  ctx: ServiceContext,
  kind: 'connection_request' | 'connection_accepted',
  to: Side,
  p: Parties,
): Promise<Notice | null> {
  const userIds = await usersOf(ctx, to, p, kind);
  if (userIds.length === 0) return null;
  const from = to === 'shifter' ? p.business.name : p.shifter.name;
  const title =
    kind === 'connection_request'
      ? to === 'shifter'
        ? `${from} wants to add you to their crew`
        : `${from} wants to join your crew at ${p.business.name}`
      : `${from} accepted your connection request`;
  const url = `${appLinkOrigin(ctx)}${connectionsPagePath(to, p.business.id)}`;
  const where = to === 'shifter' ? 'your connections' : `the crew page of ${p.business.name}`;
  return {
    kind,
    userIds,
    title,
    body:
      kind === 'connection_request'
        ? `Accept or decline it in ${where}: ${url}`
        : `${p.business.name} and ${p.shifter.name} are now connected. See them in ${where}: ${url}`,
    data: { business_id: p.business.id, shifter_id: p.shifter.id, url },
  };
}
