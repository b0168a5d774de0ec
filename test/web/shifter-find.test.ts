import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { makeUser } from '../helpers/factory';
import { dateAhead, insertShift, makeCrewMember, makePair, readShift } from '../helpers/shifts';
import { KEPT_NOTE_HIDDEN, KEPT_NOTE_SHOWN, savedCopyHtml } from '../../src/web/features/shifter/kept-page.model';
import { formatDate, timeIn } from '../../src/web/format';
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

  it('marks a request and an open shift overlapping an accepted one, and offers neither Accept nor Claim on them', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(5);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '09:00', out: '17:00' });
    const asked = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, status: 1, date, in: '16:00', out: '22:00' });
    const free = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, status: 1, date, in: '17:00', out: '22:00' });
    const open = await insertShift({
      businessId: biz.businessId!,
      shifterId: null,
      broadcast: true,
      status: 1,
      date,
      in: '08:00',
      out: '10:00',
    });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/find');
    const cardOf = (id: string) => {
      const at = page.html.indexOf(`data-shift="${id}"`);
      expect(at, `the card of ${id}`).toBeGreaterThan(0);
      return page.html.slice(at, page.html.indexOf('</li>', at));
    };
    const clash = cardOf(asked.id);
    expect(clash).toMatch(/Overlaps your 09:00–17:00 at [^<]+/);
    expect(clash).toContain('It cannot be accepted while that shift stands');
    expect(clash).not.toContain(`/requests/${asked.id}/accept`);
    expect(clash).toContain(`href="/dashboard/shifter/find/requests/${asked.id}/decline"`);
    // Back to back (17:00 after 17:00) is no overlap: Accept is offered.
    const ok = cardOf(free.id);
    expect(ok).not.toContain('Overlaps your');
    expect(ok).toContain(`/requests/${free.id}/accept`);
    const broadcast = cardOf(open.id);
    expect(broadcast).toMatch(/Overlaps your 09:00–17:00 at /);
    expect(broadcast).toContain('It cannot be claimed while that shift stands');
    expect(broadcast).not.toContain(`/find/${open.id}/claim`);
    // As the service: accepting it is refused.
    expect((await b.post(`/dashboard/shifter/find/requests/${asked.id}/accept`, idem())).status).toBe(409);
    // Real instants: an overnight shift from the day before meets an early request, and says its date.
    const night = dateAhead(10);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: night, in: '22:00', out: '06:00' });
    const early = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      status: 1,
      date: dateAhead(11),
      in: '05:00',
      out: '09:00',
    });
    const again = await b.get('/dashboard/shifter/find');
    const card = again.html.slice(again.html.indexOf(`data-shift="${early.id}"`));
    expect(card.slice(0, card.indexOf('</li>'))).toContain(`Overlaps your ${formatDate(night)} · 22:00–06:00 (next day) at `);
  });

  it('Decline asks once with an optional reason; the list is kept for offline, its note and what needs the network marked', async () => {
    const { biz, sh } = await makePair({ shifter: { timezone: 'Europe/London' } });
    const asked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      status: 1,
      date: dateAhead(6),
      in: '09:00',
      out: '13:00',
    });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/find');
    // One dialog on the page, and each Decline a link to the confirmation (where the dialog's form posts).
    expect(page.html.match(/<dialog class="sf-dialog" data-decline-dialog/g)).toHaveLength(1);
    expect(page.html).toMatch(
      new RegExp(`<a class="button button-secondary" href="/dashboard/shifter/find/requests/${asked.id}/decline" data-decline="[^"]+"`),
    );
    expect(page.html).toContain('data-island="shifter-page"');
    const confirm = await b.get(`/dashboard/shifter/find/requests/${asked.id}/decline`);
    expect(confirm.html).toContain('<h1>Decline this request?</h1>');
    expect(confirm.html).toContain('Why (optional)');
    const done = await b.post(`/dashboard/shifter/find/requests/${asked.id}/decline`, { ...idem(), reason: 'Away that week' });
    expect(done.location).toBe('/dashboard/shifter/find?notice=declined');
    expect((await readShift(asked.id))!).toMatchObject({ request_status: 3, cancel_reason: 'Away that week' });
    // No reason: declined all the same, nothing kept for a reason.
    const other = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      status: 1,
      date: dateAhead(7),
      in: '09:00',
      out: '13:00',
    });
    await b.get('/dashboard/shifter/find');
    expect((await b.post(`/dashboard/shifter/find/requests/${other.id}/decline`, { ...idem(), reason: '   ' })).status).toBe(303);
    expect((await readShift(other.id))!).toMatchObject({ request_status: 3, cancel_reason: null });

    // Kept for offline: the note waits hidden, the time on the worker's clock (London), and the saved
    // copy the service worker answers with shows it and leaves out claims and answers.
    await insertShift({
      businessId: biz.businessId!,
      shifterId: null,
      broadcast: true,
      status: 1,
      date: dateAhead(8),
      in: '09:00',
      out: '13:00',
    });
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, status: 1, date: dateAhead(9), in: '09:00', out: '13:00' });
    const before = Date.now();
    const list = await b.get('/dashboard/shifter/find');
    expect(list.html).toContain(KEPT_NOTE_HIDDEN);
    const at =
      /data-kept-note="saved" hidden=""><strong>Saved list from <time datetime="([^"]+)">(\d\d:\d\d)<\/time> — you’re offline\.<\/strong>/.exec(
        list.html,
      );
    expect(at, 'the saved-list note').not.toBeNull();
    expect(Date.parse(at![1]!)).toBeGreaterThanOrEqual(before - 1000);
    expect(at![2]).toBe(timeIn(at![1]!, 'Europe/London'));
    expect(list.html).toMatch(
      /<form method="post" action="\/dashboard\/shifter\/find\/[^"]+\/claim" class="sf-actions" data-needs-network="yes">/,
    );
    const saved = savedCopyHtml(list.html);
    expect(saved).toContain(KEPT_NOTE_SHOWN);
    expect(saved).not.toContain(KEPT_NOTE_HIDDEN);
    expect(saved).not.toContain('data-needs-network="yes"');
    expect(saved).toMatch(
      /<form method="post" action="\/dashboard\/shifter\/find\/[^"]+\/claim" class="sf-actions" data-needs-network="saved" hidden="">/,
    );
    // Home and My schedule are kept the same way.
    for (const path of ['/dashboard/shifter', '/dashboard/shifter/schedule']) {
      const kept = await b.get(path);
      expect(kept.html, path).toContain(KEPT_NOTE_HIDDEN);
      expect(kept.html, path).toContain('data-island="shifter-page"');
    }
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
