import { describe, expect, it } from 'vitest';
import { addDays, mondayOf } from '../../src/lib/shift-time';
import {
  droppedShift,
  EMPTY_RANGE_HOURS,
  fittedHours,
  gridTime,
  hoursSpanText,
  minuteAt,
  movedBy,
  nearestStep,
  WHOLE_DAY,
} from '../../src/web/features/schedule/schedule.model';
import { addTeammate, makeUser } from '../helpers/factory';
import { childrenOf, dateAhead, insertShift, makeCrewMember, makePair, postShift, readShift } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

/** The island's props as the page wrote them (data-props, HTML-escaped JSON). */
function islandProps(html: string): any {
  const m = /data-island="schedule" data-props="([^"]*)"/.exec(html);
  expect(m, 'no schedule island on the page').not.toBeNull();
  const json = m![1]!
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  return JSON.parse(json);
}

/** A week wholly in the future: next week's Monday in the business's zone (New York). */
const nextMonday = () => mondayOf(dateAhead(7));

describe('/dashboard/schedule', () => {
  it('shows the week’s shifts to the owner with the labor card, and to a teammate without pay figures', async () => {
    const { biz, sh } = await makePair();
    const mate = await makeUser({ name: 'Mate Of Schedule' });
    await addTeammate(biz.businessId!, mate.userId);
    const monday = nextMonday();
    const pending = await postShift(biz.key, {
      shift_date: addDays(monday, 2),
      shift_in: '10:00',
      shift_out: '14:00',
      shifter_id: sh.shifterId,
    });
    // An overnight shift of the Sunday before runs into Monday: the week shows it.
    const overnight = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date: addDays(monday, -1),
      in: '22:00',
      out: '06:00',
    });
    const later = await insertShift({
      businessId: biz.businessId!,
      date: addDays(monday, 9),
      in: '09:00',
      out: '12:00',
      status: 1,
      broadcast: true,
    });

    const owner = await signedIn(biz);
    const page = await owner.get(`/dashboard/schedule?business_id=${biz.businessId}&date=${addDays(monday, 3)}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Schedule</h1>');
    expect(page.html).toContain('aria-current="page">Schedule</a>');
    expect(page.html).toContain('Waiting for answer');
    expect(page.html).toContain('10:00–14:00');
    expect(page.html).toContain('22:00–06:00 (next day)');
    expect(page.html).toContain(`/dashboard/shifts/${pending.id}/change?business_id=${biz.businessId}`);
    // Accepted shifts are not changed through a change request: no link for them.
    expect(page.html).not.toContain(`/dashboard/shifts/${overnight.id}/change`);
    // The labor card: nothing worked yet, the pending 4 h at $20 still to come.
    expect(page.html).toContain('Still to come: $80.00 (1 accepted or pending shift, 4 h)');
    expect(page.html).toContain('Worked: $0.00');
    const props = islandProps(page.html);
    expect(props).toMatchObject({ businessId: biz.businessId, timezone: 'America/New_York', view: 'week', week: monday, seesPay: true });
    const ids = props.shifts.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([pending.id, overnight.id]));
    expect(ids).not.toContain(later.id);

    // The day view lists that day alone; the island still gets the whole week for the labor card.
    const day = await owner.get(`/dashboard/schedule?business_id=${biz.businessId}&date=${addDays(monday, 1)}&view=day`);
    expect(day.html).toContain('No shifts on this day.');
    expect(islandProps(day.html).shifts.map((s: { id: string }) => s.id)).toContain(pending.id);

    const teammate = await signedIn(mate);
    const theirs = await teammate.get(`/dashboard/schedule?business_id=${biz.businessId}&date=${monday}`);
    expect(theirs.status).toBe(200);
    expect(theirs.html).toContain('Waiting for answer');
    expect(theirs.html).toContain(`/dashboard/shifts/${pending.id}/change`);
    expect(theirs.html).toContain('Labor costs are shown to the business owner.');
    expect(theirs.html).not.toContain('Still to come');
    expect(islandProps(theirs.html)).toMatchObject({ seesPay: false, labor: null });
  });
});

describe('/dashboard/shifts/:id/change (the change form without script)', () => {
  it('sends a change request: the original is superseded and a pending child takes the new times', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(4);
    const shift = await postShift(biz.key, { shift_date: date, shift_in: '09:00', shift_out: '13:00', shifter_id: sh.shifterId });
    const b = await signedIn(biz);
    const form = await b.get(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`);
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="shift_in" type="time" value="09:00" required="" step="900"');
    expect(form.html).toContain('the original is marked superseded');

    const newDate = dateAhead(5);
    const sent = await b.post(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`, {
      _idem: crypto.randomUUID(),
      shift_date: newDate,
      shift_in: '09:45',
      shift_out: '13:45',
    });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/dashboard/schedule?business_id=${biz.businessId}&date=${newDate}&notice=changed`);
    expect((await readShift(shift.id))!.request_status).toBe(4);
    const [child] = await childrenOf(shift.id);
    expect(child).toMatchObject({
      request_status: 1,
      shift_date: newDate,
      shift_in: '09:45',
      shift_out: '13:45',
      shifter_id: sh.shifterId,
    });

    const schedule = await b.get(sent.location!);
    expect(schedule.html).toContain('The change was sent.');
    expect(schedule.html).toContain(`/dashboard/shifts/${child!.id}/change`);
    // The original can no longer be changed.
    const old = await b.get(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`);
    expect(old.html).toContain('It cannot be changed');
    expect(old.html).not.toContain('name="shift_in"');
  });

  it('shows a targeted shifter’s conflicts before the change is sent, and sends it when told to', async () => {
    const { biz, sh } = await makePair();
    const date = dateAhead(6);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: '14:00', out: '18:00' });
    const shift = await postShift(biz.key, { shift_date: date, shift_in: '08:00', shift_out: '12:00', shifter_id: sh.shifterId });
    const b = await signedIn(biz);
    await b.get(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`);
    const fields = { _idem: crypto.randomUUID(), shift_date: date, shift_in: '12:00', shift_out: '16:00' };
    const warned = await b.post(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`, fields);
    expect(warned.status).toBe(409);
    expect(warned.html).toContain('The shifter is already busy then');
    expect(warned.html).toContain('name="confirm_conflicts" value="1"');
    expect(await childrenOf(shift.id)).toHaveLength(0);
    const sent = await b.post(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`, { ...fields, confirm_conflicts: '1' });
    expect(sent.status).toBe(303);
    expect(await childrenOf(shift.id)).toHaveLength(1);
  });

  it('keeps what was typed when the change is refused, and changes nothing', async () => {
    const { biz, sh } = await makePair();
    const shift = await postShift(biz.key, { shift_date: dateAhead(3), shift_in: '09:00', shift_out: '17:00', shifter_id: sh.shifterId });
    const b = await signedIn(biz);
    await b.get(`/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`);
    const path = `/dashboard/shifts/${shift.id}/change?business_id=${biz.businessId}`;

    const past = await b.post(path, { _idem: crypto.randomUUID(), shift_date: dateAhead(-2), shift_in: '07:15', shift_out: '15:30' });
    expect(past.status).toBe(400);
    expect(past.html).toMatch(/id="field-shift_date-error">[^<]*must start in the future/);
    expect(past.html).toContain(`value="${dateAhead(-2)}"`);
    expect(past.html).toContain('value="07:15"');
    expect(past.html).toContain('value="15:30"');

    const badTime = await b.post(path, { _idem: crypto.randomUUID(), shift_date: dateAhead(3), shift_in: '25:00', shift_out: '15:30' });
    expect(badTime.status).toBe(400);
    expect(badTime.html).toContain('id="field-shift_in-error">Enter a time as HH:MM.');
    expect(badTime.html).toContain('value="25:00"');

    expect((await readShift(shift.id))!.request_status).toBe(1);
    expect(await childrenOf(shift.id)).toHaveLength(0);

    // Another business's shift is not found here.
    const stranger = await makeUser({ business: true });
    const theirs = await signedIn(stranger);
    expect((await theirs.get(`/dashboard/shifts/${shift.id}/change`)).status).toBe(404);
  });
});

describe('/dashboard/schedule/copy-week (copy last week)', () => {
  it('previews what will be made and skipped with why, copies it, and makes nothing the second time', async () => {
    const { biz, sh } = await makePair();
    const mate = await makeUser({ name: 'Mate Of Copy' });
    await addTeammate(biz.businessId!, mate.userId);
    const source = addDays(nextMonday(), 7);
    const target = addDays(source, 7);
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date: addDays(source, 1), in: '09:00', out: '17:00' });
    await insertShift({ businessId: biz.businessId!, date: addDays(source, 3), in: '18:00', out: '23:00', broadcast: true, status: 7 });
    const owner = await signedIn(biz);
    const schedule = await owner.get(`/dashboard/schedule?business_id=${biz.businessId}`);
    expect(schedule.html).toContain(`/dashboard/schedule/copy-week?business_id=${biz.businessId}`);
    expect(schedule.html).toContain('Copy last week</a>');

    const path = `/dashboard/schedule/copy-week?business_id=${biz.businessId}&source_week=${source}&target_week=${target}`;
    const preview = await owner.get(path);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('<h1>Copy last week</h1>');
    expect(preview.html).toContain('Will be made (1)');
    expect(preview.html).toContain('Skipped (1)');
    expect(preview.html).toContain('09:00–17:00');
    expect(preview.html).toContain('It was cancelled, so it is not copied.');
    expect(preview.html).toContain('$160.00 ($20.00/h)');
    expect(preview.html).toContain('Copy 1 shift');
    // A teammate sees the same preview without pay.
    const teammate = await signedIn(mate);
    const theirs = await teammate.get(path);
    expect(theirs.html).toContain('Will be made (1)');
    expect(theirs.html).not.toContain('$160.00');

    const done = await owner.post(`/dashboard/schedule/copy-week?business_id=${biz.businessId}`, {
      _idem: crypto.randomUUID(),
      source_week: source,
      target_week: target,
    });
    expect(done.status).toBe(200);
    expect(done.html).toContain('1 shift was made in the week of');
    expect(done.html).toContain('Made (1)');
    expect(done.html).toContain(`/dashboard/schedule?business_id=${biz.businessId}&amp;date=${target}`);

    const again = await owner.get(path);
    expect(again.html).toContain('Will be made (0)');
    expect(again.html).toContain('Nothing new to make');
    expect(again.html).toContain('Already on the schedule:');
    expect(again.html).not.toContain('Copy 1 shift');
  });

  it('says beside its field why a week cannot be filled, and opens on the week the schedule showed', async () => {
    const { biz } = await makePair();
    const owner = await signedIn(biz);
    const past = await owner.get(`/dashboard/schedule/copy-week?business_id=${biz.businessId}&target_week=2020-01-06`);
    expect(past.status).toBe(400);
    expect(past.html).toMatch(/id="field-target_week-error">choose this week or a later one/);
    // From the schedule's toolbar (`date` of the week shown): that week is filled from the one before.
    const shown = addDays(nextMonday(), 14);
    const fromToolbar = await owner.get(`/dashboard/schedule/copy-week?business_id=${biz.businessId}&date=${addDays(shown, 2)}`);
    expect(fromToolbar.status).toBe(200);
    expect(fromToolbar.html).toMatch(new RegExp(`<option value="${shown}" selected`));
    expect(fromToolbar.html).toMatch(new RegExp(`<option value="${addDays(shown, -7)}" selected`));
    // A week already over: the page opens on its defaults instead of a refusal.
    expect((await owner.get(`/dashboard/schedule/copy-week?business_id=${biz.businessId}&date=2020-01-08`)).status).toBe(200);
  });
});

describe('where a drag lands (schedule.model droppedShift)', () => {
  const shift = { shift_date: '2026-05-12', shift_in: '09:00', shift_out: '13:00' };
  const at = (date: string, hhmm: string, plus = 0) => ({ date, minute: Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)) + plus });

  it('rounds the travel to the nearest quarter hour, halves away from zero', () => {
    const cases: Array<[number, number]> = [
      [40, 45],
      [37, 30],
      [37.5, 45],
      [7.4, 0],
      [7.5, 15],
      [-40, -45],
      [-7.5, -15],
      [0.2, 0],
      [52.4, 45],
      [53, 60],
    ];
    for (const [travel, step] of cases) expect(nearestStep(travel), `${travel}`).toBe(step);
    expect(Object.is(nearestStep(-3), -0)).toBe(false);
  });

  it('lands 45 minutes later for a 40-minute drag whether the shift was grabbed at its top, middle or bottom', () => {
    // Grabbed 2 minutes into its first quarter, at its middle, and 1 minute before its end.
    for (const grab of [at('2026-05-12', '09:02'), at('2026-05-12', '11:00'), at('2026-05-12', '12:59'), at('2026-05-12', '09:14', 0.9)]) {
      const drop = { date: grab.date, minute: grab.minute + 40 };
      expect(droppedShift(shift, grab, drop), `grabbed at ${grab.minute}`).toEqual({ ...shift, shift_in: '09:45', shift_out: '13:45' });
    }
    // 37 minutes is nearer 30 than 45, wherever it was grabbed; the same travel up moves it earlier.
    expect(droppedShift(shift, at('2026-05-12', '09:10'), at('2026-05-12', '09:47'))).toMatchObject({ shift_in: '09:30' });
    expect(droppedShift(shift, at('2026-05-12', '12:50'), at('2026-05-12', '12:10'))).toMatchObject({
      shift_in: '08:15',
      shift_out: '12:15',
    });
    // Another column is whole days; the height its own travel.
    expect(droppedShift(shift, at('2026-05-12', '10:00'), at('2026-05-14', '10:05'))).toEqual({ ...shift, shift_date: '2026-05-14' });
    expect(droppedShift(shift, at('2026-05-12', '10:00'), at('2026-05-11', '09:20'))).toEqual({
      shift_date: '2026-05-11',
      shift_in: '08:15',
      shift_out: '12:15',
    });
  });

  it('moves on the wall clock: overnight shifts, midnight either way, the DST days', () => {
    expect(movedBy({ shift_date: '2026-05-15', shift_in: '22:00', shift_out: '06:00' }, 135)).toEqual({
      shift_date: '2026-05-16',
      shift_in: '00:15',
      shift_out: '08:15',
    });
    expect(movedBy({ shift_date: '2026-05-16', shift_in: '00:30', shift_out: '04:00' }, -45)).toEqual({
      shift_date: '2026-05-15',
      shift_in: '23:45',
      shift_out: '03:15',
    });
    expect(movedBy({ shift_date: '2026-05-16', shift_in: '20:00', shift_out: '23:30' }, 45)).toEqual({
      shift_date: '2026-05-16',
      shift_in: '20:45',
      shift_out: '00:15',
    });
    // On the nights the clocks change (New York, 8 March and 1 November 2026) the grid is wall-clock
    // too: the times move by what was dragged and the service counts the real hours from them.
    expect(movedBy({ shift_date: '2026-03-08', shift_in: '01:00', shift_out: '05:00' }, 45)).toEqual({
      shift_date: '2026-03-08',
      shift_in: '01:45',
      shift_out: '05:45',
    });
    expect(movedBy({ shift_date: '2026-10-31', shift_in: '23:00', shift_out: '03:00' }, 60)).toEqual({
      shift_date: '2026-11-01',
      shift_in: '00:00',
      shift_out: '04:00',
    });
  });

  it('reads the minute of the day at a height of the grid as drawn', () => {
    expect(minuteAt(0, 312, 9 * 60, 15 * 60)).toBe(540);
    expect(minuteAt(156, 312, 9 * 60, 15 * 60)).toBe(720);
    expect(minuteAt(13, 1248, 0, 1440)).toBe(15);
  });
});

describe('the hours the time grid shows (schedule.model fittedHours)', () => {
  const s = (shift_date: string, shift_in: string, shift_out: string) => ({ shift_date, shift_in, shift_out });
  const week: [string, string] = ['2026-05-11', '2026-05-17'];

  it('runs from an hour before the earliest shift to an hour after the latest, in whole hours', () => {
    expect(fittedHours([s('2026-05-12', '10:00', '14:00')], ...week)).toEqual({ min: 9 * 60, max: 15 * 60 });
    expect(fittedHours([s('2026-05-12', '09:30', '13:15'), s('2026-05-14', '11:00', '17:45')], ...week)).toEqual({
      min: 8 * 60,
      max: 19 * 60,
    });
    expect(fittedHours([s('2026-05-12', '00:30', '23:30')], ...week)).toEqual(WHOLE_DAY);
    // A shift outside the range does not widen it.
    expect(fittedHours([s('2026-05-12', '10:00', '14:00'), s('2026-05-19', '03:00', '05:00')], ...week)).toEqual({ min: 540, max: 900 });
    expect(hoursSpanText({ min: 540, max: 1440 })).toBe('09:00–24:00');
    expect([gridTime(540), gridTime(1440)]).toEqual(['09:00:00', '24:00:00']);
  });

  it('draws an overnight shift to midnight on its day and from midnight on the next, as the grid does', () => {
    const overnight = s('2026-05-16', '22:00', '06:00');
    expect(fittedHours([overnight], ...week)).toEqual(WHOLE_DAY);
    expect(fittedHours([overnight], '2026-05-16', '2026-05-16')).toEqual({ min: 21 * 60, max: 1440 });
    expect(fittedHours([overnight], '2026-05-17', '2026-05-17')).toEqual({ min: 0, max: 7 * 60 });
    // The Sunday before's overnight shift runs into Monday morning.
    expect(fittedHours([s('2026-05-10', '23:00', '02:00'), s('2026-05-12', '10:00', '12:00')], ...week)).toEqual({ min: 0, max: 13 * 60 });
    // Ending at midnight is the end of its own day, nothing of the next.
    expect(fittedHours([s('2026-05-17', '18:00', '00:00')], '2026-05-17', '2026-05-17')).toEqual({ min: 17 * 60, max: 1440 });
  });

  it('shows a working day when the range has no shift', () => {
    expect(fittedHours([], ...week)).toEqual(EMPTY_RANGE_HOURS);
    expect(EMPTY_RANGE_HOURS).toEqual({ min: 8 * 60, max: 18 * 60 });
  });
});

/** The text of the people view's row whose heading is `name`, tags dropped. */
function personRow(html: string, name: string): string {
  const row = html.split('<tr').find((r) => r.includes(`<span class="people-name">${name}</span>`) || r.includes(`>${name}</th>`));
  expect(row, `no row for ${name}`).toBeDefined();
  return row!.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
}

describe('/dashboard/schedule?view=people and the week’s CSV', () => {
  it('lists the crew down the side with each row’s hours and cost as the service counts them, and the open shifts', async () => {
    const { biz, sh } = await makePair();
    const idle = await makeCrewMember(biz.businessId!);
    const mate = await makeUser({ name: 'Mate Of People' });
    await addTeammate(biz.businessId!, mate.userId);
    const monday = nextMonday();
    const day = (n: number) => addDays(monday, n);
    const b = biz.businessId!;
    const waiting = await postShift(biz.key, { shift_date: day(1), shift_in: '10:00', shift_out: '14:00', shifter_id: sh.shifterId });
    await insertShift({ businessId: b, shifterId: sh.shifterId, date: day(2), in: '09:00', out: '17:00' });
    // Three 20-minute shifts at $10.01: each rounded once ($3.34), so $10.02, not $10.01.
    for (const at of ['06:00', '06:20', '06:40']) {
      await insertShift({
        businessId: b,
        shifterId: sh.shifterId,
        date: day(3),
        in: at,
        out: `06:${String(Number(at.slice(3)) + 20).padStart(2, '0')}`.replace('06:60', '07:00'),
        rateMinor: 1001,
      });
    }
    await insertShift({ businessId: b, shifterId: sh.shifterId, date: day(4), in: '09:00', out: '12:00', set: { is_noshow: true } });
    await insertShift({ businessId: b, shifterId: sh.shifterId, date: day(4), in: '13:00', out: '15:00', status: 7 });
    const open = await insertShift({ businessId: b, date: day(5), in: '17:00', out: '22:00', status: 1, broadcast: true });
    await insertShift({ businessId: b, shifterId: sh.shifterId, date: addDays(monday, 7), in: '09:00', out: '17:00' });

    const owner = await signedIn(biz);
    const page = await owner.get(`/dashboard/schedule?business_id=${b}&date=${day(3)}&view=people`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('data-island="schedule"');
    expect(page.html).toContain('aria-current="page">People</a>');
    expect(page.html).toMatch(
      /<section class="table-wrap people-week" tabindex="0" aria-label="The week of [^"]+ by person" aria-describedby="people-scroll-hint">/,
    );
    expect(page.html).toContain('scroll the table sideways');
    // 4 h + 8 h + 1 h, $80.00 + $160.00 + $10.02; the no-show shown but counting nothing; the cancelled one not listed.
    const theirs = personRow(page.html, sh.name);
    expect(theirs).toContain('10:00–14:00');
    expect(theirs).toContain('No-show');
    expect(theirs).not.toContain('13:00–15:00');
    expect(theirs).toContain('13 h $250.02 5 shifts');
    expect(page.html).toContain(`/dashboard/shifts/${waiting.id}?business_id=${b}`);
    expect(personRow(page.html, idle.name)).toContain('0 h $0.00 0 shifts');
    const openRow = personRow(page.html, 'Open shifts');
    expect(openRow).toContain('17:00–22:00');
    expect(openRow).toContain('Open broadcast');
    expect(openRow).toContain('5 h $100.00 1 shift');
    expect(page.html).toContain(`/dashboard/shifts/${open.id}?business_id=${b}`);
    expect(personRow(page.html, 'Week total')).toContain('18 h $350.02 6 shifts');

    const csv = await owner.get(`/dashboard/schedule/week.csv?business_id=${b}&date=${day(6)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(new RegExp(`attachment; filename="schedule-.+-${monday}\\.csv"`));
    const lines = csv.html.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,start,end,role,person,status,hours,cost (USD)');
    expect(lines).toHaveLength(8);
    expect(lines[1]).toMatch(new RegExp(`^${day(1)},10:00,14:00,[^,]+,${sh.name},Waiting for answer,4.00,80.00$`));
    expect(lines[2]).toMatch(new RegExp(`^${day(2)},09:00,17:00,[^,]+,${sh.name},Accepted,8.00,160.00$`));
    expect(lines[3]).toMatch(new RegExp(`^${day(3)},06:00,06:20,[^,]+,${sh.name},Accepted,0.33,3.34$`));
    expect(lines[6]).toMatch(new RegExp(`^${day(4)},09:00,12:00,[^,]+,${sh.name},No-show,0.00,0.00$`));
    expect(lines[7]).toMatch(new RegExp(`^${day(5)},17:00,22:00,[^,]+,Open to the crew,Open broadcast,5.00,100.00$`));

    // A teammate sees the same week without pay figures, in the page and in the CSV.
    const teammate = await signedIn(mate);
    const seen = await teammate.get(`/dashboard/schedule?business_id=${b}&date=${day(3)}&view=people`);
    expect(seen.status).toBe(200);
    expect(personRow(seen.html, sh.name)).toContain('13 h 5 shifts');
    expect(seen.html).not.toContain('$');
    expect(seen.html).toContain('Week: hours</th>');
    expect(seen.html).toContain('Pay figures are shown to the business owner.');
    const theirCsv = await teammate.get(`/dashboard/schedule/week.csv?business_id=${b}&date=${day(3)}`);
    expect(theirCsv.status).toBe(200);
    expect(theirCsv.html.split('\r\n')[0]).toBe('date,start,end,role,person,status,hours');
    expect(theirCsv.html).not.toContain('80.00');

    // Someone else's schedule is their own business's, never this one's.
    const stranger = await signedIn(await makeUser({ business: true }));
    const other = await stranger.get(`/dashboard/schedule/week.csv?business_id=${b}&date=${day(3)}`);
    expect(other.html).not.toContain(sh.name);
  });

  it('says so when the week has no crew and no shifts, and offers the way to both', async () => {
    const owner = await makeUser({ business: true });
    const page = await (await signedIn(owner)).get(`/dashboard/schedule?business_id=${owner.businessId}&view=people`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('No crew and no shifts this week.');
    expect(page.html).toContain('Invite your crew</a>');
    expect(personRow(page.html, 'Week total')).toContain('0 h $0.00 0 shifts');
  });
});
