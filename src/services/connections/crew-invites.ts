import { and, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { crewInvites, shifters, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { accessBusiness } from '../access';
import { consumeRateLimit, prepareWrite, type RateLimitResult, rateLimitError, releaseRateLimit, type ServiceContext } from '../kernel';
import { draftEmail } from '../mail';
import { draftText } from '../notifications';
import type { CrewInviteList, CrewInviteOutcome, CrewInviteStatus, CrewInviteView, InviteToCrewInput } from './invite-schemas';
import { addressKey, addressOf, joinUrl, maskAddress, newInviteToken, tokenHash } from './invite-tokens';
import { sendConnection } from './requests';
import { connectionAsStored } from './view';

/*
 * Inviting someone to the crew by the email address or phone number the business has for them.
 * A shifter account with that verified email gets the ordinary connection request (sendConnection,
 * the spec's rules unchanged); anyone else gets a message with a join link that works once, for 14
 * days (services/connections/join.ts), by email through the mail outbox or by text through the text
 * outbox, in the same batch as the invitation. Phones are never matched to accounts: nothing in the
 * product verifies an account's phone, and a request must not reach whoever typed a number into a
 * profile.
 */

/** An invitation's link works this long after it was sent. */
export const CREW_INVITE_TTL_MS = 14 * 24 * 3600 * 1000;
/** Expired invitations stay listed this long (so the business sees what lapsed), then drop off. */
const EXPIRED_LISTED_MS = 30 * 24 * 3600 * 1000;

export const CREW_INVITE_BOUNDS = {
  /** Invitations (and connection requests by address) a business sends per day: each may reach a stranger. */
  perBusiness: { limit: 50, windowSeconds: 24 * 3600 },
  /** The same address from the same business: once an hour (a re-send makes a new link). */
  perAddress: { limit: 1, windowSeconds: 3600 },
  /** One address from every business together, per day: nobody is flooded by many businesses. */
  perAddressEverywhere: { limit: 5, windowSeconds: 24 * 3600 },
  /** Invitations waiting at once (and so the longest list the crew page shows). */
  maxPending: 200,
} as const;

type CrewInviteRow = typeof crewInvites.$inferSelect;

export function inviteStatusAt(row: CrewInviteRow, now: number): CrewInviteStatus {
  return row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;
}

/** What the business sees of an invitation: how it went and where to, masked. */
export function crewInviteView(row: CrewInviteRow, now: number): CrewInviteView {
  return {
    id: row.id,
    business_id: row.business_id,
    channel: row.channel,
    address: maskAddress(row.channel, row.address),
    name: row.name,
    status: inviteStatusAt(row, now),
    created_at: toIso(row.created_at),
    expires_at: toIso(row.expires_at),
    responded_at: toIso(row.responded_at),
  };
}

interface Budget {
  subject: string;
  limit: number;
  windowSeconds: number;
  message: string;
}

/** Counts one hit against each budget in turn; a refused one gives back the hits already counted. */
async function chargeAll(ctx: ServiceContext, budgets: Budget[]): Promise<void> {
  const counted: Array<{ b: Budget; r: RateLimitResult }> = [];
  for (const b of budgets) {
    const r = await consumeRateLimit(ctx.env, b.subject, b.limit, b.windowSeconds);
    if (!r.allowed) {
      await Promise.all(counted.map((x) => releaseRateLimit(ctx.env, x.b.subject, x.b.windowSeconds, x.r)));
      throw rateLimitError(r, b.message);
    }
    counted.push({ b, r });
  }
}

async function inviteRow(ctx: ServiceContext, id: string): Promise<CrewInviteRow> {
  const [row] = await ctx.db.select().from(crewInvites).where(eq(crewInvites.id, id)).limit(1);
  if (!row) throw new AppError('CREW-INVITE-NOT-FND-ERR');
  return row;
}

/** The shifter profile of the verified account with this email, if any. */
async function shifterWithEmail(ctx: ServiceContext, email: string): Promise<string | null> {
  const [s] = await ctx.db
    .select({ id: shifters.id })
    .from(users)
    .innerJoin(shifters, eq(shifters.user_id, users.id))
    .where(and(eq(users.email, email), isNotNull(users.email_verified_at)))
    .limit(1);
  return s?.id ?? null;
}

const expiryWords = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(ms));

/**
 * POST /v1/request_authorization/invite: the business side (owner, active teammate or admin) invites
 * an email address or a phone number to its crew. Bounded per business per day, per address per
 * business per hour and per address per day from every business; a refusal is 429 with Retry-After.
 * Inviting an address again (after the hour) sends a new link and retires the last one. `origin`
 * names the site of the link when no APP_URL does (a page passes its own).
 */
export async function inviteToCrew(ctx: ServiceContext, input: InviteToCrewInput, origin?: string): Promise<CrewInviteOutcome> {
  const { business, actor } = await accessBusiness(ctx, input.business_id);
  // A retry whose change already committed answers from what it wrote, without counting again.
  const committed = ctx.idempotency?.committed;
  if (committed?.type === 'crew_invite') {
    return { sent_as: 'invitation', connection: null, invite: crewInviteView(await inviteRow(ctx, committed.id), ctx.now()) };
  }
  if (committed?.type === 'connection') {
    return { sent_as: 'connection_request', connection: await connectionAsStored(ctx, committed.id), invite: null };
  }
  const { channel, address } = addressOf(input);
  const name = input.name?.trim().slice(0, 100) || null;
  const key = await addressKey(address);
  const { perBusiness, perAddress, perAddressEverywhere } = CREW_INVITE_BOUNDS;
  await chargeAll(ctx, [
    {
      subject: `crew-invite-address:${business.id}:${key}`,
      ...perAddress,
      message: 'This address was invited less than an hour ago. Wait an hour before sending it again.',
    },
    {
      subject: `crew-invite-address:${key}`,
      ...perAddressEverywhere,
      message: 'This address has had enough invitations today. Try again tomorrow, or share your crew’s join link with them.',
    },
    {
      subject: `crew-invite:${business.id}`,
      ...perBusiness,
      message: `A business sends at most ${perBusiness.limit} invitations a day. Try again tomorrow, or share your crew’s join link.`,
    },
  ]);

  if (channel === 'email') {
    const shifterId = await shifterWithEmail(ctx, address);
    if (shifterId) {
      const connection = await sendConnection(ctx, { business_id: business.id, shifter_id: shifterId, as: 'business' });
      return { sent_as: 'connection_request', connection, invite: null };
    }
  }

  const now = ctx.now();
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: sql<number>`COUNT(*)` })
    .from(crewInvites)
    .where(and(eq(crewInvites.business_id, business.id), eq(crewInvites.status, 'pending'), gt(crewInvites.expires_at, now)));
  if (n >= CREW_INVITE_BOUNDS.maxPending) {
    throw new AppError(
      'CONFLICT-ERR',
      `A business may have at most ${CREW_INVITE_BOUNDS.maxPending} invitations waiting; withdraw some first.`,
    );
  }

  const [inviter] = await ctx.db.select({ name: users.display_name }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const id = newId('crewInvite');
  const token = newInviteToken();
  const url = joinUrl(ctx, token, origin);
  const expiresAt = now + CREW_INVITE_TTL_MS;
  const who = inviter?.name ? `${inviter.name} of ${business.name}` : business.name;
  const mail =
    channel === 'email'
      ? draftEmail(ctx, {
          to: address,
          template: 'crew_invitation',
          subject: `${business.name} invites you to join their crew on Shiftmarket`,
          text:
            `${name ? `Hello ${name},\n\n` : ''}${who} invites you to join their crew on Shiftmarket. ` +
            'In the crew, they can offer you shifts and you see the shifts they open to their crew.\n\n' +
            `Join with this link. It works once, until ${expiryWords(expiresAt)}:\n${url}\n\n` +
            'No account yet? The link lets you create one. If you do not know this business, ignore this email.',
          sensitive: true,
        })
      : null;
  const text =
    channel === 'sms'
      ? draftText(ctx, {
          to: address,
          template: 'crew_invitation',
          text: `${business.name} invites you to join their crew on Shiftmarket. Join here (works once, for 14 days): ${url}`,
          sensitive: true,
        })
      : null;

  const w = prepareWrite(ctx, { type: 'crew_invite', id });
  await w.commit({
    // A plain insert: the batch as a whole happens or fails.
    guard: ctx.db.insert(crewInvites).values({
      id,
      business_id: business.id,
      channel,
      address,
      name,
      token_hash: await tokenHash(token),
      status: 'pending',
      invited_by_user_id: actor.userId,
      expires_at: expiresAt,
      last_op_id: w.op,
      created_at: now,
      updated_at: now,
    }),
    follow: [
      // Only the newest link to an address works: the ones sent before are retired in the same batch.
      ctx.db
        .update(crewInvites)
        .set({ status: 'replaced', updated_at: now })
        .where(
          and(
            eq(crewInvites.business_id, business.id),
            eq(crewInvites.address, address),
            eq(crewInvites.status, 'pending'),
            ne(crewInvites.id, id),
          ),
        ),
      ...(mail ? [mail.insert] : []),
      ...(text ? [text.insert] : []),
    ],
    audit: { action: 'crew_invite.send', data: { business_id: business.id, channel } },
    events: text ? [text.event] : [],
  });
  if (mail) {
    ctx.waitUntil(
      mail.enqueue().catch((err: unknown) => ctx.log.warn('crew invitation mail not enqueued; the sweep sends it', { error: String(err) })),
    );
  }
  return { sent_as: 'invitation', connection: null, invite: crewInviteView(await inviteRow(ctx, id), ctx.now()) };
}

/** GET /v1/request_authorization/invites: the business's invitations waiting (recently expired ones marked), newest first. */
export async function listCrewInvites(ctx: ServiceContext, businessId: string): Promise<CrewInviteList> {
  await accessBusiness(ctx, businessId);
  const now = ctx.now();
  const rows = await ctx.db
    .select()
    .from(crewInvites)
    .where(
      and(eq(crewInvites.business_id, businessId), eq(crewInvites.status, 'pending'), gt(crewInvites.expires_at, now - EXPIRED_LISTED_MS)),
    )
    .orderBy(desc(crewInvites.created_at), desc(crewInvites.id))
    .limit(CREW_INVITE_BOUNDS.maxPending);
  return { data: rows.map((r) => crewInviteView(r, now)) };
}

/**
 * DELETE /v1/request_authorization/invites/{id}: the business side withdraws an invitation, so its
 * link stops working. Another business's invitation is 404, as one that does not exist; withdrawing
 * a withdrawn one changes nothing; one used or replaced already is CREW-INVITE-CLOSED-ERR.
 */
export async function withdrawCrewInvite(ctx: ServiceContext, inviteId: string): Promise<CrewInviteView> {
  const [row] = await ctx.db.select().from(crewInvites).where(eq(crewInvites.id, inviteId)).limit(1);
  if (!row) throw new AppError('CREW-INVITE-NOT-FND-ERR');
  try {
    await accessBusiness(ctx, row.business_id);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'BUSINESS-NOT-FND-ERR' || err.code === 'FORBIDDEN-ERR')) {
      throw new AppError('CREW-INVITE-NOT-FND-ERR');
    }
    throw err;
  }
  if (ctx.idempotency?.committed?.type === 'crew_invite' || row.status === 'revoked') return crewInviteView(row, ctx.now());
  const now = ctx.now();
  const w = prepareWrite(
    ctx,
    { type: 'crew_invite', id: row.id },
    (op) => sql`EXISTS (SELECT 1 FROM ${crewInvites} WHERE ${crewInvites.id} = ${row.id} AND ${crewInvites.last_op_id} = ${op})`,
  );
  const r = await w.commit({
    guard: ctx.db
      .update(crewInvites)
      .set({ status: 'revoked', responded_at: now, last_op_id: w.op, updated_at: now })
      .where(and(eq(crewInvites.id, row.id), eq(crewInvites.status, 'pending'))),
    audit: { action: 'crew_invite.withdraw', data: { business_id: row.business_id } },
  });
  const after = await inviteRow(ctx, row.id);
  if (!r.applied && after.status !== 'revoked') {
    throw new AppError('CREW-INVITE-CLOSED-ERR', `This invitation was ${after.status === 'accepted' ? 'used' : 'sent again'} already.`, {
      state: after.status === 'accepted' ? 'used' : 'replaced',
    });
  }
  return crewInviteView(after, ctx.now());
}
