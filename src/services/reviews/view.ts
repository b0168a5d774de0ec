import { eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { businesses, reviews, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toIso } from '../../lib/time';
import type { ServiceContext } from '../kernel';
import type { PartyKind, ReviewView } from './schemas';

export type ReviewRow = typeof reviews.$inferSelect;
export type NamedReview = { row: ReviewRow; byName: string | null; onName: string | null };

/** SQL: the review was not removed by an upheld dispute (what every public list and aggregate shows). */
export const notUpheld: SQL = or(isNull(reviews.dispute_status), ne(reviews.dispute_status, 'upheld'))!;

/** True inside a batch once the review carries this operation id (its guarded write ran). */
export const reviewOpApplied = (reviewId: string, op: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${reviews} WHERE ${reviews.id} = ${reviewId} AND ${reviews.last_op_id} = ${op})`;

/** The display name of a party named by a kind and an id column. */
const nameOf = (kind: SQLiteColumn, id: SQLiteColumn) =>
  sql<
    string | null
  >`CASE ${kind} WHEN 'shifter' THEN (SELECT ${shifters.display_name} FROM ${shifters} WHERE ${shifters.id} = ${id}) ELSE (SELECT ${businesses.name} FROM ${businesses} WHERE ${businesses.id} = ${id}) END`;

/** Reviews with both parties' display names. */
export function selectNamed(ctx: ServiceContext) {
  return ctx.db
    .select({
      row: reviews,
      byName: nameOf(reviews.review_by, reviews.review_by_id),
      onName: nameOf(reviews.review_on, reviews.review_on_id),
    })
    .from(reviews);
}

/** One review with its names, upheld ones included; null when there is none. */
export async function loadReview(ctx: ServiceContext, reviewId: string): Promise<NamedReview | null> {
  const [r] = await selectNamed(ctx).where(eq(reviews.id, reviewId)).limit(1);
  return r ?? null;
}

/** A review anyone signed in may see: it exists and no upheld dispute removed it; else 404. */
export async function visibleReview(ctx: ServiceContext, reviewId: string): Promise<NamedReview> {
  const r = await loadReview(ctx, reviewId);
  if (!r || r.row.dispute_status === 'upheld') throw new AppError('REVIEW-NOT-FND-ERR');
  return r;
}

/**
 * The API shape. The dispute fields are absent when there is no dispute (spec 2.9); the reason and
 * the resolving admin are shown only to `seesDetails` readers (the two parties and admins).
 */
export function reviewView({ row: r, byName, onName }: NamedReview, seesDetails: boolean): ReviewView {
  const view: ReviewView = {
    id: r.id,
    review_by: r.review_by as PartyKind,
    review_by_id: r.review_by_id,
    review_by_name: byName,
    review_on: r.review_on as PartyKind,
    review_on_id: r.review_on_id,
    review_on_name: onName,
    shift_request_id: r.shift_request_id,
    rating: r.rating,
    review_text: r.review_text,
    response_text: r.response_text,
    response_at: toIso(r.response_at),
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
  if (r.dispute_status) {
    view.dispute_status = r.dispute_status;
    view.disputed_at = toIso(r.disputed_at) ?? undefined;
    view.dispute_resolved_at = toIso(r.dispute_resolved_at);
    if (seesDetails) {
      view.dispute_reason = r.dispute_reason ?? '';
      view.dispute_resolved_by_user_id = r.dispute_resolved_by_user_id;
    }
  }
  return view;
}
