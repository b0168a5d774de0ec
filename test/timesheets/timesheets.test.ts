import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, invoices, timesheets } from '../../src/db/schema';
import { wallClockToInstant } from '../../src/lib/shift-time';
import type { ServiceContext } from '../../src/services/kernel';
import { clockIn, clockOut } from '../../src/services/shifts';
import {
  approveTimesheet,
  disputeTimesheet,
  editTimesheet,
  getTimesheet,
  listBusinessTimesheets,
  resolveDispute,
  sweepTimesheets,
} from '../../src/services/timesheets';
import { call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { addTeammate, db, makeUser, type TestUser } from '../helpers/factory';
import { auditFor, HOUR, insertShift, MINUTE, makePair, NY } from '../helpers/shifts';
import { timesheetIdOf } from '../helpers/timesheets';
import { expectAppError } from '../helpers/two-factor';

/**
 * Timesheets (docs/decisions/timesheets.md): the punch, the breaks the worker attests, the business's
 * edit and the worker's dispute, the deadlines, and only approved time invoiced. Every instant is
 * injected (fixed dates, in New York), so nothing depends on today.
 */

const at = (when: number, user: TestUser): ServiceContext => contextAt(when, user);
const system = (when: number, user: TestUser): ServiceContext => ({ ...contextAt(when, user), actor: { kind: 'system', job: 'test' } });
const ny = (date: string, time: string) => wallClockToInstant(date, time, NY);
const iso = (ms: number) => new Date(ms).toISOString();
const invoiceOf = async (shiftId: string) => (await db().select().from(invoices).where(eq(invoices.shift_request_id, shiftId)))[0];
const rowOf = async (id: string) => (await db().select().from(timesheets).where(eq(timesheets.id, id)))[0]!;

/** An accepted shift of a new pair on a fixed date in New York. */
async function shiftOn(date: string, shiftIn: string, shiftOut: string, rateMinor = 2137, business: Record<string, unknown> = {}) {
  const { biz, sh } = await makePair({ business });
  const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, date, in: shiftIn, out: shiftOut, rateMinor });
  return { biz, sh, shift };
}

describe('a day on the clock, edited, disputed and left unanswered', () => {
  it('in 08:03, out 16:40 with a 30-minute break; edited to 16:30; disputed 11 h later; 72 h on, the worker’s times are approved and invoiced', async () => {
    const date = '2026-06-10'; // a Wednesday
    const { biz, sh, shift } = await shiftOn(date, '08:00', '16:30');
    await clockIn(at(ny(date, '08:03'), sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    expect((await rowOf(id)).status).toBe('open');

    const outAt = ny(date, '16:40');
    await clockOut(at(outAt, sh), shift.id, {
      breaks: [{ start: iso(ny(date, '12:00')), end: iso(ny(date, '12:30')), paid: false }],
      break_attestation: 'taken',
      note: 'Closed the till',
    });
    const submitted = await getTimesheet(at(outAt, biz), id);
    expect(submitted).toMatchObject({
      status: 'submitted',
      in_at: iso(ny(date, '08:03')),
      out_at: iso(outAt),
      unpaid_break_minutes: 30,
      break_attestation: 'taken',
      worker_note: 'Closed the till',
      left_early: false,
      worked_minutes: 8 * 60 + 37 - 30,
      dispute_until: iso(outAt + 12 * HOUR),
      // Nobody answers: it approves itself at the period's lock, Monday 23:59 in New York.
      auto_approve_at: iso(ny('2026-06-15', '23:59')),
      issues: [],
    });
    expect(submitted.allowed_actions).toEqual(['approve', 'edit']);
    // Nothing is invoiced before approval.
    expect(await invoiceOf(shift.id)).toBeUndefined();

    const editAt = outAt + HOUR;
    const edited = await editTimesheet(at(editAt, biz), id, { out_at: iso(ny(date, '16:30')), reason: 'early_release' });
    expect(edited).toMatchObject({ out_at: iso(ny(date, '16:30')), worked_minutes: 8 * 60 + 27 - 30, edit: { reason: 'early_release' } });
    expect(edited.dispute_until).toBe(iso(editAt + 12 * HOUR));
    // The punch itself is kept as made.
    expect(edited.punched_out_at).toBe(iso(outAt));
    // Approval waits for the worker's window on the edit.
    const wait = await expectAppError(approveTimesheet(at(editAt + MINUTE, biz), id), 'TIMESHEET-WINDOW-ERR');
    expect(wait.status).toBe(409);

    const disputeAt = editAt + 11 * HOUR;
    const disputed = await disputeTimesheet(at(disputeAt, sh), id, {
      in_at: iso(ny(date, '08:03')),
      out_at: iso(outAt),
      unpaid_break_minutes: 30,
      reason: 'I closed the till at 16:40; the photo shows the time.',
    });
    expect(disputed.dispute).toMatchObject({ status: 'open', answer_due_at: iso(disputeAt + 72 * HOUR) });
    expect(disputed.allowed_actions).toEqual([]);
    expect((await getTimesheet(at(disputeAt, biz), id)).allowed_actions).toEqual(['resolve']);
    await expectAppError(approveTimesheet(at(disputeAt + MINUTE, biz), id), 'TIMESHEET-STATE-ERR');

    // A minute before the deadline, nothing; at it, the dispute resolves for the worker and approves.
    expect(await sweepTimesheets(system(disputeAt + 72 * HOUR - MINUTE, biz))).toEqual({ approved: 0, disputes: 0 });
    expect(await sweepTimesheets(system(disputeAt + 72 * HOUR, biz))).toEqual({ approved: 0, disputes: 1 });
    const settled = await getTimesheet(at(disputeAt + 72 * HOUR, biz), id);
    expect(settled).toMatchObject({
      status: 'approved',
      approved_how: 'dispute_overdue',
      out_at: iso(outAt),
      worked_minutes: 487,
      dispute: { status: 'resolved_for_worker' },
    });
    // 8 h 37 min less the 30-minute break: 487 minutes × $21.37/h = 17345.32 cents, rounded once.
    expect((await invoiceOf(shift.id))!.amount_minor).toBe(17345);
    expect(settled.pay).toBe(173.45);

    // Approved: never rewritten.
    const locked = await expectAppError(
      editTimesheet(at(disputeAt + 73 * HOUR, biz), id, { out_at: iso(ny(date, '16:00')), reason: 'other', note: 'late fix' }),
      'TIMESHEET-LOCKED-ERR',
    );
    expect(locked.status).toBe(409);
    const actions = ['timesheet.edit', 'timesheet.dispute', 'timesheet.dispute_overdue'];
    for (const a of actions) expect(await auditFor(id, a), a).toHaveLength(1);
  });
});

describe('the worker leaves when they stop working', () => {
  it('an early clock-out is accepted and shown as early; approval invoices the worked time, not the schedule', async () => {
    const date = '2026-06-11';
    const { biz, sh, shift } = await shiftOn(date, '09:00', '17:00', 2000);
    await clockIn(at(ny(date, '09:00'), sh), shift.id, {});
    await clockOut(at(ny(date, '13:00'), sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    const ts = await getTimesheet(at(ny(date, '13:05'), biz), id);
    expect(ts).toMatchObject({ left_early: true, worked_minutes: 240, issues: ['left_early'] });
    const approved = await approveTimesheet(at(ny(date, '13:05'), biz), id);
    expect(approved).toMatchObject({ status: 'approved', approved_how: 'business', pay: 80 });
    expect((await invoiceOf(shift.id))!.amount_minor).toBe(8000);
    // Approving again answers the same, and writes nothing more.
    expect((await approveTimesheet(at(ny(date, '14:00'), biz), id)).approved_at).toBe(approved.approved_at);
    expect(await auditFor(id, 'timesheet.approve')).toHaveLength(1);
  });

  it('rounds in and out to the nearest 15 minutes when the business says so, never only up or down', async () => {
    const date = '2026-06-12';
    const { biz, sh, shift } = await shiftOn(date, '08:00', '17:00', 2000);
    await db().update(businesses).set({ timesheet_rounding_minutes: 15 }).where(eq(businesses.id, biz.businessId!));
    await clockIn(at(ny(date, '08:07'), sh), shift.id, {});
    await clockOut(at(ny(date, '16:53'), sh), shift.id, {});
    const ts = await getTimesheet(at(ny(date, '17:00'), biz), (await timesheetIdOf(shift.id))!);
    expect(ts).toMatchObject({ rounded_in_at: iso(ny(date, '08:00')), rounded_out_at: iso(ny(date, '17:00')), worked_minutes: 540 });
    const near = await shiftOn(date, '08:00', '17:00', 2000);
    await db().update(businesses).set({ timesheet_rounding_minutes: 15 }).where(eq(businesses.id, near.biz.businessId!));
    await clockIn(at(ny(date, '08:08'), near.sh), near.shift.id, {});
    await clockOut(at(ny(date, '16:52'), near.sh), near.shift.id, {});
    const other = await getTimesheet(at(ny(date, '17:00'), near.biz), (await timesheetIdOf(near.shift.id))!);
    expect(other).toMatchObject({ rounded_in_at: iso(ny(date, '08:15')), rounded_out_at: iso(ny(date, '16:45')), worked_minutes: 510 });
  });
});

describe('nights the clocks change are paid their real hours', () => {
  for (const [name, date, minutes] of [
    ['back (November)', '2026-11-01', 9 * 60],
    ['forward (March)', '2026-03-08', 7 * 60],
  ] as const) {
    it(`00:00–08:00 on the night the clocks go ${name} is ${minutes / 60} hours`, async () => {
      const { biz, sh, shift } = await shiftOn(date, '00:00', '08:00', 2000);
      await clockIn(at(shift.starts_at, sh), shift.id, {});
      await clockOut(at(shift.ends_at, sh), shift.id, {});
      const approved = await approveTimesheet(at(shift.ends_at + HOUR, biz), (await timesheetIdOf(shift.id))!);
      expect(approved.worked_minutes).toBe(minutes);
      expect((await invoiceOf(shift.id))!.amount_minor).toBe((minutes / 60) * 2000);
    });
  }
});

describe('deadlines and rules', () => {
  it('an unanswered timesheet approves itself at its period’s lock, Monday 23:59 local, the week of its start', async () => {
    // Sunday 20:00 to Monday 02:00: it belongs to the week it starts in.
    const { biz, sh, shift } = await shiftOn('2026-06-14', '20:00', '02:00', 2000);
    await clockIn(at(shift.starts_at, sh), shift.id, {});
    await clockOut(at(shift.ends_at, sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    const lock = ny('2026-06-15', '23:59');
    expect((await getTimesheet(at(shift.ends_at, biz), id)).period_start).toBe('2026-06-08');
    await sweepTimesheets(system(lock - MINUTE, biz));
    expect((await rowOf(id)).status).toBe('submitted');
    await sweepTimesheets(system(lock, biz));
    expect(await rowOf(id)).toMatchObject({ status: 'approved', approved_how: 'auto', paid_minutes: 360 });
    expect((await invoiceOf(shift.id))!.amount_minor).toBe(12000);
  });

  it('an edit of more than 2 hours needs the worker’s consent; a rejected dispute keeps the times and the business then approves', async () => {
    const date = '2026-06-16';
    const { biz, sh, shift } = await shiftOn(date, '09:00', '17:00', 2000);
    await clockIn(at(ny(date, '09:00'), sh), shift.id, {});
    await clockOut(at(ny(date, '17:00'), sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    await expectAppError(
      editTimesheet(at(ny(date, '18:00'), biz), id, { out_at: iso(ny(date, '14:59')), reason: 'sent_home' }),
      'TIMESHEET-CONSENT-ERR',
    );
    await disputeTimesheet(at(ny(date, '18:00'), sh), id, {
      in_at: iso(ny(date, '08:30')),
      out_at: iso(ny(date, '17:00')),
      reason: 'came early',
    });
    // The worker cannot approve nor answer; the business cannot dispute.
    await expectAppError(approveTimesheet(at(ny(date, '18:01'), sh), id), 'FORBIDDEN-ERR');
    await expectAppError(resolveDispute(at(ny(date, '18:01'), sh), id, { decision: 'accept' }), 'FORBIDDEN-ERR');
    const rejected = await resolveDispute(at(ny(date, '19:00'), biz), id, { decision: 'reject', note: 'The door log says 09:00.' });
    expect(rejected).toMatchObject({ status: 'submitted', in_at: iso(ny(date, '09:00')), dispute: { status: 'rejected' } });
    expect(rejected.allowed_actions).toContain('approve');
    expect((await approveTimesheet(at(ny(date, '19:01'), biz), id)).worked_minutes).toBe(480);
  });

  it('an accepted dispute puts the worker’s times on it and approves them in one write', async () => {
    const date = '2026-06-17';
    const { biz, sh, shift } = await shiftOn(date, '09:00', '17:00', 2000);
    await clockIn(at(ny(date, '09:00'), sh), shift.id, {});
    await clockOut(at(ny(date, '16:00'), sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    await disputeTimesheet(at(ny(date, '17:00'), sh), id, {
      in_at: iso(ny(date, '09:00')),
      out_at: iso(ny(date, '17:00')),
      reason: 'forgot',
    });
    const accepted = await resolveDispute(at(ny(date, '18:00'), biz), id, { decision: 'accept' });
    expect(accepted).toMatchObject({ status: 'approved', worked_minutes: 480, dispute: { status: 'accepted' } });
    expect((await invoiceOf(shift.id))!.amount_minor).toBe(16000);
  });

  it('the worker’s window to dispute closes after 12 hours', async () => {
    const date = '2026-06-18';
    const { sh, shift } = await shiftOn(date, '09:00', '17:00', 2000);
    await clockIn(at(ny(date, '09:00'), sh), shift.id, {});
    await clockOut(at(ny(date, '17:00'), sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    const body = { in_at: iso(ny(date, '09:00')), out_at: iso(ny(date, '18:00')), reason: 'late' };
    await expectAppError(disputeTimesheet(at(ny(date, '17:00') + 12 * HOUR + MINUTE, sh), id, body), 'TIMESHEET-WINDOW-ERR');
  });

  it('twenty approvals at once make one approval and one invoice', async () => {
    const date = '2026-06-19';
    const { biz, sh, shift } = await shiftOn(date, '09:00', '17:00', 2000);
    await clockIn(at(ny(date, '09:00'), sh), shift.id, {});
    await clockOut(at(ny(date, '17:00'), sh), shift.id, {});
    const id = (await timesheetIdOf(shift.id))!;
    const all = await Promise.all(Array.from({ length: 20 }, () => approveTimesheet(at(ny(date, '18:00'), biz), id)));
    expect(new Set(all.map((t) => t.status))).toEqual(new Set(['approved']));
    expect(await db().select().from(invoices).where(eq(invoices.shift_request_id, shift.id))).toHaveLength(1);
    expect(await auditFor(id, 'timesheet.approve')).toHaveLength(1);
  });
});

describe('over HTTP', () => {
  it('lists by period and status, hides pay from a teammate and the timesheet from strangers, and replays a keyed approval', async () => {
    const { biz, sh } = await makePair();
    const start = Date.now() - 5 * HOUR;
    const shift = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: start, minutes: 240 });
    const inAt = start + 2 * MINUTE;
    await clockIn(at(inAt, sh), shift.id, {});
    const out = await call('POST', `/v1/shift_request/${shift.id}/clock_out`, {
      key: sh.key,
      body: { breaks: [{ start: iso(inAt + HOUR), end: iso(inAt + HOUR + 15 * MINUTE), paid: true }], break_attestation: 'taken' },
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const id = (await timesheetIdOf(shift.id))!;

    const list = await call('GET', `/v1/business/${biz.businessId}/timesheets`, { key: biz.key, query: { status: 'submitted' } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    expect(list.body.data[0].breaks).toEqual([{ start_at: iso(inAt + HOUR), end_at: iso(inAt + HOUR + 15 * MINUTE), paid: true }]);
    const none = await call('GET', `/v1/business/${biz.businessId}/timesheets`, { key: biz.key, query: { status: 'approved' } });
    expect(none.body.data).toEqual([]);

    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId, 1);
    const seen = await call('GET', `/v1/timesheets/${id}`, { key: mate.key });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ pay: null, hourly_rate: null });
    const stranger = await makeUser({ business: true });
    expectError(await call('GET', `/v1/timesheets/${id}`, { key: stranger.key }), 404, 'TIMESHEET-NOT-FND-ERR');
    expectError(await call('PUT', `/v1/timesheets/${id}/approve`, { key: stranger.key }), 404, 'TIMESHEET-NOT-FND-ERR');
    expectError(await call('PUT', `/v1/timesheets/${id}/approve`, { key: sh.key }), 403, 'FORBIDDEN-ERR');
    expectError(await call('PUT', `/v1/timesheets/${id}/edit`, { key: biz.key, body: { reason: 'other' } }), 400, 'VALIDATION-ERR');

    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await call('PUT', `/v1/timesheets/${id}/approve`, { key: biz.key, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.status).toBe('approved');
    const again = await call('PUT', `/v1/timesheets/${id}/approve`, { key: biz.key, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expectError(
      await call('POST', `/v1/timesheets/${id}/dispute`, {
        key: sh.key,
        body: { in_at: iso(inAt), out_at: iso(inAt + 3 * HOUR), reason: 'x' },
      }),
      409,
      'TIMESHEET-LOCKED-ERR',
    );
    const mine = await call('GET', `/v1/shifter/${sh.shifterId}/timesheets`, { key: sh.key });
    expect(mine.body.data[0]).toMatchObject({ id, status: 'approved' });
    expect((await listBusinessTimesheets(at(Date.now(), biz), biz.businessId!, { limit: 10 })).data).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(invoices)
        .where(and(eq(invoices.shift_request_id, shift.id))),
    ).toHaveLength(1);
  });
});
