import { describe, expect, it } from 'vitest';
import { businesses } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { type ApiResult, call } from '../helpers/api';
import { addTeammate, connect, db, makeUser, type TestUser } from '../helpers/factory';
import { dateAhead, insertShift, NY } from '../helpers/shifts';

/**
 * The conflicts endpoint leaks (issue 7, Security 6): to anyone but the shifter and admins, shifts
 * at businesses the caller does not act for are bare busy windows, nothing else.
 */

const CONFLICTS = '/v1/shift_request/conflicts';
const conflicts = (key: string, query: Record<string, string | undefined>) => call('GET', CONFLICTS, { key, query });

/** A second business of the same owner (a sibling), not the default one. */
async function siblingOf(owner: TestUser, name: string) {
  const now = Date.now();
  const id = newId('business');
  await db()
    .insert(businesses)
    .values({
      id,
      user_id: owner.userId,
      slug: `${name.toLowerCase().replaceAll(' ', '-')}-${id.slice(-6)}`,
      name,
      is_default: false,
      timezone: NY,
      currency: 'USD',
      created_at: now,
      updated_at: now,
    });
  return id;
}

/**
 * Shifter S, connected to A (owner O, teammate T) and to rival R; O also owns A2, a sibling of A.
 * S has an accepted shift at each of A, A2 and R on the same day, with distinctive notes and rates.
 */
async function scenario() {
  const owner = await makeUser({ business: { name: 'Alpha Diner' } });
  const a = owner.businessId!;
  const a2 = await siblingOf(owner, 'Alpha Catering Secret');
  const rival = await makeUser({ business: { name: 'Rival Bistro Secret' } });
  const sh = await makeUser({ shifter: true });
  await connect(a, sh.shifterId!);
  await connect(rival.businessId!, sh.shifterId!);
  const mate = await makeUser();
  await addTeammate(a, mate.userId, 1);
  const siblingMate = await makeUser();
  await addTeammate(a2, siblingMate.userId, 1);
  await connect(a2, sh.shifterId!);
  const date = dateAhead(6);
  const atA = await insertShift({
    businessId: a,
    shifterId: sh.shifterId,
    date,
    in: '06:00',
    out: '09:00',
    rateMinor: 2100,
    set: { note: 'alpha note' },
  });
  const atA2 = await insertShift({
    businessId: a2,
    shifterId: sh.shifterId,
    date,
    in: '10:00',
    out: '13:00',
    role: 4,
    rateMinor: 4321,
    set: { note: 'sibling secret note' },
  });
  const atRival = await insertShift({
    businessId: rival.businessId!,
    shifterId: sh.shifterId,
    date,
    in: '14:00',
    out: '18:00',
    role: 3,
    rateMinor: 5678,
    set: { note: 'rival secret note' },
  });
  const q = { shifter_id: sh.shifterId!, date, shift_in: '05:00', shift_out: '20:00' };
  return { owner, a, a2, rival, sh, mate, siblingMate, atA, atA2, atRival, q };
}

const iso = (ms: number) => new Date(ms).toISOString();
function body(res: ApiResult) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Array<{ id: string }>; busy: Array<Record<string, string>>; window: unknown };
}
/** Nothing of these shifts but their start and end may appear anywhere in the answer. */
function expectNothingOf(
  res: ApiResult,
  hidden: Array<{ id: string; business_id: string; note: string | null; hourly_rate_minor: number }>,
  names: string[],
) {
  const text = JSON.stringify(res.body);
  for (const h of hidden) {
    expect(text).not.toContain(h.id);
    expect(text).not.toContain(h.business_id);
    expect(text).not.toContain(h.note!);
    // The distinctive rates (43.21, 56.78) appear nowhere, as a decimal or in minor units.
    expect(text).not.toContain((h.hourly_rate_minor / 100).toFixed(2));
    expect(text).not.toContain(String(h.hourly_rate_minor));
  }
  for (const n of names) expect(text).not.toContain(n);
}

describe('GET /v1/shift_request/conflicts: what each reader sees', () => {
  it('a connected business sees its own shift in full and the others only as busy windows', async () => {
    const s = await scenario();
    for (const q of [s.q, { ...s.q, business_id: s.a }]) {
      const res = await conflicts(s.owner.key, q);
      const b = body(res);
      // O owns A and A2: both in full; the rival's shift is a bare window.
      expect(b.data.map((r) => r.id).sort()).toEqual([s.atA.id, s.atA2.id].sort());
      expect(b.busy).toEqual([{ starts_at: iso(s.atRival.starts_at), ends_at: iso(s.atRival.ends_at) }]);
      expectNothingOf(res, [s.atRival], ['Rival Bistro Secret']);
    }
  });

  it('a teammate of one business sees only that business in full, even of a sibling business of the same owner', async () => {
    const s = await scenario();
    const res = await conflicts(s.mate.key, s.q);
    const b = body(res);
    expect(b.data.map((r) => r.id)).toEqual([s.atA.id]);
    expect(b.busy).toEqual([
      { starts_at: iso(s.atA2.starts_at), ends_at: iso(s.atA2.ends_at) },
      { starts_at: iso(s.atRival.starts_at), ends_at: iso(s.atRival.ends_at) },
    ]);
    for (const w of b.busy) expect(Object.keys(w).sort()).toEqual(['ends_at', 'starts_at']);
    expectNothingOf(res, [s.atA2, s.atRival], ['Alpha Catering Secret', 'Rival Bistro Secret']);

    // The sibling's teammate, the other way round.
    const sib = await conflicts(s.siblingMate.key, { ...s.q, business_id: s.a2 });
    expect(body(sib).data.map((r) => r.id)).toEqual([s.atA2.id]);
    expect(body(sib).busy).toHaveLength(2);
    expectNothingOf(sib, [s.atA, s.atRival], ['Alpha Diner', 'Rival Bistro Secret']);
  });

  it('the rival business learns nothing of Alpha’s shifts but when the shifter is busy', async () => {
    const s = await scenario();
    const res = await conflicts(s.rival.key, s.q);
    const b = body(res);
    expect(b.data.map((r) => r.id)).toEqual([s.atRival.id]);
    expect(b.busy).toHaveLength(2);
    expectNothingOf(res, [s.atA, s.atA2], ['Alpha Diner', 'Alpha Catering Secret']);
  });

  it('the shifter and admins see every overlapping shift in full, with no busy windows', async () => {
    const s = await scenario();
    const admin = await makeUser({ admin: true });
    for (const key of [s.sh.key, admin.key]) {
      const b = body(await conflicts(key, s.q));
      expect(b.data.map((r) => r.id)).toEqual([s.atA.id, s.atA2.id, s.atRival.id]);
      expect(b.busy).toEqual([]);
    }
  });
});
