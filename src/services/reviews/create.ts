import { and, eq, exists, type SQL } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { businesses, reviews, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { accessBusiness, type BusinessRow, callerShifter } from '../access';
import {
  committedSubject,
  type Notice,
  prepareWrite,
  purgeWidgetCache,
  requirePerson,
  type ServiceContext,
  workedShiftSql,
} from '../kernel';
import { actsFor, loadParty, otherKind, type Party, partyRecipients } from './parties';
import type { CreateReviewInput, PartyKind, ReviewView } from './schemas';
import { loadReview, type ReviewRow, reviewOpApplied, reviewView } from './view';

/**
 * POST /v1/review: a party reviews the other party of a worked shift between them (spec 2.9, 4.6).
 *
 * - The reviewing party is the caller's own shifter profile, or a business the caller owns or is an
 *   active teammate of (services/access); anyone else is refused (403 for someone else's shifter
 *   profile, 404 for a business the caller has no standing in, as every business route answers).
 * - The two parties must share a worked shift (the one "worked" predicate, kernel/shift/status.ts); with
 *   `shift_request_id`, that shift must be a worked shift between exactly these two parties. Both
 *   refusals are 422 REVIEW-NOT-WORKED-ERR, the same for a shift id that does not exist, so shift
 *   ids cannot be probed through it.
 * - A reviewing party pins a shift at most once: the service refuses a second (409
 *   REVIEW-EXISTS-ERR), and the partial unique index `reviews_one_per_pinned_shift` refuses the
 *   second of two concurrent attempts, answered the same. Reviews without a pin are not limited.
 * - One guarded write: the insert (conditional on the worked shift), its audit row and the
 *   reviewed party's notification; a retry after the commit answers with the review it wrote.
 */
export async function createReview(ctx: ServiceContext, input: CreateReviewInput): Promise<ReviewView> {
  const actor = requirePerson(ctx);
  const done = committedSubject(ctx, 'review');
  if (done) {
    const r = await loadReview(ctx, done);
    if (r) return reviewView(r, true);
  }
  const byKind = otherKind(input.review_on);
  if (input.review_by && input.review_by !== byKind) {
    throw new AppError('VALIDATION-ERR', 'review_by: a shifter reviews a business and a business reviews a shifter', [
      { field: 'review_by', message: `must be ${byKind} when review_on is ${input.review_on}` },
    ]);
  }
  const by = await reviewingParty(ctx, byKind, input.review_by_id);
  const on = await loadParty(ctx, input.review_on, input.review_on_id);
  if (await actsFor(ctx, on)) throw new AppError('FORBIDDEN-ERR', 'You act for the reviewed party: a party does not review itself.');

  const pair = byKind === 'shifter' ? { shifterId: by.id, businessId: on.id } : { shifterId: on.id, businessId: by.id };
  const pin = input.shift_request_id || null;
  const worked = workedBetween(ctx, pair, pin);
  const [found] = await ctx.db.select({ one: shiftRequests.id }).from(shiftRequests).where(worked.where).limit(1);
  if (!found) throw notWorked(pin);
  if (pin && (await alreadyPinned(ctx, by, pin))) throw exists_();

  const now = ctx.now();
  const id = newId('review');
  const w = prepareWrite(ctx, { type: 'review', id }, (op) => reviewOpApplied(id, op));
  const row: ReviewRow = {
    id,
    reviewer_user_id: actor.userId,
    review_by: by.kind,
    review_by_id: by.id,
    review_on: on.kind,
    review_on_id: on.id,
    shift_request_id: pin,
    rating: input.rating,
    review_text: input.review_text || null,
    response_text: null,
    response_at: null,
    dispute_status: null,
    dispute_reason: null,
    disputed_at: null,
    dispute_resolved_at: null,
    dispute_resolved_by_user_id: null,
    last_op_id: w.op,
    created_at: now,
    updated_at: now,
  };
  let r: Awaited<ReturnType<typeof w.commit>>;
  try {
    r = await w.commit({
      guard: insertWhere(ctx.db, reviews, row, worked.exists),
      audit: { action: 'review.create', data: { review_by: by.kind, review_on: on.kind, rating: row.rating, pinned: pin !== null } },
      notify: [await receivedNotice(ctx, by, on, row.rating)],
    });
  } catch (err) {
    // A concurrent review of the same pinned shift by the same party committed first.
    if (isUniqueViolation(err)) throw exists_();
    throw err;
  }
  if (!r.applied) throw notWorked(pin);
  await purgeWidgetCache(ctx, on.kind, on.id);
  const stored = await loadReview(ctx, r.subject.id);
  if (!stored) throw new Error(`review ${r.subject.id} missing after its write`);
  return reviewView(stored, true);
}

const exists_ = () => new AppError('REVIEW-EXISTS-ERR', 'This party has already reviewed the pinned shift.');
const notWorked = (pin: string | null) =>
  new AppError(
    'REVIEW-NOT-WORKED-ERR',
    pin
      ? 'shift_request_id is not a worked shift between the reviewing and the reviewed party.'
      : 'The two parties have no worked shift together.',
  );

/** The reviewing party, checked: the caller must act for it (admin standing does not count). */
async function reviewingParty(ctx: ServiceContext, kind: PartyKind, id: string | undefined): Promise<Party> {
  if (kind === 'shifter') {
    const own = await callerShifter(ctx);
    if (!own || (id !== undefined && id !== own.id)) {
      throw new AppError('FORBIDDEN-ERR', "A shifter's review is written by the caller's own shifter profile.");
    }
    return { kind, id: own.id, name: own.display_name, ownerUserId: own.user_id, timezone: own.timezone };
  }
  let b: BusinessRow;
  if (id !== undefined) b = (await accessBusiness(ctx, id, ['owner', 'teammate'])).business;
  else {
    const [own] = await ctx.db
      .select()
      .from(businesses)
      .where(and(eq(businesses.user_id, requirePerson(ctx).userId), eq(businesses.is_default, true)))
      .limit(1);
    if (!own) {
      throw new AppError('VALIDATION-ERR', 'review_by_id: required: the caller has no default business', [
        { field: 'review_by_id', message: 'required: name the business the review is written for' },
      ]);
    }
    b = own;
  }
  return { kind, id: b.id, name: b.name, ownerUserId: b.user_id, timezone: b.timezone };
}

/** A worked shift between the pair (the pinned one, when given), as a WHERE and as an EXISTS for the guard. */
function workedBetween(ctx: ServiceContext, pair: { shifterId: string; businessId: string }, pin: string | null) {
  const conds: SQL[] = [eq(shiftRequests.business_id, pair.businessId), eq(shiftRequests.shifter_id, pair.shifterId), workedShiftSql()];
  if (pin) conds.push(eq(shiftRequests.id, pin));
  const where = and(...conds)!;
  return { where, exists: exists(ctx.db.select({ one: shiftRequests.id }).from(shiftRequests).where(where)) };
}

async function alreadyPinned(ctx: ServiceContext, by: Party, pin: string): Promise<boolean> {
  const [r] = await ctx.db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.shift_request_id, pin), eq(reviews.review_by, by.kind), eq(reviews.review_by_id, by.id)))
    .limit(1);
  return !!r;
}

async function receivedNotice(ctx: ServiceContext, by: Party, on: Party, rating: number): Promise<Notice | null> {
  const actor = requirePerson(ctx);
  const kind = 'review.received';
  // The writer, should they also act for the reviewed side, need not hear of their own review.
  const userIds = (await partyRecipients(ctx, on.kind, on.id, kind)).filter((u) => u !== actor.userId);
  if (!userIds.length) return null;
  return {
    kind,
    userIds,
    title: `${by.name} reviewed ${on.kind === 'business' ? on.name : 'you'}: ${rating} of 5`,
    body: 'Read it and respond on your profile.',
    data: { review_on: on.kind, review_on_id: on.id },
  };
}
