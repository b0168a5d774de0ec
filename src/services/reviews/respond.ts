import { and, eq, isNull } from 'drizzle-orm';
import { reviews } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type Notice, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { actsFor, loadParty, type Party, partyRecipients } from './parties';
import type { PartyKind, RespondInput, ReviewView } from './schemas';
import { type NamedReview, notUpheld, reviewOpApplied, reviewView, visibleReview } from './view';

/**
 * The reviewed party of a review the caller may answer for: its shifter, or the business's owner or
 * an active teammate. Reviews are public, so anyone else (the reviewer included, and admins) is 403.
 */
export async function requireReviewee(ctx: ServiceContext, r: NamedReview, what: string): Promise<Party> {
  const on = await loadParty(ctx, r.row.review_on as PartyKind, r.row.review_on_id);
  if (!(await actsFor(ctx, on))) throw new AppError('FORBIDDEN-ERR', `Only the reviewed party may ${what} this review.`);
  return on;
}

/** A notice to one party's users, minus the caller; null when nobody is left. */
export async function noticeTo(
  ctx: ServiceContext,
  party: { kind: PartyKind; id: string },
  n: Omit<Notice, 'userIds'>,
): Promise<Notice | null> {
  const actor = requirePerson(ctx);
  // The caller need not hear of their own action, should they act for that side too.
  const userIds = (await partyRecipients(ctx, party.kind, party.id, n.kind)).filter((u) => u !== actor.userId);
  return userIds.length ? { ...n, userIds } : null;
}

export const reviewerOf = (r: NamedReview) => ({ kind: r.row.review_by as PartyKind, id: r.row.review_by_id });

/**
 * PUT /v1/review/respond?review_id=: the reviewee's public response, given once. The guard is
 * `response_text IS NULL`, so of two concurrent responses one applies; the other, and any later
 * response with other text, is 409 REVIEW-RESPONDED-ERR. Sending the stored text again changes
 * nothing and answers the review (a PUT may be repeated). Notifies the reviewer's side.
 */
export async function respondToReview(ctx: ServiceContext, reviewId: string, input: RespondInput): Promise<ReviewView> {
  const r = await visibleReview(ctx, reviewId);
  const on = await requireReviewee(ctx, r, 'respond to');
  const same = (x: NamedReview) => x.row.response_text === input.response_text;
  if (r.row.response_text !== null) {
    if (same(r)) return reviewView(r, true);
    throw new AppError('REVIEW-RESPONDED-ERR');
  }
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'review', id: reviewId }, (op) => reviewOpApplied(reviewId, op));
  const res = await w.commit({
    guard: ctx.db
      .update(reviews)
      .set({ response_text: input.response_text, response_at: now, updated_at: now, last_op_id: w.op })
      .where(and(eq(reviews.id, reviewId), isNull(reviews.response_text), notUpheld)),
    audit: { action: 'review.respond' },
    notify: [
      await noticeTo(ctx, reviewerOf(r), {
        kind: 'review.response',
        title: `${on.name} responded to your review`,
        body: input.response_text.slice(0, 140),
      }),
    ],
  });
  const after = await visibleReview(ctx, reviewId);
  if (!res.applied && !same(after)) throw new AppError('REVIEW-RESPONDED-ERR');
  return reviewView(after, true);
}
