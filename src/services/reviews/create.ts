import { and, eq, type SQL, sql } from 'drizzle-orm';
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
 * - One review per reviewing party and worked shift, pinned or not (docs/decisions/reviews.md): every
 *   review counts against one worked shift of the pair (`counted_shift_id`): a pinned review against
 *   its pin, an unpinned one against the latest worked shift this party has not reviewed yet. So a
 *   party leaves at most as many reviews of the other as they have worked shifts together. The shift is
 *   chosen inside the insert itself (one statement, which D1 runs alone), so concurrent attempts take
 *   distinct shifts and the rest are refused; the unique index `reviews_one_per_worked_shift` backs it.
 *   No shift left: 409 REVIEW-EXISTS-ERR.
 * - One guarded write: the insert (conditional on a free worked shift), its audit row and the
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
  const slot = reviewSlot(by, on, pair, pin);
  await refuseWithoutSlot(ctx, slot, pin);

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
    counted_shift_id: null, // chosen by the insert (slot.shift)
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
      guard: insertWhere(ctx.db, reviews, { ...row, counted_shift_id: slot.shift }, slot.free),
      audit: { action: 'review.create', data: { review_by: by.kind, review_on: on.kind, rating: row.rating, pinned: pin !== null } },
      notify: [await receivedNotice(ctx, by, on, row.rating)],
    });
  } catch (err) {
    // A concurrent review by the same party took the same worked shift first.
    if (isUniqueViolation(err)) throw exists_();
    throw err;
  }
  if (!r.applied) {
    // Taken meanwhile by a concurrent review of this party (or the shift stopped counting as worked).
    await refuseWithoutSlot(ctx, slot, pin);
    throw exists_();
  }
  await purgeWidgetCache(ctx, on.kind, on.id);
  const stored = await loadReview(ctx, r.subject.id);
  if (!stored) throw new Error(`review ${r.subject.id} missing after its write`);
  return reviewView(stored, true);
}

const exists_ = () =>
  new AppError(
    'REVIEW-EXISTS-ERR',
    'This party has already reviewed that worked shift: one review per worked shift with the reviewed party, pinned or not.',
  );
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

/**
 * Where a new review would count: `shift`, a scalar subquery naming the latest worked shift between
 * the pair (the pinned one, when given) that this reviewing party has not counted a review against;
 * `free`, the insert's condition: such a shift exists, and the party's reviews of the other number
 * fewer than their worked shifts (older rows without a counted shift count too). `worked` finds any
 * worked shift (the pinned one), to tell "never worked together" from "every shift reviewed".
 */
function reviewSlot(by: Party, on: Party, pair: { shifterId: string; businessId: string }, pin: string | null) {
  const sr = shiftRequests;
  const conds: SQL[] = [eq(sr.business_id, pair.businessId), eq(sr.shifter_id, pair.shifterId), workedShiftSql()];
  if (pin) conds.push(eq(sr.id, pin));
  const worked = and(...conds)!;
  const byParty = and(eq(reviews.review_by, by.kind), eq(reviews.review_by_id, by.id))!;
  const shift = sql`SELECT ${sr.id} FROM ${sr} WHERE ${worked} AND NOT EXISTS (SELECT 1 FROM ${reviews} WHERE ${byParty} AND ${reviews.counted_shift_id} = ${sr.id}) ORDER BY ${sr.starts_at} DESC, ${sr.id} DESC LIMIT 1`;
  const pairWorked = and(eq(sr.business_id, pair.businessId), eq(sr.shifter_id, pair.shifterId), workedShiftSql())!;
  const written = sql`(SELECT COUNT(*) FROM ${reviews} WHERE ${byParty} AND ${reviews.review_on} = ${on.kind} AND ${reviews.review_on_id} = ${on.id})`;
  const earned = sql`(SELECT COUNT(*) FROM ${sr} WHERE ${pairWorked})`;
  return { worked, shift, free: sql`(${shift}) IS NOT NULL AND ${written} < ${earned}` };
}

/** Refuses, with the reason, when the review has no worked shift to count against. */
async function refuseWithoutSlot(ctx: ServiceContext, slot: ReturnType<typeof reviewSlot>, pin: string | null) {
  const [found] = await ctx.db.select({ one: shiftRequests.id }).from(shiftRequests).where(slot.worked).limit(1);
  if (!found) throw notWorked(pin);
  const [free] = await ctx.db.all<{ free: number }>(sql`SELECT ${slot.free} AS free`);
  if (!free?.free) throw exists_();
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
