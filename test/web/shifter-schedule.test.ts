import { describe, expect, it } from 'vitest';
import { childrenOf, dateAhead, insertShift, makePair, readShift, setBusiness } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

const idem = () => ({ _idem: crypto.randomUUID() });

describe('/dashboard/shifter/schedule', () => {
  it('lists accepted shifts with their overlaps, and cancels through a confirmation that says whether auto-fill re-broadcasts', async () => {
    const { biz, sh } = await makePair();
    await setBusiness(biz.businessId!, { auto_fill_on_cancel: true });
    const date = dateAhead(5);
    const a = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '09:00', out: '17:00' });
    const b2 = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '16:00', out: '20:00' });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/schedule');
    expect(page.status).toBe(200);
    expect(page.html).toContain('2 of your shifts overlap');
    expect(page.html).toContain(`/dashboard/shifter/schedule/${a.id}/cancel`);

    const confirm = await b.get(`/dashboard/shifter/schedule/${b2.id}/cancel`);
    expect(confirm.html).toContain('refills cancelled shifts: this one goes straight back out to their crew');
    const done = await b.post(`/dashboard/shifter/schedule/${b2.id}/cancel`, { reason: 'Double booked', ...idem() });
    expect(done.location).toBe('/dashboard/shifter/schedule?notice=refilled');
    expect((await readShift(b2.id))!.cancelled_by).toBe('shifter');
    expect(await childrenOf(b2.id)).toHaveLength(1);

    await setBusiness(biz.businessId!, { auto_fill_on_cancel: false });
    const plain = await b.get(`/dashboard/shifter/schedule/${a.id}/cancel`);
    expect(plain.html).toContain('The shift is not offered to anyone else automatically');
  });

  it('makes a private calendar feed shown once, serves the shifts as iCalendar, and stops the old address on rotate and off', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date: dateAhead(3),
      in: '18:00',
      out: '23:30',
    });
    const b = await signedIn(sh);
    await b.get('/dashboard/shifter/schedule');
    const made = await b.post('/dashboard/shifter/schedule/feed', idem());
    expect(made.status).toBe(200);
    const url = /value="(https?:\/\/[^"]+\/cal\/[A-Za-z0-9_-]{43}\.ics)"/.exec(made.html)?.[1];
    expect(url).toBeDefined();
    const path = new URL(url!).pathname;
    const feed = await b.get(path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('Content-Type')).toContain('text/calendar');
    expect(feed.html).toContain('BEGIN:VCALENDAR');
    expect(feed.html).toContain(`UID:${shift.id}@shiftmarket`);
    // The address is never shown again: the page only says the feed is on.
    const again = await b.get('/dashboard/shifter/schedule');
    expect(again.html).not.toContain(path);
    expect(again.html).toContain('Your feed is on');

    const rotated = await b.post('/dashboard/shifter/schedule/feed', idem());
    const next = new URL(/value="(https?:\/\/[^"]+\.ics)"/.exec(rotated.html)![1]!).pathname;
    expect(next).not.toBe(path);
    expect((await b.get(path)).status).toBe(404);
    expect((await b.get(next)).status).toBe(200);
    await b.get('/dashboard/shifter/schedule');
    expect((await b.post('/dashboard/shifter/schedule/feed/off', idem())).location).toBe('/dashboard/shifter/schedule?notice=feed_off');
    expect((await b.get(next)).status).toBe(404);
  });
});
