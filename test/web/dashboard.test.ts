import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shiftRequests, shiftRoles } from '../../src/db/schema';
import { BASE, call } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { addTeammate, db, makeUser, TEST_PASSWORD } from '../helpers/factory';
import { dateAhead, makePair } from '../helpers/shifts';
import { WebClient } from '../helpers/web';
import { signedIn } from '../helpers/signed-in';

const csrfOf = (b: WebClient) => b.cookies.get('__Host-sm_csrf') ?? b.cookies.get('sm_csrf') ?? '';

async function aRole(): Promise<number> {
  const [r] = await db().select({ id: shiftRoles.id }).from(shiftRoles).where(eq(shiftRoles.is_active, true)).limit(1);
  return r!.id;
}

const shiftsOf = (businessId: string) => db().select().from(shiftRequests).where(eq(shiftRequests.business_id, businessId));

describe('the API with the page session (the web application’s scripts)', () => {
  it('reads the cookie only with the page token in X-CSRF-Token, from this origin', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const asPage = (headers: Record<string, string>) => b.request('GET', '/v1/user/details', { headers });

    // Without the header the cookie is never read: the API sees no credential.
    expect((await b.get('/v1/user/details')).status).toBe(401);
    const ok = await asPage({ 'X-CSRF-Token': csrfOf(b), Origin: BASE, 'Sec-Fetch-Site': 'same-origin' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.html).id).toBe(owner.userId);
    // A wrong token, another origin or a cross-site fetch: refused in the envelope.
    const refused: Record<string, string>[] = [
      { 'X-CSRF-Token': 'x'.repeat(43) },
      { 'X-CSRF-Token': csrfOf(b), Origin: 'https://evil.example' },
      { 'X-CSRF-Token': csrfOf(b), 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of refused) {
      const res = await asPage(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(res.html).error.code).toBe('FORBIDDEN-ERR');
    }
  });

  it('answers 401 to a page token without a session, and stops with sign-out', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const token = csrfOf(b);
    await b.post('/logout');
    const res = await b.request('GET', '/v1/user/details', { headers: { 'X-CSRF-Token': token } });
    expect([401, 403]).toContain(res.status);
  });
});

describe('/dashboard', () => {
  it('sends a visitor to sign in, and a signed-in owner lands on it', async () => {
    const visitor = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
    const res = await visitor.get('/dashboard');
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/login\?next=%2Fdashboard/);

    const owner = await makeUser({ business: true });
    const b = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
    expect((await b.signIn(owner.email, TEST_PASSWORD)).location).toBe('/dashboard');
    const home = await b.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.html).toContain('<h1>Today</h1>');
    expect(home.html).toContain('This week&#39;s labor cost');
    expect(home.html).toContain('<meta name="csrf-token"');
  });

  it('shows a teammate the day without pay figures, and switches between businesses', async () => {
    const owner = await makeUser({ business: true, name: 'Owner One' });
    const other = await makeUser({ business: true, name: 'Other Owner' });
    const mate = await makeUser({ business: true, name: 'Mate Self' });
    await addTeammate(owner.businessId!, mate.userId);
    const b = await signedIn(mate);
    const own = await b.get('/dashboard');
    expect(own.html).toContain('Mate Self Co');
    expect(own.html).toContain('Owner One Co (teammate)');
    const theirs = await b.get(`/dashboard?business_id=${owner.businessId}`);
    expect(theirs.status).toBe(200);
    expect(theirs.html).toContain('Labor costs are shown to the business owner.');
    // A business the person does not act for is never taken from the address.
    const foreign = await b.get(`/dashboard?business_id=${other.businessId}`);
    expect(foreign.html).not.toContain('Other Owner Co');
    expect(foreign.html).toContain('Mate Self Co');
    // A typed or bookmarked address opens the business chosen last in this browser, not the default.
    const typed = await b.get('/dashboard/schedule');
    expect(typed.html).toMatch(new RegExp(`<option value="${owner.businessId}" selected`));
    await b.get(`/dashboard/crew?business_id=${mate.businessId}`);
    expect((await b.get('/dashboard/templates')).html).toMatch(new RegExp(`<option value="${mate.businessId}" selected`));
  });
});

describe('/dashboard/shifts/new', () => {
  it('opens prefilled from the assistant’s link', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const date = dateAhead(3);
    const page = await b.get(`/dashboard/shifts/new?openShift=1&date=${date}&in=10:15&out=18:45&business_id=${owner.businessId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`name="shift_date" type="date" value="${date}"`);
    expect(page.html).toContain('name="shift_in" type="time" value="10:15"');
    expect(page.html).toContain('name="shift_out" type="time" value="18:45"');
  });

  it('says beside the rate whether a role is chosen and whether it has a going rate here', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const none = await b.get('/dashboard/shifts/new');
    expect(none.html).toContain('Choose a role to see the going rate in your city.');
    const role = await aRole();
    const chosen = await b.get(`/dashboard/shifts/new?role=${role}`);
    expect(chosen.html).toContain(`<option value="${role}" selected="">`);
    expect(chosen.html).not.toContain('Choose a role to see the going rate');
    expect(chosen.html).toContain('No going rate for this role in your city yet.');
  });

  it('posts a broadcast once, even when the form is sent twice', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    await b.get('/dashboard/shifts/new');
    const form = {
      _idem: crypto.randomUUID(),
      mode: 'broadcast',
      shift_date: dateAhead(4),
      shift_in: '09:00',
      shift_out: '17:00',
      shiftrole_id: String(await aRole()),
      hourly_rate: '21.50',
      note: 'Bring a knife roll',
    };
    const first = await b.post(`/dashboard/shifts/new?business_id=${owner.businessId}`, form);
    expect(first.status).toBe(303);
    expect(first.location).toContain('notice=posted');
    const again = await b.post(`/dashboard/shifts/new?business_id=${owner.businessId}`, form);
    expect(again.status).toBe(303);
    expect(again.location).toBe(first.location);
    const rows = await shiftsOf(owner.businessId!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ is_broadcast: true, hourly_rate_minor: 2150, note: 'Bring a knife roll' });
    // Today lists the open broadcast, linked to the shift's own page.
    const today = await b.get(`/dashboard?business_id=${owner.businessId}`);
    expect(today.html).toContain(`href="/dashboard/shifts/${rows[0]!.id}?business_id=${owner.businessId}"`);
  });

  it('keeps what was typed and shows the message beside its field', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    await b.get('/dashboard/shifts/new');
    const past = await b.post('/dashboard/shifts/new', {
      _idem: crypto.randomUUID(),
      mode: 'broadcast',
      shift_date: dateAhead(-2),
      shift_in: '09:00',
      shift_out: '17:00',
      shiftrole_id: String(await aRole()),
      hourly_rate: '19',
      note: 'kept note',
    });
    expect(past.status).toBe(400);
    expect(past.html).toMatch(/id="field-shift_date-error">[^<]*must start in the future/);
    expect(past.html).toContain('aria-invalid="true"');
    expect(past.html).toContain('kept note');
    const noRole = await b.post('/dashboard/shifts/new', {
      _idem: crypto.randomUUID(),
      mode: 'broadcast',
      shift_date: dateAhead(2),
      shift_in: '09:00',
      shift_out: '17:00',
      shiftrole_id: '',
      hourly_rate: '19.999',
    });
    expect(noRole.status).toBe(400);
    expect(noRole.html).toContain('id="field-shiftrole_id-error">Choose a role.');
    expect(noRole.html).toContain('value="19.999"');
    expect(await shiftsOf(owner.businessId!)).toHaveLength(0);
  });

  it('shows a targeted shift’s conflicts before it is saved, and posts it when told to', async () => {
    const { biz, sh } = await makePair();
    const role = await aRole();
    const date = dateAhead(5);
    const api = await call('POST', '/v1/shift_request/send_request', {
      key: biz.key,
      body: { shift_date: date, shift_in: '10:00', shift_out: '14:00', shiftrole_id: role, hourly_rate: 20, shifter_id: sh.shifterId },
    });
    expect(api.status).toBe(201);
    await call('POST', `/v1/shift_request/${api.body.id}/accept`, { key: sh.key, body: {} });
    const b = await signedIn(biz);
    await b.get('/dashboard/shifts/new');
    const form = {
      _idem: crypto.randomUUID(),
      mode: 'targeted',
      shifter_id: sh.shifterId!,
      shift_date: date,
      shift_in: '12:00',
      shift_out: '18:00',
      shiftrole_id: String(role),
      hourly_rate: '20',
    };
    const warned = await b.post('/dashboard/shifts/new', form);
    expect(warned.status).toBe(409);
    expect(warned.html).toContain('This shifter is already busy then');
    expect(warned.html).toContain('name="confirm_conflicts" value="1"');
    expect(await shiftsOf(biz.businessId!)).toHaveLength(1);
    const posted = await b.post('/dashboard/shifts/new', { ...form, confirm_conflicts: '1' });
    expect(posted.status).toBe(303);
    const rows = await db()
      .select()
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, biz.businessId!), eq(shiftRequests.shift_in, '12:00')));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.shifter_id).toBe(sh.shifterId);
  });
});

describe('/dashboard/shifter', () => {
  it('shows a shifter their accepted shifts and requests, and sends a person without a shifter profile home', async () => {
    const { biz, sh } = await makePair();
    const role = await aRole();
    const date = dateAhead(6);
    const sent = await call('POST', '/v1/shift_request/send_request', {
      key: biz.key,
      body: { shift_date: date, shift_in: '08:00', shift_out: '12:00', shiftrole_id: role, hourly_rate: 22, shifter_id: sh.shifterId },
    });
    expect(sent.status).toBe(201);
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Waiting for your answer');
    expect(page.html).toContain('08:00–12:00');
    const owner = await signedIn(biz);
    expect((await owner.get('/dashboard/shifter')).location).toBe('/dashboard');
  });
});
