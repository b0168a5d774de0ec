import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { businesses, requestAuthorizations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { accessBusiness, actsForBusinessSql, shifterIdOf } from '../access';
import { requirePerson, type ServiceContext } from '../kernel';
import type { ConnectionLists, ListConnectionsInput, ListedConnection, Side } from './schemas';
import { connectionJoinColumns, connectionView } from './view';

/** Rows of one side, newest change first, each marked with the side the caller reads it from. */
async function rowsOf(ctx: ServiceContext, side: Side, where: SQL, status: ListConnectionsInput['status']): Promise<ListedConnection[]> {
  const rows = await ctx.db
    .select({ row: requestAuthorizations, ...connectionJoinColumns })
    .from(requestAuthorizations)
    .innerJoin(businesses, eq(businesses.id, requestAuthorizations.business_id))
    .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
    .where(and(where, status ? eq(requestAuthorizations.status, status) : inArray(requestAuthorizations.status, ['pending', 'accepted'])))
    .orderBy(desc(requestAuthorizations.updated_at), desc(requestAuthorizations.id));
  return rows.map(({ row, ...join }) => ({ ...connectionView(row, join), side }));
}

/**
 * POST /v1/request_authorization/list_of_requests: the caller's connections from every side they
 * stand on (the businesses they own or are an active teammate of, and their shifter profile).
 * incoming = pending and sent by the other side; outgoing = pending and sent by the caller's side;
 * accepted = the connected pairs; closed = declined or removed (only when asked for by status).
 */
export async function listConnections(ctx: ServiceContext, input: ListConnectionsInput): Promise<ConnectionLists> {
  const actor = requirePerson(ctx);
  if (input.business_id && input.as === 'shifter') {
    throw new AppError('VALIDATION-ERR', 'business_id: lists the business side; leave it out with as=shifter', [
      { field: 'business_id', message: 'only with the business side' },
    ]);
  }
  const sides: Side[] = input.as ? [input.as] : input.business_id ? ['business'] : ['business', 'shifter'];
  const listed: ListedConnection[] = [];

  if (sides.includes('business')) {
    let where: SQL;
    if (input.business_id) {
      await accessBusiness(ctx, input.business_id);
      where = eq(requestAuthorizations.business_id, input.business_id);
    } else {
      where = actsForBusinessSql(actor.userId, requestAuthorizations.business_id);
    }
    listed.push(...(await rowsOf(ctx, 'business', where, input.status)));
  }
  if (sides.includes('shifter')) {
    const own = await shifterIdOf(ctx, actor.userId);
    if (own) listed.push(...(await rowsOf(ctx, 'shifter', eq(requestAuthorizations.shifter_id, own), input.status)));
  }

  const out: ConnectionLists = { incoming: [], outgoing: [], accepted: [], closed: [] };
  const seen = new Set<string>();
  for (const c of listed) {
    // A dual-profile caller connected to their own business sees the pair once, from the business side.
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    if (c.status === 'accepted') out.accepted.push(c);
    else if (c.status === 'pending') (c.initiated_by === c.side ? out.outgoing : out.incoming).push(c);
    else out.closed.push(c);
  }
  return out;
}
