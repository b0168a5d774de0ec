import { describe, expect, it } from 'vitest';
import { addDays, mondayOf, todayIn } from '../../src/lib/shift-time';
import { makeUser } from '../helpers/factory';
import { insertShift } from '../helpers/rows';
import { signedIn } from '../helpers/signed-in';

/**
 * The earnings page's weeks (src/web/features/shifter-clock/earnings-week.tsx): the chosen week by
 * shift with its links, the nine weeks, and the markup that keeps a phone from breaking a number
 * (every amount one `.money` element) or scrolling a table sideways (stacked tables, no scroll box).
 */

const NY = 'America/New_York';
const PATH = '/dashboard/shifter/earnings';

async function world() {
  const sh = await makeUser({ shifter: { timezone: NY, currency: 'USD' } });
  const biz = await makeUser({ business: { timezone: NY, name: 'Harbor Street Bistro' } });
  const base = { businessId: biz.businessId!, shifterId: sh.shifterId!, tz: NY, rate: 2000 };
  return { sh, biz, base };
}

describe('/dashboard/shifter/earnings: weeks', () => {
  it('opens on this week (Monday to Sunday on the shifter’s clock) with its shifts, and no next week', async () => {
    const { sh, base } = await world();
    // A shift today on the shifter's clock: this week whatever day the test runs.
    const monday = mondayOf(todayIn(NY));
    await insertShift({ ...base, date: todayIn(NY), in: '10:00', out: '14:00' }); // 4 h → $80.00
    const b = await signedIn(sh);
    const page = await b.get(PATH);
    expect(page.status).toBe(200);
    const [week, rest] = page.html.split('id="weeks-head"');
    expect(week).toContain('<h2 id="week-head">This week</h2>');
    expect(week).toMatch(/data-week-gross[^>]*>\$80\.00</);
    expect(week).toMatch(/data-week-hours[^>]*>4 h</);
    expect(week).toContain('Harbor Street Bistro');
    expect(week).toContain('<span class="money">$80.00</span>');
    expect(week).toContain(`href="${PATH}?week=${addDays(monday, -7)}#week" rel="prev"`);
    expect(week).not.toContain('rel="next"');
    expect(week).toContain('Weeks run Monday to Sunday on your clock (America/New_York)');
    // The nine weeks, newest first: this one is marked and leads.
    const rows = rest!.match(/<tr aria-current="true" data-week="([\d-]+)"/);
    expect(rows?.[1]).toBe(monday);
    expect(rest).toContain(`This week, `);
    expect((rest!.match(/data-week="/g) ?? []).length).toBe(9);
    // The month is still there.
    expect(page.html).toContain('<h2 id="month-head">This month</h2>');
  });

  it('a past week by shift: the overnight Sunday→Monday shift in the week it started, links both ways', async () => {
    const { sh, base } = await world();
    // The week of Monday 28 October 2024; clocks went back at 02:00 on Sunday 3 November.
    await insertShift({ ...base, date: '2024-10-28', in: '09:00', out: '17:00' }); // 8 h → $160.00
    await insertShift({ ...base, date: '2024-11-02', in: '22:00', out: '06:00' }); // 9 real hours → $180.00
    await insertShift({ ...base, date: '2024-11-03', in: '22:00', out: '06:00', rate: 2345 }); // Sunday night, 8 h → $187.60
    await insertShift({ ...base, date: '2024-11-04', in: '00:30', out: '02:30' }); // the next week
    const b = await signedIn(sh);
    const page = await b.get(`${PATH}?week=2024-10-30`);
    expect(page.status).toBe(200);
    const [week] = page.html.split('id="weeks-head"');
    expect(week).toContain('<h2 id="week-head">Week of Mon 28 Oct</h2>');
    expect(week).toContain('Mon 28 Oct to Sun 3 Nov 2024.');
    expect(week).toMatch(/data-week-gross[^>]*>\$527\.60</);
    expect(week).toMatch(/data-week-hours[^>]*>25 h</);
    expect((week!.match(/<tr data-shift="/g) ?? []).length).toBe(3);
    expect(week).toContain('Sun 3 Nov <span class="muted nowrap">22:00–06:00 (next day)</span>');
    expect(week).toContain('Sat 2 Nov <span class="muted nowrap">22:00–06:00 (next day)</span>');
    expect(week).toContain('<td class="num">9 h</td>');
    expect(week).toContain('<span class="money">$187.60</span>');
    expect(week).toContain(`href="${PATH}?week=2024-10-21#week" rel="prev"`);
    expect(week).toContain(`href="${PATH}?week=2024-11-04#week" rel="next"`);
    expect(week).toContain(`href="${PATH}#week">This week</a>`);
    // The week shown is the last of the nine, marked in the table.
    expect(page.html).toMatch(/<tr aria-current="true" data-week="2024-10-28">/);
    expect(page.html).toContain(`href="${PATH}?week=2024-09-02#week"`);

    // A week with nothing worked says so; a date that is not one shows this week.
    const empty = await b.get(`${PATH}?week=2024-06-12`);
    expect(empty.html).toContain('<p class="empty">No worked shift this week.</p>');
    const bad = await b.get(`${PATH}?week=2024-02-30`);
    expect(bad.status).toBe(200);
    expect(bad.html).toContain('<h2 id="week-head">This week</h2>');
  });

  it('keeps every amount in one .money element and no table in a sideways scroll box but the 12 months', async () => {
    const { sh, base } = await world();
    // Today: this week, this month and this year (so the by-business table shows too).
    await insertShift({ ...base, date: todayIn(NY), in: '06:00', out: '20:00', rate: 13_458 }); // 14 h → $1,884.12
    const b = await signedIn(sh);
    const { html } = await b.get(PATH);
    expect(html).toContain('<span class="money">$1,884.12</span>');
    // Tables stack on a phone; the one region that may scroll is focusable, named and cued.
    expect((html.match(/class="stack-table /g) ?? []).length).toBe(3);
    expect(html.match(/class="table-wrap[^"]*"/g)).toEqual(['class="table-wrap scroll-cue"']);
    expect(html).toContain('class="table-wrap scroll-cue" tabindex="0" aria-label="Earnings, last 12 months"');
    // Amounts in the stats carry the class on the element that holds them.
    expect(html).toMatch(/class="stat money" data-week-gross[^>]*>\$1,884\.12</);
    expect(html).toMatch(/class="stat money" data-gross/);
  });
});
