import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import { reviews } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { type ServiceContext, requirePerson } from '../kernel';
import { callerPartyIds } from './parties';
import type { ListReviewsQuery, ReviewList } from './schemas';
import { notUpheld, reviewView, selectNamed } from './view';
import { isAdmin } from '../access';

const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

/**
 * GET /v1/review/list: the reviews of a party (review_on + review_on_id) or by a party (review_by +
 * review_by_id), or both, newest first, keyset-paginated on (created_at, id). Reviews are public to
 * any signed-in user (they show on profiles); upheld-dispute reviews are left out. A dispute's
 * reason is shown only to the two parties and admins.
 */
export async function listReviews(ctx: ServiceContext, q: ListReviewsQuery): Promise<ReviewList> {
  const actor = requirePerson(ctx);
  const conds: SQL[] = [notUpheld];
  for (const side of ['on', 'by'] as const) {
    const kind = q[`review_${side}`];
    const id = q[`review_${side}_id`];
    if ((kind === undefined) !== (id === undefined)) {
      throw invalid(kind === undefined ? `review_${side}` : `review_${side}_id`, `required with review_${side}${kind ? '' : '_id'}`);
    }
    if (kind && id) {
      conds.push(
        side === 'on'
          ? and(eq(reviews.review_on, kind), eq(reviews.review_on_id, id))!
          : and(eq(reviews.review_by, kind), eq(reviews.review_by_id, id))!,
      );
    }
  }
  if (conds.length === 1) throw invalid('review_on_id', 'name a party: review_on and review_on_id, or review_by and review_by_id');
  if (q.cursor) {
    const [createdAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(or(lt(reviews.created_at, createdAt), and(eq(reviews.created_at, createdAt), lt(reviews.id, id)))!);
  }
  const [rows, mine] = await Promise.all([
    selectNamed(ctx)
      .where(and(...conds))
      .orderBy(desc(reviews.created_at), desc(reviews.id))
      .limit(q.limit + 1),
    callerPartyIds(ctx, actor),
  ]);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => reviewView(r, isAdmin(actor) || mine.has(r.row.review_on_id) || mine.has(r.row.review_by_id))),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.row.created_at, last.row.id]) : null,
  };
}
