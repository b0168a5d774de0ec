import { and, asc, desc, eq, gt, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { businesses, reviews, shifters, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { committedSubject, prepareWrite, purgeWidgetCache, requirePerson, type ServiceContext } from '../kernel';
import { reviewDisputedEvent } from '../webhooks';
import { adminOverReview, loadParty } from './parties';
import { noticeTo, requireReviewee, reviewerOf } from './respond';
import type { Decision, DisputeInput, DisputesQuery, PartyKind, ReviewList, ReviewView } from './schemas';
import { loadReview, reviewOpApplied, reviewView, selectNamed, visibleReview } from './view';
import { adminReach } from '../access';

/**
 * Review disputes (spec 3.3): the reviewee disputes once (→ pending, the review stays visible); an
 * admin resolves a pending dispute: upheld removes the review from every list and aggregate,
 * rejected keeps it. Each step is one guarded write with its audit row and notifications.
 */

/**
 * POST /v1/review/dispute?review_id=: reviewee only (403 for anyone else), once (409
 * REVIEW-DISPUTED-ERR for a second, whatever became of the first). Notifies the reviewer's side. A
 * retry (Idempotency-Key) after the commit answers with the disputed review.
 */
export async function disputeReview(ctx: ServiceContext, reviewId: string, input: DisputeInput): Promise<ReviewView> {
  if (committedSubject(ctx, 'review') === reviewId) {
    const done = await loadReview(ctx, reviewId);
    if (done) return reviewView(done, true);
  }
  const r = await visibleReview(ctx, reviewId);
  const on = await requireReviewee(ctx, r, 'dispute');
  if (r.row.dispute_status !== null) throw new AppError('REVIEW-DISPUTED-ERR');
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'review', id: reviewId }, (op) => reviewOpApplied(reviewId, op));
  const res = await w.commit({
    guard: ctx.db
      .update(reviews)
      .set({ dispute_status: 'pending', dispute_reason: input.reason, disputed_at: now, updated_at: now, last_op_id: w.op })
      .where(and(eq(reviews.id, reviewId), isNull(reviews.dispute_status))),
    audit: { action: 'review.dispute' },
    notify: [
      await noticeTo(ctx, reviewerOf(r), {
        kind: 'review.disputed',
        title: `${on.name} disputed your review`,
        body: 'An admin will look at it; the review stays visible meanwhile.',
      }),
    ],
    events: reviewDisputedEvent(r.row, now),
  });
  if (!res.applied) throw new AppError('REVIEW-DISPUTED-ERR');
  await purgeWidgetCache(ctx, on.kind, on.id);
  return reviewView(await visibleReview(ctx, reviewId), true);
}

/**
 * PUT /v1/review/dispute/resolve?review_id=&decision=: admin only (the demo cast's admin only over
 * reviews between demo accounts); only a pending dispute (409 REVIEW-DISPUTE-STATE-ERR otherwise).
 * Resolving again with the decision already taken changes nothing and answers the review (a PUT may
 * be repeated); the other decision is 409. Notifies both parties.
 */
export async function resolveDispute(ctx: ServiceContext, reviewId: string, decision: Decision): Promise<ReviewView> {
  const actor = requirePerson(ctx);
  adminReach(actor, 'Only an admin may resolve a review dispute.');
  const r = await loadReview(ctx, reviewId);
  if (!r) throw new AppError('REVIEW-NOT-FND-ERR');
  const on = await loadParty(ctx, r.row.review_on as PartyKind, r.row.review_on_id);
  if (!(await adminOverReview(ctx, r.row.reviewer_user_id, on))) {
    throw new AppError('FORBIDDEN-ERR', 'Only an admin may resolve a review dispute.');
  }
  if (r.row.dispute_status === decision) return reviewView(r, true);
  if (r.row.dispute_status !== 'pending') throw new AppError('REVIEW-DISPUTE-STATE-ERR');
  const now = ctx.now();
  const base = {
    kind: 'review.dispute_resolved',
    title: decision === 'upheld' ? 'A disputed review was removed' : 'A disputed review stays up',
    body:
      decision === 'upheld'
        ? `The dispute about the review of ${on.name} was upheld: the review no longer shows.`
        : `The dispute about the review of ${on.name} was rejected: the review stays visible.`,
    data: { decision },
  };
  // One notice to both sides (the admin, should they act for a side, is left out).
  const sides = await Promise.all([noticeTo(ctx, { kind: on.kind, id: on.id }, base), noticeTo(ctx, reviewerOf(r), base)]);
  const userIds = sides.flatMap((n) => n?.userIds ?? []);
  const w = prepareWrite(ctx, { type: 'review', id: reviewId }, (op) => reviewOpApplied(reviewId, op));
  const res = await w.commit({
    guard: ctx.db
      .update(reviews)
      .set({
        dispute_status: decision,
        dispute_resolved_at: now,
        dispute_resolved_by_user_id: actor.userId,
        updated_at: now,
        last_op_id: w.op,
      })
      .where(and(eq(reviews.id, reviewId), eq(reviews.dispute_status, 'pending'))),
    audit: { action: 'review.dispute_resolve', data: { decision } },
    notify: [{ ...base, userIds }],
  });
  const after = await loadReview(ctx, reviewId);
  if (!after) throw new AppError('REVIEW-NOT-FND-ERR');
  if (!res.applied && after.row.dispute_status !== decision) throw new AppError('REVIEW-DISPUTE-STATE-ERR');
  await purgeWidgetCache(ctx, on.kind, on.id);
  return reviewView(after, true);
}

/** SQL: both the reviewer and the reviewed party's owner are demo accounts (the demo admin's reach). */
function demoOnly(): SQL {
  const demo = sql`(SELECT ${users.id} FROM ${users} WHERE ${users.is_demo} = 1)`;
  const owner = sql`CASE ${reviews.review_on} WHEN 'shifter' THEN (SELECT ${shifters.user_id} FROM ${shifters} WHERE ${shifters.id} = ${reviews.review_on_id}) ELSE (SELECT ${businesses.user_id} FROM ${businesses} WHERE ${businesses.id} = ${reviews.review_on_id}) END`;
  return sql`(${reviews.reviewer_user_id} IN ${demo} AND ${owner} IN ${demo})`;
}

/**
 * GET /v1/review/disputes?status_filter=: the admins' queue. pending (default): open disputes,
 * oldest first; all: every disputed review (pending, upheld, rejected), newest dispute first. Keyset
 * pages on (disputed_at, id).
 */
export async function listDisputes(ctx: ServiceContext, q: DisputesQuery): Promise<ReviewList> {
  const actor = requirePerson(ctx);
  const reach = adminReach(actor, 'Only an admin may read the dispute queue.');
  const pending = q.status_filter === 'pending';
  const conds: SQL[] = [pending ? eq(reviews.dispute_status, 'pending') : isNotNull(reviews.dispute_status)];
  if (reach === 'demo') conds.push(demoOnly());
  if (q.cursor) {
    const [at, id] = decodeCursor(q.cursor, isKeysetCursor);
    const beyond = pending ? gt : lt;
    conds.push(or(beyond(reviews.disputed_at, at), and(eq(reviews.disputed_at, at), beyond(reviews.id, id)))!);
  }
  const dir = pending ? asc : desc;
  const rows = await selectNamed(ctx)
    .where(and(...conds))
    .orderBy(dir(reviews.disputed_at), dir(reviews.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => reviewView(r, true)),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.row.disputed_at ?? 0, last.row.id]) : null,
  };
}
