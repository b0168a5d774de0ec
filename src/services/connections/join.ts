import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { businesses, cities, crewInvites, crewJoinLinks, requestAuthorizations, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { shifterIdOf, standingToward } from '../access';
import {
  appLinkOrigin,
  committedSubject,
  consumeRateLimit,
  existsIn,
  type Notice,
  prepareWrite,
  rateLimitError,
  releaseRateLimit,
  requirePerson,
  type ServiceContext,
} from '../kernel';
import { businessRecipients } from '../notifications';
import { inviteStatusAt } from './crew-invites';
import type { CrewInvitationPreview, JoinCrewInput, JoinedCrew } from './invite-schemas';
import { looksLikeToken, tokenHash } from './invite-tokens';
import { connectionsPagePath } from './notify';
import { connectionAsStored } from './view';

/*
 * Opening an invitation's or a join link's address (/join/{token}) and joining with it. Joining is a
 * connection request from the shifter that the invitation pre-accepts: one guarded write whose guard
 * uses the invitation (pending, unexpired: it becomes accepted) or the join link (still live: one
 * more use) only while the pair's connection is still as read, and makes the connection accepted in
 * the same batch (a new pair is inserted accepted; a pending, declined or removed one becomes
 * accepted), as a mutual request does (spec 2.2). A person already in the crew changes nothing; an
 * invitation they open anyway is used up, so a forwarded copy joins nobody else.
 */

/** Tokens looked up per client (or person) per 10 minutes that match nothing: a found one costs nothing. */
export const TOKEN_MISSES = { limit: 30, windowSeconds: 600 } as const;
const ATTEMPTS = 3;

type Business = { id: string; name: string; slug: string; user_id: string; city: string | null };
type Target =
  | { kind: 'invite'; row: typeof crewInvites.$inferSelect; business: Business }
  | { kind: 'link'; row: typeof crewJoinLinks.$inferSelect; business: Business };
type State = CrewInvitationPreview['state'];

const businessColumns = {
  id: businesses.id,
  name: businesses.name,
  slug: businesses.slug,
  user_id: businesses.user_id,
  city: cities.name,
};

async function findTarget(ctx: ServiceContext, token: string): Promise<Target | null> {
  if (!looksLikeToken(token)) return null;
  const [invite] = await ctx.db
    .select({ row: crewInvites, business: businessColumns })
    .from(crewInvites)
    .innerJoin(businesses, eq(businesses.id, crewInvites.business_id))
    .leftJoin(cities, eq(cities.id, businesses.city_id))
    .where(eq(crewInvites.token_hash, await tokenHash(token)))
    .limit(1);
  if (invite) return { kind: 'invite', ...invite };
  const [link] = await ctx.db
    .select({ row: crewJoinLinks, business: businessColumns })
    .from(crewJoinLinks)
    .innerJoin(businesses, eq(businesses.id, crewJoinLinks.business_id))
    .leftJoin(cities, eq(cities.id, businesses.city_id))
    .where(eq(crewJoinLinks.token, token))
    .limit(1);
  return link ? { kind: 'link', ...link } : null;
}

/** Looks a token up within the subject's budget of misses (429 once spent); a hit is given back. */
async function findWithinBudget(ctx: ServiceContext, token: string, subject: string): Promise<Target | null> {
  const counted = await consumeRateLimit(ctx.env, `crew-invite-lookup:${subject}`, TOKEN_MISSES.limit, TOKEN_MISSES.windowSeconds);
  if (!counted.allowed) throw rateLimitError(counted, 'Too many invitation links that do not exist were opened; wait a few minutes.');
  const target = await findTarget(ctx, token);
  if (target) await releaseRateLimit(ctx.env, `crew-invite-lookup:${subject}`, TOKEN_MISSES.windowSeconds, counted);
  return target;
}

function stateOf(t: Target, now: number): State {
  if (t.kind === 'link') return t.row.revoked_at === null ? 'open' : 'replaced';
  const s = inviteStatusAt(t.row, now);
  if (s === 'pending') return 'open';
  if (s === 'accepted') return 'used';
  if (s === 'revoked') return 'withdrawn';
  return s;
}

const dayWords = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(ms));

/** Why an invitation or a join link no longer works, and what to do, in the person's words. */
export function closedWords(p: Pick<CrewInvitationPreview, 'kind' | 'state' | 'expires_at'> & { business: { name: string } }): string {
  const b = p.business.name;
  switch (p.state) {
    case 'used':
      return `This invitation was used already: each one works once. Ask ${b} for a new invitation, or for their crew’s join link.`;
    case 'withdrawn':
      return `${b} withdrew this invitation. Ask them for a new one if you still want to join their crew.`;
    case 'expired':
      return `This invitation expired${p.expires_at ? ` on ${dayWords(Date.parse(p.expires_at))}` : ''}. Ask ${b} to send you a new one.`;
    case 'replaced':
      return p.kind === 'link'
        ? `${b} replaced this join link with a new one. Scan the code on their current poster, or ask them for the link.`
        : `${b} sent you a newer invitation: use the link in their latest message.`;
    default:
      return '';
  }
}

/** The signed-in viewer's standing toward the crew, or null for a visitor. */
async function viewerStanding(ctx: ServiceContext, t: Target): Promise<CrewInvitationPreview['viewer']> {
  const a = ctx.actor;
  if (a.kind !== 'user' && a.kind !== 'agent') return null;
  const role = await standingToward(ctx, t.business);
  if (role === 'owner' || role === 'teammate') return 'acts_for';
  const shifterId = await shifterIdOf(ctx, a.userId);
  if (!shifterId) return 'no_shifter';
  const [pair] = await ctx.db
    .select({ status: requestAuthorizations.status })
    .from(requestAuthorizations)
    .where(and(eq(requestAuthorizations.business_id, t.business.id), eq(requestAuthorizations.shifter_id, shifterId)))
    .limit(1);
  return pair?.status === 'accepted' ? 'in_crew' : 'can_join';
}

function previewOf(t: Target, now: number, viewer: CrewInvitationPreview['viewer']): CrewInvitationPreview {
  return {
    kind: t.kind,
    business: { id: t.business.id, name: t.business.name, slug: t.business.slug, city: t.business.city },
    state: stateOf(t, now),
    name: t.kind === 'invite' ? t.row.name : null,
    expires_at: t.kind === 'invite' ? toIso(t.row.expires_at) : null,
    viewer,
  };
}

/**
 * What /join/{token} shows: which business invites, whether the link still works and where the
 * signed-in viewer stands. Null for a token that matches nothing. `client` names who is looking (the
 * client address for a visitor), whose budget of misses bounds guessing.
 */
export async function previewCrewInvitation(ctx: ServiceContext, token: string, client: string): Promise<CrewInvitationPreview | null> {
  const t = await findWithinBudget(ctx, token, client);
  if (!t) return null;
  return previewOf(t, ctx.now(), await viewerStanding(ctx, t));
}

/** The business hears that someone joined, on its crew page. */
async function joinedNotice(ctx: ServiceContext, t: Target, shifter: { id: string; name: string }): Promise<Notice> {
  const url = `${appLinkOrigin(ctx)}${connectionsPagePath('business', t.business.id)}`;
  const via = t.kind === 'link' ? 'your crew’s join link' : 'your invitation';
  return {
    kind: 'connection_accepted',
    userIds: await businessRecipients(ctx, t.business.id, 'connection_accepted'),
    title: `${shifter.name} joined your crew`,
    body: `${shifter.name} joined the crew of ${t.business.name} with ${via}. See them on the crew page: ${url}`,
    data: { business_id: t.business.id, shifter_id: shifter.id, url },
  };
}

/** One attempt at the join's guarded write; null when the invitation or the pair changed meanwhile. */
async function joinOnce(
  ctx: ServiceContext,
  t: Target,
  shifter: { id: string; name: string },
): Promise<{ id: string; already: boolean } | null> {
  const [pair] = await ctx.db
    .select()
    .from(requestAuthorizations)
    .where(and(eq(requestAuthorizations.business_id, t.business.id), eq(requestAuthorizations.shifter_id, shifter.id)))
    .limit(1);
  const already = pair?.status === 'accepted';
  // The join link of a crew the person is in already: nothing to change.
  if (already && t.kind === 'link') return { id: pair.id, already };
  const now = ctx.now();
  const id = pair?.id ?? newId('connection');
  const pairAsRead: SQL = pair
    ? existsIn(
        requestAuthorizations,
        and(
          eq(requestAuthorizations.id, pair.id),
          eq(requestAuthorizations.status, pair.status),
          eq(requestAuthorizations.updated_at, pair.updated_at),
        )!,
      )
    : sql`NOT ${existsIn(
        requestAuthorizations,
        and(eq(requestAuthorizations.business_id, t.business.id), eq(requestAuthorizations.shifter_id, shifter.id))!,
      )}`;
  const table = t.kind === 'invite' ? crewInvites : crewJoinLinks;
  const w = prepareWrite(
    ctx,
    { type: 'connection', id },
    (op) => sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${t.row.id} AND ${table.last_op_id} = ${op})`,
  );
  const guard =
    t.kind === 'invite'
      ? ctx.db
          .update(crewInvites)
          .set({ status: 'accepted', accepted_shifter_id: shifter.id, responded_at: now, last_op_id: w.op, updated_at: now })
          .where(and(eq(crewInvites.id, t.row.id), eq(crewInvites.status, 'pending'), gt(crewInvites.expires_at, now), pairAsRead))
      : ctx.db
          .update(crewJoinLinks)
          .set({ uses: sql`${crewJoinLinks.uses} + 1`, last_op_id: w.op, updated_at: now })
          .where(and(eq(crewJoinLinks.id, t.row.id), isNull(crewJoinLinks.revoked_at), pairAsRead));
  const follow = !pair
    ? [
        insertWhere(
          ctx.db,
          requestAuthorizations,
          {
            id,
            business_id: t.business.id,
            shifter_id: shifter.id,
            initiated_by: 'shifter',
            status: 'accepted',
            responded_at: now,
            created_at: now,
            updated_at: now,
          },
          w.applied!,
        ),
      ]
    : already
      ? []
      : [
          ctx.db
            .update(requestAuthorizations)
            .set({
              status: 'accepted',
              // A request the business had sent stays theirs, accepted; any other pair is the shifter's request.
              initiated_by: pair.status === 'pending' ? pair.initiated_by : 'shifter',
              responded_at: now,
              updated_at: Math.max(now, pair.updated_at + 1),
            })
            .where(and(eq(requestAuthorizations.id, pair.id), w.applied!)),
        ];
  try {
    const r = await w.commit({
      guard,
      follow,
      audit: {
        action: 'connection.join',
        data: {
          via: t.kind,
          [t.kind === 'invite' ? 'crew_invite_id' : 'crew_join_link_id']: t.row.id,
          from: pair?.status ?? null,
          to: 'accepted',
        },
      },
      notify: already ? [] : [await joinedNotice(ctx, t, shifter)],
    });
    return r.applied ? { id: r.subject.id, already } : null;
  } catch (err) {
    if (isUniqueViolation(err)) return null; // the pair was made meanwhile: read it again
    throw err;
  }
}

/**
 * POST /v1/request_authorization/join: the caller's shifter profile joins the crew of the business
 * whose invitation or join link `token` is. Refused when the token matches nothing
 * (CREW-INVITE-NOT-FND-ERR), no longer works (CREW-INVITE-CLOSED-ERR, `details.state` saying why),
 * the caller has no shifter profile (SHIFTER-NOT-FND-ERR) or acts for the business (CONFLICT-ERR).
 */
export async function joinCrew(ctx: ServiceContext, input: JoinCrewInput): Promise<JoinedCrew> {
  const actor = requirePerson(ctx);
  const done = committedSubject(ctx, 'connection');
  if (done) return { connection: await connectionAsStored(ctx, done), already_connected: false };
  const first = await findWithinBudget(ctx, input.token, actor.userId);
  if (!first) throw new AppError('CREW-INVITE-NOT-FND-ERR', 'This invitation link does not exist. Check that it was copied whole.');
  const role = await standingToward(ctx, first.business);
  if (role === 'owner' || role === 'teammate') {
    throw new AppError('CONFLICT-ERR', `You act for ${first.business.name}: this link is for the people you invite to its crew.`);
  }
  const [me] = await ctx.db
    .select({ id: shifters.id, name: shifters.display_name })
    .from(shifters)
    .where(eq(shifters.user_id, actor.userId))
    .limit(1);
  if (!me) throw new AppError('SHIFTER-NOT-FND-ERR', 'Add the shifter side to your account to join a crew.');

  let t: Target | null = first;
  for (let attempt = 0; attempt < ATTEMPTS && t; attempt++) {
    const state = stateOf(t, ctx.now());
    if (state !== 'open') {
      const preview = previewOf(t, ctx.now(), null);
      throw new AppError('CREW-INVITE-CLOSED-ERR', closedWords(preview), { state });
    }
    const joined = await joinOnce(ctx, t, me);
    if (joined) return { connection: await connectionAsStored(ctx, joined.id), already_connected: joined.already };
    t = await findTarget(ctx, input.token);
  }
  throw new AppError('CONFLICT-ERR', 'The invitation changed while joining; try again.');
}
