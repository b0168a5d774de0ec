import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { isUniqueViolation } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { businesses, teammateInvitations, teammates, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { accessBusiness, TEAMMATE_STATUS } from '../access';
import { enforceRateLimit, type Notice, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { draftEmail } from '../mail';
import { businessRecipients } from '../notifications';
import {
  type InvitationList,
  type InvitationStatus,
  type InvitationView,
  type InviteTeammateInput,
  MAX_PENDING_INVITATIONS,
  type ReceivedInvitationList,
  type ReceivedInvitationView,
  type TeammateView,
} from './schemas';
import { loadTeammate } from './teammates';

/** An invitation can be accepted for this long after it was sent (or last re-sent). */
export const INVITATION_TTL_MS = 14 * 24 * 3600 * 1000;
/** Invitations a business may send (or re-send) per hour: each may mail a stranger. */
const INVITES_PER_HOUR = 30;

type InvitationRow = typeof teammateInvitations.$inferSelect;

const statusAt = (inv: InvitationRow, now: number): InvitationStatus =>
  inv.status === 'pending' && inv.expires_at <= now ? 'expired' : inv.status;

/** What the business sees of an invitation: the address it typed, nothing of any account behind it. */
export function invitationView(inv: InvitationRow, now: number): InvitationView {
  return {
    id: inv.id,
    business_id: inv.business_id,
    email: inv.email,
    status: statusAt(inv, now),
    expires_at: toIso(inv.expires_at),
    responded_at: toIso(inv.responded_at),
    created_at: toIso(inv.created_at),
  };
}

/** What the invitee sees: who invites them, to which business. */
function receivedView(inv: InvitationRow, business: { name: string }, inviterName: string, now: number): ReceivedInvitationView {
  return { ...invitationView(inv, now), business_name: business.name, invited_by_name: inviterName };
}

/** SQL: the invitation carries this operation id (its guarded change ran in this batch). */
const invitationOp = (invitationId: string) => (op: string) =>
  sql`EXISTS (SELECT 1 FROM ${teammateInvitations} WHERE ${teammateInvitations.id} = ${invitationId} AND ${teammateInvitations.last_op_id} = ${op})`;

/** The business's pending invitations (expired ones included, marked), newest first. */
export async function listBusinessInvitations(ctx: ServiceContext, businessId: string): Promise<InvitationList> {
  await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const rows = await ctx.db
    .select()
    .from(teammateInvitations)
    .where(and(eq(teammateInvitations.business_id, businessId), eq(teammateInvitations.status, 'pending')))
    .orderBy(desc(teammateInvitations.created_at))
    .limit(MAX_PENDING_INVITATIONS);
  const now = ctx.now();
  return { data: rows.map((r) => invitationView(r, now)) };
}

/**
 * The owner (or an admin) invites an email to join the business. The answer is the same whether or
 * not the email has an account (the invitation, nothing of the invitee); the invitee is told in the
 * app when a verified account has the email, else by email, and becomes a teammate only by accepting.
 * Inviting an email that already has a pending invitation re-sends it with a fresh expiry.
 */
export async function inviteTeammate(ctx: ServiceContext, businessId: string, input: InviteTeammateInput): Promise<InvitationView> {
  const { email } = input;
  const { business, actor } = await accessBusiness(ctx, businessId, ['owner', 'admin']);
  // Both refusals concern people the business already knows: itself and its team.
  const [[owner], [member]] = await Promise.all([
    ctx.db.select({ email: users.email }).from(users).where(eq(users.id, business.user_id)).limit(1),
    ctx.db
      .select({ id: teammates.id })
      .from(teammates)
      .innerJoin(users, eq(users.id, teammates.user_id))
      .where(and(eq(teammates.business_id, businessId), eq(users.email, email)))
      .limit(1),
  ]);
  if (owner?.email === email) throw new AppError('CONFLICT-ERR', 'The owner is not a teammate of their own business.');
  if (member)
    throw new AppError('CONFLICT-ERR', 'This email already belongs to a teammate; use PUT …/teammates/{user_id} to change their status.');
  await enforceRateLimit(
    ctx.env,
    `invite:${businessId}`,
    INVITES_PER_HOUR,
    3600,
    'Too many invitations from this business; try again later.',
  );

  const [[invitee], [inviter]] = await Promise.all([
    ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), isNotNull(users.email_verified_at)))
      .limit(1),
    ctx.db.select({ name: users.display_name }).from(users).where(eq(users.id, actor.userId)).limit(1),
  ]);

  for (let round = 0; ; round++) {
    const now = ctx.now();
    const [open] = await ctx.db
      .select({ id: teammateInvitations.id })
      .from(teammateInvitations)
      .where(
        and(
          eq(teammateInvitations.business_id, businessId),
          eq(teammateInvitations.email, email),
          eq(teammateInvitations.status, 'pending'),
        ),
      )
      .limit(1);
    if (!open) {
      const [{ n } = { n: 0 }] = await ctx.db
        .select({ n: sql<number>`COUNT(*)` })
        .from(teammateInvitations)
        .where(
          and(
            eq(teammateInvitations.business_id, businessId),
            eq(teammateInvitations.status, 'pending'),
            gt(teammateInvitations.expires_at, now),
          ),
        );
      if (n >= MAX_PENDING_INVITATIONS)
        throw new AppError(
          'CONFLICT-ERR',
          `A business may have at most ${MAX_PENDING_INVITATIONS} pending invitations; revoke some first.`,
        );
    }
    const id = open?.id ?? newId('invitation');
    const expiresAt = now + INVITATION_TTL_MS;
    const w = prepareWrite(ctx, { type: 'teammate_invitation', id }, invitationOp(id));
    const title = `${business.name} invites you to their team`;
    const text = `${inviter?.name ?? 'A business owner'} invited you to join ${business.name} as a teammate on Shiftmarket.`;
    const notice: Notice | null = invitee
      ? {
          kind: 'teammate_invitation',
          userIds: [invitee.id],
          title,
          body: `${text} Accept or decline it under your invitations.`,
          data: { business_id: businessId },
        }
      : null;
    const mail = invitee
      ? null
      : draftEmail(ctx, {
          to: email,
          template: 'teammate_invitation',
          subject: title,
          text: `${text}\n\nSign in, or create an account with this email address, and accept it under your invitations before ${toIso(expiresAt)}.\nIf you do not know this business, ignore this email.`,
        });
    let written = id;
    try {
      const r = await w.commit({
        guard: open
          ? ctx.db
              .update(teammateInvitations)
              .set({ expires_at: expiresAt, invited_by_user_id: actor.userId, last_op_id: w.op, updated_at: now })
              .where(and(eq(teammateInvitations.id, open.id), eq(teammateInvitations.status, 'pending')))
          : ctx.db.insert(teammateInvitations).values({
              id,
              business_id: businessId,
              email,
              invited_by_user_id: actor.userId,
              status: 'pending',
              expires_at: expiresAt,
              last_op_id: w.op,
              created_at: now,
              updated_at: now,
            }),
        follow: mail ? [mail.insert] : [],
        audit: { action: open ? 'teammate_invitation.resend' : 'teammate_invitation.create', data: { business_id: businessId } },
        notify: [notice],
      });
      if (!r.applied && round < 2) continue;
      if (!r.applied) throw new AppError('CONFLICT-ERR', 'The invitation changed at the same moment; try again.');
      // A retry after a lost answer: the first attempt's invitation (and its mail) stand.
      if (r.replayed) return invitationView(await invitationRow(ctx, r.subject.id), ctx.now());
      written = r.subject.id;
    } catch (err) {
      // Another invite of the same email won the one pending slot: re-send that one instead.
      if (isUniqueViolation(err) && round < 2) continue;
      throw err;
    }
    if (mail)
      ctx.waitUntil(
        mail.enqueue().catch((err: unknown) => ctx.log.warn('invitation mail not enqueued; the sweep sends it', { error: String(err) })),
      );
    return invitationView(await invitationRow(ctx, written), ctx.now());
  }
}

async function invitationRow(ctx: ServiceContext, id: string) {
  const [row] = await ctx.db.select().from(teammateInvitations).where(eq(teammateInvitations.id, id)).limit(1);
  if (!row) throw new AppError('INVITATION-NOT-FND-ERR');
  return row;
}

/** The owner (or an admin) withdraws a pending invitation. */
export async function revokeInvitation(ctx: ServiceContext, businessId: string, invitationId: string): Promise<InvitationView> {
  await accessBusiness(ctx, businessId, ['owner', 'admin']);
  const [inv] = await ctx.db
    .select()
    .from(teammateInvitations)
    .where(and(eq(teammateInvitations.id, invitationId), eq(teammateInvitations.business_id, businessId)))
    .limit(1);
  if (!inv) throw new AppError('INVITATION-NOT-FND-ERR');
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'teammate_invitation', id: inv.id }, invitationOp(inv.id));
  const r = await w.commit({
    guard: ctx.db
      .update(teammateInvitations)
      .set({ status: 'revoked', responded_at: now, last_op_id: w.op, updated_at: now })
      .where(and(eq(teammateInvitations.id, inv.id), eq(teammateInvitations.status, 'pending'))),
    audit: { action: 'teammate_invitation.revoke', data: { business_id: businessId } },
  });
  if (!r.applied) throw new AppError('INVITATION-CLOSED-ERR');
  return invitationView({ ...inv, status: 'revoked', responded_at: now }, now);
}

/** The caller's verified email: invitations are addressed to it. */
async function myEmail(ctx: ServiceContext): Promise<string> {
  const actor = requirePerson(ctx);
  const [me] = await ctx.db
    .select({ email: users.email, verified: users.email_verified_at })
    .from(users)
    .where(eq(users.id, actor.userId))
    .limit(1);
  if (!me || me.verified === null) throw new AppError('EMAIL-UNVERIFIED-ERR');
  return me.email;
}

const inviters = alias(users, 'inviters');

/** Invitations addressed to the caller's email that can still be answered, newest first. */
export async function listMyInvitations(ctx: ServiceContext): Promise<ReceivedInvitationList> {
  const email = await myEmail(ctx);
  const now = ctx.now();
  const rows = await ctx.db
    .select({ inv: teammateInvitations, business: businesses.name, inviter: inviters.display_name })
    .from(teammateInvitations)
    .innerJoin(businesses, eq(businesses.id, teammateInvitations.business_id))
    .innerJoin(inviters, eq(inviters.id, teammateInvitations.invited_by_user_id))
    .where(and(eq(teammateInvitations.email, email), eq(teammateInvitations.status, 'pending'), gt(teammateInvitations.expires_at, now)))
    .orderBy(desc(teammateInvitations.created_at))
    .limit(MAX_PENDING_INVITATIONS);
  return { data: rows.map((r) => receivedView(r.inv, { name: r.business }, r.inviter, now)) };
}

/** Loads an invitation addressed to the caller; anyone else's is 404, as one that does not exist. */
async function myInvitation(ctx: ServiceContext, invitationId: string) {
  const email = await myEmail(ctx);
  const [row] = await ctx.db
    .select({
      inv: teammateInvitations,
      business: { id: businesses.id, name: businesses.name, user_id: businesses.user_id },
      inviter: inviters.display_name,
    })
    .from(teammateInvitations)
    .innerJoin(businesses, eq(businesses.id, teammateInvitations.business_id))
    .innerJoin(inviters, eq(inviters.id, teammateInvitations.invited_by_user_id))
    .where(and(eq(teammateInvitations.id, invitationId), eq(teammateInvitations.email, email)))
    .limit(1);
  if (!row) throw new AppError('INVITATION-NOT-FND-ERR');
  if (statusAt(row.inv, ctx.now()) !== 'pending') throw new AppError('INVITATION-CLOSED-ERR');
  return { ...row, email };
}

/** Guard for answering: still pending, unexpired and addressed to the caller's email. */
const stillOpen = (invitationId: string, email: string, now: number) =>
  and(
    eq(teammateInvitations.id, invitationId),
    eq(teammateInvitations.status, 'pending'),
    gt(teammateInvitations.expires_at, now),
    eq(teammateInvitations.email, email),
  );

/**
 * The invitee accepts: one batch marks the invitation accepted (guarded: still pending, unexpired,
 * their email) and, only if that happened, makes them an active teammate and tells the owner.
 */
export async function acceptInvitation(ctx: ServiceContext, invitationId: string): Promise<TeammateView> {
  const actor = requirePerson(ctx);
  const { inv, business, email } = await myInvitation(ctx, invitationId);
  if (business.user_id === actor.userId) throw new AppError('CONFLICT-ERR', 'The owner is not a teammate of their own business.');
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'teammate_invitation', id: inv.id }, invitationOp(inv.id));
  const member = and(eq(teammates.business_id, business.id), eq(teammates.user_id, actor.userId))!;
  const row = {
    id: newId('teammate'),
    business_id: business.id,
    user_id: actor.userId,
    status: TEAMMATE_STATUS.active,
    created_at: now,
    updated_at: now,
  };
  const [me] = await ctx.db.select({ name: users.display_name }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const r = await w.commit({
    guard: ctx.db
      .update(teammateInvitations)
      .set({ status: 'accepted', accepted_user_id: actor.userId, responded_at: now, last_op_id: w.op, updated_at: now })
      .where(stillOpen(inv.id, email, now)),
    follow: [
      insertWhere(ctx.db, teammates, row, sql`${w.applied!} AND NOT EXISTS (SELECT 1 FROM ${teammates} WHERE ${member})`),
      // Someone suspended earlier and invited again is active again.
      ctx.db.update(teammates).set({ status: TEAMMATE_STATUS.active, updated_at: now }).where(and(member, w.applied)),
    ],
    audit: { action: 'teammate_invitation.accept', data: { business_id: business.id } },
    notify: [
      {
        kind: 'teammate_joined',
        userIds: await businessRecipients(ctx, business.id, 'teammate_joined'),
        title: `${me?.name ?? email} joined ${business.name}`,
        body: `${me?.name ?? email} accepted your invitation and is now a teammate of ${business.name}.`,
        data: { business_id: business.id },
      },
    ],
  });
  if (!r.applied) throw new AppError('INVITATION-CLOSED-ERR');
  return (await loadTeammate(ctx, business.id, actor.userId))!;
}

/** The invitee declines; the business sees the invitation declined. */
export async function declineInvitation(ctx: ServiceContext, invitationId: string): Promise<ReceivedInvitationView> {
  const { inv, business, inviter, email } = await myInvitation(ctx, invitationId);
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'teammate_invitation', id: inv.id }, invitationOp(inv.id));
  const r = await w.commit({
    guard: ctx.db
      .update(teammateInvitations)
      .set({ status: 'declined', responded_at: now, last_op_id: w.op, updated_at: now })
      .where(stillOpen(inv.id, email, now)),
    audit: { action: 'teammate_invitation.decline', data: { business_id: business.id } },
  });
  if (!r.applied) throw new AppError('INVITATION-CLOSED-ERR');
  return receivedView({ ...inv, status: 'declined', responded_at: now }, business, inviter, now);
}
