import { type BatchItem, runBatch } from '../../db/client';
import { reviews } from '../../db/schema';
import { newId } from '../../lib/ids';
import { isWorked, type ServiceContext } from '../../services/kernel';
import { BUSINESSES } from './cast';
import type { DemoExtra, DemoWorld } from './world';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

interface Side {
  rating: number;
  text: string;
  /** The reviewed party's response. */
  response?: string;
  /** Who writes it for the business (default: the owner). */
  writer?: string;
}

interface PairPlan {
  business: string;
  shifter: string;
  /** The shifter's review of the business. */
  ofBusiness: Side & { dispute?: { reason: string; outcome: 'pending' | 'upheld' } };
  /** The business's review of the shifter. */
  ofShifter: Side & { unpinned?: boolean };
}

/**
 * A dozen reviews, both ways, between connected demo parties, each pinned to the pair's latest
 * worked shift (one left without a pin, as older reviews are): some answered, one disputed and still
 * pending, one whose dispute the admin upheld (so it shows nowhere).
 */
const PLAN: PairPlan[] = [
  {
    business: 'bistro',
    shifter: 'jordan',
    ofBusiness: {
      rating: 5,
      text: 'Busy Friday service but a well-run kitchen. Breaks on time and the pay was in the next morning.',
      response: 'Thanks Jordan, you held the pass together on a full house. Hope to see you again soon!',
    },
    ofShifter: {
      rating: 5,
      text: 'Early, calm under pressure, and left the station spotless.',
      response: 'Thank you, happy to come back any time.',
    },
  },
  {
    business: 'bistro',
    shifter: 'alex',
    ofBusiness: { rating: 4, text: 'Friendly team. The brief at the start could have been clearer, but everyone helped out.' },
    ofShifter: { rating: 4, text: 'Quick learner on the new POS; a little late on the first day.', writer: 'sam' },
  },
  {
    business: 'bistro',
    shifter: 'taylor',
    ofBusiness: {
      rating: 2,
      text: 'Shift ran 40 minutes over and nobody said anything about it.',
      dispute: { reason: 'The overtime was agreed with the manager on the night and paid in full.', outcome: 'pending' },
    },
    ofShifter: { rating: 4, text: 'Reliable and great with guests.' },
  },
  {
    business: 'events',
    shifter: 'jordan',
    ofBusiness: { rating: 4, text: 'Well organised event, clear run sheet, good food for staff.' },
    ofShifter: { rating: 5, text: 'Ran the bar for 200 guests without a hitch.', unpinned: true },
  },
  {
    business: 'coffee',
    shifter: 'oliver',
    ofBusiness: {
      rating: 5,
      text: 'Lovely little team and regulars. The clock-in photo takes a second to get used to.',
      response: 'Cheers Oliver! The photo keeps the till counts honest; thanks for bearing with it.',
    },
    ofShifter: { rating: 4, text: 'Great latte art, steady through the morning rush.' },
  },
  {
    business: 'coffee',
    shifter: 'amelia',
    ofBusiness: {
      rating: 1,
      text: 'Worst place ever, the owner is a crook.',
      dispute: { reason: 'Personal attack with no account of the shift itself.', outcome: 'upheld' },
    },
    ofShifter: { rating: 3, text: 'Good with customers; needs to keep an eye on the stock sheet.' },
  },
];

/** The latest worked shift of a pair, from the seeded history. */
function latestWorked(world: DemoWorld, businessId: string, shifterId: string) {
  let best: DemoWorld['shifts'][number] | null = null;
  for (const s of world.shifts) {
    if (s.business_id !== businessId || s.shifter_id !== shifterId) continue;
    if (!isWorked({ request_status: s.request_status ?? 1, shift_end_at: s.shift_end_at ?? null, is_noshow: s.is_noshow ?? false }))
      continue;
    if (!best || (s.shift_end_at ?? 0) > (best.shift_end_at ?? 0)) best = s;
  }
  return best;
}

/** Seeds the demo reviews straight into D1 (rows of demo accounts only); returns how many. */
export async function seedDemoReviews(ctx: ServiceContext, world: DemoWorld): Promise<number> {
  const now = world.now;
  const before = (t: number) => Math.min(t, now - HOUR);
  const rows: (typeof reviews.$inferInsert)[] = [];
  for (const plan of PLAN) {
    const business = BUSINESSES.find((b) => b.key === plan.business);
    if (!business) continue;
    const businessId = world.businessId(plan.business);
    const shifterId = world.shifterId(plan.shifter);
    const shift = latestWorked(world, businessId, shifterId);
    if (!shift?.id || !shift.shift_end_at) continue; // no worked shift between them: no review
    const written = before(shift.shift_end_at + 3 * HOUR);

    const d = plan.ofBusiness.dispute;
    const disputedAt = d ? before(written + DAY) : null;
    rows.push({
      id: newId('review'),
      reviewer_user_id: world.userId(plan.shifter),
      review_by: 'shifter',
      review_by_id: shifterId,
      review_on: 'business',
      review_on_id: businessId,
      shift_request_id: shift.id,
      counted_shift_id: shift.id,
      rating: plan.ofBusiness.rating,
      review_text: plan.ofBusiness.text,
      response_text: plan.ofBusiness.response ?? null,
      response_at: plan.ofBusiness.response ? before(written + 5 * HOUR) : null,
      dispute_status: d?.outcome ?? null,
      dispute_reason: d?.reason ?? null,
      disputed_at: disputedAt,
      dispute_resolved_at: d?.outcome === 'upheld' && disputedAt ? before(disputedAt + DAY) : null,
      dispute_resolved_by_user_id: d?.outcome === 'upheld' ? world.userId('admin') : null,
      created_at: written,
      updated_at: disputedAt ?? written,
    });
    const byBusinessAt = before(written + 2 * HOUR);
    rows.push({
      id: newId('review'),
      reviewer_user_id: world.userId(plan.ofShifter.writer ?? business.owner),
      review_by: 'business',
      review_by_id: businessId,
      review_on: 'shifter',
      review_on_id: shifterId,
      shift_request_id: plan.ofShifter.unpinned ? null : shift.id,
      // Pinned or not, a review counts against the worked shift it is about (one per party and shift).
      counted_shift_id: shift.id,
      rating: plan.ofShifter.rating,
      review_text: plan.ofShifter.text,
      response_text: plan.ofShifter.response ?? null,
      response_at: plan.ofShifter.response ? before(byBusinessAt + 4 * HOUR) : null,
      created_at: byBusinessAt,
      updated_at: byBusinessAt,
    });
  }
  // Four rows per statement keeps each INSERT under D1's 100 bound parameters.
  const statements: BatchItem[] = [];
  for (let i = 0; i < rows.length; i += 4) statements.push(ctx.db.insert(reviews).values(rows.slice(i, i + 4)));
  await runBatch(ctx.db, statements);
  return rows.length;
}

export const demoReviews: DemoExtra = { name: 'reviews', seed: seedDemoReviews };
