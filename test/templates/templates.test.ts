// inside: services/templates
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outboxEvents, shiftRequests, shifters } from '../../src/db/schema';
import { addDays, shiftInstants, todayIn, wallClockToInstant, weekdayOf } from '../../src/lib/shift-time';
import { templateDates, templateOccurrences } from '../../src/services/templates/dates';
import { generateFromTemplate } from '../../src/services/templates';
import { call, expectError } from '../helpers/api';
import { contextAt, nextDstChange, nextDstChangeFromNow } from '../helpers/clock';
import { addTeammate, connect, db, makeUser } from '../helpers/factory';
import { expectDenied, itRejectsBadCredentials } from '../helpers/security';
import { expectValidation, insertShift } from '../helpers/shifts';
import { EMPTY_CREW_MESSAGE } from '../../src/services/shifts';

const TZ = 'America/New_York'; // the factory's business zone

const create = (key: string, body: Record<string, unknown>) => call('POST', '/v1/shift_templates/create', { key, body });
const update = (key: string, id: string, body: unknown) => call('PUT', `/v1/shift_templates/${id}`, { key, body });
const remove = (key: string, id: string) => call('DELETE', `/v1/shift_templates/${id}`, { key });
const listOf = (key: string, businessId: string) => call('GET', `/v1/shift_templates/by_business/${businessId}`, { key });
const generate = (key: string, id: string, weeks?: string | number, weekOf?: string) =>
  call('POST', `/v1/shift_templates/${id}/generate`, { key, query: { weeks, week_of: weekOf } });
const preview = (key: string, id: string, weeks?: number, weekOf?: string) =>
  call('GET', `/v1/shift_templates/${id}/generate/preview`, { key, query: { weeks, week_of: weekOf } });
/** The Monday of the week `n` weeks after this one, in the factory's business zone. */
const mondayIn = (n: number) => {
  const today = todayIn(TZ);
  return addDays(today, 1 - weekdayOf(today) + 7 * n);
};

const base = { label: 'Weekday lunch', days_of_week: '1,3,5', shift_in: '11:00', shift_out: '15:00', shiftrole_id: 1, hourly_rate: 18.5 };

async function owner() {
  const biz = await makeUser({ business: true });
  return { biz, businessId: biz.businessId! };
}

async function newTemplate(key: string, businessId: string, fields: Record<string, unknown> = {}) {
  const res = await create(key, { ...base, business_id: businessId, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; [k: string]: unknown };
}

/**
 * What generate should create, computed independently: the listed weekdays of `weeks` calendar weeks
 * (Monday to Sunday) from next week's Monday, or from the week that starts on `monday`, whose start is ahead.
 */
function expectedDates(days: number[], weeks: number, shiftIn: string, monday?: string): string[] {
  const today = todayIn(TZ);
  const start = monday ?? addDays(today, 8 - weekdayOf(today));
  const out: string[] = [];
  for (let i = 0; i < weeks * 7; i++) {
    const d = addDays(start, i);
    if (days.includes(weekdayOf(d)) && wallClockToInstant(d, shiftIn, TZ) > Date.now()) out.push(d);
  }
  return out;
}

const dates = (rows: Array<{ shift_date: string }>) => rows.map((r) => r.shift_date);

describe('shift template CRUD', () => {
  it('creates with canonical weekdays, defaults and decimal rate; lists; updates only what is sent; deletes', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '5, 1,3,3', frequency: 'weekly', note: 'Bring apron' });
    expect(t).toMatchObject({
      business_id: businessId,
      label: 'Weekday lunch',
      days_of_week: '1,3,5',
      hourly_rate: 18.5,
      currency_id: 'USD',
      is_broadcast: 1,
      is_flexible: 0,
      is_active: 1,
      default_shifter_id: null,
      note: 'Bring apron',
      frequency: 'weekly',
      created_by_user_id: biz.userId,
    });
    const arr = await newTemplate(biz.key, businessId, { label: 'Another', days_of_week: [7, 1], currency_id: 'jpy', hourly_rate: 1500 });
    expect(arr).toMatchObject({ days_of_week: '1,7', currency_id: 'JPY', hourly_rate: 1500 });

    const listed = await listOf(biz.key, businessId);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([arr.id, t.id]); // by label

    const changed = await update(biz.key, t.id, { label: 'Lunch', days_of_week: [2, 4], currency_id: 'EUR' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      label: 'Lunch',
      days_of_week: '2,4',
      currency_id: 'EUR',
      hourly_rate: 18.5,
      note: 'Bring apron',
      shift_in: '11:00',
    });
    const cleared = await update(biz.key, t.id, { note: null, is_active: 0, hourly_rate: 20 });
    expect(cleared.body).toMatchObject({ label: 'Lunch', note: null, is_active: 0, hourly_rate: 20 });
    expect((await update(biz.key, t.id, {})).body.label).toBe('Lunch');

    const gone = await remove(biz.key, t.id);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: t.id, deleted: true });
    expectError(await remove(biz.key, t.id), 404, 'TEMPLATE-NOT-FND-ERR');
    expectError(await update(biz.key, t.id, { label: 'x' }), 404, 'TEMPLATE-NOT-FND-ERR');
    expect((await listOf(biz.key, businessId)).body.data).toHaveLength(1);
  });

  it('validates fields and the target shifter', async () => {
    const { biz, businessId } = await owner();
    const sh = await makeUser({ shifter: true });
    for (const days_of_week of ['', '0,2', '1,8', 'mon', [], [1, 9], '1,,2']) {
      expectError(await create(biz.key, { ...base, business_id: businessId, days_of_week }), 400, 'VALIDATION-ERR');
    }
    expectError(await create(biz.key, { ...base, business_id: businessId, shift_in: '25:00' }), 400, 'VALIDATION-ERR');
    expectError(await create(biz.key, { ...base, business_id: businessId, shiftrole_id: 999 }), 400, 'VALIDATION-ERR');
    expectError(await create(biz.key, { ...base, business_id: businessId, hourly_rate: 0 }), 400, 'VALIDATION-ERR');
    expectError(await create(biz.key, { ...base, business_id: businessId, currency_id: 'XXX' }), 400, 'VALIDATION-ERR');
    expectError(await create(biz.key, { ...base, business_id: businessId, is_broadcast: 0 }), 400, 'VALIDATION-ERR');
    expectError(
      await create(biz.key, { ...base, business_id: businessId, is_broadcast: 1, default_shifter_id: sh.shifterId }),
      400,
      'VALIDATION-ERR',
    );
    expectError(
      await create(biz.key, { ...base, business_id: businessId, default_shifter_id: sh.shifterId }),
      422,
      'SHFT-NOT-CONNECTED-ERR',
    );

    await connect(businessId, sh.shifterId!);
    const targeted = await newTemplate(biz.key, businessId, { default_shifter_id: sh.shifterId });
    expect(targeted).toMatchObject({ is_broadcast: 0, default_shifter_id: sh.shifterId });

    const broadcast = await newTemplate(biz.key, businessId);
    expectError(await update(biz.key, broadcast.id, { is_broadcast: 0 }), 400, 'VALIDATION-ERR');
    const stranger = await makeUser({ shifter: true });
    expectError(
      await update(biz.key, broadcast.id, { is_broadcast: 0, default_shifter_id: stranger.shifterId }),
      422,
      'SHFT-NOT-CONNECTED-ERR',
    );
    const retargeted = await update(biz.key, broadcast.id, { is_broadcast: 0, default_shifter_id: sh.shifterId });
    expect(retargeted.body).toMatchObject({ is_broadcast: 0, default_shifter_id: sh.shifterId });
    expect((await update(biz.key, broadcast.id, { is_broadcast: 1, default_shifter_id: null })).body).toMatchObject({
      is_broadcast: 1,
      default_shifter_id: null,
    });
  });
});

describe('template times and rates', () => {
  it('refuses equal shift_in and shift_out at create and update, naming the field; an update is checked against the stored other time', async () => {
    const { biz, businessId } = await owner();
    expectValidation(await create(biz.key, { ...base, business_id: businessId, shift_in: '09:00', shift_out: '09:00' }), 'shift_out');
    const t = await newTemplate(biz.key, businessId, { shift_in: '11:00', shift_out: '15:00' });
    // Only one time sent, equal to the stored other one: the sent field is named.
    expectValidation(await update(biz.key, t.id, { shift_in: '15:00' }), 'shift_in');
    expectValidation(await update(biz.key, t.id, { shift_out: '11:00' }), 'shift_out');
    expectValidation(await update(biz.key, t.id, { shift_in: '08:00', shift_out: '08:00' }), 'shift_out');
    // Nothing was stored by the refused updates.
    const [stored] = (await listOf(biz.key, businessId)).body.data;
    expect(stored).toMatchObject({ id: t.id, shift_in: '11:00', shift_out: '15:00' });
    // Moving both (or one to a different time) is fine, and generate then posts every date.
    expect((await update(biz.key, t.id, { shift_in: '15:00', shift_out: '23:00' })).body).toMatchObject({
      shift_in: '15:00',
      shift_out: '23:00',
    });
    expect((await update(biz.key, t.id, { shift_out: '22:00', days_of_week: '1,2,3,4,5,6,7' })).body).toMatchObject({
      shift_in: '15:00',
      shift_out: '22:00',
    });
    const gen = await generate(biz.key, t.id, 1);
    expect([200, 201]).toContain(gen.status);
    expect(gen.body.created.length + gen.body.skipped.length).toBe(expectedDates([1, 2, 3, 4, 5, 6, 7], 1, '15:00').length);
  });

  it('refuses a rate with more decimals than the currency allows (23.333 USD, 10.5 JPY), at create, update and a currency change', async () => {
    const { biz, businessId } = await owner();
    expectValidation(await create(biz.key, { ...base, business_id: businessId, hourly_rate: 23.333 }), 'hourly_rate');
    expectValidation(await create(biz.key, { ...base, business_id: businessId, hourly_rate: 10.5, currency_id: 'JPY' }), 'hourly_rate');
    const t = await newTemplate(biz.key, businessId, { hourly_rate: 23.33 });
    expect(t.hourly_rate).toBe(23.33);
    expectValidation(await update(biz.key, t.id, { hourly_rate: 18.505 }), 'hourly_rate');
    // 23.33 USD cannot be re-expressed in yen without rounding: send a rate with the new currency.
    expectValidation(await update(biz.key, t.id, { currency_id: 'JPY' }), 'hourly_rate');
    expect((await update(biz.key, t.id, { currency_id: 'JPY', hourly_rate: 2500 })).body).toMatchObject({
      currency_id: 'JPY',
      hourly_rate: 2500,
    });
    expect((await update(biz.key, t.id, { currency_id: 'EUR' })).body).toMatchObject({ currency_id: 'EUR', hourly_rate: 2500 });
    expectValidation(await create(biz.key, { ...base, business_id: businessId, currency_id: 'ZZZ', hourly_rate: 1.234 }), 'currency_id');
  });
});

describe('generate', () => {
  it('creates pending requests on the listed weekdays of the calendar weeks from next Monday, with real instants, events and template_id', async () => {
    const { biz, businessId } = await owner();
    const crew = await makeUser({ shifter: true });
    await connect(businessId, crew.shifterId!);
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,3,5', shift_in: '22:00', shift_out: '06:00' });
    const res = await generate(biz.key, t.id, 2);
    expect(res.status).toBe(201);
    expect(res.body.weeks).toBe(2);
    expect(res.body.skipped).toEqual([]);
    const created = res.body.created as Array<{ shift_date: string; [k: string]: any }>;
    expect(dates(created)).toEqual(expectedDates([1, 3, 5], 2, '22:00'));
    for (const r of created) {
      expect([1, 3, 5]).toContain(weekdayOf(r.shift_date));
      expect(r).toMatchObject({
        template_id: t.id,
        parent_id: null,
        request_status: 1,
        is_broadcast: 1,
        shifter_id: null,
        hourly_rate: 18.5,
        currency: 'USD',
        shift_in: '22:00',
        shift_out: '06:00',
      });
      // Instants in the business's zone: across a DST change this row is 7 or 9 hours long.
      const inst = shiftInstants(r.shift_date, '22:00', '06:00', TZ);
      expect(Date.parse(r.starts_at)).toBe(inst.startsAt);
      expect(Date.parse(r.ends_at)).toBe(inst.endsAt);
      expect(r.duration_minutes).toBe(inst.minutes);
    }
    const rows = await db().select().from(shiftRequests).where(eq(shiftRequests.template_id, t.id));
    expect(rows).toHaveLength(created.length);
    expect(rows.every((r) => r.created_by_user_id === biz.userId)).toBe(true);

    const first = created[0]!;
    const events = await db()
      .select()
      .from(outboxEvents)
      .where(like(outboxEvents.body, `%${first.id}%`));
    const bodies = events.map((e) => JSON.parse(e.body) as { kind?: string; type: string; user_ids?: string[] });
    expect(bodies.find((b) => b.kind === 'open_shift')?.user_ids).toEqual([crew.userId]);
    expect(bodies.map((b) => b.type)).toContain('broadcast.created');
  });

  it('defaults to 4 weeks and clamps weeks to 1..12; a non-integer is refused', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '2', shift_in: '23:30', shift_out: '23:45' });
    expectError(await generate(biz.key, t.id, '2.5'), 400, 'VALIDATION-ERR');
    expectError(await generate(biz.key, t.id, 'abc'), 400, 'VALIDATION-ERR');

    const one = await generate(biz.key, t.id, 0);
    expect(one.body.weeks).toBe(1);
    expect(dates(one.body.created)).toEqual(expectedDates([2], 1, '23:30'));

    const dflt = await generate(biz.key, t.id);
    expect(dflt.body.weeks).toBe(4);
    expect(dates(dflt.body.created)).toEqual(expectedDates([2], 4, '23:30').filter((d) => !dates(one.body.created).includes(d)));

    const max = await generate(biz.key, t.id, 99);
    expect(max.body.weeks).toBe(12);
    const all12 = expectedDates([2], 12, '23:30');
    expect(max.body.created.length + max.body.skipped.length).toBe(all12.length);
    expect(dates(max.body.created)).toEqual(all12.slice(max.body.skipped.length));
    expect((await db().select().from(shiftRequests).where(eq(shiftRequests.template_id, t.id))).length).toBe(all12.length);
    expect((await generate(biz.key, t.id, -3)).body.weeks).toBe(1);
  });

  it('running it twice creates nothing new (200, every date skipped)', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,2,3,4,5,6,7', shift_in: '23:00', shift_out: '23:30' });
    const first = await generate(biz.key, t.id, 1);
    expect(first.status).toBe(201);
    const again = await generate(biz.key, t.id, 1);
    expect(again.status).toBe(200);
    expect(again.body.created).toEqual([]);
    expect(again.body.skipped).toEqual(dates(first.body.created));
  });

  it('does not count a cancelled shift posted by hand, nor one at the same start that differs in end or role', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,2,3,4,5,6,7', shift_in: '23:00', shift_out: '23:30' });
    const all = expectedDates([1, 2, 3, 4, 5, 6, 7], 1, '23:00');
    const manual = (date: string, shiftOut: string, roleId: number) =>
      call('POST', '/v1/shift_request/send_request', {
        key: biz.key,
        body: {
          business_id: businessId,
          shift_date: date,
          shift_in: '23:00',
          shift_out: shiftOut,
          shiftrole_id: roleId,
          hourly_rate: 20,
          is_broadcast: 1,
        },
      });
    const cancelled = await manual(all[1]!, '23:30', 1);
    expect(cancelled.status).toBe(201);
    await db().update(shiftRequests).set({ request_status: 7 }).where(eq(shiftRequests.id, cancelled.body.id));
    expect((await manual(all[2]!, '23:59', 1)).status).toBe(201);
    expect((await manual(all[3]!, '23:30', 2)).status).toBe(201);
    const res = await generate(biz.key, t.id, 1);
    expect(res.body.skipped).toEqual([]);
    expect(dates(res.body.created)).toEqual(all);
  });

  it('a targeted template skips only rows for its own shifter, and is refused once the shifter is paused or disconnected', async () => {
    const { biz, businessId } = await owner();
    const mine = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    await connect(businessId, mine.shifterId!);
    await connect(businessId, other.shifterId!);
    const t = await newTemplate(biz.key, businessId, {
      days_of_week: '1,2,3,4,5,6,7',
      shift_in: '23:00',
      shift_out: '23:30',
      default_shifter_id: mine.shifterId,
    });
    const all = expectedDates([1, 2, 3, 4, 5, 6, 7], 1, '23:00');
    const post = (shifterId: string, date: string) =>
      call('POST', '/v1/shift_request/send_request', {
        key: biz.key,
        body: {
          business_id: businessId,
          shift_date: date,
          shift_in: '23:00',
          shift_out: '23:30',
          shiftrole_id: 1,
          hourly_rate: 18.5,
          shifter_id: shifterId,
        },
      });
    expect((await post(other.shifterId!, all[0]!)).status).toBe(201);
    expect((await post(mine.shifterId!, all[2]!)).status).toBe(201);

    const res = await generate(biz.key, t.id, 1);
    expect(res.status).toBe(201);
    expect(res.body.skipped).toEqual([all[2]]);
    expect(dates(res.body.created)).toEqual(all.filter((d) => d !== all[2]));
    expect(
      res.body.created.every((r: { shifter_id: string; is_broadcast: number }) => r.shifter_id === mine.shifterId && r.is_broadcast === 0),
    ).toBe(true);
    const note = (
      await db()
        .select()
        .from(outboxEvents)
        .where(like(outboxEvents.body, `%${res.body.created[0].id}%`))
    )
      .map((e) => JSON.parse(e.body) as { kind?: string; user_ids?: string[] })
      .find((b) => b.kind === 'shift_request');
    expect(note?.user_ids).toEqual([mine.userId]);

    const t2 = await newTemplate(biz.key, businessId, {
      shift_in: '06:00',
      shift_out: '07:00',
      days_of_week: '1,2,3,4,5,6,7',
      default_shifter_id: mine.shifterId,
    });
    await db().update(shifters).set({ accept_shift_req: false }).where(eq(shifters.id, mine.shifterId!));
    expectError(await generate(biz.key, t2.id, 1), 422, 'SHIFTER-PAUSED-ERR');
    await db().update(shifters).set({ accept_shift_req: true }).where(eq(shifters.id, mine.shifterId!));
    const conn = await call('POST', '/v1/request_authorization/list_of_requests', { key: mine.key, body: {} });
    expect((await call('DELETE', `/v1/request_authorization/${conn.body.accepted[0].id}`, { key: mine.key })).status).toBe(200);
    expectError(await generate(biz.key, t2.id, 1), 422, 'SHFT-NOT-CONNECTED-ERR');
  });

  it('refuses an inactive template (422)', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { is_active: 0 });
    expectError(await generate(biz.key, t.id), 422, 'TEMPLATE-INACTIVE-ERR');
    expect((await db().select().from(shiftRequests).where(eq(shiftRequests.template_id, t.id))).length).toBe(0);
  });

  it('creates each date exactly once under 5 concurrent generate calls', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,2,3,4,5,6,7', shift_in: '23:00', shift_out: '23:30' });
    const results = await Promise.all(Array.from({ length: 5 }, () => generate(biz.key, t.id, 2)));
    const expected = expectedDates([1, 2, 3, 4, 5, 6, 7], 2, '23:00');
    for (const r of results) {
      expect([200, 201]).toContain(r.status);
      expect(r.body.created.length + r.body.skipped.length).toBe(expected.length);
    }
    const createdDates = results.flatMap((r) => dates(r.body.created));
    expect(createdDates.sort()).toEqual(expected);
    const rows = await db()
      .select({ d: shiftRequests.shift_date })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, businessId), eq(shiftRequests.shift_in, '23:00')));
    expect(rows.map((r) => r.d).sort()).toEqual(expected);
    // Events exist only for rows that were really inserted.
    const hooks = await db()
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.topic, 'webhooks'), like(outboxEvents.body, `%${businessId}%`)));
    expect(hooks).toHaveLength(expected.length);
  });

  it('deleting the template leaves the shift requests it generated', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,2,3,4,5,6,7', shift_in: '23:00', shift_out: '23:30' });
    const res = await generate(biz.key, t.id, 1);
    expect((await remove(biz.key, t.id)).status).toBe(200);
    const rows = await db().select().from(shiftRequests).where(eq(shiftRequests.template_id, t.id));
    expect(rows).toHaveLength(res.body.created.length);
  });
});

describe('generate: calendar weeks and what is already there', () => {
  it('counts calendar weeks from next Monday: a daily template makes 7 shifts a week, and week_of picks the first week', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,2,3,4,5,6,7', shift_in: '12:00', shift_out: '16:00' });
    const two = await generate(biz.key, t.id, 2);
    expect(two.body.week_start).toBe(mondayIn(1));
    expect(dates(two.body.created)).toEqual(Array.from({ length: 14 }, (_, i) => addDays(mondayIn(1), i)));
    const later = await generate(biz.key, t.id, 1, addDays(mondayIn(5), 3));
    expect(later.body.week_start).toBe(mondayIn(5));
    expect(dates(later.body.created)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(mondayIn(5), i)));
    // This week is allowed (its days begun are left out); an earlier week or one past a year is refused.
    const thisWeek = await preview(biz.key, t.id, 1, mondayIn(0));
    expect(thisWeek.status).toBe(200);
    expect(thisWeek.body.week_start).toBe(mondayIn(0));
    expectValidation(await generate(biz.key, t.id, 1, mondayIn(-1)), 'week_of');
    expectValidation(await preview(biz.key, t.id, 1, mondayIn(53)), 'week_of');
    expectError(await generate(biz.key, t.id, 1, '2027-13-01'), 400, 'VALIDATION-ERR');
  });

  it('makes a cancelled or declined date again, and skips a live one with its reason', async () => {
    const { biz, businessId } = await owner();
    const crew = await makeUser({ shifter: true });
    await connect(businessId, crew.shifterId!);
    const t = await newTemplate(biz.key, businessId, { days_of_week: '2,4', shift_in: '09:00', shift_out: '13:00' });
    const first = await generate(biz.key, t.id, 1);
    const [tue, thu] = first.body.created as Array<{ id: string; shift_date: string }>;
    await db().update(shiftRequests).set({ request_status: 7 }).where(eq(shiftRequests.id, tue!.id));
    const again = await generate(biz.key, t.id, 1);
    expect(dates(again.body.created)).toEqual([tue!.shift_date]);
    expect(again.body.skipped_reasons).toEqual([{ shift_date: thu!.shift_date, reason: 'same_template' }]);
    await db().update(shiftRequests).set({ request_status: 3 }).where(eq(shiftRequests.template_id, t.id));
    expect(dates((await generate(biz.key, t.id, 1)).body.created)).toEqual([tue!.shift_date, thu!.shift_date]);
  });

  it('skips a date where the same shift (time, role, person) was posted another way, not one that differs', async () => {
    const { biz, businessId } = await owner();
    const crew = await makeUser({ shifter: true });
    await connect(businessId, crew.shifterId!);
    const t = await newTemplate(biz.key, businessId, { days_of_week: '3,5', shift_in: '10:00', shift_out: '14:00' });
    const wed = addDays(mondayIn(1), 2);
    const fri = addDays(mondayIn(1), 4);
    const post = (date: string, extra: Record<string, unknown>) =>
      call('POST', '/v1/shift_request/send_request', {
        key: biz.key,
        body: {
          business_id: businessId,
          shift_date: date,
          shift_in: '10:00',
          shift_out: '14:00',
          shiftrole_id: 1,
          hourly_rate: 20,
          is_broadcast: 1,
          ...extra,
        },
      });
    expect((await post(wed, {})).status).toBe(201);
    expect((await post(fri, { shiftrole_id: 2 })).status).toBe(201); // another role: not the same shift
    const p = await preview(biz.key, t.id, 1);
    expect(p.body.skipped_reasons).toEqual([{ shift_date: wed, reason: 'same_shift' }]);
    expect(p.body.would_create.map((s: { shift_date: string }) => s.shift_date)).toEqual([fri]);
    const g = await generate(biz.key, t.id, 1);
    expect(dates(g.body.created)).toEqual([fri]);
    expect(g.body.skipped_reasons).toEqual([{ shift_date: wed, reason: 'same_shift' }]);
  });
});

describe('generate: warnings on each created shift', () => {
  it('a targeted template warns shifter_busy on the dates its shifter is already booked, as the conflicts operation lists them', async () => {
    const { biz, businessId } = await owner();
    const crew = await makeUser({ shifter: true });
    await connect(businessId, crew.shifterId!);
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,3', default_shifter_id: crew.shifterId });
    const mon = mondayIn(1);
    const wed = addDays(mon, 2);
    // An accepted shift over Monday's 11:00–15:00 (the template's), and a cancelled one over Wednesday's.
    const held = await insertShift({ businessId, shifterId: crew.shifterId, date: mon, in: '14:00', out: '18:00' });
    await insertShift({ businessId, shifterId: crew.shifterId, date: wed, in: '10:00', out: '12:00', status: 7 });
    const g = await generate(biz.key, t.id, 1);
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const [first, second] = g.body.created as Array<{ shift_date: string; warnings: Array<Record<string, any>> }>;
    expect([first!.shift_date, second!.shift_date]).toEqual([mon, wed]);
    expect(first!.warnings).toHaveLength(1);
    expect(first!.warnings[0]).toMatchObject({ code: 'shifter_busy', busy: [] });
    expect(first!.warnings[0]!.message).toMatch(/already works 14:00–18:00 that day\./);
    const same = await call('GET', '/v1/shift_request/conflicts', {
      key: biz.key,
      query: { shifter_id: crew.shifterId!, business_id: businessId, date: mon, shift_in: '11:00', shift_out: '15:00' },
    });
    expect(first!.warnings[0]!.conflicts.map((s: { id: string }) => s.id)).toEqual([held.id]);
    expect(first!.warnings[0]!.conflicts).toEqual(same.body.data);
    expect(second!.warnings).toEqual([]);
  });

  it('a broadcast template of a business without crew warns empty_crew on each shift, and nothing once it has a crew', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '2,4' });
    const lonely = await generate(biz.key, t.id, 1);
    expect(lonely.body.created).toHaveLength(2);
    for (const s of lonely.body.created) expect(s.warnings).toEqual([{ code: 'empty_crew', message: EMPTY_CREW_MESSAGE }]);
    const crew = await makeUser({ shifter: true });
    await connect(businessId, crew.shifterId!);
    const withCrew = await generate(biz.key, t.id, 1, mondayIn(2));
    expect(withCrew.body.created).toHaveLength(2);
    for (const s of withCrew.body.created) expect(s.warnings).toEqual([]);
    // The document says each created shift carries them.
    const doc = (await call('GET', '/v1/openapi.json')).body;
    expect(doc.components.schemas.TemplateGenerateResult.properties.created.items.$ref).toBe('#/components/schemas/PostedShiftRequest');
  });
});

describe('generate on an injected clock (DST weeks, a year end)', () => {
  it('posts the spring-forward and fall-back nights with their real 7 and 9 hours', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '6,7', shift_in: '22:00', shift_out: '06:00' });
    // Monday 8 March 2027, noon in New York: the Saturday night runs into the spring-forward Sunday.
    const spring = await generateFromTemplate(contextAt('2027-03-08T17:00:00Z', biz), t.id, { weeks: 1, week_of: '2027-03-08' });
    expect(spring.created.map((r) => [r.shift_date, r.duration_minutes, r.starts_at, r.ends_at])).toEqual([
      ['2027-03-13', 7 * 60, '2027-03-14T03:00:00.000Z', '2027-03-14T10:00:00.000Z'],
      ['2027-03-14', 8 * 60, '2027-03-15T02:00:00.000Z', '2027-03-15T10:00:00.000Z'],
    ]);
    // Monday 1 November 2027: the Saturday night runs into the fall-back Sunday.
    const fall = await generateFromTemplate(contextAt('2027-11-01T16:00:00Z', biz), t.id, { weeks: 1, week_of: '2027-11-01' });
    expect(fall.created.map((r) => [r.shift_date, r.duration_minutes, r.starts_at, r.ends_at])).toEqual([
      ['2027-11-06', 9 * 60, '2027-11-07T02:00:00.000Z', '2027-11-07T11:00:00.000Z'],
      ['2027-11-07', 8 * 60, '2027-11-08T03:00:00.000Z', '2027-11-08T11:00:00.000Z'],
    ]);
  });

  it('runs its weeks across a year end from today in the business zone, leaving out a start already past', async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '4,5,6', shift_in: '18:00', shift_out: '23:00' });
    // 23:30 UTC on Thursday 31 December 2026 is 18:30 in New York: that evening's shift has started.
    const r = await generateFromTemplate(contextAt('2026-12-31T23:30:00Z', biz), t.id, { weeks: 1, week_of: '2026-12-31' });
    expect(r.created.map((x) => x.shift_date)).toEqual(['2027-01-01', '2027-01-02']);
    expect(r.skipped).toEqual([]);
  });
});

describe('template dates (explicit today)', () => {
  it('enumerates the listed ISO weekdays over weeks × 7 days from today', () => {
    expect(templateDates('2027-03-14', [1, 7], 1)).toEqual(['2027-03-14', '2027-03-15']);
    expect(templateDates('2027-03-10', [1, 3, 5], 2)).toEqual([
      '2027-03-10',
      '2027-03-12',
      '2027-03-15',
      '2027-03-17',
      '2027-03-19',
      '2027-03-22',
    ]);
    expect(templateDates('2027-12-27', [6], 1)).toEqual(['2028-01-01']);
  });

  it('gives a shift over the spring-forward change its real 7 hours (America/New_York, 2027-03-14)', () => {
    const now = Date.UTC(2027, 0, 1);
    const sundays = templateOccurrences({ days: [7], shift_in: '00:00', shift_out: '08:00' }, 'America/New_York', '2027-03-08', 2, now);
    expect(sundays.map((o) => [o.date, o.minutes])).toEqual([
      ['2027-03-14', 7 * 60],
      ['2027-03-21', 8 * 60],
    ]);
    const overnight = templateOccurrences({ days: [6], shift_in: '22:00', shift_out: '06:00' }, 'America/New_York', '2027-03-08', 1, now);
    expect(overnight).toEqual([{ date: '2027-03-13', ...shiftInstants('2027-03-13', '22:00', '06:00', 'America/New_York') }]);
    expect(overnight[0]!.minutes).toBe(7 * 60);
    expect(overnight[0]!.startsAt).toBe(Date.parse('2027-03-14T03:00:00Z'));
    expect(overnight[0]!.endsAt).toBe(Date.parse('2027-03-14T10:00:00Z'));
  });

  it('gives a shift over the fall-back change its real 9 hours (America/New_York, 2027-11-07)', () => {
    const now = Date.UTC(2027, 0, 1);
    const sundays = templateOccurrences({ days: [7], shift_in: '00:00', shift_out: '08:00' }, 'America/New_York', '2027-11-01', 2, now);
    expect(sundays.map((o) => [o.date, o.minutes])).toEqual([
      ['2027-11-07', 9 * 60],
      ['2027-11-14', 8 * 60],
    ]);
    expect(sundays[0]!.startsAt).toBe(Date.parse('2027-11-07T04:00:00Z'));
    expect(sundays[0]!.endsAt).toBe(Date.parse('2027-11-07T13:00:00Z'));
  });

  it('finds the next DST change from any date (the helper tests use instead of fixed dates)', () => {
    expect(nextDstChange('America/New_York', '2026-11-22', 'spring')).toBe('2027-03-14');
    expect(nextDstChange('America/New_York', '2027-03-14', 'spring')).toBe('2028-03-12');
    expect(nextDstChange('America/New_York', '2027-03-20', 'fall')).toBe('2027-11-07');
    expect(nextDstChange('Europe/London', '2027-01-01', 'spring')).toBe('2027-03-28');
    const ahead = nextDstChangeFromNow('America/New_York', 'spring');
    expect(ahead > todayIn(TZ)).toBe(true);
    expect(weekdayOf(ahead)).toBe(7);
  });

  it("leaves out today's date once its start has passed", () => {
    const at9 = Date.parse('2027-03-14T13:00:00Z'); // 09:00 EDT
    const occ = templateOccurrences({ days: [7], shift_in: '08:00', shift_out: '12:00' }, 'America/New_York', '2027-03-14', 2, at9);
    expect(occ.map((o) => o.date)).toEqual(['2027-03-21']);
    const later = templateOccurrences({ days: [7], shift_in: '10:00', shift_out: '12:00' }, 'America/New_York', '2027-03-14', 1, at9);
    expect(later.map((o) => o.date)).toEqual(['2027-03-14']);
  });
});

describe('templates: authorization', () => {
  describe.each([
    ['GET', '/v1/shift_templates/by_business/biz_x', undefined],
    ['POST', '/v1/shift_templates/create', { ...base, business_id: 'biz_x' }],
    ['PUT', '/v1/shift_templates/tpl_x', { label: 'x' }],
    ['DELETE', '/v1/shift_templates/tpl_x', undefined],
    ['POST', '/v1/shift_templates/tpl_x/generate', undefined],
  ] as const)('%s %s', (method, path, body) => {
    itRejectsBadCredentials({ method, path, body });
  });

  it("refuses another business's key, a shifter and a suspended teammate; allows an active teammate", async () => {
    const { biz, businessId } = await owner();
    const t = await newTemplate(biz.key, businessId, { days_of_week: '1,2,3,4,5,6,7', shift_in: '23:00', shift_out: '23:30' });
    const rival = await makeUser({ business: true });
    const shifter = await makeUser({ shifter: true });
    await connect(businessId, shifter.shifterId!);
    const suspended = await makeUser();
    await addTeammate(businessId, suspended.userId, 0);

    for (const outsider of [rival, shifter, suspended]) {
      await expectDenied(await listOf(outsider.key, businessId), [404]);
      await expectDenied(await create(outsider.key, { ...base, business_id: businessId }), [404]);
      await expectDenied(await update(outsider.key, t.id, { label: 'Hijacked' }), [404]);
      await expectDenied(await generate(outsider.key, t.id, 1), [404]);
      await expectDenied(await remove(outsider.key, t.id), [404]);
    }
    expect((await listOf(biz.key, businessId)).body.data).toEqual([expect.objectContaining({ id: t.id, label: base.label })]);
    expect((await db().select().from(shiftRequests).where(eq(shiftRequests.template_id, t.id))).length).toBe(0);

    const active = await makeUser();
    await addTeammate(businessId, active.userId, 1);
    expect((await listOf(active.key, businessId)).status).toBe(200);
    const made = await newTemplate(active.key, businessId, { label: 'By teammate' });
    expect(made.created_by_user_id).toBe(active.userId);
    const gen = await generate(active.key, t.id, 1);
    expect(gen.status).toBe(201);
    expect(gen.body.created.every((r: { shift_date: string }) => r.shift_date)).toBe(true);
    const rows = await db().select().from(shiftRequests).where(eq(shiftRequests.template_id, t.id));
    expect(rows.every((r) => r.created_by_user_id === active.userId)).toBe(true);
    expect((await update(active.key, t.id, { label: 'Renamed' })).body.label).toBe('Renamed');
    expect((await remove(active.key, made.id)).status).toBe(200);
  });
});

describe('templates in the OpenAPI document', () => {
  it('lists every template operation with its error codes and the weeks parameter', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const codes = (op: any, status: string) =>
      op.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum as string[];
    const paths = doc.paths;
    expect(paths['/v1/shift_templates/by_business/{id}'].get).toBeDefined();
    expect(paths['/v1/shift_templates/create'].post.responses['201']).toBeDefined();
    expect(codes(paths['/v1/shift_templates/{id}'].put, '404')).toContain('TEMPLATE-NOT-FND-ERR');
    expect(codes(paths['/v1/shift_templates/{id}'].delete, '404')).toContain('TEMPLATE-NOT-FND-ERR');
    const gen = paths['/v1/shift_templates/{id}/generate'].post;
    expect(codes(gen, '422')).toEqual(expect.arrayContaining(['TEMPLATE-INACTIVE-ERR', 'SHFT-NOT-CONNECTED-ERR']));
    expect(Object.keys(gen.responses)).toEqual(expect.arrayContaining(['200', '201']));
    expect(gen.parameters.find((p: any) => p.name === 'weeks')).toMatchObject({ in: 'query', required: false });
  });
});
