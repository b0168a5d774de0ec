// inside: services/reviews
import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isUniqueViolation } from '../../src/db/client';
import { auditLog, outboxEvents, reviews } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { addDays, dateInZone, weekdayOf, wallClockToInstant } from '../../src/lib/shift-time';
import type { ServiceContext } from '../../src/services/kernel';
import { getTrend, listDisputes, resolveDispute } from '../../src/services/reviews';
import { trendBuckets } from '../../src/services/reviews/trend';
import { type ApiResult, call, expectError } from '../helpers/api';
import { contextAt, nextDstChange } from '../helpers/clock';
import { addTeammate, connect, db, makeUser, type TestUser } from '../helpers/factory';
import { loseNextBatchAnswer } from '../helpers/failures';
import { daysFromToday, insertShift } from '../helpers/rows';
import { itRejectsBadCredentials } from '../helpers/security';

const NY = 'America/New_York';
const DAY = 86_400_000;

afterEach(() => vi.restoreAllMocks());

// ── Helpers ─────────────────────────────────────────────────────────────────────────────────────

/** A worked shift (status 2, clocked out, not a no-show) between the business and the shifter, `daysAgo` days back. */
const workedShift = (businessId: string, shifterId: string, daysAgo = 3, extra: Partial<Parameters<typeof insertShift>[0]> = {}) =>
  insertShift({ businessId, shifterId, date: daysFromToday(-daysAgo, NY), in: '09:00', out: '17:00', rate: 2000, tz: NY, ...extra });

interface Pair {
  owner: TestUser;
  business: string;
  teammate: TestUser;
  suspended: TestUser;
  shifterUser: TestUser;
  shifter: string;
  shift: string;
}

/** A business (owner, active and suspended teammate) and a connected shifter with one worked shift together. */
async function pair(): Promise<Pair> {
  const [owner, teammate, suspended, shifterUser] = await Promise.all([
    makeUser({ business: true, name: 'Owner Omar' }),
    makeUser({ name: 'Teammate Tess' }),
    makeUser({ name: 'Suspended Sue' }),
    makeUser({ shifter: { timezone: NY }, name: 'Shifter Sol' }),
  ]);
  const business = owner.businessId!;
  const shifter = shifterUser.shifterId!;
  await Promise.all([addTeammate(business, teammate.userId, 1), addTeammate(business, suspended.userId, 0), connect(business, shifter)]);
  const shift = await workedShift(business, shifter);
  return { owner, business, teammate, suspended, shifterUser, shifter, shift };
}

const create = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('POST', '/v1/review', { key, body, headers });

/** The shifter reviews the business (pinned unless `pin` is null). */
const shifterReviews = (p: Pair, rating = 4, pin: string | null = p.shift, text = 'Well run, fair breaks.') =>
  create(p.shifterUser.key, {
    review_on: 'business',
    review_on_id: p.business,
    rating,
    review_text: text,
    ...(pin ? { shift_request_id: pin } : {}),
  });

/** The business reviews the shifter. */
const businessReviews = (p: Pair, as: TestUser = p.owner, rating = 5, pin: string | null = p.shift) =>
  create(as.key, {
    review_on: 'shifter',
    review_on_id: p.shifter,
    review_by_id: p.business,
    rating,
    ...(pin ? { shift_request_id: pin } : {}),
  });

async function created(res: Promise<ApiResult> | ApiResult): Promise<{ id: string; [k: string]: any }> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

const respond = (key: string, id: string, text: string) =>
  call('PUT', '/v1/review/respond', { key, query: { review_id: id }, body: { response_text: text } });
const dispute = (key: string, id: string, reason = 'This never happened.', headers: Record<string, string> = {}) =>
  call('POST', '/v1/review/dispute', { key, query: { review_id: id }, body: { reason }, headers });
const resolve = (key: string, id: string, decision: 'upheld' | 'rejected') =>
  call('PUT', '/v1/review/dispute/resolve', { key, query: { review_id: id, decision } });
const list = (key: string, query: Record<string, string | number>) => call('GET', '/v1/review/list', { key, query });
const avg = (key: string, kind: string, id: string) =>
  call('GET', '/v1/review/get_avg_review', { key, query: { review_on: kind, review_on_id: id } });
const histogram = (key: string, kind: string, id: string) =>
  call('GET', '/v1/review/histogram', { key, query: { review_on: kind, review_on_id: id } });
const trend = (key: string, kind: string, id: string, days: number | string) =>
  call('GET', '/v1/review/trend', { key, query: { review_on: kind, review_on_id: id, days } });
const averages = (key: string, parties: Array<{ review_on: string; review_on_id: string }>) =>
  call('POST', '/v1/review/averages', { key, body: { parties } });

async function notesFor(reviewId: string, kind: string) {
  const rows = await db()
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.topic, 'notifications'), like(outboxEvents.body, `%${reviewId}%`)));
  return rows.map((r) => JSON.parse(r.body) as { kind: string; user_ids: string[] }).filter((b) => b.kind === kind);
}

const auditsFor = async (reviewId: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.subject_id, reviewId))).map((r) => r.action).sort();

/** Inserts a review straight into D1 (for times the API cannot choose: the trend's buckets). */
async function insertReview(
  on: { kind: 'shifter' | 'business'; id: string },
  by: { kind: 'shifter' | 'business'; id: string; userId: string },
  rating: number,
  at: number,
  extra: Partial<typeof reviews.$inferInsert> = {},
) {
  const id = newId('review');
  await db()
    .insert(reviews)
    .values({
      id,
      reviewer_user_id: by.userId,
      review_by: by.kind,
      review_by_id: by.id,
      review_on: on.kind,
      review_on_id: on.id,
      rating,
      created_at: at,
      updated_at: at,
      ...extra,
    });
  return id;
}

// ── Creating ────────────────────────────────────────────────────────────────────────────────────

describe('creating a review', () => {
  itRejectsBadCredentials({ method: 'POST', path: '/v1/review', body: { review_on: 'business', review_on_id: 'biz_x', rating: 4 } });

  it('lets each party of a worked shift review the other, pinned to it; notifies the reviewed side and audits', async () => {
    const p = await pair();
    const a = await created(shifterReviews(p, 4));
    expect(a).toMatchObject({
      review_by: 'shifter',
      review_by_id: p.shifter,
      review_by_name: 'Shifter Sol',
      review_on: 'business',
      review_on_id: p.business,
      review_on_name: 'Owner Omar Co',
      shift_request_id: p.shift,
      rating: 4,
      review_text: 'Well run, fair breaks.',
      response_text: null,
      response_at: null,
    });
    expect(a.id).toMatch(/^rev_/);
    expect(a).not.toHaveProperty('dispute_status');

    // An active teammate writes for the business.
    const b = await created(businessReviews(p, p.teammate, 5));
    expect(b).toMatchObject({ review_by: 'business', review_by_id: p.business, review_on: 'shifter', review_on_id: p.shifter });

    // The business side hears (owner and active teammate, not the suspended one), the shifter hears of theirs.
    const [toBusiness] = await notesFor(a.id, 'review.received');
    expect(toBusiness?.user_ids.sort()).toEqual([p.owner.userId, p.teammate.userId].sort());
    const [toShifter] = await notesFor(b.id, 'review.received');
    expect(toShifter?.user_ids).toEqual([p.shifterUser.userId]);
    expect(await auditsFor(a.id)).toEqual(['review.create']);
  });

  it('defaults the reviewing business to the caller’s default business', async () => {
    const p = await pair();
    const r = await created(create(p.owner.key, { review_on: 'shifter', review_on_id: p.shifter, rating: 3 }));
    expect(r.review_by_id).toBe(p.business);
    // A teammate has no default business: they must name it.
    const res = await create(p.teammate.key, { review_on: 'shifter', review_on_id: p.shifter, rating: 3 });
    expect((expectError(res, 400, 'VALIDATION-ERR').details as Array<{ field: string }>)[0]?.field).toBe('review_by_id');
  });

  it('without a pin needs at least one worked shift between the two parties (422 REVIEW-NOT-WORKED-ERR)', async () => {
    const [owner, sh] = await Promise.all([makeUser({ business: true }), makeUser({ shifter: true })]);
    const business = owner.businessId!;
    const shifter = sh.shifterId!;
    await connect(business, shifter);
    const body = { review_on: 'business', review_on_id: business, rating: 2 };
    // Connected, but nothing worked: an accepted shift not clocked out, a no-show, a cancelled one, a future one.
    await Promise.all([
      workedShift(business, shifter, 2, { worked: false }),
      workedShift(business, shifter, 4, { noshow: true }),
      workedShift(business, shifter, 5, { cancelledBy: 'business' }),
      workedShift(business, shifter, -3, { worked: false }),
    ]);
    const refused = expectError(await create(sh.key, body), 422, 'REVIEW-NOT-WORKED-ERR');
    expect(refused.message).toMatch(/no worked shift/);
    expectError(await create(owner.key, { review_on: 'shifter', review_on_id: shifter, rating: 2 }), 422, 'REVIEW-NOT-WORKED-ERR');

    // A completed (settled, status 5) shift counts as worked; one unpinned review per worked shift.
    await workedShift(business, shifter, 6, { status: 5 });
    await created(create(sh.key, body));
    expectError(await create(sh.key, { ...body, rating: 3 }), 409, 'REVIEW-EXISTS-ERR');
    await workedShift(business, shifter, 8);
    await created(create(sh.key, { ...body, rating: 3 }));
    expect(await db().select().from(reviews).where(eq(reviews.review_on_id, business))).toHaveLength(2);
  });

  it('refuses a pin that is not a worked shift between exactly these two parties, the same for an unknown id', async () => {
    const p = await pair();
    const other = await pair();
    // Another pair's worked shift, a shift of the same business with another shifter, and of the shifter elsewhere.
    const mixed = await Promise.all([workedShift(p.business, other.shifter), workedShift(other.business, p.shifter)]);
    const notWorked = await Promise.all([
      workedShift(p.business, p.shifter, 2, { worked: false }),
      workedShift(p.business, p.shifter, 4, { noshow: true }),
      workedShift(p.business, p.shifter, 5, { cancelledBy: 'shifter' }),
    ]);
    const messages = new Set<string>();
    for (const pin of [other.shift, ...mixed, ...notWorked, 'sr_doesnotexist0000000']) {
      const r = await shifterReviews(p, 4, pin);
      messages.add(expectError(r, 422, 'REVIEW-NOT-WORKED-ERR').message);
      expectError(await businessReviews(p, p.owner, 4, pin), 422, 'REVIEW-NOT-WORKED-ERR');
    }
    // One answer for all of them: a shift id's existence is not revealed.
    expect(messages.size).toBe(1);
    expect(await db().select().from(reviews).where(eq(reviews.review_on_id, p.business))).toEqual([]);
  });

  it('refuses a second review by the same party pinned to the same shift (409 REVIEW-EXISTS-ERR); the other side may still pin it', async () => {
    const p = await pair();
    await created(shifterReviews(p, 5));
    expectError(await shifterReviews(p, 1, p.shift, 'Changed my mind'), 409, 'REVIEW-EXISTS-ERR');
    // The business side is another reviewing party: its own pinned review of the same shift is fine, once.
    await created(businessReviews(p, p.owner));
    expectError(await businessReviews(p, p.teammate), 409, 'REVIEW-EXISTS-ERR');
    // Another worked shift can be pinned, and a review without a pin takes a third one.
    const second = await workedShift(p.business, p.shifter, 8);
    await created(shifterReviews(p, 3, second));
    expectError(await shifterReviews(p, 3, null), 409, 'REVIEW-EXISTS-ERR');
    await workedShift(p.business, p.shifter, 10);
    await created(shifterReviews(p, 3, null));
  });

  it('lets exactly one of many concurrent duplicate pinned reviews through', async () => {
    const p = await pair();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => shifterReviews(p, 1 + (i % 5))));
    const won = answers.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 201)) expectError(r, 409, 'REVIEW-EXISTS-ERR');
    const rows = await db().select().from(reviews).where(eq(reviews.review_on_id, p.business));
    expect(rows.map((r) => r.id)).toEqual([won[0]!.body.id]);
    expect(await auditsFor(won[0]!.body.id)).toEqual(['review.create']);
  });

  it('stops a review bomb: one worked shift buys one review, pinned or not (15 one-star attempts keep one)', async () => {
    const p = await pair();
    // The business has earned a 3.00 average from two other shifters.
    for (const rating of [2, 4]) {
      const other = await makeUser({ shifter: true });
      await connect(p.business, other.shifterId!);
      await workedShift(p.business, other.shifterId!);
      await created(create(other.key, { review_on: 'business', review_on_id: p.business, rating }));
    }
    expect((await avg(p.owner.key, 'business', p.business)).body).toMatchObject({ average: 3, count: 2 });

    const bombs: ApiResult[] = [];
    for (let i = 0; i < 15; i++) bombs.push(await shifterReviews(p, 1, null, `Bomb ${i}`));
    expect(bombs.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of bombs.slice(1)) expectError(r, 409, 'REVIEW-EXISTS-ERR');
    // The pinned route is closed too: the one worked shift is spent.
    expectError(await shifterReviews(p, 1, p.shift), 409, 'REVIEW-EXISTS-ERR');
    expect((await avg(p.owner.key, 'business', p.business)).body).toMatchObject({ average: 2.33, count: 3 });
    // The kept review is tied to the worked shift it counts against, though it names no shift.
    const [kept] = await db()
      .select()
      .from(reviews)
      .where(and(eq(reviews.review_on_id, p.business), eq(reviews.review_by_id, p.shifter)));
    expect(kept).toMatchObject({ shift_request_id: null, counted_shift_id: p.shift });
    // The business side is another reviewing party with its own slot on the same shift.
    await created(businessReviews(p, p.owner, 5, null));
  });

  it('lets exactly as many of 10 concurrent unpinned reviews through as the pair has worked shifts, each on its own shift', async () => {
    const p = await pair();
    const more = [await workedShift(p.business, p.shifter, 5), await workedShift(p.business, p.shifter, 7)];
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => shifterReviews(p, 1 + (i % 5), null, `Attempt ${i}`)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of answers.filter((x) => x.status !== 201)) expectError(r, 409, 'REVIEW-EXISTS-ERR');
    const rows = await db().select().from(reviews).where(eq(reviews.review_on_id, p.business));
    expect(rows.map((r) => r.counted_shift_id).sort()).toEqual([p.shift, ...more].sort());
    // Every slot is taken: a pinned review of any of the three is refused as well.
    for (const s of [p.shift, ...more]) expectError(await shifterReviews(p, 5, s), 409, 'REVIEW-EXISTS-ERR');
  });

  it('counts a pinned review against its shift, and an unpinned one against a shift not yet reviewed', async () => {
    const p = await pair();
    const second = await workedShift(p.business, p.shifter, 9);
    // Unpinned first: it takes the latest worked shift (p.shift, 3 days ago), leaving the older one to pin.
    const a = await created(shifterReviews(p, 4, null));
    expectError(await shifterReviews(p, 4, p.shift), 409, 'REVIEW-EXISTS-ERR');
    const b = await created(shifterReviews(p, 4, second));
    expectError(await shifterReviews(p, 4, null), 409, 'REVIEW-EXISTS-ERR');
    const rows = await db().select().from(reviews).where(eq(reviews.review_on_id, p.business));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.counted_shift_id]))).toEqual({ [a.id]: p.shift, [b.id]: second });
  });

  it('ties older reviews to worked shifts in the migration, and counts the ones beyond them', async () => {
    const p = await pair();
    const by = { kind: 'shifter' as const, id: p.shifter, userId: p.shifterUser.userId };
    const on = { kind: 'business' as const, id: p.business };
    // Three reviews written before the rule, on one worked shift: none counted against it.
    const legacy = [
      await insertReview(on, by, 1, Date.now() - 3000),
      await insertReview(on, by, 1, Date.now() - 2000),
      await insertReview(on, by, 1, Date.now() - 1000),
    ];
    const migration = env.MIGRATIONS.find((m) => m.queries.some((q) => q.includes('reviews_one_per_worked_shift')));
    for (const q of migration!.queries.filter((x) => /^\s*(--[^\n]*\n\s*)*UPDATE `reviews`/.test(x))) await env.DB.prepare(q).run();
    const rows = await db().select().from(reviews).where(eq(reviews.review_on_id, p.business));
    expect(
      rows
        .filter((r) => legacy.includes(r.id))
        .map((r) => r.counted_shift_id)
        .sort(),
    ).toEqual([null, null, p.shift].sort());
    // The shift is spent, and so is any new one until the older excess is covered.
    expectError(await shifterReviews(p, 5, null), 409, 'REVIEW-EXISTS-ERR');
    await workedShift(p.business, p.shifter, 6);
    expectError(await shifterReviews(p, 5, null), 409, 'REVIEW-EXISTS-ERR');
  });

  it('answers the unique index refusing a concurrent duplicate with the same 409 REVIEW-EXISTS-ERR', async () => {
    const p = await pair();
    const real = env.DB.batch.bind(env.DB);
    let raced = false;
    // Another writer commits the same pinned review between the service's check and its insert.
    vi.spyOn(env.DB, 'batch').mockImplementation(async (statements) => {
      const sqlOf = (s: unknown) => String((s as { statement?: string }).statement ?? '');
      if (!raced && statements.some((s) => /insert into "reviews"/i.test(sqlOf(s)))) {
        raced = true;
        const by = { kind: 'shifter' as const, id: p.shifter, userId: p.shifterUser.userId };
        await insertReview({ kind: 'business', id: p.business }, by, 3, Date.now(), { shift_request_id: p.shift });
      }
      return real(statements);
    });
    expectError(await shifterReviews(p), 409, 'REVIEW-EXISTS-ERR');
    expect(raced).toBe(true);
    const rows = await db().select().from(reviews).where(eq(reviews.review_on_id, p.business));
    expect(rows).toHaveLength(1);
    expect(await auditsFor(rows[0]!.id)).toEqual([]);
  });

  it('is backed by unique indexes: D1 itself refuses a second row of one party pinned to, or counted against, one shift', async () => {
    const p = await pair();
    const by = { kind: 'shifter' as const, id: p.shifter, userId: p.shifterUser.userId };
    const on = { kind: 'business' as const, id: p.business };
    await insertReview(on, by, 4, Date.now(), { shift_request_id: p.shift, counted_shift_id: p.shift });
    const dup = await insertReview(on, by, 2, Date.now(), { shift_request_id: p.shift }).catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    const counted = await insertReview(on, by, 2, Date.now(), { counted_shift_id: p.shift }).catch((e: unknown) => e);
    expect(isUniqueViolation(counted)).toBe(true);
    // The other side counts its own reviews.
    const back = { kind: 'business' as const, id: p.business, userId: p.owner.userId };
    await insertReview({ kind: 'shifter', id: p.shifter }, back, 2, Date.now(), { counted_shift_id: p.shift });
  });

  it('refuses callers who are not the reviewing party (403 for a shifter profile, 404 for a business)', async () => {
    const p = await pair();
    const [stranger, admin] = await Promise.all([makeUser({ shifter: true, business: true }), makeUser({ admin: true })]);
    // Writing as the victim's shifter profile.
    for (const who of [stranger, p.owner, p.teammate]) {
      expectError(
        await create(who.key, {
          review_on: 'business',
          review_on_id: p.business,
          review_by_id: p.shifter,
          rating: 1,
          shift_request_id: p.shift,
        }),
        403,
        'FORBIDDEN-ERR',
      );
    }
    // Writing as the victim business.
    for (const who of [stranger, p.suspended, p.shifterUser]) {
      expectError(await businessReviews(p, who, 1), 404, 'BUSINESS-NOT-FND-ERR');
    }
    // An admin has standing over the business but does not write its reviews.
    expectError(await businessReviews(p, admin, 1), 403, 'FORBIDDEN-ERR');
    // Without a shifter profile, no shifter review.
    expectError(await create(p.teammate.key, { review_on: 'business', review_on_id: p.business, rating: 1 }), 403, 'FORBIDDEN-ERR');
    // A stranger reviewing as themselves has no worked shift with the business.
    expectError(await create(stranger.key, { review_on: 'business', review_on_id: p.business, rating: 1 }), 422, 'REVIEW-NOT-WORKED-ERR');
    expect(await db().select().from(reviews).where(eq(reviews.review_on_id, p.business))).toEqual([]);
    expect(await db().select().from(reviews).where(eq(reviews.review_on_id, p.shifter))).toEqual([]);
  });

  it('refuses a review of a party the caller acts for (a dual-profile user and their own business)', async () => {
    const dual = await makeUser({ shifter: true, business: true });
    const shift = await workedShift(dual.businessId!, dual.shifterId!);
    expectError(
      await create(dual.key, { review_on: 'business', review_on_id: dual.businessId!, rating: 5, shift_request_id: shift }),
      403,
      'FORBIDDEN-ERR',
    );
    expectError(await create(dual.key, { review_on: 'shifter', review_on_id: dual.shifterId!, rating: 5 }), 403, 'FORBIDDEN-ERR');
  });

  it('answers 404 for an unknown reviewed party and 400 for invalid input', async () => {
    const p = await pair();
    expectError(
      await create(p.shifterUser.key, { review_on: 'business', review_on_id: 'biz_nope', rating: 3 }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(await businessReviews({ ...p, shifter: 'shf_nope' }, p.owner, 3, null), 404, 'SHIFTER-NOT-FND-ERR');
    const base = { review_on: 'business', review_on_id: p.business };
    for (const bad of [
      { ...base, rating: 0 },
      { ...base, rating: 6 },
      { ...base, rating: 3.5 },
      { ...base },
      { ...base, rating: 3, review_text: 'x'.repeat(2001) },
      { ...base, rating: 3, review_by: 'business' },
      { review_on: 'admin', review_on_id: p.business, rating: 3 },
      { ...base, review_on_id: 'x'.repeat(65), rating: 3 },
    ]) {
      expectError(await create(p.shifterUser.key, bad), 400, 'VALIDATION-ERR');
    }
  });

  it('is safe to retry with Idempotency-Key, also when the answer was lost after the commit', async () => {
    const p = await pair();
    const headers = { 'Idempotency-Key': `rev-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'reviews' });
    const first = await shifterReviews(p);
    expect(first.status).toBe(500);
    const body = {
      review_on: 'business',
      review_on_id: p.business,
      rating: 4,
      review_text: 'Well run, fair breaks.',
      shift_request_id: p.shift,
    };
    // The lost attempt above had no key; with a key, a lost answer is answered from the stored review.
    const p2 = await pair();
    const body2 = { ...body, review_on_id: p2.business, shift_request_id: p2.shift };
    loseNextBatchAnswer({ writes: 'reviews' });
    const lost = await create(p2.shifterUser.key, body2, headers);
    expect(lost.status).toBe(500);
    const retry = await create(p2.shifterUser.key, body2, headers);
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    const rows = await db().select().from(reviews).where(eq(reviews.review_on_id, p2.business));
    expect(rows.map((r) => r.id)).toEqual([retry.body.id]);
    const replay = await create(p2.shifterUser.key, body2, headers);
    expect(replay.body.id).toBe(retry.body.id);
    // Without a key the committed first attempt stands, and a plain retry is the duplicate it is.
    expectError(await create(p.shifterUser.key, body), 409, 'REVIEW-EXISTS-ERR');
  });
});

// ── Reading ─────────────────────────────────────────────────────────────────────────────────────

describe('reading reviews', () => {
  itRejectsBadCredentials({ method: 'GET', path: '/v1/review/list', query: { review_on: 'business', review_on_id: 'biz_x' } });

  it('lists a party’s reviews to any signed-in user, newest first, a page at a time', async () => {
    const p = await pair();
    const reader = await makeUser();
    const by = { kind: 'shifter' as const, id: p.shifter, userId: p.shifterUser.userId };
    const on = { kind: 'business' as const, id: p.business };
    const now = Date.now();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await insertReview(on, by, 1 + i, now - (5 - i) * 60_000));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(reader.key, { review_on: 'business', review_on_id: p.business, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((r: { id: string }) => r.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    // By the reviewing party, and both filters together.
    expect((await list(reader.key, { review_by: 'shifter', review_by_id: p.shifter })).body.data).toHaveLength(5);
    const both = await list(reader.key, { review_by: 'shifter', review_by_id: p.shifter, review_on: 'shifter', review_on_id: p.shifter });
    expect(both.body.data).toEqual([]);
  });

  it('needs a whole party filter and a valid cursor (400 VALIDATION-ERR)', async () => {
    const u = await makeUser();
    const queries: Array<Record<string, string>> = [
      {},
      { review_on: 'business' },
      { review_on_id: 'biz_x' },
      { review_by_id: 'shf_x' },
      { review_on: 'x', review_on_id: 'biz_x' },
    ];
    for (const q of queries) {
      expectError(await list(u.key, q), 400, 'VALIDATION-ERR');
    }
    expectError(await list(u.key, { review_on: 'business', review_on_id: 'biz_x', cursor: 'garbage' }), 400, 'VALIDATION-ERR');
    expectError(await list(u.key, { review_on: 'business', review_on_id: 'biz_x', limit: 201 }), 400, 'VALIDATION-ERR');
  });

  it('gives the average (half-up at 2 decimals), batch averages in the asked order and the histogram', async () => {
    const p = await pair();
    const reader = await makeUser();
    const by = { kind: 'shifter' as const, id: p.shifter, userId: p.shifterUser.userId };
    const on = { kind: 'business' as const, id: p.business };
    for (const r of [5, 4, 4]) await insertReview(on, by, r, Date.now());
    // 13 / 3 = 4.333… → 4.33
    expect((await avg(reader.key, 'business', p.business)).body).toEqual({
      review_on: 'business',
      review_on_id: p.business,
      average: 4.33,
      count: 3,
    });
    await insertReview({ kind: 'shifter', id: p.shifter }, { kind: 'business', id: p.business, userId: p.owner.userId }, 2, Date.now());
    await insertReview({ kind: 'shifter', id: p.shifter }, { kind: 'business', id: p.business, userId: p.owner.userId }, 3, Date.now());
    const batch = await averages(reader.key, [
      { review_on: 'shifter', review_on_id: p.shifter },
      { review_on: 'business', review_on_id: 'biz_unknown' },
      { review_on: 'business', review_on_id: p.business },
      { review_on: 'shifter', review_on_id: p.shifter },
    ]);
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.data).toEqual([
      { review_on: 'shifter', review_on_id: p.shifter, average: 2.5, count: 2 },
      { review_on: 'business', review_on_id: 'biz_unknown', average: null, count: 0 },
      { review_on: 'business', review_on_id: p.business, average: 4.33, count: 3 },
      { review_on: 'shifter', review_on_id: p.shifter, average: 2.5, count: 2 },
    ]);
    const h = await histogram(reader.key, 'business', p.business);
    expect(h.body).toEqual({
      review_on: 'business',
      review_on_id: p.business,
      average: 4.33,
      count: 3,
      histogram: [
        { rating: 1, count: 0 },
        { rating: 2, count: 0 },
        { rating: 3, count: 0 },
        { rating: 4, count: 2 },
        { rating: 5, count: 1 },
      ],
    });
    // Half-up at the second decimal on the exact value: 9 / 8 = 1.125 → 1.13.
    const q = await makeUser({ shifter: true });
    const qb = { kind: 'business' as const, id: p.business, userId: p.owner.userId };
    for (const r of [1, 1, 1, 1, 1, 1, 1, 2]) await insertReview({ kind: 'shifter', id: q.shifterId! }, qb, r, Date.now());
    expect((await avg(reader.key, 'shifter', q.shifterId!)).body.average).toBe(1.13);
  });

  it('bounds the batch (1–50 parties) and the reviewed party of every read', async () => {
    const u = await makeUser();
    const party = { review_on: 'business', review_on_id: 'biz_x' };
    expectError(await averages(u.key, []), 400, 'VALIDATION-ERR');
    expectError(
      await averages(
        u.key,
        Array.from({ length: 51 }, () => party),
      ),
      400,
      'VALIDATION-ERR',
    );
    expect(
      (
        await averages(
          u.key,
          Array.from({ length: 50 }, () => party),
        )
      ).status,
    ).toBe(200);
    expectError(await avg(u.key, 'admin', 'biz_x'), 400, 'VALIDATION-ERR');
    expectError(await histogram(u.key, 'business', ''), 400, 'VALIDATION-ERR');
  });
});

// ── Responses ───────────────────────────────────────────────────────────────────────────────────

describe('responding to a review', () => {
  it('lets the reviewed party respond once; notifies the reviewer', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p));
    const res = await respond(p.teammate.key, r.id, 'Thanks, come back soon!');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: r.id, response_text: 'Thanks, come back soon!' });
    expect(Date.parse(res.body.response_at)).toBeGreaterThan(0);
    const [note] = await notesFor(r.id, 'review.response');
    expect(note?.user_ids).toEqual([p.shifterUser.userId]);

    // Once: another text is refused; sending the same text again changes nothing.
    expectError(await respond(p.owner.key, r.id, 'Actually, no.'), 409, 'REVIEW-RESPONDED-ERR');
    const again = await respond(p.owner.key, r.id, 'Thanks, come back soon!');
    expect(again.status).toBe(200);
    expect(again.body.response_at).toBe(res.body.response_at);
    expect(await auditsFor(r.id)).toEqual(['review.create', 'review.respond']);

    // The shifter answers a review of themselves.
    const b = await created(businessReviews(p));
    expect((await respond(p.shifterUser.key, b.id, 'Thank you!')).status).toBe(200);
  });

  it('refuses anyone but the reviewed party: the reviewer, a suspended teammate, a stranger, an admin (403)', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p));
    const [stranger, admin] = await Promise.all([makeUser({ shifter: true, business: true }), makeUser({ admin: true })]);
    for (const who of [p.shifterUser, p.suspended, stranger, admin]) {
      expectError(await respond(who.key, r.id, 'Hijacked'), 403, 'FORBIDDEN-ERR');
    }
    expectError(await respond(p.owner.key, 'rev_nope', 'Hello'), 404, 'REVIEW-NOT-FND-ERR');
    expectError(await respond(p.owner.key, r.id, ''), 400, 'VALIDATION-ERR');
    expectError(await respond(p.owner.key, r.id, 'x'.repeat(2001)), 400, 'VALIDATION-ERR');
    const [row] = await db().select().from(reviews).where(eq(reviews.id, r.id));
    expect(row?.response_text).toBeNull();
  });

  it('takes exactly one of many concurrent responses', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => respond(i % 2 ? p.owner.key : p.teammate.key, r.id, `Reply ${i}`)),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, 'REVIEW-RESPONDED-ERR');
    const [row] = await db().select().from(reviews).where(eq(reviews.id, r.id));
    expect(row?.response_text).toBe(ok[0]!.body.response_text);
    expect((await auditsFor(r.id)).filter((a) => a === 'review.respond')).toHaveLength(1);
  });
});

// ── Disputes ────────────────────────────────────────────────────────────────────────────────────

describe('disputing and resolving', () => {
  it('lets the reviewed party dispute once: pending, still visible, the reason only to the parties and admins', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p, 1));
    const [stranger, admin] = await Promise.all([makeUser(), makeUser({ admin: true })]);
    const res = await dispute(p.owner.key, r.id, 'Never worked here on that day.');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      dispute_status: 'pending',
      dispute_reason: 'Never worked here on that day.',
      dispute_resolved_at: null,
    });
    const [note] = await notesFor(r.id, 'review.disputed');
    expect(note?.user_ids).toEqual([p.shifterUser.userId]);

    const asRead = async (who: TestUser) =>
      (await list(who.key, { review_on: 'business', review_on_id: p.business })).body.data.find((x: { id: string }) => x.id === r.id);
    expect(await asRead(stranger)).toMatchObject({ dispute_status: 'pending' });
    expect(await asRead(stranger)).not.toHaveProperty('dispute_reason');
    for (const who of [p.shifterUser, p.teammate, admin]) expect((await asRead(who)).dispute_reason).toBe('Never worked here on that day.');
    expect((await avg(stranger.key, 'business', p.business)).body).toMatchObject({ average: 1, count: 1 });

    expectError(await dispute(p.teammate.key, r.id), 409, 'REVIEW-DISPUTED-ERR');
  });

  it('refuses a dispute from anyone but the reviewed party (403), and of an unknown review (404)', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p, 1));
    const [stranger, admin] = await Promise.all([makeUser({ shifter: true, business: true }), makeUser({ admin: true })]);
    for (const who of [p.shifterUser, p.suspended, stranger, admin]) expectError(await dispute(who.key, r.id), 403, 'FORBIDDEN-ERR');
    expectError(await dispute(p.owner.key, 'rev_nope'), 404, 'REVIEW-NOT-FND-ERR');
    expectError(await dispute(p.owner.key, r.id, ''), 400, 'VALIDATION-ERR');
    expectError(await dispute(p.owner.key, r.id, 'x'.repeat(1001)), 400, 'VALIDATION-ERR');
    const [row] = await db().select().from(reviews).where(eq(reviews.id, r.id));
    expect(row?.dispute_status).toBeNull();
  });

  it('is safe to retry a dispute with Idempotency-Key after a lost answer', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p, 1));
    const headers = { 'Idempotency-Key': `dsp-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'reviews' });
    expect((await dispute(p.owner.key, r.id, 'Wrong shift', headers)).status).toBe(500);
    const retry = await dispute(p.owner.key, r.id, 'Wrong shift', headers);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.dispute_status).toBe('pending');
    expect((await auditsFor(r.id)).filter((a) => a === 'review.dispute')).toHaveLength(1);
  });

  it('lets only an admin resolve, only a pending dispute; both parties hear of it', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p, 1));
    const admin = await makeUser({ admin: true });
    expectError(await resolve(admin.key, r.id, 'upheld'), 409, 'REVIEW-DISPUTE-STATE-ERR');
    expect((await dispute(p.owner.key, r.id)).status).toBe(200);
    for (const who of [p.owner, p.teammate, p.shifterUser]) expectError(await resolve(who.key, r.id, 'upheld'), 403, 'FORBIDDEN-ERR');
    expectError(await resolve(admin.key, 'rev_nope', 'upheld'), 404, 'REVIEW-NOT-FND-ERR');
    expectError(
      await call('PUT', '/v1/review/dispute/resolve', { key: admin.key, query: { review_id: r.id, decision: 'maybe' } }),
      400,
      'VALIDATION-ERR',
    );

    const done = await resolve(admin.key, r.id, 'upheld');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ dispute_status: 'upheld', dispute_resolved_by_user_id: admin.userId });
    expect(Date.parse(done.body.dispute_resolved_at)).toBeGreaterThan(0);
    const [note] = await notesFor(r.id, 'review.dispute_resolved');
    expect(note?.user_ids.sort()).toEqual([p.owner.userId, p.teammate.userId, p.shifterUser.userId].sort());

    // The same decision again changes nothing; the other decision is refused.
    expect((await resolve(admin.key, r.id, 'upheld')).body.dispute_resolved_at).toBe(done.body.dispute_resolved_at);
    expectError(await resolve(admin.key, r.id, 'rejected'), 409, 'REVIEW-DISPUTE-STATE-ERR');
    expect((await auditsFor(r.id)).filter((a) => a === 'review.dispute_resolve')).toHaveLength(1);
    // Gone for the parties too: no response or second dispute on an upheld review.
    expectError(await respond(p.owner.key, r.id, 'Thanks'), 404, 'REVIEW-NOT-FND-ERR');
    expectError(await dispute(p.owner.key, r.id), 404, 'REVIEW-NOT-FND-ERR');
  });

  it('gives admins the queue: pending oldest first, or every disputed review; nobody else', async () => {
    const p = await pair();
    const admin = await makeUser({ admin: true });
    await Promise.all([workedShift(p.business, p.shifter, 5), workedShift(p.business, p.shifter, 7)]);
    const a = await created(shifterReviews(p, 1, null));
    const b = await created(shifterReviews(p, 2, null));
    const c = await created(shifterReviews(p, 3, null));
    for (const x of [a, b, c]) expect((await dispute(p.owner.key, x.id, `Reason ${x.rating}`)).status).toBe(200);
    expect((await resolve(admin.key, b.id, 'rejected')).status).toBe(200);

    const ids = async (status: 'pending' | 'all') => {
      const out: string[] = [];
      let cursor: string | null = null;
      do {
        const res: ApiResult = await call('GET', '/v1/review/disputes', {
          key: admin.key,
          query: { status_filter: status, limit: 1, ...(cursor ? { cursor } : {}) },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const r of res.body.data) expect(r.dispute_reason, r.id).toEqual(expect.any(String));
        out.push(...res.body.data.map((r: { id: string }) => r.id));
        cursor = res.body.next_cursor;
      } while (cursor);
      return out.filter((id) => [a.id, b.id, c.id].includes(id));
    };
    expect(await ids('pending')).toEqual([a.id, c.id]);
    expect(await ids('all')).toEqual([c.id, b.id, a.id]);
    const def = await call('GET', '/v1/review/disputes', { key: admin.key, query: { limit: 200 } });
    expect(def.body.data.map((r: { id: string }) => r.id)).not.toContain(b.id);
    for (const who of [p.owner, p.shifterUser])
      expectError(await call('GET', '/v1/review/disputes', { key: who.key }), 403, 'FORBIDDEN-ERR');
    expectError(await call('GET', '/v1/review/disputes', { key: admin.key, query: { status_filter: 'open' } }), 400, 'VALIDATION-ERR');
  });

  it('keeps the demo cast’s admin to reviews between demo accounts', async () => {
    const p = await pair();
    const r = await created(shifterReviews(p, 1));
    expect((await dispute(p.owner.key, r.id)).status).toBe(200);
    const demoAdminUser = await makeUser();
    const base = contextAt(Date.now(), demoAdminUser);
    const ctx: ServiceContext = {
      ...base,
      actor: {
        kind: 'user',
        userId: demoAdminUser.userId,
        via: 'api_key',
        credentialId: demoAdminUser.keyId,
        isAdmin: false,
        isDemo: true,
        demoAdmin: true,
      },
    };
    await expect(resolveDispute(ctx, r.id, 'upheld')).rejects.toMatchObject({ code: 'FORBIDDEN-ERR' });
    const queue = await listDisputes(ctx, { status_filter: 'pending', limit: 200 });
    expect(queue.data.map((x) => x.id)).not.toContain(r.id);
    // Once both parties are demo accounts, it may.
    await env.DB.prepare('UPDATE users SET is_demo = 1 WHERE id IN (?, ?)').bind(p.owner.userId, p.shifterUser.userId).run();
    expect((await listDisputes(ctx, { status_filter: 'pending', limit: 200 })).data.map((x) => x.id)).toContain(r.id);
    expect((await resolveDispute(ctx, r.id, 'rejected')).dispute_status).toBe('rejected');
  });
});

// ── Upheld disputes vanish ──────────────────────────────────────────────────────────────────────

describe('an upheld dispute removes the review from every list and aggregate; a rejected one stays', () => {
  it('list, average, batch average, histogram, trend and the profile ratings', async () => {
    const p = await pair();
    const [reader, admin] = await Promise.all([makeUser(), makeUser({ admin: true })]);
    const second = await workedShift(p.business, p.shifter, 5);
    const third = await workedShift(p.business, p.shifter, 7);
    const five = await created(shifterReviews(p, 5, p.shift));
    const one = await created(shifterReviews(p, 1, second));
    const three = await created(shifterReviews(p, 3, third));
    for (const r of [five, one, three]) expect((await dispute(p.owner.key, r.id)).status).toBe(200);

    const snapshot = async () => ({
      list: (await list(reader.key, { review_on: 'business', review_on_id: p.business })).body.data.map((r: { id: string }) => r.id).sort(),
      avg: (await avg(reader.key, 'business', p.business)).body,
      batch: (await averages(reader.key, [{ review_on: 'business', review_on_id: p.business }])).body.data[0],
      histogram: (await histogram(reader.key, 'business', p.business)).body.histogram.map((h: { count: number }) => h.count),
      trend: (await trend(reader.key, 'business', p.business, 7)).body,
      profile: (await call('GET', '/v1/business/of_user', { key: p.owner.key })).body.data[0].ratings,
    });
    // Pending disputes stay visible and counted.
    const before = await snapshot();
    expect(before.list).toEqual([five.id, one.id, three.id].sort());
    expect(before.avg).toMatchObject({ average: 3, count: 3 });
    expect(before.histogram).toEqual([1, 0, 1, 0, 1]);
    expect(before.trend).toMatchObject({ average: 3, count: 3 });
    expect(before.profile).toEqual({ average: 3, count: 3 });

    expect((await resolve(admin.key, five.id, 'upheld')).status).toBe(200);
    expect((await resolve(admin.key, one.id, 'rejected')).status).toBe(200);
    const after = await snapshot();
    expect(after.list).toEqual([one.id, three.id].sort());
    expect(after.avg).toEqual({ review_on: 'business', review_on_id: p.business, average: 2, count: 2 });
    expect(after.batch).toEqual(after.avg);
    expect(after.histogram).toEqual([1, 0, 1, 0, 0]);
    expect(after.trend).toMatchObject({ average: 2, count: 2 });
    expect(after.trend.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(2);
    expect(after.profile).toEqual({ average: 2, count: 2 });
    // The rejected one stays, marked.
    const shown = (await list(reader.key, { review_on: 'business', review_on_id: p.business })).body.data;
    expect(shown.find((r: { id: string }) => r.id === one.id)).toMatchObject({ dispute_status: 'rejected' });
    // The reviewer's own list of what they wrote leaves it out too.
    const mine = (await list(p.shifterUser.key, { review_by: 'shifter', review_by_id: p.shifter })).body.data.map(
      (r: { id: string }) => r.id,
    );
    expect(mine).not.toContain(five.id);
  });
});

// ── Trend ───────────────────────────────────────────────────────────────────────────────────────

describe('the review trend', () => {
  /** A business in New York and a shifter whose reviews of it are placed at chosen instants. */
  async function trendWorld() {
    const p = await pair();
    const by = { kind: 'shifter' as const, id: p.shifter, userId: p.shifterUser.userId };
    const on = { kind: 'business' as const, id: p.business };
    return { p, at: (rating: number, ms: number, extra = {}) => insertReview(on, by, rating, ms, extra) };
  }
  const q = (p: Pair, days: number) => ({ review_on: 'business' as const, review_on_id: p.business, days });
  /** A Wednesday noon in New York some weeks ahead: a fixed clock whatever day the tests run. */
  function wednesdayNoon(): number {
    let d = addDays(dateInZone(Date.now(), NY), 30);
    while (weekdayOf(d) !== 3) d = addDays(d, 1);
    return wallClockToInstant(d, '12:00', NY);
  }

  it('has daily buckets under 30 days, in the reviewed party’s calendar days', async () => {
    const { p, at } = await trendWorld();
    const now = wednesdayNoon();
    const today = dateInZone(now, NY);
    const yesterday = addDays(today, -1);
    // 21:00 in New York yesterday is already today in UTC: it counts for yesterday.
    await at(2, wallClockToInstant(yesterday, '21:00', NY));
    await at(4, wallClockToInstant(today, '00:05', NY));
    await at(5, wallClockToInstant(today, '11:00', NY));
    // Outside a 7-day window: 7 days ago at 23:59.
    await at(1, wallClockToInstant(addDays(today, -7), '23:59', NY));
    const t = await getTrend(contextAt(now, p.shifterUser), q(p, 7));
    expect(t).toMatchObject({ bucket: 'day', days: 7, timezone: NY, from: addDays(today, -6), to: today, count: 3, average: 3.67 });
    expect(t.buckets.map((b) => b.start)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => addDays(today, -n)));
    for (const b of t.buckets) expect(b.end).toBe(b.start);
    expect(t.buckets.at(-2)).toEqual({ start: yesterday, end: yesterday, average: 2, count: 1 });
    expect(t.buckets.at(-1)).toEqual({ start: today, end: today, average: 4.5, count: 2 });
    expect(t.buckets.slice(0, 5).every((b) => b.count === 0 && b.average === null)).toBe(true);
    // 29 days is still daily; 30 is weekly.
    expect((await getTrend(contextAt(now, p.shifterUser), q(p, 29))).buckets).toHaveLength(29);
    expect((await getTrend(contextAt(now, p.shifterUser), q(p, 30))).bucket).toBe('week');
    expect((await getTrend(contextAt(now, p.shifterUser), q(p, 1))).buckets).toEqual([
      { start: today, end: today, average: 4.5, count: 2 },
    ]);
  });

  it('has weekly buckets from Monday at 30 days and more; the window clips the first week', async () => {
    const { p, at } = await trendWorld();
    const now = wednesdayNoon();
    const today = dateInZone(now, NY);
    const monday = addDays(today, -2);
    const t0 = await getTrend(contextAt(now, p.shifterUser), q(p, 30));
    const from = addDays(today, -29);
    expect(t0).toMatchObject({ bucket: 'week', from, to: today });
    for (const b of t0.buckets) {
      expect(weekdayOf(b.start), b.start).toBe(1);
      expect(b.end).toBe(addDays(b.start, 6));
    }
    expect(t0.buckets[0]!.start <= from && from <= t0.buckets[0]!.end).toBe(true);
    expect(t0.buckets.at(-1)!.start).toBe(monday);
    // Sunday 23:30 belongs to the week before; Monday 00:10 to this week.
    await at(1, wallClockToInstant(addDays(monday, -1), '23:30', NY));
    await at(5, wallClockToInstant(monday, '00:10', NY));
    await at(3, wallClockToInstant(today, '08:00', NY));
    // Before the window but inside its first calendar week: not counted.
    await at(2, wallClockToInstant(addDays(from, -1), '12:00', NY));
    await at(4, wallClockToInstant(from, '00:30', NY));
    const t = await getTrend(contextAt(now, p.shifterUser), q(p, 30));
    expect(t.buckets.at(-1)).toEqual({ start: monday, end: addDays(monday, 6), average: 4, count: 2 });
    expect(t.buckets.at(-2)).toMatchObject({ start: addDays(monday, -7), average: 1, count: 1 });
    expect(t.buckets[0]).toMatchObject({ count: 1, average: 4 });
    expect(t).toMatchObject({ count: 4, average: 3.25 });
    // A year: 52 or 53 Mondays.
    const year = await getTrend(contextAt(now, p.shifterUser), q(p, 365));
    expect(year.buckets.length).toBeGreaterThanOrEqual(53);
    expect(year.buckets.length).toBeLessThanOrEqual(54);
  });

  it('counts the real length of a DST day', () => {
    const spring = nextDstChange(NY, dateInZone(Date.now(), NY), 'spring');
    const w = trendBuckets(wallClockToInstant(spring, '23:00', NY), 2, NY);
    const last = w.buckets.at(-1)!;
    expect(last.start).toBe(spring);
    expect(last.to - last.from).toBe(23 * 3_600_000);
    expect(w.buckets[0]!.to - w.buckets[0]!.from).toBe(DAY);
  });

  it('answers through the API for today, bounds days (1–365) and 404s an unknown party', async () => {
    const p = await pair();
    await created(shifterReviews(p, 4));
    const res = await trend(p.teammate.key, 'business', p.business, 7);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ to: dateInZone(Date.now(), NY), count: 1, average: 4 });
    expect(res.body.buckets.at(-1)).toMatchObject({ count: 1, average: 4 });
    // The shifter's own zone for a review of the shifter.
    expect((await trend(p.owner.key, 'shifter', p.shifter, 30)).body).toMatchObject({ timezone: NY, bucket: 'week' });
    for (const days of [0, 366, 'week']) expectError(await trend(p.owner.key, 'business', p.business, days), 400, 'VALIDATION-ERR');
    expectError(await trend(p.owner.key, 'business', 'biz_nope', 7), 404, 'BUSINESS-NOT-FND-ERR');
    expectError(await trend(p.owner.key, 'shifter', 'shf_nope', 7), 404, 'SHIFTER-NOT-FND-ERR');
    const def = await call('GET', '/v1/review/trend', { key: p.owner.key, query: { review_on: 'business', review_on_id: p.business } });
    expect(def.body).toMatchObject({ days: 90, bucket: 'week' });
  });
});

// ── Profiles ────────────────────────────────────────────────────────────────────────────────────

describe('profile ratings', () => {
  it('fill ratings on the shifter and business profiles, and on the business answers', async () => {
    const p = await pair();
    const shifterProfile = async () => (await call('GET', '/v1/shifter/of_user', { key: p.shifterUser.key })).body.ratings;
    const businessProfile = async () => (await call('GET', '/v1/business/of_user', { key: p.owner.key })).body.data[0].ratings;
    expect(await shifterProfile()).toEqual({ average: null, count: 0 });
    expect(await businessProfile()).toEqual({ average: null, count: 0 });
    await workedShift(p.business, p.shifter, 6);
    await created(businessReviews(p, p.owner, 5));
    await created(create(p.owner.key, { review_on: 'shifter', review_on_id: p.shifter, rating: 4 }));
    await created(shifterReviews(p, 2));
    expect(await shifterProfile()).toEqual({ average: 4.5, count: 2 });
    expect(await businessProfile()).toEqual({ average: 2, count: 1 });
    const settings = await call('PUT', '/v1/business/update_settings', {
      key: p.owner.key,
      body: { business_id: p.business, name: 'Renamed' },
    });
    expect(settings.body.ratings).toEqual({ average: 2, count: 1 });
  });
});

// ── Demo data ───────────────────────────────────────────────────────────────────────────────────

describe('demo reviews', () => {
  it('seeds a dozen reviews both ways on worked demo shifts, with responses, one pending and one upheld dispute', async () => {
    const seeded = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: 1 } });
    expect(seeded.status, JSON.stringify(seeded.body).slice(0, 300)).toBe(200);
    expect(seeded.body.counts.reviews).toBe(12);
    const accounts = seeded.body.accounts as Array<{ role: string; email: string; api_key: string }>;
    const keyOf = (local: string) => accounts.find((a) => a.email.startsWith(`${local}@`))!.api_key;

    const demo = await env.DB.prepare(
      `SELECT r.*, s.request_status, s.shift_end_at, s.is_noshow, s.business_id AS s_business, s.shifter_id AS s_shifter
         FROM reviews r LEFT JOIN shift_requests s ON s.id = r.shift_request_id
        WHERE r.reviewer_user_id IN (SELECT id FROM users WHERE is_demo = 1)`,
    ).all<Record<string, any>>();
    const rows = demo.results;
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r.review_by === 'shifter')).toHaveLength(6);
    expect(rows.filter((r) => r.response_text !== null).length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.dispute_status === 'pending')).toHaveLength(1);
    const upheld = rows.filter((r) => r.dispute_status === 'upheld');
    expect(upheld).toHaveLength(1);
    expect(rows.filter((r) => r.shift_request_id === null)).toHaveLength(1);
    // Every demo review counts against a worked shift, as one written through the API does.
    expect(rows.filter((r) => r.counted_shift_id === null)).toEqual([]);
    for (const r of rows.filter((x) => x.shift_request_id !== null)) {
      // Pinned to a worked shift between exactly these two parties, written after it ended.
      expect([2, 5]).toContain(r.request_status);
      expect(r.shift_end_at).not.toBeNull();
      expect(r.is_noshow).toBe(0);
      const [biz, sh] = r.review_on === 'business' ? [r.review_on_id, r.review_by_id] : [r.review_by_id, r.review_on_id];
      expect([r.s_business, r.s_shifter]).toEqual([biz, sh]);
      expect(r.created_at).toBeGreaterThan(r.shift_end_at);
      expect(r.created_at).toBeLessThan(Date.now());
    }

    // Through the API: the upheld review shows nowhere, the pending one does; the demo admin sees the queue.
    const jordan = keyOf('jordan');
    const gone = upheld[0]!;
    const listed = await list(jordan, { review_on: 'business', review_on_id: gone.review_on_id });
    expect(listed.body.data.map((r: { id: string }) => r.id)).not.toContain(gone.id);
    expect((await avg(jordan, 'business', gone.review_on_id)).body.count).toBe(listed.body.data.length);
    const queue = await call('GET', '/v1/review/disputes', { key: keyOf('admin') });
    expect(queue.status, JSON.stringify(queue.body)).toBe(200);
    expect(queue.body.data.map((r: { dispute_status: string }) => r.dispute_status)).toEqual(['pending']);
    const owner = await call('GET', '/v1/business/of_user', { key: keyOf('owner') });
    expect(owner.body.data.every((b: { ratings: { count: number } }) => b.ratings.count > 0)).toBe(true);
  });
});
