import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { requestAuthorizations, shifters } from '../../db/schema';
import type { ServiceContext } from '../kernel';

/** A business's crew: shifters with an accepted connection to it (the broadcast audience). */
export async function isCrew(ctx: ServiceContext, businessId: string, shifterId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: requestAuthorizations.id })
    .from(requestAuthorizations)
    .where(
      and(
        eq(requestAuthorizations.business_id, businessId),
        eq(requestAuthorizations.shifter_id, shifterId),
        eq(requestAuthorizations.status, 'accepted'),
      ),
    )
    .limit(1);
  return !!row;
}

/** The crew of a business, with the users to notify and whether each accepts requests. */
export async function crewOf(ctx: ServiceContext, businessId: string) {
  return ctx.db
    .select({ shifterId: shifters.id, userId: shifters.user_id, acceptShiftReq: shifters.accept_shift_req })
    .from(requestAuthorizations)
    .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
    .where(and(eq(requestAuthorizations.business_id, businessId), eq(requestAuthorizations.status, 'accepted')));
}

/** SQL scope: `column` (a business id column) names a business the shifter is crew of. */
export function crewBusinessSql(shifterId: string, column: SQLiteColumn): SQL {
  return sql`${column} IN (SELECT ${requestAuthorizations.business_id} FROM ${requestAuthorizations} WHERE ${requestAuthorizations.shifter_id} = ${shifterId} AND ${requestAuthorizations.status} = 'accepted')`;
}
