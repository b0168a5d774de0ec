import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices, shiftRequests } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { dateInZone, timeInZone } from '../../src/lib/shift-time';
import { call } from '../helpers/api';
import { addTeammate, db, makeUser } from '../helpers/factory';
import {
  auditFor,
  childrenOf,
  DAY,
  HOUR,
  insertShift,
  type InsertSpec,
  makeCrewMember,
  makePair,
  MINUTE,
  NY,
  outboxFor,
  photoForm,
  pngBytes,
  postShift,
  readShift,
  windowFromNow,
} from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';
import { timesheetIdOf } from '../helpers/timesheets';

// The business's shift page (/dashboard/shifts/:id, src/web/features/shift/): the shift, its story
// in time order (services/shifts shiftStory), and cancel and unassign after a confirmation, offered
// only when the service would accept them.

const idem = () => ({ _idem: crypto.randomUUID() });
const page = (id: string, action = '') => `/dashboard/shifts/${id}${action ? `/${action}` : ''}`;
const unescapeHtml = (s: string) => s.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
/** The page's main content, without the shell around it, as text a reader would meet it. */
const mainOf = (html: string) => unescapeHtml(/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html);

/** Asserts the snippets occur in `text` in this order. */
function inOrder(text: string, snippets: string[]) {
  let at = -1;
  for (const s of snippets) {
    const i = text.indexOf(s, at + 1);
    expect(i, `"${s}" after position ${at} in:\n${text}`).toBeGreaterThan(at);
    at = i;
  }
}

describe('/dashboard/shifts/:id, the story', () => {
  it('tells a shift’s story through post, claim, clock in and out, and invoice; a teammate reads it without pay; another business gets 404', async () => {
    const owner = await makeUser({ business: { geofence_radius_m: 100 }, name: 'Story Owner' });
    const crew = await makeCrewMember(owner.businessId!, { display_name: 'Claire Claimer' });
    const posted = await postShift(owner.key, { ...windowFromNow(120, 240), is_broadcast: 1, note: 'Bring a black apron' });
    const claimed = await call('POST', `/v1/shift_request/${posted.id}/claim`, { key: crew.key });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);

    // The claimed shift moved into the present with its history (it started two hours ago and ends in ten minutes; it was
    // posted the day before and claimed that evening): the clock is open on it.
    const start = Math.floor((Date.now() - 2 * HOUR) / MINUTE) * MINUTE;
    const end = Math.floor((Date.now() + 10 * MINUTE) / MINUTE) * MINUTE;
    await db()
      .update(shiftRequests)
      .set({
        starts_at: start,
        ends_at: end,
        shift_date: dateInZone(start, NY),
        shift_in: timeInZone(start, NY),
        shift_out: timeInZone(end, NY),
        created_at: start - DAY,
        accepted_at: start - 20 * HOUR,
      })
      .where(eq(shiftRequests.id, posted.id));
    // In, made offline 100 minutes ago about 470 m from the venue; out now, with a photo.
    const clockIn = await call('POST', `/v1/shift_request/${posted.id}/clock_in`, {
      key: crew.key,
      body: { lat: 40.717, lon: -74.006, device_time: new Date(Date.now() - 100 * MINUTE).toISOString() },
    });
    expect(clockIn.status, JSON.stringify(clockIn.body)).toBe(200);
    const photo = await call('POST', `/v1/shift_request/${posted.id}/clock_photo`, {
      key: crew.key,
      body: photoForm(pngBytes()),
      query: { side: 'out' },
    });
    expect(photo.status, JSON.stringify(photo.body)).toBe(201);
    const clockOut = await call('POST', `/v1/shift_request/${posted.id}/clock_out`, {
      key: crew.key,
      body: { lat: 40.7128, lon: -74.006, photo_url: photo.body.url },
    });
    expect(clockOut.status, JSON.stringify(clockOut.body)).toBe(200);
    // The invoice follows the approval of the time.
    const timesheet = await timesheetIdOf(posted.id);
    expect((await call('PUT', `/v1/timesheets/${timesheet}/approve`, { key: owner.key })).status).toBe(200);
    const [invoice] = await db().select().from(invoices).where(eq(invoices.shift_request_id, posted.id));
    expect(invoice).toBeDefined();
    const review = await call('POST', '/v1/review', {
      key: owner.key,
      body: {
        review_on: 'shifter',
        review_on_id: crew.shifterId,
        rating: 5,
        review_text: 'Calm under pressure',
        shift_request_id: posted.id,
      },
    });
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    // The invoice is the approved time's pay (the clock's minutes), not the scheduled hours'.
    const payText = `$${(invoice!.amount_minor / 100).toFixed(2)}`;

    const b = await signedIn(owner);
    const res = await b.get(page(posted.id));
    expect(res.status).toBe(200);
    const text = mainOf(res.html);
    inOrder(text, [
      'Claire Claimer',
      'Worked',
      '$20.00 an hour',
      'Bring a black apron',
      'Posted to the crew',
      'By Story Owner',
      'Claimed from the crew',
      'By Claire Claimer',
      'Clocked in: ',
      'm from the venue, outside the 100 m radius',
      'made offline',
      'Clocked out: 0 m from the venue',
      'Invoiced for the shift',
      payText,
      'Reviewed: 5 of 5',
      '“Calm under pressure”',
    ]);
    expect(text).toContain(`${payText}, pending`);
    expect(text).toContain(`/dashboard/money/invoices/${invoice!.id}`);
    // Times in the business's zone: the clock-out's time as New York reads it.
    expect(text).toContain(timeInZone(Date.parse(clockOut.body.shift_end_at), NY));
    // The clock-out photo, through the board's photo route, served to the owner.
    const src = /<img src="(\/dashboard\/board\/photos\/[^"]+)"/.exec(res.html)?.[1];
    expect(src).toBeDefined();
    expect((await b.get(src!)).headers.get('Content-Type')).toBe('image/png');
    // A worked shift is neither cancelled nor unassigned: the page says why, with no way to.
    expect(text).toContain('It cannot be cancelled: The shift has been worked');
    expect(text).not.toContain(page(posted.id, 'cancel'));

    // A teammate reads the same story and no pay figure.
    const mate = await makeUser({ name: 'Mate Without Pay' });
    await addTeammate(owner.businessId!, mate.userId);
    const m = await signedIn(mate);
    const seen = await m.get(page(posted.id));
    expect(seen.status).toBe(200);
    const mateText = mainOf(seen.html);
    inOrder(mateText, ['Posted to the crew', 'Claimed from the crew', 'Clocked in', 'Clocked out', 'Invoiced for the shift']);
    expect(mateText).toContain('Its rate and pay are shown to the business owner.');
    expect(mateText).not.toContain('$');
    expect(mateText).not.toContain('/dashboard/money/invoices/');

    // Another business, and the shifter who worked it, find no such shift here.
    const other = await makeUser({ business: true });
    const o = await signedIn(other);
    for (const path of [page(posted.id), page(posted.id, 'cancel'), page(posted.id, 'unassign')]) {
      expect((await o.get(path)).status, path).toBe(404);
    }
    expect((await o.post(page(posted.id, 'cancel'), idem())).status).toBe(404);
    expect((await (await signedIn(crew)).get(page(posted.id))).status).toBe(404);
    expect((await readShift(posted.id))!.request_status).toBe(2);
  });
});

describe('/dashboard/shifts/:id, cancel and unassign', () => {
  it('cancels after a confirmation that says what happens, keeps the reason, and acts once for a form sent twice', async () => {
    const { biz, sh } = await makePair({ shifter: { display_name: 'Toni Target' } });
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 3 * DAY });
    const b = await signedIn(biz);
    const before = mainOf((await b.get(page(shift.id))).html);
    expect(before).toContain(page(shift.id, 'cancel'));
    const ask = mainOf((await b.get(page(shift.id, 'cancel'))).html);
    expect(ask).toContain('Toni Target is told at once');
    expect(ask).toContain('It is not posted again');
    expect(ask).not.toContain('paid in advance');
    expect((await readShift(shift.id))!.request_status).toBe(2);

    const form = { ...idem(), reason: 'Kitchen closed for repairs' };
    const done = await b.post(page(shift.id, 'cancel'), form);
    expect(done.status, done.html).toBe(303);
    expect(done.location).toContain(`${page(shift.id)}?`);
    expect(done.location).toContain('notice=cancelled');
    expect((await b.post(page(shift.id, 'cancel'), form)).location).toBe(done.location);
    expect(await auditFor(shift.id, 'shift_request.cancel')).toHaveLength(1);
    expect(await readShift(shift.id)).toMatchObject({
      request_status: 7,
      cancelled_by: 'business',
      cancel_reason: 'Kitchen closed for repairs',
    });
    const [told] = await outboxFor(shift.id, { kind: 'cancellation' });
    expect(told!.body.user_ids).toEqual([sh.userId]);

    const after = mainOf((await b.get(done.location!)).html);
    expect(after).toContain('The shift is cancelled. The shifter is told.');
    inOrder(after, ['Accepted', 'Cancelled; Toni Target was told', '“Kitchen closed for repairs”']);
    expect(after).toContain('It cannot be cancelled: The shift request is already cancelled.');
    expect(after).not.toContain(page(shift.id, 'cancel'));
  });

  it('says a pre-paid shift is refunded in full when cancelled', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 3 * DAY, minutes: 240 });
    const now = Date.now();
    await db()
      .insert(invoices)
      .values({
        id: newId('invoice'),
        business_id: biz.businessId!,
        shift_request_id: shift.id,
        shifter_id: sh.shifterId,
        amount_minor: 8000,
        currency: 'USD',
        status: 'paid',
        paid_at: now,
        created_at: now,
        updated_at: now,
      });
    const ask = mainOf((await (await signedIn(biz)).get(page(shift.id, 'cancel'))).html);
    expect(ask).toContain('It was paid in advance: the $80.00 charged is refunded in full to your card.');
  });

  it('unassigns: the shifter is taken off and the same shift goes out to the crew, each version linking to the other', async () => {
    const { biz, sh } = await makePair({ shifter: { display_name: 'Uma Unassigned' } });
    const mate = await makeCrewMember(biz.businessId!);
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 2 * DAY });
    const b = await signedIn(biz);
    expect(mainOf((await b.get(page(shift.id))).html)).toContain('Take Uma Unassigned off this shift');
    const ask = mainOf((await b.get(page(shift.id, 'unassign'))).html);
    expect(ask).toContain('Uma Unassigned is taken off the shift and told at once');
    expect(ask).toContain('goes out to your crew as an open shift');

    const done = await b.post(page(shift.id, 'unassign'), { ...idem(), reason: 'Needs a key holder' });
    expect(done.status, done.html).toBe(303);
    const [child] = await childrenOf(shift.id);
    expect(child).toMatchObject({ is_broadcast: true, request_status: 1, shifter_id: null, parent_id: shift.id });
    expect(done.location).toContain(page(child!.id));
    expect(done.location).toContain('notice=unassigned');
    expect(await readShift(shift.id)).toMatchObject({ request_status: 7, cancelled_by: 'business', cancel_reason: 'Needs a key holder' });
    const [open] = await outboxFor(child!.id, { kind: 'open_shift' });
    expect(open!.body.user_ids).toEqual([mate.userId]);

    const broadcast = mainOf((await b.get(done.location!)).html);
    expect(broadcast).toContain('The shifter was taken off the shift and told.');
    expect(broadcast).toContain('Posted to the crew after Uma Unassigned was taken off it');
    expect(broadcast).toContain(page(shift.id));
    expect(broadcast).toContain(page(child!.id, 'cancel'));
    const old = mainOf((await b.get(page(shift.id))).html);
    inOrder(old, ['Offered to Uma Unassigned', 'Accepted', 'Uma Unassigned taken off the shift and told; the shift went out to the crew']);
    expect(old).toContain(page(child!.id));
    expect(old).not.toContain(page(shift.id, 'unassign'));
  });

  it('never offers cancel or unassign when the service would refuse it, and offers them when it would not', async () => {
    const { biz, sh } = await makePair();
    const b = biz.businessId!;
    const ahead = Date.now() + 2 * DAY;
    const states: { what: string; spec: InsertSpec }[] = [
      { what: 'pending, targeted', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 1 } },
      { what: 'an open broadcast', spec: { businessId: b, startsAt: ahead, status: 1, broadcast: true } },
      { what: 'accepted, targeted', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead } },
      { what: 'claimed from the crew', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, broadcast: true } },
      { what: 'started, not clocked in', spec: { businessId: b, shifterId: sh.shifterId, startsAt: Date.now() - 20 * MINUTE } },
      {
        what: 'clocked in',
        spec: { businessId: b, shifterId: sh.shifterId, startsAt: Date.now() - HOUR, set: { shift_start_at: Date.now() - HOUR } },
      },
      {
        what: 'worked',
        spec: {
          businessId: b,
          shifterId: sh.shifterId,
          startsAt: Date.now() - 6 * HOUR,
          set: { shift_start_at: Date.now() - 6 * HOUR, shift_end_at: Date.now() - 2 * HOUR },
        },
      },
      { what: 'a no-show', spec: { businessId: b, shifterId: sh.shifterId, startsAt: Date.now() - 2 * HOUR, set: { is_noshow: true } } },
      { what: 'cancelled', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 7 } },
      { what: 'declined', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 3 } },
      { what: 'expired', spec: { businessId: b, startsAt: Date.now() - DAY, status: 6, broadcast: true } },
      { what: 'superseded', spec: { businessId: b, shifterId: sh.shifterId, startsAt: ahead, status: 4 } },
    ];
    const owner = await signedIn(biz);
    let cancels = 0;
    let unassigns = 0;
    for (const st of states) {
      for (const act of ['cancel', 'unassign'] as const) {
        const shift = await insertShift(st.spec);
        const text = mainOf((await owner.get(page(shift.id))).html);
        const offered = text.includes(page(shift.id, act));
        const confirm = mainOf((await owner.get(page(shift.id, act))).html);
        // The confirmation has a form that acts exactly when the page offers the act.
        expect(confirm.includes(`action="${page(shift.id, act)}`), `${st.what}, ${act}: the confirmation's form`).toBe(offered);
        const body = act === 'cancel' ? { as: 'business' } : {};
        const res = await call('POST', `/v1/shift_request/${shift.id}/${act}`, { key: biz.key, body });
        expect(res.status === 200, `${st.what}, ${act}: offered ${offered}, the service answered ${res.status}`).toBe(offered);
        if (!offered) {
          // Why not, in words: cancel always says; unassign says so where it concerns the shift (accepted, offered to one shifter).
          if (act === 'cancel') expect(text, st.what).toContain('It cannot be cancelled: ');
          else expect(text.includes('cannot be taken off it now: ') || !text.includes('Take '), st.what).toBe(true);
          expect((await readShift(shift.id))!.request_status).toBe(shift.request_status);
        }
        if (offered && act === 'cancel') cancels++;
        if (offered && act === 'unassign') unassigns++;
      }
    }
    // Cancel: the two pending, the two accepted ones ahead and the one whose start passed without a clock-in;
    // unassign: the accepted targeted one ahead only.
    expect(cancels).toBe(5);
    expect(unassigns).toBe(1);
  });
});

describe('links to a shift’s page', () => {
  it('from every shift of the schedule (its table and its calendar’s props) and of the clock board', async () => {
    const { biz, sh } = await makePair();
    const later = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + 9 * DAY });
    const running = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 30 * MINUTE,
      minutes: 240,
    });
    const b = await signedIn(biz);
    const href = (id: string) => `href="${page(id)}?business_id=${biz.businessId}"`;

    const schedule = await b.get(`/dashboard/schedule?date=${later.shift_date}`);
    expect(schedule.status).toBe(200);
    expect(schedule.html).toContain(href(later.id));
    const props = /data-island="schedule" data-props="([^"]*)"/.exec(schedule.html)?.[1];
    expect(JSON.parse(unescapeHtml(props!).replaceAll('&lt;', '<').replaceAll('&gt;', '>')).shiftHref).toBe(
      `/dashboard/shifts/{id}?business_id=${biz.businessId}`,
    );

    const board = await b.get('/dashboard/board');
    expect(board.status).toBe(200);
    expect(board.html).toContain(href(running.id));
  });
});
