import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shiftRequests } from '../../src/db/schema';
import { AppError } from '../../src/lib/errors';
import type { ServiceContext } from '../../src/services/kernel';
import { acceptRequest } from '../../src/services/shifts';
import { type ApiResult, call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { connect, db, makeUser } from '../helpers/factory';
import { DAY, HOUR, insertShift, makePair } from '../helpers/shifts';

/**
 * Double booking (issue 7, Correctness 3): the overlap check is part of the accept and claim guards
 * (`noOverlapSql`), so two overlapping shifts taken at the same moment cannot both succeed.
 */

const accept = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/accept`, { key });
const claim = (id: string, key: string) => call('POST', `/v1/shift_request/${id}/claim`, { key });

async function acceptedOf(shifterId: string) {
  return db()
    .select({ id: shiftRequests.id })
    .from(shiftRequests)
    .where(and(eq(shiftRequests.shifter_id, shifterId), eq(shiftRequests.request_status, 2)));
}

/** Exactly one of two answers is 200; the other is 409 SHFT-CONFLICT-ERR naming the winner. */
function oneWins(a: { id: string; res: ApiResult }, b: { id: string; res: ApiResult }) {
  const answers = [a, b];
  const won = answers.filter((x) => x.res.status === 200);
  expect(won, answers.map((x) => `${x.res.status} ${x.res.body?.error?.code ?? ''}`).join(', ')).toHaveLength(1);
  const lost = answers.find((x) => x !== won[0])!;
  const err = expectError(lost.res, 409, 'SHFT-CONFLICT-ERR');
  expect(err.details).toEqual({ conflicting_shift_request_ids: [won[0]!.id] });
  return { winner: won[0]!.id, loser: lost.id };
}

describe('double booking', () => {
  it('two overlapping targeted shifts accepted at the same moment: one succeeds, the other 409 (10 rounds)', async () => {
    const { biz, sh } = await makePair();
    const other = await makeUser({ business: true });
    await connect(other.businessId!, sh.shifterId!);
    for (let round = 0; round < 10; round++) {
      const start = Date.now() + (2 + round) * DAY;
      // One at each business, overlapping by an hour.
      const x = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, status: 1, startsAt: start, minutes: 4 * 60 });
      const y = await insertShift({
        businessId: other.businessId!,
        shifterId: sh.shifterId,
        status: 1,
        startsAt: start + 3 * HOUR,
        minutes: 4 * 60,
      });
      const [rx, ry] = await Promise.all([accept(x.id, sh.key), accept(y.id, sh.key)]);
      const { winner, loser } = oneWins({ id: x.id, res: rx }, { id: y.id, res: ry });
      const accepted = (await acceptedOf(sh.shifterId!)).map((r) => r.id);
      expect(accepted).toContain(winner);
      expect(accepted).not.toContain(loser);
    }
    expect(await acceptedOf(sh.shifterId!)).toHaveLength(10);
  });

  it('an accept racing a claim of an overlapping broadcast: one succeeds, the other 409 (10 rounds)', async () => {
    const { biz, sh } = await makePair();
    const other = await makeUser({ business: true });
    await connect(other.businessId!, sh.shifterId!);
    const outcomes = { accept: 0, claim: 0 };
    for (let round = 0; round < 10; round++) {
      const start = Date.now() + (2 + round) * DAY;
      const targeted = await insertShift({
        businessId: biz.businessId!,
        shifterId: sh.shifterId,
        status: 1,
        startsAt: start,
        minutes: 4 * 60,
      });
      const broadcast = await insertShift({
        businessId: other.businessId!,
        broadcast: true,
        status: 1,
        startsAt: start + 2 * HOUR,
        minutes: 4 * 60,
      });
      const [ra, rc] =
        round % 2
          ? await Promise.all([accept(targeted.id, sh.key), claim(broadcast.id, sh.key)])
          : await Promise.all([claim(broadcast.id, sh.key), accept(targeted.id, sh.key)]).then(([c, a]) => [a, c] as const);
      const { winner } = oneWins({ id: targeted.id, res: ra }, { id: broadcast.id, res: rc });
      if (winner === targeted.id) {
        outcomes.accept++;
        // The broadcast lost nothing: it is still open for someone else.
        expect((await call('GET', `/v1/shift_request/${broadcast.id}`, { key: other.key })).body).toMatchObject({
          request_status: 1,
          shifter_id: null,
        });
      } else {
        outcomes.claim++;
        expect((await call('GET', `/v1/shift_request/${targeted.id}`, { key: sh.key })).body).toMatchObject({ request_status: 1 });
      }
    }
    expect(outcomes.accept + outcomes.claim).toBe(10);
    expect(await acceptedOf(sh.shifterId!)).toHaveLength(10);
  });

  it('the check is in the guard: an accept whose read came before an overlapping accept committed still gets 409', async () => {
    const { biz, sh } = await makePair();
    const start = Date.now() + 3 * DAY;
    const x = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, status: 1, startsAt: start, minutes: 4 * 60 });
    const y = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      status: 1,
      startsAt: start + HOUR,
      minutes: 4 * 60,
    });
    const now = Date.now();
    // y's accept has read the row and checked for overlaps; x's accept commits; then y's guarded write runs.
    const ctx = contextAt(now, sh);
    const stale: ServiceContext = {
      ...ctx,
      db: new Proxy(ctx.db, {
        get(target, prop, receiver) {
          if (prop !== 'batch') return Reflect.get(target, prop, receiver);
          return async (...args: unknown[]) => {
            await acceptRequest(contextAt(now, sh), x.id);
            return (target.batch as (...a: unknown[]) => Promise<unknown>)(...args);
          };
        },
      }),
    };
    const err = await acceptRequest(stale, y.id).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('SHFT-CONFLICT-ERR');
    expect((await acceptedOf(sh.shifterId!)).map((r) => r.id)).toEqual([x.id]);
  });
});
