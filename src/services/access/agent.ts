import { and, eq } from 'drizzle-orm';
import { businesses, teammates } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { type LoadedShift, loadShift, type PersonActor, requirePerson, type ServiceContext, type Side } from '../kernel';
import { type BusinessRow, standingToward, TEAMMATE_STATUS } from './business';
import { shifterIdOf } from './shifter';

/*
 * An agent's standing (the MCP tools): the agent tools' standing rules (spec 4.9 rules 1 and 7), on top of services/access: business-side
 * tools act only for a business the caller owns, shifter-side tools only as the caller's own shifter
 * profile. A teammate's standing (which the REST API honours) is refused with MCP-TEAMMATE-ERR, and
 * an admin's reach is not used by agents: a shift the caller is no party of is SHFT-NOT-FND-ERR.
 */

export const teammateRefused = () =>
  new AppError(
    'MCP-TEAMMATE-ERR',
    'Agent tools act only for a business you own or as your own shifter profile; acting as a teammate of this business is not available yet.',
  );

/**
 * The most an agent may commit a business to in one shift (spec 4.9 rule 6): the pay it may ask the
 * owner to confirm (AGENT_PAYMENT_MAX_MINOR), and never more than one charge may be
 * (PAYMENT_MAX_CHARGE_MINOR). Checked when an agent posts a shift and when it asks for the payment,
 * so a shift an agent posted can always be paid through it. In the shift's currency's minor units.
 */
export function assertAgentPayWithinCap(ctx: ServiceContext, amountMinor: number, currency: string): void {
  const cap = Math.min(ctx.settings.AGENT_PAYMENT_MAX_MINOR, ctx.settings.PAYMENT_MAX_CHARGE_MINOR);
  if (amountMinor <= cap) return;
  throw new AppError('PAYMENT-CAP-ERR', 'The amount is over the cap on payments an agent may ask for.', {
    amount: fromMinor(amountMinor, currency),
    cap: fromMinor(cap, currency),
    currency,
  });
}

/** The shift and the sides the caller is on: the business owner, its shifter, or both. */
export async function shiftForParty(ctx: ServiceContext, id: string): Promise<{ s: LoadedShift; sides: Side[]; actor: PersonActor }> {
  const actor = requirePerson(ctx);
  const s = await loadShift(ctx, id);
  const sides: Side[] = [];
  if (s.business.user_id === actor.userId) sides.push('business');
  if (s.row.shifter_id !== null && s.shifter?.user_id === actor.userId) sides.push('shifter');
  if (!sides.length) {
    if ((await standingToward(ctx, s.business)) === 'teammate') throw teammateRefused();
    throw new AppError('SHFT-NOT-FND-ERR');
  }
  return { s, sides, actor };
}

/** A shift the caller works as its shifter (claim, clock-in, clock-out, counter-offer). */
export async function shiftAsShifter(ctx: ServiceContext, id: string, what: string): Promise<LoadedShift> {
  const { s, sides } = await shiftForParty(ctx, id);
  if (!sides.includes('shifter')) throw new AppError('FORBIDDEN-ERR', `Only the shift's shifter may ${what}.`);
  return s;
}

/** The caller's own shifter profile id; a caller without one is told so. */
export async function ownShifterId(ctx: ServiceContext): Promise<string> {
  const id = await shifterIdOf(ctx, requirePerson(ctx).userId);
  if (!id) throw new AppError('FORBIDDEN-ERR', 'You have no shifter profile.');
  return id;
}

/** True when the user is an active teammate of any business. */
async function isTeammateSomewhere(ctx: ServiceContext, userId: string): Promise<boolean> {
  const [tm] = await ctx.db
    .select({ id: teammates.id })
    .from(teammates)
    .where(and(eq(teammates.user_id, userId), eq(teammates.status, TEAMMATE_STATUS.active)))
    .limit(1);
  return tm !== undefined;
}

/**
 * A business the caller owns: the given one, else their default (else their first). A teammate of
 * the given business gets MCP-TEAMMATE-ERR; a caller who owns none, FORBIDDEN-ERR (MCP-TEAMMATE-ERR
 * when they are only someone's teammate).
 */
export async function ownedBusiness(ctx: ServiceContext, businessId?: string): Promise<BusinessRow> {
  const actor = requirePerson(ctx);
  if (businessId) {
    const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
    if (b && b.user_id === actor.userId) return b;
    if (b && (await standingToward(ctx, b)) === 'teammate') throw teammateRefused();
    throw new AppError('BUSINESS-NOT-FND-ERR');
  }
  const owned = await ownedBusinesses(ctx, actor.userId);
  const b = owned.find((x) => x.is_default) ?? owned[0];
  if (b) return b;
  if (await isTeammateSomewhere(ctx, actor.userId)) throw teammateRefused();
  throw new AppError('FORBIDDEN-ERR', 'You own no business.');
}

export function ownedBusinesses(ctx: ServiceContext, userId: string): Promise<BusinessRow[]> {
  return ctx.db.select().from(businesses).where(eq(businesses.user_id, userId));
}

/** Refuses a side the caller has no profile for (list tools that take a role). */
export async function assertRole(ctx: ServiceContext, role: Side | undefined): Promise<void> {
  if (role === 'shifter') await ownShifterId(ctx);
  if (role === 'business') await ownedBusiness(ctx);
}
