import { and, eq } from 'drizzle-orm';
import { requestAuthorizations, shifters } from '../../db/schema';
import type { ServiceContext } from '../context';

/** True when the shifter and the business have an accepted connection. */
export async function isConnected(ctx: ServiceContext, businessId: string, shifterId: string): Promise<boolean> {
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

/** The crew: shifters with an accepted connection to the business (the broadcast audience). */
export async function crewOf(ctx: ServiceContext, businessId: string) {
  return ctx.db
    .select({ shifterId: shifters.id, userId: shifters.user_id, acceptShiftReq: shifters.accept_shift_req })
    .from(requestAuthorizations)
    .innerJoin(shifters, eq(shifters.id, requestAuthorizations.shifter_id))
    .where(and(eq(requestAuthorizations.business_id, businessId), eq(requestAuthorizations.status, 'accepted')));
}
