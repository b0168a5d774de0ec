import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices, timesheets } from '../../src/db/schema';
import { dateInZone, timeInZone } from '../../src/lib/shift-time';
import { clockIn, clockOut } from '../../src/services/shifts';
import { contextAt } from '../helpers/clock';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { HOUR, insertShift, MINUTE, makePair, NY } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';
import { timesheetIdOf } from '../helpers/timesheets';

/*
 * The timesheet pages: the business's week (/dashboard/timesheets) and one timesheet's page, the
 * shifter's timesheets (/dashboard/shifter/timesheets) with their dispute form, and the plain
 * clock-out's breaks and note. Every form is posted as a browser would, and the HTML is read back.
 */

const invoiceOf = async (shiftId: string) => (await db().select().from(invoices).where(eq(invoices.shift_request_id, shiftId)))[0];

/** A shift of a new pair that ran 4 h to 1 h ago, punched in and out through the services: submitted now. */
async function submittedShift() {
  const { biz, sh } = await makePair();
  const start = Math.floor((Date.now() - 4 * HOUR) / MINUTE) * MINUTE;
  const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: start, minutes: 180 });
  await clockIn(contextAt(start + 2 * MINUTE, sh), shift.id, {});
  await clockOut(contextAt(start + 181 * MINUTE, sh), shift.id, { break_attestation: 'taken' });
  const id = (await timesheetIdOf(shift.id))!;
  return { biz, sh, shift, id, week: dateInZone(start, NY) };
}

/** The value of a field of the first form posting to `action`. */
function fieldValue(html: string, action: string, name: string): string {
  const start = html.indexOf(`action="${action}`);
  expect(start, `a form posting to ${action}`).toBeGreaterThan(-1);
  const form = html.slice(start, html.indexOf('</form>', start));
  return new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(form)?.[1] ?? '';
}

describe('the business’s timesheets', () => {
  it('shows the owner a submitted timesheet with its pay and approves it: the invoice is written', async () => {
    const { biz, sh, shift, id, week } = await submittedShift();
    const b = await signedIn(biz);
    const page = await b.get(`/dashboard/timesheets?week=${week}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('aria-current="page">Timesheets</a>');
    expect(page.html).toContain(sh.name ?? '');
    expect(page.html).toContain('Waiting for approval');
    expect(page.html).toContain('breaks taken in full');
    expect(page.html).toContain('>Pay</th>');
    expect(page.html).toContain('Approve all without issues');
    expect(page.html).toContain(`/dashboard/timesheets/${id}`);
    expect(page.html).not.toMatch(/break_attestation|worked_minutes|allowed_actions/);
    expect(await invoiceOf(shift.id)).toBeUndefined();

    const approved = await b.post(`/dashboard/timesheets/${id}/approve?business_id=${biz.businessId}&week=${week}`, {
      _idem: crypto.randomUUID(),
    });
    expect(approved.status, approved.html.slice(0, 300)).toBe(303);
    expect(await invoiceOf(shift.id)).toBeDefined();
    const after = await b.get(approved.headers.get('location')!);
    expect(after.html).toContain('The timesheet was approved');
    expect(after.html).toContain('>Approved<');
    expect(after.html).not.toContain('Approve all without issues');
  });

  it('approves every timesheet without issues from one form and says how many', async () => {
    const { biz, shift, id, week } = await submittedShift();
    const b = await signedIn(biz);
    const page = await b.get(`/dashboard/timesheets?week=${week}`);
    const action = `/dashboard/timesheets/approve-all?business_id=${biz.businessId}`;
    expect(fieldValue(page.html, action, 'ids')).toBe(id);
    const res = await b.post(`/dashboard/timesheets/approve-all?business_id=${biz.businessId}&week=${week}`, {
      _idem: crypto.randomUUID(),
      ids: id,
    });
    expect(res.status).toBe(200);
    expect(res.html).toContain('1 timesheet(s) approved.');
    expect(await invoiceOf(shift.id)).toBeDefined();
  });

  it('shows an active teammate the times but no pay', async () => {
    const { biz, id, week } = await submittedShift();
    const mate = await makeUser({ name: 'Timesheet Mate' });
    await addTeammate(biz.businessId!, mate.userId);
    const t = await signedIn(mate);
    const page = await t.get(`/dashboard/timesheets?business_id=${biz.businessId}&week=${week}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Waiting for approval');
    expect(page.html).not.toContain('>Pay</th>');
    expect(page.html).not.toMatch(/\$\d/);
    const one = await t.get(`/dashboard/timesheets/${id}?business_id=${biz.businessId}`);
    expect(one.status).toBe(200);
    expect(one.html).not.toContain('<dt>Pay</dt>');
  });

  it('gives a stranger a 404 for the page and its forms', async () => {
    const { shift, id } = await submittedShift();
    const stranger = await makeUser({ business: true });
    const s = await signedIn(stranger);
    expect((await s.get(`/dashboard/timesheets/${id}`)).status).toBe(404);
    expect((await s.post(`/dashboard/timesheets/${id}/approve`, { _idem: crypto.randomUUID() })).status).toBe(404);
    expect(await invoiceOf(shift.id)).toBeUndefined();
  });
});

describe('the worker’s timesheets: a dispute and its answer', () => {
  it('the worker disputes from their page, the owner turns it down with a reason, the worker reads it', async () => {
    const { biz, sh, id } = await submittedShift();
    const w = await signedIn(sh);
    const mine = await w.get('/dashboard/shifter/timesheets');
    expect(mine.status).toBe(200);
    expect(mine.html).toContain('aria-current="page">Timesheets</a>');
    expect(mine.html).toContain('Waiting for approval');
    expect(mine.html).toContain('Dispute until');
    const action = `/dashboard/shifter/timesheets/${id}/dispute`;
    const inAt = fieldValue(mine.html, action, 'in_at');
    const outAt = fieldValue(mine.html, action, 'out_at');
    expect(inAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);

    // Without a reason: shown again, the message beside the field.
    const missing = await w.post(action, { _idem: crypto.randomUUID(), in_at: inAt, out_at: outAt, unpaid_break_minutes: '0', reason: '' });
    expect(missing.status).toBe(400);
    expect(missing.html).toContain('Say what is not right');

    const sent = await w.post(action, {
      _idem: crypto.randomUUID(),
      in_at: inAt,
      out_at: outAt,
      unpaid_break_minutes: '0',
      reason: 'I started ten minutes before the punch',
    });
    expect(sent.status, sent.html.slice(0, 300)).toBe(303);

    const b = await signedIn(biz);
    const detail = await b.get(`/dashboard/timesheets/${id}?business_id=${biz.businessId}`);
    expect(detail.html).toContain('The worker&#39;s dispute');
    expect(detail.html).toContain('I started ten minutes before the punch');
    expect(detail.html).toContain('Answer by');
    expect(detail.html).toContain('Turn it down');
    expect(detail.html).not.toContain('Change the times');

    const resolve = `/dashboard/timesheets/${id}/resolve?business_id=${biz.businessId}`;
    const noReason = await b.post(resolve, { _idem: crypto.randomUUID(), decision: 'reject', note: '' });
    expect(noReason.status).toBe(400);
    expect(noReason.html).toContain('Say why you turn it down');
    const rejected = await b.post(resolve, { _idem: crypto.randomUUID(), decision: 'reject', note: 'The door camera shows 09:02' });
    expect(rejected.status, rejected.html.slice(0, 300)).toBe(303);

    const read = await w.get('/dashboard/shifter/timesheets');
    expect(read.html).toContain('turned down');
    expect(read.html).toContain('The door camera shows 09:02');
    // Turned down, the timesheet waits for the owner's approval; the worker may still dispute it in their window.
    expect(read.html).toContain('Waiting for approval');
  });

  it('the owner accepts a dispute: the worker’s times are approved and invoiced', async () => {
    const { biz, sh, shift, id } = await submittedShift();
    const w = await signedIn(sh);
    const mine = await w.get('/dashboard/shifter/timesheets');
    const action = `/dashboard/shifter/timesheets/${id}/dispute`;
    const sent = await w.post(action, {
      _idem: crypto.randomUUID(),
      in_at: fieldValue(mine.html, action, 'in_at'),
      out_at: fieldValue(mine.html, action, 'out_at'),
      unpaid_break_minutes: '0',
      reason: 'Stayed to close',
    });
    expect(sent.status).toBe(303);
    const b = await signedIn(biz);
    const accepted = await b.post(`/dashboard/timesheets/${id}/resolve?business_id=${biz.businessId}`, {
      _idem: crypto.randomUUID(),
      decision: 'accept',
    });
    expect(accepted.status, accepted.html.slice(0, 300)).toBe(303);
    expect(await invoiceOf(shift.id)).toBeDefined();
    const read = await w.get('/dashboard/shifter/timesheets');
    expect(read.html).toContain('accepted: your times were approved');
  });
});

describe('the plain clock-out: a break and a note', () => {
  it('sends one unpaid break, the attestation and the note with the clock-out; a half-given break is refused in words', async () => {
    const { biz, sh } = await makePair();
    const start = Math.floor((Date.now() - 2 * HOUR) / MINUTE) * MINUTE;
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: start, minutes: 180 });
    await clockIn(contextAt(start + MINUTE, sh), shift.id, {});
    const w = await signedIn(sh);
    const clock = await w.get('/dashboard/shifter/clock');
    expect(clock.html).toContain('Unpaid break from');
    expect(clock.html).toContain('I took my breaks in full');

    const half = await w.post(`/dashboard/shifter/clock/${shift.id}/out`, {
      _idem: crypto.randomUUID(),
      break_start: timeInZone(start + 30 * MINUTE, NY),
    });
    expect(half.status).toBe(422);
    expect(half.html).toContain('Give both the start and the end of the break');

    const out = await w.post(`/dashboard/shifter/clock/${shift.id}/out`, {
      _idem: crypto.randomUUID(),
      break_start: timeInZone(start + 30 * MINUTE, NY),
      break_end: timeInZone(start + 45 * MINUTE, NY),
      break_attestation: 'short',
      note: 'Rush at noon',
    });
    expect(out.status, out.html.slice(0, 300)).toBe(303);
    const [row] = await db().select().from(timesheets).where(eq(timesheets.shift_request_id, shift.id));
    expect(row).toMatchObject({ status: 'submitted', unpaid_break_minutes: 15, break_attestation: 'short', worker_note: 'Rush at noon' });
  });
});
