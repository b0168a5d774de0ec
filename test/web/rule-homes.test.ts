import { describe, expect, it } from 'vitest';
import { addDays, mondayOf } from '../../src/lib/shift-time';
import { type BusinessRole, seesPay } from '../../src/services/access';
import { rateSchema, SHIFT_INPUT_BOUNDS, sendRequestInput, shiftStateWords } from '../../src/services/shifts';
import { todayStanding } from '../../src/web/features/today/home';
import { stillToCome } from '../../src/web/features/schedule/schedule.model';
import { checkRow, rateProblem, type RowInput } from '../../src/web/features/posting/shift-rows.model';
import { call, expectError } from '../helpers/api';
import { addTeammate, makeUser, type TestUser } from '../helpers/factory';
import { dateAhead, HOUR, insertShift, MINUTE } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

// docs/decisions/code-layout.md "One home for each rule": who sees pay, a shift's state in words, a
// shift's pay and the shift input bounds each have one definition, which the services, the pages and
// the islands' props all follow.

const unescapeHtml = (s: string) =>
  s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** An island's props as the page wrote them (data-props, HTML-escaped JSON). */
function islandProps(html: string, island: string): any {
  const m = new RegExp(`data-island="${island}"[^>]*?data-props="([^"]*)"`).exec(html);
  expect(m, `no ${island} island on the page`).not.toBeNull();
  return JSON.parse(unescapeHtml(m![1]!));
}

describe('who sees pay: access seesPay, for the services and the pages alike', () => {
  it('agrees for the owner, a teammate, an admin and an admin who is also a teammate (who stands as a teammate)', async () => {
    const owner = await makeUser({ business: true, name: 'Pay Owner' });
    const biz = owner.businessId!;
    const mate = await makeUser({ name: 'Pay Mate' });
    const admin = await makeUser({ admin: true, name: 'Pay Admin' });
    const adminMate = await makeUser({ admin: true, name: 'Pay Admin Mate' });
    await addTeammate(biz, mate.userId);
    await addTeammate(biz, adminMate.userId);
    // The standing businessRole gives each: owner first, then an active teammate, then an admin.
    const people: { who: string; u: TestUser; standing: BusinessRole; onDashboard: boolean }[] = [
      { who: 'owner', u: owner, standing: 'owner', onDashboard: true },
      { who: 'teammate', u: mate, standing: 'teammate', onDashboard: true },
      { who: 'admin', u: admin, standing: 'admin', onDashboard: false },
      { who: 'admin and teammate', u: adminMate, standing: 'teammate', onDashboard: true },
    ];
    expect(people.map((p) => [p.who, seesPay(p.standing)])).toEqual([
      ['owner', true],
      ['teammate', false],
      ['admin', true],
      ['admin and teammate', false],
    ]);

    for (const p of people) {
      const pay = seesPay(p.standing);
      // The services: labor costs, invoices and crew analytics' pay.
      const labor = await call('GET', `/v1/business/${biz}/labor_costs`, { key: p.u.key });
      if (pay) expect(labor.status, p.who).toBe(200);
      else expectError(labor, 403, 'FORBIDDEN-ERR');
      const invoices = await call('GET', '/v1/invoices/list', { key: p.u.key, query: { business_id: biz } });
      if (pay) expect(invoices.status, p.who).toBe(200);
      else expectError(invoices, 403, 'FORBIDDEN-ERR');
      const crew = await call('GET', `/v1/business/${biz}/crew/analytics`, { key: p.u.key });
      expect(crew.status, p.who).toBe(200);
      expect(crew.body.pay_included, p.who).toBe(pay);

      // The pages, for everyone the dashboard shows the business to (an admin's dashboard shows only
      // the businesses they act for, so the admin alone never reaches this business's pages).
      const b = await signedIn(p.u);
      const home = await b.get(`/dashboard?business_id=${biz}`);
      expect(home.status, p.who).toBe(200);
      expect(home.html.includes('Pay Owner Co'), p.who).toBe(p.onDashboard);
      if (!p.onDashboard) continue;
      expect(home.html.includes('Labor costs are shown to the business owner.'), p.who).toBe(!pay);
      const schedule = await b.get(`/dashboard/schedule?business_id=${biz}`);
      expect(schedule.status, p.who).toBe(200);
      expect(islandProps(schedule.html, 'schedule'), p.who).toMatchObject({ seesPay: pay });
      expect(islandProps(schedule.html, 'schedule').labor === null, p.who).toBe(!pay);
      expect((await b.get(`/dashboard/money?business_id=${biz}`)).status, p.who).toBe(pay ? 200 : 403);
      const crewPage = await b.get(`/dashboard/crew?business_id=${biz}`);
      expect(crewPage.status, p.who).toBe(200);
      expect(crewPage.html.includes('Pay figures are shown to the business owner.'), p.who).toBe(!pay);
    }
  });
});

/**
 * An IANA zone where it is now between 12:00 and 13:00, so shifts placed at fixed hours "today" are
 * before or after now whatever time the test runs (Etc/GMT-N is UTC+N).
 */
function zoneAtNoon(): string {
  const offset = 12 - new Date().getUTCHours();
  if (offset === 0) return 'Etc/GMT';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

describe('a shift’s state in words: services/shifts shiftStateWords, on the today table and the schedule', () => {
  it('words every state of the service; "Late" only for pages given the clock', () => {
    const now = Date.parse('2026-05-12T12:00:00Z');
    const base = { is_broadcast: 0, is_noshow: 0, starts_at: '2026-05-12T15:00:00Z', shift_start_at: null, shift_end_at: null };
    const said = (s: Partial<Parameters<typeof shiftStateWords>[0]>, nowMs?: number) =>
      shiftStateWords({ ...base, status: 'accepted', ...s }, nowMs);
    expect(said({ status: 'pending' })).toMatchObject({ state: 'waiting', label: 'Waiting for answer', tone: 'pending' });
    expect(said({ status: 'pending', is_broadcast: 1 })).toMatchObject({ label: 'Open broadcast', tone: 'pending' });
    expect(said({}, now)).toMatchObject({ state: 'accepted', label: 'Accepted', tone: 'accepted', attention: false });
    const late = { starts_at: '2026-05-12T11:00:00Z' };
    expect(said(late, now)).toMatchObject({ state: 'late', label: 'Late: not clocked in', attention: true });
    expect(said(late)).toMatchObject({ state: 'accepted', label: 'Accepted' });
    expect(said({ shift_start_at: '2026-05-12T11:00:00Z' }, now)).toMatchObject({ label: 'Clocked in', tone: 'accepted' });
    expect(said({ shift_start_at: '2026-05-12T11:00:00Z', shift_end_at: '2026-05-12T11:50:00Z' })).toMatchObject({
      label: 'Worked',
      tone: 'done',
    });
    expect(said({ status: 'completed', shift_end_at: '2026-05-12T11:50:00Z' })).toMatchObject({ label: 'Worked and paid', tone: 'done' });
    expect(said({ is_noshow: 1 }, now)).toMatchObject({ label: 'No-show', tone: 'off', attention: true });
    expect(said({ status: 'expired' })).toMatchObject({ label: 'Expired unfilled', tone: 'off', attention: true });
    expect(said({ status: 'cancelled' })).toMatchObject({ label: 'Cancelled', tone: 'off', attention: false });
  });

  it('gives the home page and the schedule (its table, and the island through the API field) the same words', async () => {
    const tz = zoneAtNoon();
    const owner = await makeUser({ business: { timezone: tz }, name: 'Words Owner' });
    const biz = owner.businessId!;
    const sh = await makeUser({ shifter: true, name: 'Words Shifter' });
    const today = dateAhead(0, tz);
    const shift = (inAt: string, outAt: string, extra: Parameters<typeof insertShift>[0]['set'] = {}, status = 2) =>
      insertShift({ businessId: biz, shifterId: sh.shifterId, tz, date: today, in: inAt, out: outAt, status, set: extra });
    const now = Date.now();
    // Accepted and still ahead: the home page said "Scheduled", the schedule "Accepted".
    const ahead = await shift('15:00', '17:00');
    // Worked and paid (status completed): the home page said "Done at …", the schedule "Worked and paid".
    const paid = await shift('08:00', '10:00', { shift_start_at: now - 4 * HOUR, shift_end_at: now - 2 * HOUR - 5 * MINUTE }, 5);
    // Clocked in: "In since …" on the home page, "Clocked in" on the schedule.
    const inside = await shift('11:00', '14:00', { shift_start_at: now - 50 * MINUTE });
    // Its start passed with nobody in: late on the home page, which is about now.
    const late = await shift('10:30', '11:45');

    const b = await signedIn(owner);
    const home = await b.get(`/dashboard?business_id=${biz}`);
    expect(home.status).toBe(200);
    const badges = [...home.html.matchAll(/<span class="badge[^"]*">([^<]+)<\/span>/g)].map((m) => unescapeHtml(m[1]!));
    expect(badges).toEqual(expect.arrayContaining(['Accepted', 'Worked and paid', 'Clocked in', 'Late: not clocked in']));
    expect(home.html).not.toContain('Scheduled');
    expect(home.html).not.toContain('Done at');
    expect(home.html).not.toContain('In since');

    const schedule = await b.get(`/dashboard/schedule?business_id=${biz}&date=${today}`);
    expect(schedule.status).toBe(200);
    for (const label of ['Accepted', 'Worked and paid', 'Clocked in']) expect(schedule.html).toContain(`>${label}</span>`);
    const props = islandProps(schedule.html, 'schedule');
    const byId = new Map<string, any>(props.shifts.map((s: any) => [s.id, s]));
    // The island reads the words from the data; the API gives the same field when it reads another week.
    const api = await call('POST', '/v1/shift_request/list_of_requests', {
      key: owner.key,
      body: { as: 'business', business_id: biz, date_from: today, date_to: today, limit: 50 },
    });
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    for (const s of [ahead, paid, inside, late]) {
      const fromApi = api.body.data.find((r: any) => r.id === s.id);
      expect(byId.get(s.id).state_words).toEqual(fromApi.state_words);
      // The home page's words are the service's, "Late" apart (the view holds no clock).
      const standing = todayStanding(fromApi, now);
      if (s.id === late.id) {
        expect(standing.label).toBe('Late: not clocked in');
        expect(fromApi.state_words.label).toBe('Accepted');
      } else expect(standing.label).toBe(fromApi.state_words.label);
    }
    expect(byId.get(ahead.id).state_words).toMatchObject({ state: 'accepted', label: 'Accepted', tone: 'accepted' });
    expect(byId.get(paid.id).state_words).toMatchObject({ state: 'worked_and_paid', label: 'Worked and paid', tone: 'done' });
  });
});

describe('a shift’s pay: the kernel’s shiftPayMinor, rounded once per shift, summed in minor units', () => {
  it('shows the service’s figure where summing floats and rounding each shift differ', async () => {
    const owner = await makeUser({ business: true, name: 'Pay Sum Owner' });
    const biz = owner.businessId!;
    const monday = mondayOf(dateAhead(7));
    // Three 20-minute broadcasts at $10.01 an hour: each is 333.67 ¢, rounded once to $3.34, so the
    // three cost $10.02; adding the unrounded floats (3 × 3.3366…) and rounding the sum says $10.01.
    const shifts = await Promise.all(
      ['09:00', '10:00', '11:00'].map((start, i) =>
        insertShift({
          businessId: biz,
          date: addDays(monday, 1),
          in: start,
          out: `${String(9 + i).padStart(2, '0')}:20`,
          status: 1,
          broadcast: true,
          rateMinor: 1001,
        }),
      ),
    );
    const floats = shifts.reduce((total) => total + (20 / 60) * 10.01, 0);
    expect(Math.round(floats * 100) / 100).toBe(10.01);

    const b = await signedIn(owner);
    const page = await b.get(`/dashboard/schedule?business_id=${biz}&date=${monday}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Still to come: $10.02 (3 accepted or pending shifts, 1 h)');
    expect(page.html).not.toContain('$10.01');
    const props = islandProps(page.html, 'schedule');
    for (const s of props.shifts) expect(s.scheduled_pay).toBe(3.34);
    // The island adds the same figures the same way.
    const coming = stillToCome(props.shifts, monday, 'USD', Date.now());
    expect(coming).toMatchObject({ minor: 1002, total: 10.02, shifts: 3 });

    // The API gives each shift's pay too: what the island reads for another week.
    const api = await call('POST', '/v1/shift_request/list_of_requests', {
      key: owner.key,
      body: { as: 'business', business_id: biz, date_from: monday, date_to: addDays(monday, 6), limit: 50 },
    });
    expect(api.body.data.map((s: any) => s.scheduled_pay)).toEqual([3.34, 3.34, 3.34]);
  });
});

describe('shift input bounds: services/shifts SHIFT_INPUT_BOUNDS, in the schemas and the islands’ props', () => {
  const row = (role: string, rate: string): RowInput => ({
    date: dateAhead(5),
    in: '09:00',
    out: '17:00',
    role,
    rate,
    shifter: 'broadcast',
    note: '',
  });

  it('builds the service’s schemas from the bounds', () => {
    expect(rateSchema.safeParse(SHIFT_INPUT_BOUNDS.maxHourlyRate).success).toBe(true);
    expect(rateSchema.safeParse(SHIFT_INPUT_BOUNDS.maxHourlyRate + 0.01).success).toBe(false);
    const body = { shift_date: dateAhead(5), shift_in: '09:00', shift_out: '17:00', shiftrole_id: 1, hourly_rate: 18 };
    expect(sendRequestInput.safeParse({ ...body, note: 'x'.repeat(SHIFT_INPUT_BOUNDS.maxNoteLength) }).success).toBe(true);
    expect(sendRequestInput.safeParse({ ...body, note: 'x'.repeat(SHIFT_INPUT_BOUNDS.maxNoteLength + 1) }).success).toBe(false);
    expect(sendRequestInput.safeParse({ ...body, shift_in: '9:00' }).success).toBe(new RegExp(SHIFT_INPUT_BOUNDS.timePattern).test('9:00'));
  });

  it('hands the bulk and post islands the server’s bounds, and a $15,000/h row is not Ready', async () => {
    const owner = await makeUser({ business: true, name: 'Bounds Owner' });
    const b = await signedIn(owner);
    const bulk = await b.get(`/dashboard/bulk?business_id=${owner.businessId}`);
    expect(bulk.status).toBe(200);
    const props = islandProps(bulk.html, 'bulk');
    expect(props.bounds).toEqual(SHIFT_INPUT_BOUNDS);
    const post = await b.get(`/dashboard/shifts/new?business_id=${owner.businessId}`);
    expect(islandProps(post.html, 'post-shift').bounds).toEqual(SHIFT_INPUT_BOUNDS);

    // The bulk island's check, with the page's roles, crew and bounds: a row is Ready when it has no problem.
    const check = (rate: string) => checkRow(row(props.roles[0].label, rate), props.roles, props.crew, props.bounds);
    expect(check('18.50')).toEqual([]);
    expect(check('10000')).toEqual([]);
    expect(check('15000')).toEqual([{ field: 'rate', message: 'At most 10,000 an hour.' }]);
    expect(rateProblem('15000', props.bounds)).toBe('At most 10,000 an hour.');
    // The service refuses the same row, and takes the one at the bound.
    const send = (hourly_rate: number) =>
      call('POST', '/v1/shift_request/send_request', {
        key: owner.key,
        body: {
          shift_date: dateAhead(5),
          shift_in: '09:00',
          shift_out: '17:00',
          shiftrole_id: props.roles[0].id,
          hourly_rate,
          is_broadcast: 1,
        },
      });
    expectError(await send(15_000), 400, 'VALIDATION-ERR');
    expect((await send(10_000)).status).toBe(201);
  });
});
