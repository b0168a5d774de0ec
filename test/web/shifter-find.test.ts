import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { makeUser } from '../helpers/factory';
import { dateAhead, insertShift, makeCrewMember, makePair, readShift } from '../helpers/shifts';
import { formatDate } from '../../src/web/format';
import { signedIn } from '../helpers/signed-in';

const idem = () => ({ _idem: crypto.randomUUID() });

describe('/dashboard/shifter/find', () => {
  it('ranks the crew’s open broadcasts with a score and a reason, and claims one; a lost claim says so plainly', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(3);
    // History that makes the reason: worked shifts in role 1 with this business.
    for (const days of [10, 20, 30]) {
      await insertShift({
        businessId: biz.businessId!,
        shifterId: sh.shifterId,
        startsAt: Date.now() - days * 86_400_000,
        set: { shift_end_at: Date.now() - days * 86_400_000 + 3_600_000, shift_start_at: Date.now() - days * 86_400_000 },
      });
    }
    const open = await insertShift({
      businessId: biz.businessId!,
      shifterId: null,
      broadcast: true,
      status: 1,
      date,
      in: '09:00',
      out: '17:00',
      rateMinor: 2600,
    });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/find');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Find shifts</h1>');
    expect(page.html).toContain(`/dashboard/shifter/find/${open.id}/claim`);
    expect(page.html).toMatch(/out of 100/);
    expect(page.html).toContain('You have worked at');
    expect(page.html).toMatch(/Pays \d+% above your usual \$20\.00\/h/);

    // The API carries the same signals on the ranked row (an additive field).
    const api = await call('POST', '/v1/shift_request/list_of_broadcast_requests', {
      key: sh.key,
      body: { shifter_id: sh.shifterId, sort_by_relevance: true },
    });
    expect(api.status).toBe(200);
    const row = api.body.data.find((r: { id: string }) => r.id === open.id);
    expect(row.relevance_signals).toMatchObject({ reference_rate: 20, rate_floor: null, overlaps_accepted_shift: false });
    expect(row.relevance_signals.familiarity_points).toBe(17);
    expect(row.relevance_signals.pay_points).toBeGreaterThan(12.5);

    // A filter that leaves it out says so; the GET form keeps what was chosen.
    const other = await b.get(`/dashboard/shifter/find?date=${dateAhead(9)}`);
    expect(other.html).toContain('No open shift matches these filters.');
    expect(other.html).toContain(`value="${dateAhead(9)}"`);

    // A rival claims first: this claim is lost, and the page says it in words.
    const rival = await makeCrewMember(biz.businessId!);
    const rb = await signedIn(rival);
    await rb.get('/dashboard/shifter/find');
    expect((await rb.post(`/dashboard/shifter/find/${open.id}/claim`, idem())).status).toBe(303);
    await b.get('/dashboard/shifter/find');
    const lost = await b.post(`/dashboard/shifter/find/${open.id}/claim`, idem());
    expect(lost.status).toBe(409);
    expect(lost.html).toContain('Someone else claimed this shift first.');
    expect((await readShift(open.id))!.shifter_id).toBe(rival.shifterId);

    const next = await insertShift({
      businessId: biz.businessId!,
      shifterId: null,
      broadcast: true,
      status: 1,
      date: dateAhead(4),
      in: '09:00',
      out: '17:00',
      rateMinor: 2000,
    });
    await b.get('/dashboard/shifter/find');
    const won = await b.post(`/dashboard/shifter/find/${next.id}/claim`, idem());
    expect(won.status).toBe(303);
    expect(won.location).toBe('/dashboard/shifter/find?notice=claimed');
    expect((await readShift(next.id))!.shifter_id).toBe(sh.shifterId);
  });

  it('answers targeted requests: accept, decline, and a counter-offer refused beside its field then sent', async () => {
    const { biz, sh } = await makePair();
    const [a, d, c] = await Promise.all(
      [3, 4, 5].map((days) =>
        insertShift({
          businessId: biz.businessId!,
          shifterId: sh.shifterId,
          status: 1,
          date: dateAhead(days),
          in: '09:00',
          out: '17:00',
          rateMinor: 2000,
        }),
      ),
    );
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/find');
    for (const s of [a!, d!, c!]) expect(page.html).toContain(`/dashboard/shifter/find/requests/${s.id}/accept`);

    expect((await b.post(`/dashboard/shifter/find/requests/${a!.id}/accept`, idem())).location).toBe(
      '/dashboard/shifter/find?notice=accepted',
    );
    expect((await readShift(a!.id))!.request_status).toBe(2);
    await b.get('/dashboard/shifter/find');
    expect((await b.post(`/dashboard/shifter/find/requests/${d!.id}/decline`, idem())).status).toBe(303);
    expect((await readShift(d!.id))!.request_status).toBe(3);

    await b.get('/dashboard/shifter/find');
    const same = await b.post(`/dashboard/shifter/find/requests/${c!.id}/counter`, { hourly_rate: '20', ...idem() });
    expect(same.status).toBe(400);
    expect(same.html).toMatch(/id="counter-[^"]+-error"[^>]*>Same as the offered rate/);
    expect(same.html).toContain('value="20"');
    const sent = await b.post(`/dashboard/shifter/find/requests/${c!.id}/counter`, { hourly_rate: '24.5', ...idem() });
    expect(sent.location).toBe('/dashboard/shifter/find?notice=countered');
  });

  it('home leads with the next shift, the requests waiting and the best open shifts with their reason', async () => {
    const { biz, sh } = await makePair();
    const next = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: dateAhead(2), in: '09:00', out: '13:00' });
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, status: 1, date: dateAhead(6), in: '09:00', out: '13:00' });
    await insertShift({
      businessId: biz.businessId!,
      shifterId: null,
      broadcast: true,
      status: 1,
      date: dateAhead(8),
      in: '09:00',
      out: '13:00',
    });
    const b = await signedIn(sh);
    const home = await b.get('/dashboard/shifter');
    expect(home.status).toBe(200);
    expect(home.html).toContain('What is next');
    expect(home.html).toContain(formatDate(next.shift_date));
    expect(home.html).toContain('Answer the request');
    expect(home.html).toMatch(/Score \d+ of 100: /);
  });

  it('sends a person without a shifter profile back to the dashboard', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const res = await b.get('/dashboard/shifter/find');
    expect(res.status).toBe(303);
  });
});
