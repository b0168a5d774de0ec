import { and, desc, eq, gte, isNotNull, type SQL, sql } from 'drizzle-orm';
import { businesses, reviews, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { accessBusiness, callerShifter } from '../access';
import { type ServiceContext, workedShiftSql } from '../kernel';
import type { PartyKind } from './schemas';

/** How far back the worked shifts waiting for a review are looked for. */
export const REVIEWABLE_DAYS = 90;
export const REVIEWABLE_MAX = 10;

export interface ReviewableShift {
  shift_request_id: string;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  role: string;
  /** The other party of the shift: the one the review is about. */
  review_on: PartyKind;
  review_on_id: string;
  review_on_name: string;
}

/**
 * The worked shifts of the last REVIEWABLE_DAYS days that the party (the caller's own shifter profile,
 * or a business the caller owns or is an active teammate of) has not reviewed yet, newest first: what
 * the reviews page offers to review, each pinned to its shift. "Reviewed" is the rule createReview
 * applies (a review of this party counts against the shift), so every shift listed here can take one.
 */
export async function listReviewable(ctx: ServiceContext, by: { kind: PartyKind; id?: string | undefined }): Promise<ReviewableShift[]> {
  const sr = shiftRequests;
  let party: SQL;
  let byId: string;
  if (by.kind === 'shifter') {
    const own = await callerShifter(ctx);
    if (!own || (by.id !== undefined && by.id !== own.id)) {
      throw new AppError('FORBIDDEN-ERR', "A shifter's reviews are written by the caller's own shifter profile.");
    }
    byId = own.id;
    party = eq(sr.shifter_id, own.id);
  } else {
    if (!by.id) throw new AppError('VALIDATION-ERR', 'business_id: required', [{ field: 'business_id', message: 'required' }]);
    byId = (await accessBusiness(ctx, by.id, ['owner', 'teammate'])).business.id;
    party = eq(sr.business_id, byId);
  }
  const reviewed = sql`EXISTS (SELECT 1 FROM ${reviews} WHERE ${reviews.review_by} = ${by.kind} AND ${reviews.review_by_id} = ${byId} AND ${reviews.counted_shift_id} = ${sr.id})`;
  const rows = await ctx.db
    .select({
      id: sr.id,
      shift_date: sr.shift_date,
      shift_in: sr.shift_in,
      shift_out: sr.shift_out,
      role: shiftRoles.label,
      shifter_id: sr.shifter_id,
      shifter_name: shifters.display_name,
      business_id: sr.business_id,
      business_name: businesses.name,
    })
    .from(sr)
    .innerJoin(shiftRoles, eq(shiftRoles.id, sr.shiftrole_id))
    .innerJoin(businesses, eq(businesses.id, sr.business_id))
    .innerJoin(shifters, eq(shifters.id, sr.shifter_id))
    .where(
      and(
        party,
        isNotNull(sr.shifter_id),
        workedShiftSql(),
        gte(sr.starts_at, ctx.now() - REVIEWABLE_DAYS * 86_400_000),
        sql`NOT ${reviewed}`,
      ),
    )
    .orderBy(desc(sr.starts_at), desc(sr.id))
    .limit(REVIEWABLE_MAX);
  return rows.map((r) => ({
    shift_request_id: r.id,
    shift_date: r.shift_date,
    shift_in: r.shift_in,
    shift_out: r.shift_out,
    role: r.role,
    review_on: by.kind === 'shifter' ? 'business' : 'shifter',
    review_on_id: by.kind === 'shifter' ? r.business_id : (r.shifter_id ?? ''),
    review_on_name: by.kind === 'shifter' ? r.business_name : r.shifter_name,
  }));
}
