import { describe, expect, it } from 'vitest';
import { addDays, mondayOf } from '../../src/lib/shift-time';
import { addTeammate, makeUser } from '../helpers/factory';
import { childrenOf, dateAhead, insertShift, makePair, postShift, readShift } from '../helpers/shifts';
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
