import { and, eq, sql } from 'drizzle-orm';
import { businesses, paymentMethods, requestAuthorizations, shiftRequests } from '../../db/schema';
import { accessBusiness, seesPay } from '../access';
import type { ServiceContext } from '../kernel';

/**
 * The first things a new business sets up, in the order a new owner does them: where the venue is
 * (its address), where clock-ins count as on site (the venue's position), a crew (one connection
 * accepted), a first shift posted, and a card to pay with (asked of those who see pay only: a
 * teammate cannot add one).
 */
export const SETUP_STEPS = ['address', 'location', 'crew', 'first_shift', 'card'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export interface SetupChecklist {
  steps: { step: SetupStep; done: boolean }[];
  /** Every step done: the checklist is no longer shown. */
  complete: boolean;
}

/**
 * How far the business is with its first steps (SETUP_STEPS), read in one round trip, for anyone
 * standing for the business (owner, active teammate, admin). A teammate's list has no card step.
 */
export async function setupChecklist(ctx: ServiceContext, businessId: string): Promise<SetupChecklist> {
  const standing = await accessBusiness(ctx, businessId, ['owner', 'teammate', 'admin']);
  const exists = (q: ReturnType<typeof sql>) => sql<number>`CASE WHEN EXISTS (${q}) THEN 1 ELSE 0 END`;
  const [row] = await ctx.db
    .select({
      address: sql<number>`CASE WHEN TRIM(COALESCE(${businesses.address}, '')) <> '' THEN 1 ELSE 0 END`,
      location: sql<number>`CASE WHEN ${businesses.latitude} IS NOT NULL AND ${businesses.longitude} IS NOT NULL THEN 1 ELSE 0 END`,
      crew: exists(
        sql`SELECT 1 FROM ${requestAuthorizations} WHERE ${and(eq(requestAuthorizations.business_id, businessId), eq(requestAuthorizations.status, 'accepted'))}`,
      ),
      first_shift: exists(sql`SELECT 1 FROM ${shiftRequests} WHERE ${eq(shiftRequests.business_id, businessId)}`),
      card: exists(sql`SELECT 1 FROM ${paymentMethods} WHERE ${eq(paymentMethods.business_id, businessId)}`),
    })
    .from(businesses)
    .where(eq(businesses.id, businessId))
    .limit(1);
  const asked = SETUP_STEPS.filter((s) => s !== 'card' || seesPay(standing.role));
  const steps = asked.map((step) => ({ step, done: Boolean(row?.[step]) }));
  return { steps, complete: steps.every((s) => s.done) };
}
