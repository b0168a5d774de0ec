import { describe, expect, it } from 'vitest';
import { EMPTY_CREW_MESSAGE, shifterBusyWords } from '../../src/services/shifts';
import { askedTwiceWords, busyWords, type RowInput } from '../../src/web/features/posting/shift-rows.model';
import { call } from '../helpers/api';
import { connect, makeUser } from '../helpers/factory';
import { dateAhead, insertShift, makeCrewMember, makePair } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

// The web app says what send_request warns of: a broadcast of a business without crew reaches nobody
// (the post form and bulk posting, with the way to invite the crew), and bulk posting words a booked
// shifter before sending as the service words its shifter_busy warning after.

/** The page's text with tags removed and entities read, for matching words. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');

const broadcastForm = async (role: string, date: string) => ({
  _idem: crypto.randomUUID(),
  mode: 'broadcast',
  shift_date: date,
  shift_in: '09:00',
  shift_out: '17:00',
  shiftrole_id: role,
  hourly_rate: '20',
});

describe('the post form and an empty crew', () => {
  it('says a broadcast reaches nobody, links to the crew, and says so again once posted', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/shifts/new');
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain(EMPTY_CREW_MESSAGE);
    expect(page.html).toContain('data-warning="empty_crew"');
    expect(page.html).toMatch(/<a href="\/dashboard\/crew[^"]*">Invite your crew<\/a>/);

    const posted = await b.post('/dashboard/shifts/new', await broadcastForm('1', dateAhead(4)));
    expect(posted.status).toBe(303);
    expect(posted.location).toContain('notice=posted-unheard');
    const after = await b.get(posted.location!);
    expect(text(after.html)).toContain('The shift was posted, but nobody was told about it: your business has no crew yet.');
    expect(text(after.html)).toContain(EMPTY_CREW_MESSAGE);
  });

  it('says nothing of the kind once the business has a crew', async () => {
    const owner = await makeUser({ business: true });
    await makeCrewMember(owner.businessId!);
    const b = await signedIn(owner);
    const page = await b.get('/dashboard/shifts/new');
    expect(page.html).not.toContain('data-warning="empty_crew"');
    const posted = await b.post('/dashboard/shifts/new', await broadcastForm('1', dateAhead(4)));
    expect(posted.status).toBe(303);
    expect(new URL(posted.location!, 'https://x').searchParams.get('notice')).toBe('posted');
    expect(text((await b.get(posted.location!)).html)).toContain('The shift was posted. Post another one below.');
  });

  it('bulk posting says it above the table too', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const lonely = await b.get('/dashboard/bulk');
    expect(lonely.status).toBe(200);
    expect(text(lonely.html)).toContain(EMPTY_CREW_MESSAGE);
    expect(lonely.html).toContain('&quot;crewHref&quot;:&quot;/dashboard/crew');
    await makeCrewMember(owner.businessId!);
    expect((await b.get('/dashboard/bulk')).html).not.toContain('data-warning="empty_crew"');
  });
});

describe("bulk posting's words for a booked shifter", () => {
  it("are the service's shifter_busy words, for a shift here, one elsewhere and one from the day before", async () => {
    const { biz, sh } = await makePair();
    const other = await makeUser({ business: true });
    await connect(other.businessId!, sh.shifterId!);
    const date = dateAhead(9);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: dateAhead(8), in: '23:00', out: '07:00' });
    await insertShift({ businessId: other.businessId!, shifterId: sh.shifterId, date, in: '08:00', out: '10:00' });
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '11:00', out: '13:00' });
    for (const [shiftIn, shiftOut] of [
      ['06:00', '14:00'],
      ['09:00', '12:00'],
      ['12:30', '15:00'],
      ['15:00', '18:00'],
    ] as const) {
      const res = await call('GET', '/v1/shift_request/conflicts', {
        key: biz.key,
        query: { shifter_id: sh.shifterId!, business_id: biz.businessId!, date, shift_in: shiftIn, shift_out: shiftOut },
      });
      expect(res.status).toBe(200);
      const island = busyWords('Sam Shifter', date, res.body);
      const n = res.body.data.length + res.body.busy.length;
      expect(island).toBe(n ? shifterBusyWords('Sam Shifter', date, res.body) : null);
    }
  });

  it('mark a row asking the same shifter as an earlier row at an overlapping time', () => {
    const crew = [
      { id: 'shf_a', name: 'Jordan Rivera' },
      { id: 'shf_b', name: 'Sam Lee' },
    ];
    const row = (date: string, shiftIn: string, shiftOut: string, shifter: string): RowInput => ({
      date,
      in: shiftIn,
      out: shiftOut,
      role: 'Server',
      rate: '20',
      shifter,
      note: '',
    });
    const rows = [
      row('2031-03-03', '9am', '5pm', 'Jordan Rivera'),
      row('2031-03-03', '09:00', '17:00', 'jordan rivera'),
      row('2031-03-03', '17:00', '20:00', 'Jordan Rivera'),
      row('2031-03-03', '10:00', '12:00', 'Sam Lee'),
      row('2031-03-03', '22:00', '02:00', 'broadcast'),
      row('2031-03-03', '23:00', '03:00', 'shf_b'),
      row('2031-03-04', '01:00', '04:00', 'Sam Lee'),
    ].map((input, i) => ({ n: i + 1, input }));
    const words = rows.map((r) => askedTwiceWords(rows, r.n, crew));
    expect(words).toEqual([
      null,
      'Jordan Rivera is already asked for 09:00–17:00 that day in row 1.',
      null,
      null,
      null,
      null,
      'Sam Lee is already asked for 23:00–03:00 on 2031-03-03 in row 6.',
    ]);
  });
});
