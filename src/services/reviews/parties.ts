import { eq } from 'drizzle-orm';
import { businesses, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { actingBusinessIds, adminOverUser, isAdmin, shifterIdOf, standingToward } from '../access';
import { type PersonActor, type ServiceContext, requirePerson } from '../kernel';
import type { PartyKind } from './schemas';
import { businessRecipients } from '../notifications';

/** A reviewed or reviewing party: a shifter profile or a business, with who owns it and its zone. */
export interface Party {
  kind: PartyKind;
  id: string;
  name: string;
  ownerUserId: string;
  timezone: string;
}

export const otherKind = (k: PartyKind): PartyKind => (k === 'shifter' ? 'business' : 'shifter');

/** Loads a party; an unknown id is the kind's own 404. */
export async function loadParty(ctx: ServiceContext, kind: PartyKind, id: string): Promise<Party> {
  if (kind === 'shifter') {
    const [s] = await ctx.db
      .select({ id: shifters.id, name: shifters.display_name, owner: shifters.user_id, tz: shifters.timezone })
      .from(shifters)
      .where(eq(shifters.id, id))
      .limit(1);
    if (!s) throw new AppError('SHIFTER-NOT-FND-ERR');
    return { kind, id: s.id, name: s.name, ownerUserId: s.owner, timezone: s.tz };
  }
  const [b] = await ctx.db
    .select({ id: businesses.id, name: businesses.name, owner: businesses.user_id, tz: businesses.timezone })
    .from(businesses)
    .where(eq(businesses.id, id))
    .limit(1);
  if (!b) throw new AppError('BUSINESS-NOT-FND-ERR');
  return { kind, id: b.id, name: b.name, ownerUserId: b.owner, timezone: b.tz };
}

/**
 * Whether the caller acts for the party: its own shifter profile, or a business it owns or is an
 * active teammate of. Admin standing does not count: an admin does not write or answer reviews for
 * a party.
 */
export async function actsFor(ctx: ServiceContext, party: Party): Promise<boolean> {
  const actor = requirePerson(ctx);
  if (party.kind === 'shifter') return party.ownerUserId === actor.userId;
  const role = await standingToward(ctx, { id: party.id, user_id: party.ownerUserId });
  return role === 'owner' || role === 'teammate';
}

/** Every party the caller acts for, as a set of ids (shifter ids and business ids never collide). */
export async function callerPartyIds(ctx: ServiceContext, actor: PersonActor): Promise<Set<string>> {
  const [own, biz] = await Promise.all([shifterIdOf(ctx, actor.userId), actingBusinessIds(ctx, actor.userId)]);
  return new Set([...(own ? [own] : []), ...biz]);
}

/** Admin standing over a review: an admin, or the demo cast's admin when both parties are demo accounts. */
export async function adminOverReview(ctx: ServiceContext, reviewerUserId: string, reviewee: Party): Promise<boolean> {
  const actor = requirePerson(ctx);
  if (isAdmin(actor)) return true;
  return (await adminOverUser(ctx, actor, reviewerUserId)) && (await adminOverUser(ctx, actor, reviewee.ownerUserId));
}

/**
 * The users who hear about a party's reviews: the shifter, or the business's recipients of the
 * notification `notice` (the catalog decides between the owner alone and the whole team).
 */
export async function partyRecipients(ctx: ServiceContext, kind: PartyKind, id: string, notice: string): Promise<string[]> {
  if (kind === 'business') return businessRecipients(ctx, id, notice);
  const [s] = await ctx.db.select({ owner: shifters.user_id }).from(shifters).where(eq(shifters.id, id)).limit(1);
  return s ? [s.owner] : [];
}
