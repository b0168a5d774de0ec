import { and, eq, inArray } from 'drizzle-orm';
import { businesses, shifters, users } from '../../db/schema';
import { chunk } from '../../lib/chunk';
import { AppError } from '../../lib/errors';
import { actingBusinessIds, isCrew, shifterIdOf } from '../access';
import { requirePerson, type ServiceContext } from '../kernel';
import type { ParticipantKind, PartyRef } from './schemas';
import { businessRecipients } from '../notifications';

/**
 * The parties a person speaks as: their shifter profile, the businesses they own or are an active
 * teammate of (services/access), and themselves in support threads. An admin's standing toward a
 * business does not make them a party: they never write as someone else.
 */
export interface CallerParties {
  userId: string;
  shifterId: string | null;
  businessIds: string[];
}

export async function callerParties(ctx: ServiceContext): Promise<CallerParties> {
  const actor = requirePerson(ctx);
  const [shifterId, businessIds] = await Promise.all([shifterIdOf(ctx, actor.userId), actingBusinessIds(ctx, actor.userId)]);
  return { userId: actor.userId, shifterId, businessIds };
}

export interface AnyParty {
  kind: ParticipantKind;
  id: string;
}

export const partyKey = (p: { kind: string; id: string }) => `${p.kind}:${p.id}`;
export const sameParty = (a: { party_kind: string; party_id: string }, b: { kind: string; id: string }) =>
  a.party_kind === b.kind && a.party_id === b.id;

/** The one key of a direct thread: both parties as `<kind>:<id>`, sorted, joined by `|`. */
export function pairKey(a: PartyRef, b: PartyRef): string {
  return [partyKey(a), partyKey(b)].sort().join('|');
}

export function actsAs(parties: CallerParties, p: { kind: string; id: string }): boolean {
  switch (p.kind) {
    case 'shifter':
      return p.id === parties.shifterId;
    case 'business':
      return parties.businessIds.includes(p.id);
    case 'user':
      return p.id === parties.userId;
    default:
      return false;
  }
}

/** The `as` a caller named must be one of their parties. */
export function requireOwnParty(parties: CallerParties, as: PartyRef): PartyRef {
  if (!actsAs(parties, as)) {
    throw new AppError(
      'FORBIDDEN-ERR',
      as.kind === 'shifter'
        ? 'You may message only as your own shifter profile.'
        : 'You may message as a business only as its owner or an active teammate.',
    );
  }
  return as;
}

/**
 * The party a caller writes from toward `to`: a shifter writes to businesses and a business to
 * shifters. Given `as`, that party (it must be theirs); otherwise their shifter profile, or the one
 * business they act for, or their default business; a caller acting for several businesses without
 * a default names one.
 */
export async function senderToward(ctx: ServiceContext, parties: CallerParties, to: PartyRef, as: PartyRef | undefined): Promise<PartyRef> {
  const kind = to.kind === 'shifter' ? 'business' : 'shifter';
  if (as) {
    if (as.kind !== kind) {
      throw new AppError('MSG-NOT-CONNECTED-ERR', 'Direct threads are between a business and a shifter connected to it.');
    }
    return requireOwnParty(parties, as);
  }
  if (kind === 'shifter') {
    if (!parties.shifterId) throw new AppError('FORBIDDEN-ERR', 'You have no shifter profile to message from.');
    return { kind, id: parties.shifterId };
  }
  if (parties.businessIds.length === 0) throw new AppError('FORBIDDEN-ERR', 'You act for no business to message from.');
  if (parties.businessIds.length === 1) return { kind, id: parties.businessIds[0]! };
  const [def] = await ctx.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(eq(businesses.user_id, parties.userId), eq(businesses.is_default, true)))
    .limit(1);
  if (def && parties.businessIds.includes(def.id)) return { kind, id: def.id };
  throw new AppError('VALIDATION-ERR', 'as: required: you act for several businesses; name the one you write as', [
    { field: 'as', message: 'required: you act for several businesses' },
  ]);
}

/** A direct message goes only to a connected counterparty: an accepted connection between the two. */
export async function requireConnected(ctx: ServiceContext, a: AnyParty, b: AnyParty): Promise<void> {
  const business = a.kind === 'business' ? a : b.kind === 'business' ? b : null;
  const shifter = a.kind === 'shifter' ? a : b.kind === 'shifter' ? b : null;
  if (!business || !shifter || !(await isCrew(ctx, business.id, shifter.id))) {
    throw new AppError('MSG-NOT-CONNECTED-ERR', 'You can message this party only while you are connected (an accepted connection).');
  }
}

export const ASSISTANT_NAME = 'Help assistant';

/** Display names of parties (shifter display name, business name, person's name), keyed by `kind:id`. */
export async function partyNames(ctx: ServiceContext, parties: AnyParty[]): Promise<Map<string, string | null>> {
  const ids = (kind: ParticipantKind) => [...new Set(parties.filter((p) => p.kind === kind).map((p) => p.id))];
  const lookups = [
    ...chunk(ids('shifter'), 50).map((slice) =>
      ctx.db
        .select({ id: shifters.id, name: shifters.display_name })
        .from(shifters)
        .where(inArray(shifters.id, slice))
        .then((rows) => rows.map((r) => [`shifter:${r.id}`, r.name] as const)),
    ),
    ...chunk(ids('business'), 50).map((slice) =>
      ctx.db
        .select({ id: businesses.id, name: businesses.name })
        .from(businesses)
        .where(inArray(businesses.id, slice))
        .then((rows) => rows.map((r) => [`business:${r.id}`, r.name] as const)),
    ),
    ...chunk(ids('user'), 50).map((slice) =>
      ctx.db
        .select({ id: users.id, name: users.display_name })
        .from(users)
        .where(inArray(users.id, slice))
        .then((rows) => rows.map((r) => [`user:${r.id}`, r.name] as const)),
    ),
  ];
  const out = new Map<string, string | null>((await Promise.all(lookups)).flat());
  for (const id of ids('assistant')) out.set(`assistant:${id}`, ASSISTANT_NAME);
  return out;
}

/**
 * The people who hear about a party's messages: a business's recipients of the notification `notice`
 * (the catalog decides between the owner alone and the whole team), a shifter's or person's own account.
 */
export async function peopleOf(ctx: ServiceContext, p: AnyParty, notice: string): Promise<string[]> {
  switch (p.kind) {
    case 'business':
      return businessRecipients(ctx, p.id, notice);
    case 'shifter': {
      const [s] = await ctx.db.select({ userId: shifters.user_id }).from(shifters).where(eq(shifters.id, p.id)).limit(1);
      return s ? [s.userId] : [];
    }
    case 'user':
      return [p.id];
    default:
      return [];
  }
}
