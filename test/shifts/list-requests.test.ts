import { describe, expect, it } from 'vitest';
import { type ApiResult, call } from '../helpers/api';
import { addTeammate, connect, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';
import { addDays } from '../../src/lib/shift-time';
import { listRequests, listRequestsBody, listRequestsMany } from '../../src/services/shifts';
import { contextAt } from '../helpers/clock';
import { dateAhead, expectDeniedWith, expectValidation, HOUR, insertShift, makeCrewMember, makePair, NY } from '../helpers/shifts';

const LIST = '/v1/shift_request/list_of_requests';

describe('POST /v1/shift_request/list_of_requests', () => {
  itRejectsBadCredentials({ method: 'POST', path: LIST, body: {} });

  /**
   * Business A with shifters S1, S2; business B with S1. Rows are inserted with distinct creation
   * times (and one tie, to exercise the id tie-break) so "newest first" is exact.
   */
  async function scenario() {
    const { biz: a, sh: s1 } = await makePair();
    const s2 = await makeCrewMember(a.businessId!);
    const b = await makeUser({ business: true });
    await connect(b.businessId!, s1.shifterId!);
    const t = Date.now() + 10 * 86_400_000;
    const base = Date.now() - HOUR;
    const at = (i: number) => ({ created_at: base + i * 1000 });
    const r1 = await insertShift({ businessId: a.businessId!, shifterId: s1.shifterId, startsAt: t, status: 1, role: 1, set: at(1) });
    const r2 = await insertShift({
      businessId: a.businessId!,
      shifterId: s2.shifterId,
      startsAt: t + 86_400_000,
      status: 1,
      role: 2,
      set: at(2),
    });
    const r3 = await insertShift({
      businessId: a.businessId!,
      startsAt: t + 2 * 86_400_000,
      status: 1,
      broadcast: true,
      role: 1,
      set: at(3),
    });
    const r4 = await insertShift({
      businessId: b.businessId!,
      shifterId: s1.shifterId,
      startsAt: t + 3 * 86_400_000,
      status: 1,
      role: 3,
      set: at(3),
    });
    const r5 = await insertShift({
      businessId: a.businessId!,
      shifterId: s1.shifterId,
      startsAt: t + 4 * 86_400_000,
      status: 7,
      role: 1,
      set: at(5),
    });
    return { a, b, s1, s2, r1, r2, r3, r4, r5 };
  }

  const ids = (res: ApiResult) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as Array<{ id: string }>).map((r) => r.id);
  };
  const list = (key: string, body: Record<string, unknown> = {}) => call('POST', LIST, { key, body });
  /** Newest first: created_at desc, then id desc. */
  const newest = (...rows: Array<{ id: string; created_at: number }>) =>
    [...rows].sort((x, y) => y.created_at - x.created_at || (y.id < x.id ? -1 : 1)).map((r) => r.id);

  it('each party sees its own requests, newest first; strangers see none', async () => {
    const { a, b, s1, s2, r1, r2, r3, r4, r5 } = await scenario();
    expect(ids(await list(s1.key))).toEqual(newest(r1, r4, r5));
    expect(ids(await list(s2.key))).toEqual([r2.id]);
    expect(ids(await list(a.key))).toEqual(newest(r1, r2, r3, r5));
    expect(ids(await list(b.key))).toEqual([r4.id]);

    const mate = await makeUser();
    await addTeammate(a.businessId!, mate.userId, 1);
    expect(ids(await list(mate.key))).toEqual(newest(r1, r2, r3, r5));
    const suspended = await makeUser();
    await addTeammate(a.businessId!, suspended.userId, 0);
    expect(ids(await list(suspended.key))).toEqual([]);

    const stranger = await makeUser({ shifter: true, business: true });
    expect(ids(await list(stranger.key))).toEqual([]);
    expect(ids(await list(stranger.key, { business_id: a.businessId }))).toEqual([]);
    expect(ids(await list(stranger.key, { shifter_id: s1.shifterId }))).toEqual([]);
    await expectDeniedWith(await list(stranger.key, { as: 'business', business_id: a.businessId }), 404, 'BUSINESS-NOT-FND-ERR');

    const row = (await list(s1.key)).body.data.find((r: { id: string }) => r.id === r4.id);
    expect(row).toMatchObject({ business_id: b.businessId, shifter_id: s1.shifterId, request_status: 1, timezone: NY, role: 'Line Cook' });
  });

  it('filters by status (one or several), dates, role, counterparty and is_broadcast', async () => {
    const { a, b, s1, s2, r1, r2, r3, r4, r5 } = await scenario();
    expect(ids(await list(a.key, { status: 1 }))).toEqual(newest(r1, r2, r3));
    expect(ids(await list(a.key, { status: [7] }))).toEqual([r5.id]);
    expect(ids(await list(a.key, { status: [1, 7] }))).toEqual(newest(r1, r2, r3, r5));
    expect(ids(await list(a.key, { date_from: r2.shift_date, date_to: r3.shift_date }))).toEqual(newest(r2, r3));
    expect(ids(await list(a.key, { date_from: r5.shift_date }))).toEqual([r5.id]);
    expect(ids(await list(a.key, { date_to: r1.shift_date }))).toEqual([r1.id]);
    expect(ids(await list(a.key, { shiftrole_id: 2 }))).toEqual([r2.id]);
    expect(ids(await list(a.key, { counterparty_id: s2.shifterId }))).toEqual([r2.id]);
    expect(ids(await list(a.key, { shifter_id: s1.shifterId }))).toEqual(newest(r1, r5));
    expect(ids(await list(a.key, { is_broadcast: 1 }))).toEqual([r3.id]);
    expect(ids(await list(a.key, { is_broadcast: false }))).toEqual(newest(r1, r2, r5));
    expect(ids(await list(s1.key, { counterparty_id: b.businessId }))).toEqual([r4.id]);
    expect(ids(await list(s1.key, { counterparty_id: a.businessId, status: 1 }))).toEqual([r1.id]);

    const bad = await list(a.key, { status: 9 });
    expectValidation(bad, 'status');
    expectValidation(await list(a.key, { date_from: '2027-13-01' }), 'date_from');
  });

  it('a date range holds exactly the shifts dated in it in the business’s zone, at UTC+14 and UTC−11 alike, page by page', async () => {
    // A dated list reads its rows by start around the dates' UTC midnights; these zones put a
    // day's first and last starts furthest from them.
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const owner = await makeUser({ business: { timezone: tz } });
      const day = dateAhead(3, tz);
      const base = Date.now() - HOUR;
      let n = 0;
      const at = (date: string, shiftIn: string, shiftOut: string) =>
        insertShift({
          businessId: owner.businessId!,
          tz,
          date,
          in: shiftIn,
          out: shiftOut,
          status: 1,
          broadcast: true,
          set: { created_at: base + ++n * 1000 },
        });
      const before = await at(addDays(day, -1), '23:45', '23:59');
      const first = await at(day, '00:00', '04:00');
      const last = await at(day, '23:45', '06:00');
      const after = await at(addDays(day, 1), '00:00', '04:00');
      const as = { as: 'business', business_id: owner.businessId };
      expect(ids(await list(owner.key, { ...as, date_from: day, date_to: day }))).toEqual(newest(first, last));
      expect(ids(await list(owner.key, { ...as, date_from: day }))).toEqual(newest(first, last, after));
      expect(ids(await list(owner.key, { ...as, date_to: day }))).toEqual(newest(before, first, last));
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 6 && (page === 0 || cursor); page++) {
        const res = await list(owner.key, { ...as, date_from: addDays(day, -1), date_to: addDays(day, 1), limit: 1, cursor });
        seen.push(...ids(res));
        cursor = res.body.next_cursor;
      }
      expect(seen).toEqual(newest(before, first, last, after));
    }
  });

  it('several lists in one call answer as each alone (the dashboard reads four at once), and refuse alike', async () => {
    const { a, b, r1, r2, r3, r5 } = await scenario();
    const ctx = contextAt(Date.now(), a);
    const asks = [
      { as: 'business' },
      { status: 1 },
      { date_from: r2.shift_date, date_to: r3.shift_date },
      { as: 'business', is_broadcast: true, date_from: r1.shift_date },
      { as: 'shifter' },
    ].map((f) => listRequestsBody.parse(f));
    const many = await listRequestsMany(ctx, asks);
    expect(many).toHaveLength(asks.length);
    for (const [i, f] of asks.entries()) expect(many[i]).toEqual(await listRequests(ctx, f));
    expect(many[0]!.data.map((r) => r.id)).toEqual(newest(r1, r2, r3, r5));
    expect(many[3]!.data.map((r) => r.id)).toEqual([r3.id]);
    // The owner has no shifter profile: that list is empty, the others are still read.
    expect(many[4]).toEqual({ data: [], next_cursor: null });
    await expect(listRequestsMany(ctx, [listRequestsBody.parse({ as: 'business', business_id: b.businessId })])).rejects.toMatchObject({
      code: 'BUSINESS-NOT-FND-ERR',
    });
  });

  it('cursor pagination walks every row exactly once', async () => {
    const { a, r1, r2, r3, r5 } = await scenario();
    const extra = await insertShift({
      businessId: a.businessId!,
      startsAt: Date.now() + 30 * 86_400_000,
      status: 6,
      set: { created_at: r3.created_at },
    });
    const all = newest(r1, r2, r3, r5, extra);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(a.key, { limit: 2, cursor });
      const page = ids(res);
      expect(page.length).toBeLessThanOrEqual(2);
      seen.push(...page);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it('refuses an invalid cursor (400)', async () => {
    const { a } = await scenario();
    expectValidation(await list(a.key, { cursor: 'not-a-cursor' }), 'cursor');
    expectValidation(await list(a.key, { cursor: btoa(JSON.stringify({ o: 1 })) }), 'cursor');
  });
});
