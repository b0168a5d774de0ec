import { describe, expect, it } from 'vitest';
import { invoices, mileageEntries } from '../../src/db/schema';
import { invoiceFor } from '../../src/services/invoices';
import { CLOCK_IN_EARLY_MINUTES } from '../../src/services/shifts';
import { geofenceCheck } from '../../src/lib/geo';
import {
  distanceWords,
  placeWords,
  punchButtonWords,
  punchDistanceWords,
  refusalWords,
  whereWords,
} from '../../src/web/features/shifter-clock/clock.model';
import { dateTimeIn, timeIn } from '../../src/web/format';
import { call, workerWith } from '../helpers/api';
import { db, makeUser } from '../helpers/factory';
import { DAY, HOUR, insertShift, MINUTE, makePair, NY, readShift, setBusiness } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

/** The shifter at work and after: the clock, earnings and records pages (src/web/features/shifter-clock). */

const idem = () => ({ _idem: crypto.randomUUID() });
const RECORDS = '/dashboard/shifter/records';

describe('/dashboard/shifter/clock', () => {
  it('lists the shift at hand with its punch, and a later one with the time its window opens in the business zone', async () => {
    const { biz, sh } = await makePair();
    const now = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 20 * MINUTE });
    const later = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 5 * HOUR });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/clock');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Clock in and out</h1>');
    const [atHand, next] = page.html.split('id="next-days"');
    expect(atHand).toContain(`action="/dashboard/shifter/clock/${now.id}/in"`);
    expect(atHand).not.toContain(later.id);
    // The island says the punch's time in the business's zone, as the cards do.
    expect(atHand).toContain('&quot;timeZone&quot;:&quot;America/New_York&quot;');
    const opens = new Date(later.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE).toISOString();
    expect(next).toContain(`data-shift="${later.id}"`);
    expect(next).toContain(`Clock-in opens <time datetime="${opens}">${dateTimeIn(opens, NY)}</time>`);
    // Its form waits hidden, for the island (or the page kept offline) to open at that time.
    expect(next).toMatch(new RegExp(`<form[^>]*action="/dashboard/shifter/clock/${later.id}/in"[^>]*hidden=""`));
  });

  it('a plain form clocks in (no script: no position, no photo); a refusal shows the service’s message', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 10 * MINUTE });
    const b = await signedIn(sh);

    // The business requires a photo: the plain form has none, and the page says why in the service's words.
    await setBusiness(biz.businessId!, { require_clock_photo: true });
    await b.get('/dashboard/shifter/clock');
    const refused = await b.post(`/dashboard/shifter/clock/${shift.id}/in`, idem());
    expect(refused.status).toBe(422);
    expect(refused.html).toMatch(/role="alert"[^>]*>[^<]*photo/i);
    expect((await readShift(shift.id))!.shift_start_at).toBeNull();

    await setBusiness(biz.businessId!, { require_clock_photo: false });
    await b.get('/dashboard/shifter/clock');
    const done = await b.post(`/dashboard/shifter/clock/${shift.id}/in`, idem());
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/dashboard/shifter/clock?notice=clocked_in&shift=${shift.id}`);
    const told = await b.get(done.location!);
    expect(told.html).toMatch(/role="status"[^>]*>[^<]*Clocked in at \d\d:\d\d · /);
    const row = (await readShift(shift.id))!;
    expect(row.shift_start_at).not.toBeNull();
    expect(row.clock_in_received_at).toBeNull();
    // The card now offers the clock-out.
    const after = await b.get('/dashboard/shifter/clock');
    expect(after.html).toContain(`action="/dashboard/shifter/clock/${shift.id}/out"`);
  });

  it('a card is its own list (no list rule beats its padding); the camera button and the waiting line are the island’s, hidden until it runs', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 10 * MINUTE });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/clock');
    // `.list-plain > li` set a card's padding to 0.5rem 0: the clock's list resets itself instead.
    expect(page.html).toContain('<ul class="clock-list">');
    expect(page.html).not.toMatch(/class="list-plain clock-list"/);
    const card = page.html.slice(page.html.indexOf(`data-shift="${shift.id}"`));
    // The photo: the phone's camera behind a labelled button, shown by the island (the plain form sends no file).
    expect(card).toMatch(/<div class="punch-photo-field" data-photo-field="true" hidden="">/);
    const input = new RegExp(
      `<input id="${shift.id}-in-photo" class="camera-input" type="file" accept="image/\\*" capture="environment" data-photo="true"`,
    );
    expect(card).toMatch(input);
    expect(card).toMatch(
      new RegExp(`<label for="${shift.id}-in-photo" class="button button-secondary camera-button">[\\s\\S]*?Take a photo`),
    );
    expect(card).toMatch(/data-photo-preview="true" hidden=""/);
    // "I'm here" waits hidden (hard mode off); so does the place of a punch kept on the phone, empty:
    // the island writes it from the queue, so the page never says a punch it does not have.
    expect(card).toMatch(/<div class="choice punch-override" hidden=""/);
    expect(card).toContain('<div class="punch-waiting" data-waiting="in" role="status" tabindex="-1" hidden=""></div>');
    // Why the location is asked, in the worker's words.
    expect(card).toContain('When you tap, your phone tells');
    // No photo asked: no word of JavaScript. Asked: without script, the page says what to do instead.
    expect(page.html).not.toContain('<noscript>');
    await setBusiness(biz.businessId!, { require_clock_photo: true });
    const asked = await b.get('/dashboard/shifter/clock');
    expect(asked.html).toMatch(/<noscript><p class="hint">[^<]*asks for a photo with each punch, and the camera button needs JavaScript/);
  });

  it('a refused plain punch says what happened and what to do, not the service’s words for programs', async () => {
    const { biz, sh } = await makePair();
    const later = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 5 * HOUR });
    const b = await signedIn(sh);
    await b.get('/dashboard/shifter/clock');
    const early = await b.post(`/dashboard/shifter/clock/${later.id}/in`, idem());
    expect(early.status).toBe(422);
    const opens = new Date(later.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE).toISOString();
    expect(early.html).toMatch(new RegExp(`role="alert"[^>]*>[^<]*Too early to clock in: you can from ${timeIn(opens, NY)}\\.`));
    expect((await readShift(later.id))!.shift_start_at).toBeNull();

    const now = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 10 * MINUTE });
    await setBusiness(biz.businessId!, { require_clock_photo: true });
    const photo = await b.post(`/dashboard/shifter/clock/${now.id}/in`, idem());
    expect(photo.status).toBe(422);
    expect(photo.html).toMatch(/role="alert"[^>]*>[^<]*asks for a photo with each punch, and the camera button needs JavaScript/);
    expect(photo.html).not.toContain('none was sent');
  });
});

describe('the clock before and after the tap: the distance and what the business sees of it', () => {
  /** The test business's position (test/helpers/factory.ts) and a point about 4.2 km north of it. */
  const VENUE = { latitude: 40.7128, longitude: -74.006 };
  const FAR = { lat: 40.7128 + 0.0378, lon: -74.006 };

  it('a clock-in 4 km away in soft mode: the card says the radius, the punch records the rule’s distance, and the notice and card say the business sees it', async () => {
    const { biz, sh } = await makePair();
    await setBusiness(biz.businessId!, { geofence_radius_m: 150 });
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 10 * MINUTE });
    const b = await signedIn(sh);
    const before = await b.get('/dashboard/shifter/clock');
    const card = before.html.slice(before.html.indexOf(`data-shift="${shift.id}"`));
    expect(card).toContain('clock in within 150 m of it.</p>');
    expect(card).not.toContain('refused');
    // The island reads the place the rule needs (soft mode) and says the distance when the phone knows it.
    expect(card).toContain('&quot;geofence_radius_m&quot;:150');
    expect(card).toContain('&quot;hard_geofence&quot;:false');
    expect(card).toMatch(
      /<button type="submit" class="button button-primary button-punch" aria-describedby="[^"]+-in-where">Clock in<\/button>/,
    );

    const punched = await call('POST', `/v1/shift_request/${shift.id}/clock_in`, { key: sh.key, body: FAR });
    expect(punched.status, JSON.stringify(punched.body)).toBe(200);
    // One rule: the distance the page computes before the tap is the one the service records.
    const check = geofenceCheck({ ...VENUE, geofence_radius_m: 150, hard_geofence: false }, FAR.lat, FAR.lon)!;
    expect(punched.body.clock_in_distance_m).toBe(check.distance_m);
    expect(check).toMatchObject({ outside: true, refused: false });
    expect(distanceWords(check.distance_m)).toBe('4.2 km');

    const told = await b.get(`/dashboard/shifter/clock?notice=clocked_in&shift=${shift.id}`);
    expect(told.html).toMatch(
      /role="status"[^>]*>[^<]*Clocked in at \d\d:\d\d · [^<]+, 4\.2 km from the venue — the business will see this\./,
    );
    const after = told.html.slice(told.html.indexOf(`data-shift="${shift.id}"`));
    expect(after).toContain('<span class="punch-far">, 4.2 km from the venue — the business will see this.</span>');

    // Within the business's radius (it is wider now): a bare confirmation.
    await setBusiness(biz.businessId!, { geofence_radius_m: 10_000 });
    const inside = await b.get(`/dashboard/shifter/clock?notice=clocked_in&shift=${shift.id}`);
    expect(inside.html).toMatch(/role="status"[^>]*>[^<]*Clocked in at \d\d:\d\d · /);
    expect(inside.html).not.toContain('the business will see this');
  });

  it('in hard mode the card says a far clock-in is refused, as the service refuses it', async () => {
    const { biz, sh } = await makePair();
    await setBusiness(biz.businessId!, { geofence_radius_m: 150 });
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 10 * MINUTE });
    const hard = workerWith({ SHIFT_CLOCK_GEOFENCE_HARD_FAIL: 'true' });
    const b = await signedIn(sh, hard);
    const page = await b.get('/dashboard/shifter/clock');
    const card = page.html.slice(page.html.indexOf(`data-shift="${shift.id}"`));
    expect(card).toContain('Farther away, a clock-in is refused unless you say &quot;I&#39;m here&quot;.');
    expect(card).toContain('&quot;hard_geofence&quot;:true');
    // The rule the island applies before the tap is the service's: refused 4 km away, allowed with "I'm here".
    const place = { ...VENUE, geofence_radius_m: 150, hard_geofence: true };
    expect(geofenceCheck(place, FAR.lat, FAR.lon)?.refused).toBe(true);
    expect(geofenceCheck(place, FAR.lat, FAR.lon, true)?.refused).toBe(false);
    const refused = await call('POST', `/v1/shift_request/${shift.id}/clock_in`, { key: sh.key, body: FAR, worker: hard });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('GEOFENCE-ERR');
    const allowed = await call('POST', `/v1/shift_request/${shift.id}/clock_in`, {
      key: sh.key,
      body: { ...FAR, im_here: true },
      worker: hard,
    });
    expect(allowed.status).toBe(200);
  });

  it('words the distance and its verdict the same on the page and in the island (clock.model.ts)', () => {
    expect(distanceWords(42.4)).toBe('42 m');
    expect(distanceWords(999.4)).toBe('999 m');
    expect(distanceWords(999.6)).toBe('1.0 km');
    expect(distanceWords(4_213)).toBe('4.2 km');
    const at = { business: 'Corner Cup', side: 'in' as const, accuracyM: 12, imHere: false };
    const soft = { ...VENUE, geofence_radius_m: 150, hard_geofence: false };
    expect(whereWords(geofenceCheck(soft, VENUE.latitude, VENUE.longitude), at)).toBe(
      'You are 0 m from Corner Cup (accuracy ±12 m), within the 150 m it asks for.',
    );
    expect(whereWords(geofenceCheck(soft, FAR.lat, FAR.lon), at)).toBe(
      'You are 4.2 km from Corner Cup (accuracy ±12 m), farther than the 150 m it asks for. You can still clock in: Corner Cup will see it was made 4.2 km away.',
    );
    const hard = { ...soft, hard_geofence: true };
    const refused = geofenceCheck(hard, FAR.lat, FAR.lon);
    expect(whereWords(refused, at)).toBe(
      'You are 4.2 km from Corner Cup (accuracy ±12 m), farther than the 150 m it asks for: a clock-in from here is refused. If you are there, tick "I\'m here".',
    );
    expect(punchButtonWords('in', refused)).toBe('Refused from here: tick "I\'m here"');
    expect(punchButtonWords('in', geofenceCheck(hard, FAR.lat, FAR.lon, true))).toBe('Clock in');
    expect(whereWords(geofenceCheck(hard, FAR.lat, FAR.lon, true), { ...at, imHere: true })).toContain(
      'with "I\'m here" ticked, Corner Cup sees that you said you are there.',
    );
    // No radius: the distance only; no position of the venue: only that the phone found one.
    expect(whereWords(geofenceCheck({ ...soft, geofence_radius_m: null }, FAR.lat, FAR.lon), { ...at, accuracyM: null })).toBe(
      'You are 4.2 km from Corner Cup.',
    );
    expect(whereWords(null, at)).toBe('Location found (accuracy ±12 m).');
    expect(placeWords({ business: 'Corner Cup', side: 'in', radius: 150, hard: false })).toBe(
      'When you tap, your phone tells Corner Cup where you are: clock in within 150 m of it.',
    );
    expect(punchDistanceWords({ distanceM: 4_213, outside: true, override: false })).toBe(
      '4.2 km from the venue — the business will see this',
    );
    expect(punchDistanceWords({ distanceM: 4_213, outside: true, override: true })).toBe(
      '4.2 km from the venue — the business will see this, and that you said you were there',
    );
    expect(punchDistanceWords({ distanceM: 40, outside: false, override: false })).toBeNull();
  });
});

describe('the clock’s words for a refused punch (clock.model.ts)', () => {
  const at = { business: 'Harbor Street Bistro', side: 'in' as const, timeZone: NY, photoRequired: false, script: true, now: 0 };
  it('says the geofence, a phone clock ahead and a sign-out as what to do', () => {
    const far = refusalWords(
      {
        code: 'GEOFENCE-ERR',
        message: "Out of the business's geofence; send the I'm-here override to clock in anyway.",
        details: { distance_m: 420.4, geofence_radius_m: 100 },
      },
      at,
    );
    expect(far).toBe(
      'Your phone puts you 420 m from Harbor Street Bistro, farther than the 100 m it asks for. If you are there, tick "I\'m here" and tap Clock in again: Harbor Street Bistro sees that you said so.',
    );
    expect(far).not.toContain('override');
    const ahead = refusalWords(
      {
        code: 'VALIDATION-ERR',
        message: "device_time is ahead of the service's clock by more than 120 seconds.",
        details: [{ field: 'device_time', message: 'in the future' }],
      },
      at,
    );
    expect(ahead).not.toContain('device_time');
    expect(ahead).toContain("Your phone's clock was ahead");
    expect(refusalWords({ code: 'AUTH-REQ-ERR', message: 'Credentials are missing, malformed, unknown or revoked.' }, at)).toBe(
      'You are signed out on this phone: sign in again, then tap again.',
    );
    // A code it does not word keeps the service's message.
    expect(refusalWords({ code: 'SHFT-STATE-ERR', message: 'The shift is marked as a no-show.' }, at)).toBe(
      'The shift is marked as a no-show.',
    );
  });
});

describe('/sw.js', () => {
  it("may fetch this origin: the worker keeps its own script's policy, and sends pages and queued punches", async () => {
    const res = await call('GET', '/sw.js');
    expect(res.status).toBe(200);
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
  });
});

describe('notices on the shifter pages', () => {
  it('come from fixed keys: text in the address is never shown, and a punch notice needs the punch', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 10 * MINUTE });
    const b = await signedIn(sh);
    const forged = encodeURIComponent('Your account is verified: call 555-0100');
    for (const path of ['/dashboard/shifter/clock', '/dashboard/shifter/earnings', '/dashboard/shifter/records']) {
      const page = await b.get(`${path}?notice=${forged}`);
      expect(page.status, path).toBe(200);
      expect(page.html, path).not.toContain('555-0100');
    }
    // A key whose punch the shift does not have says nothing; once punched it says when.
    expect((await b.get(`/dashboard/shifter/clock?notice=clocked_in&shift=${shift.id}`)).html).not.toContain('Clocked in at');
    expect((await b.get(`/dashboard/shifter/earnings?notice=goal_saved`)).html).toContain('Goal saved.');
  });
});

describe('/dashboard/shifter/earnings', () => {
  it('shows the month’s gross; a refused goal keeps what was typed, a good one is saved', async () => {
    const { biz, sh } = await makePair();
    // 4 h at $20 = $80, from midnight on the 1st of this month on the shifter's clock (UTC): in this
    // month and already started whatever the day the test runs, so it counts for the typical rate too.
    const d = new Date();
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1, 0);
    await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: start,
      set: { shift_start_at: start, shift_end_at: start + 4 * HOUR },
    });
    const b = await signedIn(sh);
    const page = await b.get('/dashboard/shifter/earnings');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/data-gross[^>]*>\$80\.00</);
    expect(page.html).toContain('1 shift,');
    // The 12-month chart's island gets the figures; the table under it says the same without script.
    expect(page.html).toContain('data-island="earnings-chart"');
    expect(page.html).toMatch(/data-chart-canvas/);
    expect(page.html).toMatch(/<table class="trend-table">[\s\S]*\$80\.00/);

    const refused = await b.post('/dashboard/shifter/earnings/goal', { monthly_earnings_goal: '-5', ...idem() });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('value="-5"');
    expect(refused.html).toContain('Enter a positive amount');

    const saved = await b.post('/dashboard/shifter/earnings/goal', { monthly_earnings_goal: '400', ...idem() });
    expect(saved.status).toBe(303);
    const again = await b.get('/dashboard/shifter/earnings');
    expect(again.html).toContain('$80.00 of $400.00 (20%)');
    expect(again.html).toMatch(/data-shifts-to-goal[^>]*>About 4 more shifts/);
    expect(again.html).toContain('the dashed line is your monthly goal of $400.00');
    expect(again.html).toContain('&quot;goal&quot;:400');
  });
});

describe('/dashboard/shifter/records', () => {
  it('mileage: a refused trip keeps what was typed; added, changed and deleted; the year as CSV', async () => {
    const sh = await makeUser({ shifter: true });
    const b = await signedIn(sh);
    const year = new Date().getUTCFullYear();
    const day = `${year}-01-15`;
    await b.get(RECORDS);
    const refused = await b.post(`${RECORDS}/mileage`, { log_date: day, miles: '0', purpose: 'to the bistro', ...idem() });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('value="to the bistro"');
    expect(refused.html).toMatch(/class="field-error"[^>]*>[^<]+</);
    expect(await db().select().from(mileageEntries)).not.toContainEqual(expect.objectContaining({ shifter_id: sh.shifterId }));

    const added = await b.post(`${RECORDS}/mileage`, { log_date: day, miles: '12.5', purpose: '=to the bistro', ...idem() });
    expect(added.status).toBe(303);
    const page = await b.get(`${RECORDS}?year=${year}`);
    expect(page.html).toContain('1 trip · 12.5 miles');
    const id = /action="\/dashboard\/shifter\/records\/mileage\/([^"]+)"/.exec(page.html)![1]!;

    const changed = await b.post(`${RECORDS}/mileage/${id}`, {
      log_date: day,
      miles: '20',
      purpose: 'there and back',
      action: 'save',
      ...idem(),
    });
    expect(changed.status).toBe(303);
    const csv = await b.get(`${RECORDS}/mileage.csv?year=${year}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('Content-Type')).toContain('text/csv');
    expect(csv.headers.get('Content-Disposition')).toContain(`mileage-${year}.csv`);
    const lines = csv.html.trim().split('\r\n');
    expect(lines[0]).toBe('date,miles,rate_cents_per_mile,amount,currency,purpose');
    expect(lines[1]).toMatch(new RegExp(`^${day},20,\\d+,\\d+\\.\\d\\d,USD,there and back$`));
    expect(lines[2]).toMatch(/^total,20,,\d+\.\d\d,USD,1 trips$/);

    // A purpose that starts like a formula is defused in the CSV.
    await b.get(RECORDS);
    await b.post(`${RECORDS}/mileage/${id}`, { log_date: day, miles: '20', purpose: '=SUM(A1)', action: 'save', ...idem() });
    expect((await b.get(`${RECORDS}/mileage.csv?year=${year}`)).html).toContain(",'=SUM(A1)");

    await b.get(RECORDS);
    const deleted = await b.post(`${RECORDS}/mileage/${id}`, { action: 'delete', ...idem() });
    expect(deleted.status).toBe(303);
    expect((await b.get(`${RECORDS}?year=${year}`)).html).toContain('No trip logged this year.');
  });

  it('another shifter’s trip can be neither changed nor deleted, nor read in the CSV', async () => {
    const owner = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const ob = await signedIn(owner);
    const year = new Date().getUTCFullYear();
    await ob.get(RECORDS);
    await ob.post(`${RECORDS}/mileage`, { log_date: `${year}-02-01`, miles: '7', purpose: 'mine', ...idem() });
    const id = /action="\/dashboard\/shifter\/records\/mileage\/([^"]+)"/.exec((await ob.get(`${RECORDS}?year=${year}`)).html)![1]!;

    const xb = await signedIn(other);
    await xb.get(RECORDS);
    const change = await xb.post(`${RECORDS}/mileage/${id}`, { log_date: `${year}-02-01`, miles: '99', action: 'save', ...idem() });
    expect(change.status).toBe(404);
    await xb.get(RECORDS);
    expect((await xb.post(`${RECORDS}/mileage/${id}`, { action: 'delete', ...idem() })).status).toBe(404);
    expect((await xb.get(`${RECORDS}/mileage.csv?year=${year}`)).html).not.toContain('mine');
    expect((await ob.get(`${RECORDS}/mileage.csv?year=${year}`)).html).toMatch(/,7,\d+,[\d.]+,USD,mine/);
  });

  it('sends a person without a shifter profile back to the dashboard from every page', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    for (const path of ['/dashboard/shifter/clock', '/dashboard/shifter/earnings', RECORDS, `${RECORDS}/mileage.csv`]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(303);
      expect(res.location, path).toBe('/dashboard');
    }
  });
});

describe('/dashboard/shifter/records: counter rules, credentials, payouts', () => {
  it('a counter rule is refused beside its field with what was typed kept, then added, changed and deleted', async () => {
    const sh = await makeUser({ shifter: true });
    const b = await signedIn(sh);
    await b.get(RECORDS);
    const refused = await b.post(`${RECORDS}/rules`, { label: 'Late nights', min_hourly_rate: '', is_active: '1', ...idem() });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('value="Late nights"');
    expect(refused.html).toMatch(/id="rule-new-rate-error"[^>]*>[^<]+</);

    await b.get(RECORDS);
    const rule0 = { label: 'Late nights', min_hourly_rate: '24', start_from: '22:00', start_to: '06:00', weekdays: '5', is_active: '1' };
    const added = await b.post(`${RECORDS}/rules`, { ...rule0, ...idem() });
    expect(added.status).toBe(303);
    const rules = await call('GET', `/v1/shifter/${sh.shifterId}/counter_rules`, { key: sh.key });
    const rule = (rules.body as { data: Array<Record<string, unknown>> }).data[0]!;
    expect(rule).toMatchObject({
      label: 'Late nights',
      min_hourly_rate: 24,
      start_from: '22:00',
      start_to: '06:00',
      weekdays: [5],
      is_active: true,
    });
    const page = await b.get(RECORDS);
    expect(page.html).toContain('Late nights</strong> · at least $24.00/h');
    expect(page.html).toContain(`action="/dashboard/shifter/records/rules/${rule.id}"`);

    const changed = await b.post(`${RECORDS}/rules/${rule.id}`, {
      label: 'Late nights',
      min_hourly_rate: '26.5',
      action: 'save',
      ...idem(),
    });
    expect(changed.status).toBe(303);
    const after = (await call('GET', `/v1/shifter/${sh.shifterId}/counter_rules`, { key: sh.key })).body as {
      data: Array<Record<string, unknown>>;
    };
    // Unticked boxes and empty times are the form's answer: any day, any time, off.
    expect(after.data[0]).toMatchObject({ min_hourly_rate: 26.5, start_from: null, start_to: null, weekdays: null, is_active: false });
    expect((await b.get(RECORDS)).html).toMatch(/Late nights<\/strong> · at least \$26\.50\/h <span class="badge">Off</);

    const deleted = await b.post(`${RECORDS}/rules/${rule.id}`, { action: 'delete', ...idem() });
    expect(deleted.status).toBe(303);
    expect((await b.get(RECORDS)).html).toContain('No counter rule');
  });

  it('a credential is hidden, shown again and deleted; another shifter’s cannot be touched', async () => {
    const sh = await makeUser({ shifter: true });
    const b = await signedIn(sh);
    await b.get(RECORDS);
    const refused = await b.post(`${RECORDS}/credentials`, { label: '', issuer: 'County health', is_visible: '1', ...idem() });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('value="County health"');
    await b.post(`${RECORDS}/credentials`, { label: 'Food handler card', issuer: 'County health', is_visible: '1', ...idem() });
    const page = await b.get(RECORDS);
    const id = /action="\/dashboard\/shifter\/records\/credentials\/([^"]+)"/.exec(page.html)![1]!;
    expect(page.html).toContain('Visible to businesses');

    expect((await b.post(`${RECORDS}/credentials/${id}`, { action: 'hide', ...idem() })).status).toBe(303);
    expect((await b.get(RECORDS)).html).toContain('<span class="badge">Only you</span>');
    expect((await b.post(`${RECORDS}/credentials/${id}`, { action: 'show', ...idem() })).status).toBe(303);

    const other = await signedIn(await makeUser({ shifter: true }));
    await other.get(RECORDS);
    expect((await other.post(`${RECORDS}/credentials/${id}`, { action: 'delete', ...idem() })).status).toBe(404);
    expect((await b.get(RECORDS)).html).toContain('Food handler card');

    expect((await b.post(`${RECORDS}/credentials/${id}`, { action: 'delete', ...idem() })).status).toBe(303);
    expect((await b.get(RECORDS)).html).toContain('No credential yet');
  });

  it('the payout account lists the worked shifts’ payouts with their state', async () => {
    const { biz, sh } = await makePair();
    const worked = async (daysAgo: number, set: Partial<typeof invoices.$inferInsert>) => {
      const start = Date.now() - daysAgo * DAY;
      const s = await insertShift({
        businessId: biz.businessId!,
        shifterId: sh.shifterId,
        startsAt: start,
        set: { shift_start_at: start, shift_end_at: start + 4 * HOUR },
      });
      await db()
        .insert(invoices)
        .values({ ...invoiceFor(s, start + 4 * HOUR), ...set });
      return s;
    };
    await worked(3, {});
    await worked(5, { status: 'paid', paid_at: Date.now() - 4 * DAY });
    await worked(7, { status: 'paid', paid_at: Date.now() - 6 * DAY, transfer_id: 'tr_test', transfer_amount_minor: 7200 });
    const b = await signedIn(sh);
    const page = await b.get(RECORDS);
    const list = page.html.split('data-payouts')[1]!.split('</ul>')[0]!;
    const states = [...list.matchAll(/data-state="(\w+)"/g)].map((m) => m[1]);
    expect(states).toEqual(['invoiced', 'waiting', 'sent']);
    expect(list).toContain('$72.00');
    expect(list).toContain('Waiting for your payout account');
  });
});
