import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { crewJoinLinks } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import { accessBusiness } from '../access';
import { enforceRateLimit, prepareWrite, type ServiceContext } from '../kernel';
import type { JoinLinkAnswer, JoinLinkView } from './invite-schemas';
import { joinUrl, newInviteToken } from './invite-tokens';

/*
 * A business's crew join link: one live link per business, to print on a poster (its QR code) or
 * share anywhere. Anyone with a shifter profile who opens it may join the crew (join.ts). Rotating it
 * makes a new link and retires the old one in one batch, so a poster that went astray stops working.
 */

/** Rotations a business makes per day (each retires every poster and shared copy of the last link). */
export const JOIN_LINK_ROTATIONS = { limit: 20, windowSeconds: 24 * 3600 } as const;

type JoinLinkRow = typeof crewJoinLinks.$inferSelect;

const linkView = (ctx: ServiceContext, row: JoinLinkRow, origin?: string): JoinLinkView => ({
  business_id: row.business_id,
  url: joinUrl(ctx, row.token, origin),
  uses: row.uses,
  created_at: toIso(row.created_at),
});

async function liveLink(ctx: ServiceContext, businessId: string): Promise<JoinLinkRow | null> {
  const [row] = await ctx.db
    .select()
    .from(crewJoinLinks)
    .where(and(eq(crewJoinLinks.business_id, businessId), isNull(crewJoinLinks.revoked_at)))
    .orderBy(desc(crewJoinLinks.created_at), desc(crewJoinLinks.id))
    .limit(1);
  return row ?? null;
}

/** GET /v1/request_authorization/join_link: the business's live join link, or null before it makes one. */
export async function getJoinLink(ctx: ServiceContext, businessId: string, origin?: string): Promise<JoinLinkAnswer> {
  await accessBusiness(ctx, businessId);
  const row = await liveLink(ctx, businessId);
  return { link: row ? linkView(ctx, row, origin) : null };
}

/**
 * POST /v1/request_authorization/join_link/rotate: a new join link for the business (owner, active
 * teammate or admin); the one before stops working in the same batch. The first call makes the link.
 */
export async function rotateJoinLink(ctx: ServiceContext, businessId: string, origin?: string): Promise<JoinLinkAnswer> {
  const { business, actor } = await accessBusiness(ctx, businessId);
  const committed = ctx.idempotency?.committed;
  if (committed?.type === 'crew_join_link') {
    const [row] = await ctx.db.select().from(crewJoinLinks).where(eq(crewJoinLinks.id, committed.id)).limit(1);
    if (row) return { link: linkView(ctx, row, origin) };
  }
  await enforceRateLimit(
    ctx.env,
    `crew-join-link:${business.id}`,
    JOIN_LINK_ROTATIONS.limit,
    JOIN_LINK_ROTATIONS.windowSeconds,
    `A business replaces its join link at most ${JOIN_LINK_ROTATIONS.limit} times a day. Try again tomorrow.`,
  );
  const had = await liveLink(ctx, business.id);
  const now = ctx.now();
  const id = newId('crewJoinLink');
  const w = prepareWrite(ctx, { type: 'crew_join_link', id });
  await w.commit({
    guard: ctx.db.insert(crewJoinLinks).values({
      id,
      business_id: business.id,
      token: newInviteToken(),
      created_by_user_id: actor.userId,
      uses: 0,
      last_op_id: w.op,
      created_at: now,
      updated_at: now,
    }),
    follow: [
      ctx.db
        .update(crewJoinLinks)
        .set({ revoked_at: now, updated_at: now })
        .where(and(eq(crewJoinLinks.business_id, business.id), isNull(crewJoinLinks.revoked_at), ne(crewJoinLinks.id, id))),
    ],
    audit: { action: had ? 'crew_join_link.rotate' : 'crew_join_link.create', data: { business_id: business.id } },
  });
  const [row] = await ctx.db.select().from(crewJoinLinks).where(eq(crewJoinLinks.id, id)).limit(1);
  if (!row) throw new AppError('CONFLICT-ERR', 'The join link changed at the same moment; try again.');
  return { link: linkView(ctx, row, origin) };
}
