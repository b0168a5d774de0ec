import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { addTeammate, makeUser } from '../helpers/factory';
import { HOUR, insertShift, MINUTE, makeCrewMember, makePair, NY, postShift, readShift } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';
import { CLOCK_IN_EARLY_MINUTES } from '../../src/services/shifts';
import { KEPT_NOTE_HIDDEN } from '../../src/web/features/shifter/kept-page.model';
import { mapLinks } from '../../src/web/features/shifter-shift/shifter-shift.model';
import { dateTimeIn, timeIn } from '../../src/web/format';

// The worker's shift page (/dashboard/shifter/shifts/:id, src/web/features/shifter-shift/): the shift
// as its shifter reads it (services/shifts shifterShift), the venue with links to the phone's maps,
// times on the venue's clock (labelled when the worker's zone differs), pay, the clock rules, what
// they can do now, and the conversation with the business.

const idem = () => ({ _idem: crypto.randomUUID() });
const page = (id: string, action = '') => `/dashboard/shifter/shifts/${id}${action ? `/${action}` : ''}`;
const unescapeHtml = (s: string) => s.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
/** The page's main content, as text with its markup. */
const mainOf = (html: string) => unescapeHtml(/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html);
/** One card of the page, by its heading's id. */
const cardOf = (html: string, heading: string) => {
  const main = mainOf(html);
  const at = main.indexOf(`id="${heading}"`);
  expect(at, `no ${heading} in the page`).toBeGreaterThan(0);
  return main.slice(at, main.indexOf('</section>', at));
};

/** The words a person reads on the page that are program words: an API path, a snake_case name, an error code. */
function programWords(html: string): string[] {
  const text = unescapeHtml(
    html
      .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' '),
  );
  return [...text.matchAll(/\/v1\/\S*|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[A-Z]+(?:-[A-Z]+)*-ERR\b/g)].map((m) => m[0]);
}

const VENUE = {
  name: 'Pier Nine Kitchen',
  address: '9 Pier Road, New York, NY 10004',
  latitude: 40.7033,
  longitude: -74.017,
  geofence_radius_m: 150,
  require_clock_photo: true,
};

describe('/dashboard/shifter/shifts/:id, the shift’s own shifter', () => {
  it('shows the venue with map links, the times, pay, notes and clock rules; another shifter and the business side get 404', async () => {
    const { biz, sh } = await makePair({ business: VENUE, shifter: { timezone: NY } });
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() + 2 * 24 * HOUR,
      minutes: 8 * 60,
      set: { note: 'Bring non-slip shoes' },
    });
    const b = await signedIn(sh);
    const res = await b.get(page(shift.id));
    expect(res.status).toBe(200);
    const main = mainOf(res.html);
    expect(main).toMatch(/<h1>[^<]+ at Pier Nine Kitchen<\/h1>/);
    // Where: the address and the links to the phone's maps, from the venue's position; no map drawn, no script of another site.
    const where = cardOf(res.html, 'where-heading');
    expect(where).toContain('9 Pier Road, New York, NY 10004');
    expect(where).toContain('href="geo:40.7033,-74.017?q=40.7033%2C-74.017(Pier%20Nine%20Kitchen)"');
    expect(where).toContain('href="https://www.openstreetmap.org/?mlat=40.7033&mlon=-74.017#map=18/40.7033/-74.017"');
    expect(where).toContain('href="https://www.google.com/maps/dir/?api=1&destination=40.7033%2C-74.017"');
    expect(where).toContain('href="https://maps.apple.com/?daddr=40.7033%2C-74.017');
    expect(res.html).not.toMatch(/<iframe|<script[^>]+src="https?:/);
    // When: the venue's wall clock, not labelled (the worker's zone is the venue's).
    const when = cardOf(res.html, 'when-heading');
    expect(when).toContain(`${shift.shift_in}–${shift.shift_out}`);
    expect(when).toContain('(8 h)');
    expect(when).not.toContain('On your own clock');
    expect(when).toContain('Accepted');
    // Their pay, the notes, the business's clock rules.
    const theShift = cardOf(res.html, 'shift-heading');
    expect(theShift).toContain('$20.00 an hour');
    expect(theShift).toContain('$160.00 for the 8 h scheduled');
    expect(theShift).toContain('Bring non-slip shoes');
    const rules = cardOf(res.html, 'rules-heading');
    expect(rules).toContain('Clock in within 150 m of Pier Nine Kitchen.');
    expect(rules).toContain('Pier Nine Kitchen asks for a photo at the door with each punch.');
    // The clock opens later: when, and the way to the clock; an accepted shift not started may be cancelled.
    const now = cardOf(res.html, 'now-heading');
    const opens = new Date(shift.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE).toISOString();
    expect(now).toContain(`Clock-in opens <time datetime="${opens}">${dateTimeIn(opens, NY)}</time>`);
    expect(now).toContain('href="/dashboard/shifter/clock"');
    expect(now).toContain(`href="/dashboard/shifter/schedule/${shift.id}/cancel"`);
    // The saved-copy note waits hidden, for the service worker to show on a copy it answers with.
    expect(res.html).toContain(KEPT_NOTE_HIDDEN);
    expect(programWords(res.html)).toEqual([]);
    // No conversation yet.
    expect(cardOf(res.html, 'thread-heading')).toContain('No conversation with Pier Nine Kitchen yet');

    // Not theirs: another shifter, and the business itself (it has its own shift page), get 404.
    const other = await makeUser({ shifter: true });
    expect((await (await signedIn(other)).get(page(shift.id))).status).toBe(404);
    // The owner has no shifter side (sent to the dashboard); a teammate who also works shifts reads it on the business side only.
    expect((await (await signedIn(biz)).get(page(shift.id))).location).toBe('/dashboard');
    const mate = await makeUser({ shifter: true });
    await addTeammate(biz.businessId!, mate.userId);
    expect((await (await signedIn(mate)).get(page(shift.id))).status).toBe(404);
    expect((await b.get(page('shr_nosuchshift'))).status).toBe(404);
  });

  it('links to the conversation with the business once one exists', async () => {
    const { biz, sh } = await makePair({ business: VENUE });
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 3 * 24 * HOUR });
    const sent = await call('POST', '/v1/messaging/messages', {
      key: biz.key,
      body: { to: { kind: 'shifter', id: sh.shifterId }, body: 'See you Saturday' },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const threadId = sent.body.thread.id as string;
    const b = await signedIn(sh);
    const thread = cardOf((await b.get(page(shift.id))).html, 'thread-heading');
    expect(thread).toContain(`href="/inbox/${threadId}?as_kind=shifter&as_id=${sh.shifterId}"`);
    expect(thread).toContain('Your conversation with Pier Nine Kitchen');
    expect(thread).toContain('1 unread');
  });

  it('a pending request shows Accept and Decline, and both work; Decline asks once, with an optional reason', async () => {
    const { biz, sh } = await makePair({ business: VENUE });
    const first = await postShift(biz.key, { shifter_id: sh.shifterId, is_broadcast: 0 });
    const b = await signedIn(sh);
    const seen = await b.get(page(first.id));
    const now = cardOf(seen.html, 'now-heading');
    expect(now).toContain('Pier Nine Kitchen is waiting for your answer.');
    expect(now).toContain(`action="${page(first.id, 'accept')}"`);
    // Decline is a link to its one question: the page's dialog where script runs, else a confirmation page there.
    expect(now).toMatch(new RegExp(`<a class="button button-secondary" href="${page(first.id, 'decline')}" data-decline="[^"]+"`));
    expect(mainOf(seen.html)).toContain('<dialog class="sf-dialog" data-decline-dialog');
    // A request is answered, not clocked or cancelled.
    expect(now).not.toContain('/dashboard/shifter/clock');
    expect(now).not.toContain('/cancel');
    expect(cardOf(seen.html, 'when-heading')).toContain('Waiting for answer');

    const accepted = await b.post(page(first.id, 'accept'), idem());
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe(`${page(first.id)}?notice=accepted`);
    expect((await readShift(first.id))!.request_status).toBe(2);
    const after = await b.get(accepted.location!);
    expect(after.html).toMatch(/role="status"[^>]*>Request accepted: the shift is on your schedule\./);
    expect(cardOf(after.html, 'now-heading')).not.toContain(page(first.id, 'accept'));

    const second = await postShift(biz.key, {
      shifter_id: sh.shifterId,
      is_broadcast: 0,
      shift_date: first.shift_date,
      shift_in: '18:00',
      shift_out: '22:00',
    });
    // A request overlapping the accepted one: marked, and Accept (which the service refuses) not offered.
    const clash = await postShift(biz.key, {
      shifter_id: sh.shifterId,
      is_broadcast: 0,
      shift_date: first.shift_date,
      shift_in: '12:00',
      shift_out: '20:00',
    });
    const marked = cardOf((await b.get(page(clash.id))).html, 'now-heading');
    expect(marked).toContain('Overlaps your 09:00–17:00 at Pier Nine Kitchen');
    expect(marked).toContain('It cannot be accepted while that shift stands');
    expect(marked).toContain(`href="${page(first.id)}"`);
    expect(marked).not.toContain(page(clash.id, 'accept'));
    expect(marked).toContain(`href="${page(clash.id, 'decline')}"`);
    const refused = await call('POST', `/v1/shift_request/${clash.id}/accept`, { key: sh.key, body: {} });
    expect(refused.body.error.code).toBe('SHFT-CONFLICT-ERR');
    // Not overlapping: Accept is there.
    expect(cardOf((await b.get(page(second.id))).html, 'now-heading')).toContain(page(second.id, 'accept'));

    // Without script, Decline's page asks once; a reason too long comes back beside its field as typed.
    const asked = await b.get(page(second.id, 'decline'));
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('<h1>Decline this request?</h1>');
    expect(asked.html).toContain(`action="${page(second.id, 'decline')}"`);
    expect(asked.html).toMatch(/<textarea id="field-reason" name="reason" rows="3" maxlength="500"/);
    const long = 'x'.repeat(501);
    const tooLong = await b.post(page(second.id, 'decline'), { ...idem(), reason: long });
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toMatch(/id="field-reason-error"[^>]*>Keep the reason to 500 characters or fewer\./);
    expect(tooLong.html).toContain(`>${long}</textarea>`);
    expect((await readShift(second.id))!.request_status).toBe(1);
    const declined = await b.post(page(second.id, 'decline'), { ...idem(), reason: '  A family thing that evening.  ' });
    expect(declined.status).toBe(303);
    expect(declined.location).toBe(`${page(second.id)}?notice=declined`);
    const row = (await readShift(second.id))!;
    expect(row.request_status).toBe(3);
    expect(row.cancel_reason).toBe('A family thing that evening.');
    // Answered: its Decline page leads back to the shift.
    expect((await b.get(page(second.id, 'decline'))).location).toBe(page(second.id));
    // Answered already: a second try says so in words, on the same page.
    const again = await b.post(page(second.id, 'accept'), idem());
    expect(again.status).toBe(409);
    expect(again.html).toMatch(/role="alert"[^>]*>This request was declined already\./);
  });
});

describe('the clock on the shift page follows the clock window', () => {
  it('links to the clock when the window is open, says when it opens, and offers nothing once it is closed or worked', async () => {
    const { biz, sh } = await makePair({ shifter: { timezone: NY } });
    const b = await signedIn(sh);
    const open = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 20 * MINUTE });
    const openNow = cardOf((await b.get(page(open.id))).html, 'now-heading');
    expect(openNow).toContain(`Clock-in is open until ${dateTimeIn(new Date(open.ends_at).toISOString(), NY)}.`);
    expect(openNow).toMatch(/<a class="button button-primary" href="\/dashboard\/shifter\/clock">Clock in<\/a>/);

    const later = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 5 * HOUR });
    const laterNow = cardOf((await b.get(page(later.id))).html, 'now-heading');
    const opens = new Date(later.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE).toISOString();
    expect(laterNow).toContain(`Clock-in opens <time datetime="${opens}">${dateTimeIn(opens, NY)}</time>`);
    expect(laterNow).toContain('Go to the clock');

    const clockedIn = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - HOUR,
      minutes: 4 * 60,
      set: { shift_start_at: Date.now() - HOUR, shift_start_by_id: sh.userId },
    });
    const inNow = cardOf((await b.get(page(clockedIn.id))).html, 'now-heading');
    expect(inNow).toContain(`Clocked in at ${dateTimeIn(new Date(clockedIn.shift_start_at!).toISOString(), NY)}.`);
    // The worker clocks out whenever they stop: it is open an hour in.
    expect(inNow).toMatch(/href="\/dashboard\/shifter\/clock">Clock out<\/a>/);
    expect(inNow).not.toContain('/cancel');

    const missed = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 6 * HOUR,
      minutes: 2 * 60,
    });
    const missedNow = cardOf((await b.get(page(missed.id))).html, 'now-heading');
    expect(missedNow).toContain('The clock window has closed');
    expect(missedNow).not.toContain('/dashboard/shifter/clock');

    const worked = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 8 * HOUR,
      minutes: 4 * 60,
      set: { shift_start_at: Date.now() - 8 * HOUR, shift_end_at: Date.now() - 4 * HOUR },
    });
    const workedPage = await b.get(page(worked.id));
    const workedNow = cardOf(workedPage.html, 'now-heading');
    expect(workedNow).toContain('Clocked out at');
    expect(workedNow).not.toContain('/dashboard/shifter/clock');
    expect(cardOf(workedPage.html, 'when-heading')).toContain('Worked');
  });
});

describe('a shift in another zone', () => {
  it('labels the venue’s times and gives them on the worker’s own clock', async () => {
    const { biz, sh } = await makePair({
      business: {
        ...VENUE,
        timezone: 'Europe/London',
        latitude: 51.5413,
        longitude: -0.1466,
        geofence_radius_m: null,
        require_clock_photo: false,
      },
      shifter: { timezone: NY },
    });
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      tz: 'Europe/London',
      startsAt: Date.now() + 3 * 24 * HOUR,
      minutes: 6 * 60,
    });
    const res = await (await signedIn(sh)).get(page(shift.id));
    const when = cardOf(res.html, 'when-heading');
    expect(when).toContain(`${shift.shift_in}–${shift.shift_out}`);
    expect(when).toContain('London time');
    const start = new Date(shift.starts_at).toISOString();
    expect(when).toContain(`On your own clock (New York): ${dateTimeIn(start, NY)}`);
    expect(when).toContain(timeIn(new Date(shift.ends_at).toISOString(), NY));
    // The clock's opening is on the venue's clock, labelled.
    const opens = new Date(shift.starts_at - CLOCK_IN_EARLY_MINUTES * MINUTE).toISOString();
    expect(cardOf(res.html, 'now-heading')).toContain(`${dateTimeIn(opens, 'Europe/London')} (London time)`);
    expect(programWords(res.html)).toEqual([]);
    const rules = cardOf(res.html, 'rules-heading');
    expect(rules).toContain('sets no distance');
    expect(rules).toContain('No photo needed');

    // The same zone on both sides: no label.
    const { biz: nyBiz, sh: nySh } = await makePair({ shifter: { timezone: NY } });
    const here = await insertShift({ businessId: nyBiz.businessId!, shifterId: nySh.shifterId, startsAt: Date.now() + 3 * 24 * HOUR });
    const same = cardOf((await (await signedIn(nySh)).get(page(here.id))).html, 'when-heading');
    expect(same).not.toContain('New York time');
    expect(same).not.toContain('On your own clock');
  });
});

describe('an open broadcast of the worker’s crew', () => {
  it('reads it with Claim; claiming makes it theirs; someone outside the crew gets 404', async () => {
    const owner = await makeUser({ business: VENUE });
    const crew = await makeCrewMember(owner.businessId!);
    const posted = await postShift(owner.key, { is_broadcast: 1 });
    const b = await signedIn(crew);
    const seen = await b.get(page(posted.id));
    expect(seen.status).toBe(200);
    const now = cardOf(seen.html, 'now-heading');
    expect(now).toContain('Open to Pier Nine Kitchen’s crew: the first to claim it takes it.');
    expect(now).toContain(`action="${page(posted.id, 'claim')}"`);
    expect(cardOf(seen.html, 'shift-heading')).toContain('Rate offered');
    expect(cardOf(seen.html, 'when-heading')).toContain('Open broadcast');

    const outsider = await makeUser({ shifter: true });
    const o = await signedIn(outsider);
    expect((await o.get(page(posted.id))).status).toBe(404);

    const claimed = await b.post(page(posted.id, 'claim'), idem());
    expect(claimed.status).toBe(303);
    expect(claimed.location).toBe(`${page(posted.id)}?notice=claimed`);
    expect((await readShift(posted.id))!.shifter_id).toBe(crew.shifterId);
    const after = await b.get(claimed.location!);
    expect(after.html).toMatch(/role="status"[^>]*>The shift is yours/);
    expect(cardOf(after.html, 'shift-heading')).toContain('Your pay');

    // Another crew member, too late: the shift is no longer open to them, said in words.
    const late = await makeCrewMember(owner.businessId!);
    const l = await signedIn(late);
    await l.get('/dashboard/shifter/find');
    const lost = await l.post(page(posted.id, 'claim'), idem());
    expect(lost.status).toBe(409);
    expect(lost.html).toContain('Someone else claimed this shift first.');
  });
});

describe('links to the shift page', () => {
  it('from every shift of My schedule and of the clock page', async () => {
    const { biz, sh } = await makePair();
    const soon = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 30 * MINUTE });
    const later = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 2 * 24 * HOUR });
    const b = await signedIn(sh);
    const schedule = await b.get('/dashboard/shifter/schedule');
    for (const s of [soon, later]) expect(schedule.html).toContain(`href="${page(s.id)}"`);
    const clock = await b.get('/dashboard/shifter/clock');
    for (const s of [soon, later]) expect(clock.html).toContain(`href="${page(s.id)}"`);
  });
});

describe('the map links (shifter-shift.model.ts)', () => {
  const place = { name: 'Bistro & Bar', address: '1 Main St, Springfield', city: 'Springfield', latitude: null, longitude: null };
  it('fall back to the address, then the name and city, and are none without either', () => {
    const byAddress = mapLinks(place);
    expect(byAddress.map((l) => l.href)).toEqual([
      'geo:0,0?q=1%20Main%20St%2C%20Springfield',
      'https://www.google.com/maps/dir/?api=1&destination=1%20Main%20St%2C%20Springfield',
      'https://maps.apple.com/?daddr=1%20Main%20St%2C%20Springfield',
      'https://www.openstreetmap.org/search?query=1%20Main%20St%2C%20Springfield',
    ]);
    expect(mapLinks({ ...place, address: null })[0]!.href).toBe('geo:0,0?q=Bistro%20%26%20Bar%2C%20Springfield');
    expect(mapLinks({ ...place, address: null, city: null })).toEqual([]);
    // A position out of range is not one.
    expect(mapLinks({ ...place, latitude: 123, longitude: 0 })[0]!.href).toBe('geo:0,0?q=1%20Main%20St%2C%20Springfield');
  });
});
