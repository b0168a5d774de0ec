import { eq } from 'drizzle-orm';
import { businesses, requestAuthorizations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import type { ServiceContext } from '../kernel';
import type { ConnectionView } from './schemas';

export type ConnectionRow = typeof requestAuthorizations.$inferSelect;

/** The names and slugs a connection's view takes from its business and shifter. */
export type ConnectionJoin = Pick<ConnectionView, 'business_name' | 'business_slug' | 'shifter_name' | 'shifter_slug'>;

/** The API shape of a connection (request authorization). */
export function connectionView(r: ConnectionRow, j: ConnectionJoin): ConnectionView {
  return {
    id: r.id,
    business_id: r.business_id,
    business_name: j.business_name,
    business_slug: j.business_slug,
    shifter_id: r.shifter_id,
    shifter_name: j.shifter_name,
    shifter_slug: j.shifter_slug,
    initiated_by: r.initiated_by,
    status: r.status,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    responded_at: toIso(r.responded_at),
  };
}

export const connectionJoinColumns = {
  business_name: businesses.name,
  business_slug: businesses.slug,
  shifter_name: shifters.display_name,
  shifter_slug: shifters.slug,
};

export interface LoadedConnection {
  row: ConnectionRow;
  join: ConnectionJoin;
  businessOwnerId: string;
  shifterUserId: string;
}

export async function loadConnection(ctx: ServiceContext, id: string): Promise<LoadedConnection> {
  const [r] = await ctx.db
    .select({ row: requestAuthorizations, ...connectionJoinColumns, businessOwnerId: businesses.user_id, shifterUserId: shifters.user_id })
    .from(requestAuthorizations)
    .innerJoin(businesses, eq(businesses.id, requestAuthorizations.business_id))
    .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
    .where(eq(requestAuthorizations.id, id))
    .limit(1);
  if (!r) throw new AppError('CONNECTION-NOT-FND-ERR');
  const { row, businessOwnerId, shifterUserId, ...join } = r;
  return { row, join, businessOwnerId, shifterUserId };
}

/** A connection as stored now: what a change answers once it has been written. */
export async function connectionAsStored(ctx: ServiceContext, id: string): Promise<ConnectionView> {
  const c = await loadConnection(ctx, id);
  return connectionView(c.row, c.join);
}
