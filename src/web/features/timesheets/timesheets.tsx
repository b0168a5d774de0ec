/**
 * The business's timesheets ({app_url}/dashboard/timesheets): the week's timesheets of the chosen
 * business (picked by `?week=`, this week by default), each with its scheduled and counted times,
 * breaks, worked hours, pay (for those who see pay), issues and status; Approve where the timesheet
 * allows it, and "Approve all without issues". Each opens its own page (/dashboard/timesheets/{id})
 * with the punches, the edit form and the worker's open dispute with its answer. Every action goes
 * through the timesheet services, which decide what is allowed (`allowed_actions`).
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { addDays, dateInZone, isValidDate, mondayOf, todayIn } from '@/lib/shift-time';
import {
  approveTimesheet,
  EDIT_REASONS,
  editTimesheet,
  editTimesheetInput,
  getTimesheet,
  listBusinessTimesheets,
  resolveDispute,
  resolveDisputeInput,
  type TimesheetView,
} from '@/services/timesheets';
import { CsrfField, IdempotencyField, InputField, SelectField, SubmitButton, TableWrap, TextareaField } from '@/web/components';
import { dateTimeIn, formatDate, formatMoney, timeIn } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { SmallTable } from '@/web/table';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { noticeOf, refusalOf, schemaRefusal } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import {
  APPROVED_HOW_WORDS,
  ATTESTATION_WORDS,
  BUSINESS_TIMESHEETS,
  DISPUTE_STATUS_WORDS,
  instantOfLocal,
  issuesWords,
  localInput,
  REASON_WORDS,
  STATUS_WORDS,
  workedWords,
} from './timesheet-words';

const NOTICES = {
  approved: 'The timesheet was approved: its invoice is written.',
  edited: 'The timesheet was changed. The worker is told and may dispute it.',
  accepted: "The worker's times were accepted and the timesheet approved.",
  rejected: 'The dispute was turned down: the worker reads your reason. Approve the timesheet when ready.',
};

const detailPath = (id: string) => `${BUSINESS_TIMESHEETS}/${encodeURIComponent(id)}`;

/** "09:00–17:00" on the business's clock; a dash for an end not punched yet. */
const span = (start: string, end: string | null, tz: string) => `${timeIn(start, tz)}–${end ? timeIn(end, tz) : '…'}`;

export function breaksWords(t: TimesheetView): string {
  const unpaid = t.unpaid_break_minutes ? `${t.unpaid_break_minutes} min unpaid` : 'no unpaid break';
  const paid = t.breaks.filter((b) => b.paid).length;
  const att = t.break_attestation ? `, ${ATTESTATION_WORDS[t.break_attestation]}` : '';
  return `${unpaid}${paid ? `, ${paid} paid` : ''}${att}`;
}

const payWords = (t: TimesheetView) => (t.pay === null ? null : formatMoney(t.pay, t.currency));

// ── The week ────────────────────────────────────────────────────────────────────────────────────

function WeekView(props: {
  base: DashboardBase;
  week: string;
  weekError?: string | undefined;
  list: TimesheetView[];
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { base, week, list } = props;
  const tz = base.business!.timezone;
  const showPay = list.some((t) => t.pay !== null);
  const clean = list.filter((t) => t.allowed_actions.includes('approve') && t.issues.length === 0);
  const weekHref = (w: string) => dashboardHref(base, BUSINESS_TIMESHEETS, { week: w });
  const columns = [
    {
      head: 'Person',
      class: 'stack-name',
      cell: (t: TimesheetView) => (
        <a href={dashboardHref(base, detailPath(t.id))}>
          {t.shifter_name ?? 'A shifter'}
          {t.role ? ` · ${t.role}` : ''}
        </a>
      ),
    },
    { head: 'Day', cell: (t: TimesheetView) => formatDate(dateInZone(Date.parse(t.scheduled_start_at), tz)) },
    { head: 'Scheduled', cell: (t: TimesheetView) => span(t.scheduled_start_at, t.scheduled_end_at, tz) },
    { head: 'Counted', cell: (t: TimesheetView) => span(t.in_at, t.out_at, tz) },
    { head: 'Breaks', cell: (t: TimesheetView) => breaksWords(t) },
    { head: 'Worked', num: true, cell: (t: TimesheetView) => workedWords(t.worked_minutes) },
    ...(showPay ? [{ head: 'Pay', num: true, cell: (t: TimesheetView) => payWords(t) ?? '–' }] : []),
    { head: 'Issues', cell: (t: TimesheetView) => issuesWords(t) },
    { head: 'Status', cell: (t: TimesheetView) => STATUS_WORDS[t.status] },
    {
      head: 'Action',
      class: 'stack-end',
      cell: (t: TimesheetView) =>
        t.allowed_actions.includes('approve') ? (
          <form method="post" action={dashboardHref(base, `${detailPath(t.id)}/approve`, { week })} class="inline-form">
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <button type="submit" class="button button-secondary">
              Approve
              <span class="visually-hidden">{` ${t.shifter_name ?? 'the shifter'}, ${formatDate(dateInZone(Date.parse(t.scheduled_start_at), tz))}`}</span>
            </button>
          </form>
        ) : (
          <a href={dashboardHref(base, detailPath(t.id))}>
            Open<span class="visually-hidden">{` the timesheet of ${t.shifter_name ?? 'the shifter'}`}</span>
          </a>
        ),
    },
  ] as const;
  return (
    <AppShell base={base} title="Timesheets" current={BUSINESS_TIMESHEETS} notice={props.notice} error={props.error}>
      <section class="card" aria-labelledby="week-head">
        <h2 id="week-head">{`Week of ${formatDate(week)}`}</h2>
        <form method="get" action={BUSINESS_TIMESHEETS} class="inline-fields" aria-label="Choose the week">
          <input type="hidden" name="business_id" value={base.business!.id} />
          <InputField
            label="Week of"
            name="week"
            id="field-week"
            type="date"
            value={week}
            error={props.weekError}
            hint="Any day of the week; weeks start on Monday."
          />
          <SubmitButton variant="secondary">Show the week</SubmitButton>
        </form>
        <nav aria-label="Other weeks" class="pager">
          <a href={weekHref(addDays(week, -7))}>Previous week</a>
          <a href={weekHref(addDays(week, 7))}>Next week</a>
        </nav>
        <p class="aside">{`Times in ${tz}. Only approved time is invoiced and paid.`}</p>
        {list.length ? (
          <TableWrap label="The week's timesheets">
            <SmallTable caption="The week's timesheets" class="timesheet-table" columns={columns} rows={list} />
          </TableWrap>
        ) : (
          <p class="empty">No timesheet this week: a timesheet starts when a shifter clocks in.</p>
        )}
        {clean.length ? (
          <form method="post" action={dashboardHref(base, `${BUSINESS_TIMESHEETS}/approve-all`, { week })}>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <input type="hidden" name="ids" value={clean.map((t) => t.id).join(',')} />
            <p class="hint" id="approve-all-hint">{`${clean.length} timesheet(s) waiting for approval have no issue to look at.`}</p>
            <button type="submit" class="button button-primary" aria-describedby="approve-all-hint">
              Approve all without issues
            </button>
          </form>
        ) : null}
      </section>
    </AppShell>
  );
}

function weekOf(c: Context<AppEnv>, tz: string): { week: string; error?: string } {
  const asked = (c.req.query('week') ?? '').slice(0, 10);
  if (asked && isValidDate(asked)) return { week: mondayOf(asked) };
  const week = mondayOf(todayIn(tz, serviceCtx(c).now()));
  return asked ? { week, error: 'Enter a date as YYYY-MM-DD.' } : { week };
}

export async function renderTimesheets(c: Context<AppEnv>, opts: { error?: string; notice?: string } = {}): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const { week, error: weekError } = weekOf(c, base.business.timezone);
  const list = await listBusinessTimesheets(serviceCtx(c), base.business.id, { period: week, limit: 50 });
  const sorted = [...list.data].sort((a, b) => a.scheduled_start_at.localeCompare(b.scheduled_start_at));
  return renderPage(
    c,
    <WeekView
      base={base}
      week={week}
      weekError={weekError}
      list={sorted}
      notice={opts.notice ?? (opts.error ? undefined : noticeOf(c, NOTICES))}
      error={opts.error}
    />,
    weekError ? 400 : 200,
  );
}

/** POST /dashboard/timesheets/{id}/approve: through approveTimesheet, back to the week. */
export async function postApprove(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const id = c.req.param('id') ?? '';
  const week = (c.req.query('week') ?? '').slice(0, 10);
  try {
    await approveTimesheet(serviceCtx(c), id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 404) return renderError(c, 404, 'Not found', 'There is no such timesheet of this business.');
    return renderTimesheets(c, { error: `The timesheet was not approved: ${err.message}` });
  }
  return c.redirect(
    week
      ? dashboardHref(base, BUSINESS_TIMESHEETS, { week, notice: 'approved' })
      : dashboardHref(base, detailPath(id), { notice: 'approved' }),
    303,
  );
}

/** POST /dashboard/timesheets/approve-all: each id approved through approveTimesheet; says how many. */
export async function postApproveAll(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const f = await formFields(c);
  const ids = [
    ...new Set(
      f('ids', 50 * 40)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ].slice(0, 50);
  const ctx = serviceCtx(c);
  let approved = 0;
  const refused: string[] = [];
  for (const id of ids) {
    try {
      // Only those still without an issue: the list may have changed since the page was shown.
      const t = await getTimesheet(ctx, id);
      if (t.business_id !== base.business.id || t.issues.length || !t.allowed_actions.includes('approve')) {
        refused.push(t.shifter_name ?? 'a shifter');
        continue;
      }
      await approveTimesheet(ctx, id);
      approved += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refused.push('a timesheet');
    }
  }
  const notice = `${approved} timesheet(s) approved.${refused.length ? ` ${refused.length} left to look at: they changed since the page was shown.` : ''}`;
  return renderTimesheets(c, { notice });
}

// ── One timesheet ───────────────────────────────────────────────────────────────────────────────

const EDIT_FIELDS = ['in_at', 'out_at', 'reason', 'note'] as const;
type EditField = (typeof EDIT_FIELDS)[number];
const RESOLVE_FIELDS = ['note'] as const;

interface EditState {
  values: Record<EditField, string>;
  errors: Partial<Record<EditField, string>>;
  idem?: string;
}
interface ResolveState {
  note: string;
  error?: string | undefined;
  idem?: string;
}

function Punches({ t, tz }: { t: TimesheetView; tz: string }) {
  const side = (label: string, at: string | null, distance: number | null, offline: boolean, photo: string | null) => (
    <>
      <dt>{label}</dt>
      <dd>
        {at ? <time datetime={at}>{dateTimeIn(at, tz)}</time> : 'Not yet'}
        {distance !== null ? `, ${distance} m from the business` : at ? ', no position' : ''}
        {offline ? <span class="badge badge-warn"> Made offline: the phone's time</span> : null}
        {photo ? (
          <>
            {' '}
            <a href={photo}>{`Photo at ${label.toLowerCase()}`}</a>
          </>
        ) : null}
      </dd>
    </>
  );
  return (
    <section class="card" aria-labelledby="punches-head">
      <h2 id="punches-head">Punches</h2>
      <dl class="pairs">
        <dt>Scheduled</dt>
        <dd>{`${dateTimeIn(t.scheduled_start_at, tz)} to ${timeIn(t.scheduled_end_at, tz)}`}</dd>
        {side('Clock-in', t.punched_in_at, t.clock_in_distance_m, t.clock_in_offline, t.clock_in_photo_url)}
        {side('Clock-out', t.punched_out_at, t.clock_out_distance_m, t.clock_out_offline, t.clock_out_photo_url)}
        <dt>Counted</dt>
        <dd>
          {span(t.in_at, t.out_at, tz)}
          {t.rounding_minutes ? ` (rounded to the nearest ${t.rounding_minutes} min)` : ''}
        </dd>
        <dt>Breaks</dt>
        <dd>{breaksWords(t)}</dd>
        <dt>Worked</dt>
        <dd>{workedWords(t.worked_minutes)}</dd>
        {t.pay !== null ? (
          <>
            <dt>Pay</dt>
            <dd>{payWords(t)}</dd>
          </>
        ) : null}
        <dt>Issues</dt>
        <dd>{issuesWords(t)}</dd>
        <dt>Status</dt>
        <dd>
          {STATUS_WORDS[t.status]}
          {t.approved_how ? `, ${APPROVED_HOW_WORDS[t.approved_how]}` : ''}
        </dd>
        {t.worker_note ? (
          <>
            <dt>Worker's note</dt>
            <dd>{t.worker_note}</dd>
          </>
        ) : null}
        {t.edit ? (
          <>
            <dt>Last edit</dt>
            <dd>{`${REASON_WORDS[t.edit.reason]}${t.edit.note ? `: ${t.edit.note}` : ''} (${dateTimeIn(t.edit.edited_at, tz)})`}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function DetailView(props: {
  base: DashboardBase;
  t: TimesheetView;
  edit?: EditState | undefined;
  resolve?: ResolveState | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { base, t } = props;
  const tz = base.business!.timezone;
  const edit: EditState = props.edit ?? {
    values: { in_at: localInput(t.in_at, tz), out_at: localInput(t.out_at, tz), reason: '', note: '' },
    errors: {},
  };
  const resolve = props.resolve ?? { note: '' };
  const d = t.dispute;
  const title = `Timesheet: ${t.shifter_name ?? 'a shifter'}, ${formatDate(dateInZone(Date.parse(t.scheduled_start_at), tz))}`;
  return (
    <AppShell base={base} title={title} current={BUSINESS_TIMESHEETS} notice={props.notice} error={props.error}>
      <p>
        <a href={dashboardHref(base, BUSINESS_TIMESHEETS, { week: t.period_start })}>Back to the week's timesheets</a>
      </p>
      <Punches t={t} tz={tz} />
      {t.allowed_actions.includes('approve') ? (
        <section class="card" aria-labelledby="approve-head">
          <h2 id="approve-head">Approve</h2>
          <form method="post" action={dashboardHref(base, `${detailPath(t.id)}/approve`)}>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <p class="hint" id="approve-hint">
              Approving writes the invoice for the worked time.
            </p>
            <button type="submit" class="button button-primary" aria-describedby="approve-hint">
              Approve the timesheet
            </button>
          </form>
        </section>
      ) : t.refusals.approve && t.status === 'submitted' ? (
        <p class="muted">{`Not ready to approve: ${t.refusals.approve}`}</p>
      ) : null}
      {d ? (
        <section class="card" aria-labelledby="dispute-head">
          <h2 id="dispute-head">The worker's dispute</h2>
          <dl class="pairs">
            <dt>Their times</dt>
            <dd>{`${dateTimeIn(d.proposed_in_at, tz)} to ${timeIn(d.proposed_out_at, tz)}, ${d.proposed_unpaid_break_minutes} min unpaid break`}</dd>
            <dt>Their reason</dt>
            <dd>{d.reason}</dd>
            <dt>Status</dt>
            <dd>{DISPUTE_STATUS_WORDS[d.status].replace('your times', "the worker's times")}</dd>
            {d.status === 'open' ? (
              <>
                <dt>Answer by</dt>
                <dd>
                  <time datetime={d.answer_due_at}>{dateTimeIn(d.answer_due_at, tz)}</time>
                  {': unanswered, the worker’s times are approved.'}
                </dd>
              </>
            ) : null}
            {d.answer_note ? (
              <>
                <dt>Your answer</dt>
                <dd>{d.answer_note}</dd>
              </>
            ) : null}
          </dl>
          {t.allowed_actions.includes('resolve') ? (
            <form method="post" action={dashboardHref(base, `${detailPath(t.id)}/resolve`)}>
              <CsrfField token={base.csrfToken} />
              <IdempotencyField value={resolve.idem} />
              <TextareaField
                label="Reason (needed to turn it down)"
                name="note"
                value={resolve.note}
                maxLength={1000}
                hint="The worker reads it."
                error={resolve.error}
              />
              <div class="timesheet-buttons">
                <SubmitButton name="decision" value="accept">
                  Accept the worker's times
                </SubmitButton>
                <SubmitButton name="decision" value="reject" variant="secondary">
                  Turn it down
                </SubmitButton>
              </div>
            </form>
          ) : null}
        </section>
      ) : null}
      {t.allowed_actions.includes('edit') ? (
        <section class="card" aria-labelledby="edit-head">
          <h2 id="edit-head">Change the times</h2>
          <form method="post" action={dashboardHref(base, `${detailPath(t.id)}/edit`)} class="form-grid">
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={edit.idem} />
            <InputField
              label="Start"
              name="in_at"
              type="datetime-local"
              value={edit.values.in_at}
              error={edit.errors.in_at}
              hint={`On the business's clock (${tz}).`}
            />
            <InputField label="End" name="out_at" type="datetime-local" value={edit.values.out_at} error={edit.errors.out_at} />
            <SelectField
              label="Reason"
              name="reason"
              required
              value={edit.values.reason}
              error={edit.errors.reason}
              options={[{ value: '', label: 'Choose a reason' }, ...EDIT_REASONS.map((r) => ({ value: r, label: REASON_WORDS[r] }))]}
            />
            <TextareaField label="Note for the worker" name="note" value={edit.values.note} maxLength={500} error={edit.errors.note} />
            <div class="field-wide">
              <SubmitButton>Save the change</SubmitButton>
            </div>
          </form>
        </section>
      ) : null}
    </AppShell>
  );
}

/** The timesheet for this page, or null when the person may not see it (a 404, never a 403: no probing). */
async function timesheetFor(c: Context<AppEnv>, base: DashboardBase): Promise<TimesheetView | null> {
  try {
    const t = await getTimesheet(serviceCtx(c), c.req.param('id') ?? '');
    return base.businesses.some((b) => b.id === t.business_id) ? t : null;
  } catch (err) {
    if (err instanceof AppError && (err.status === 404 || err.status === 403)) return null;
    throw err;
  }
}

const notFound = (c: Context<AppEnv>) => renderError(c, 404, 'Not found', 'There is no such timesheet of a business you act for.');

/** The page's base for the timesheet's own business (the chosen one may be another of the person's). */
async function baseFor(c: Context<AppEnv>) {
  const base = await dashboardBase(c);
  const t = await timesheetFor(c, base);
  if (!t) return null;
  const business = base.businesses.find((b) => b.id === t.business_id) ?? base.business;
  return { base: { ...base, business }, t };
}

export async function renderTimesheet(c: Context<AppEnv>): Promise<Response> {
  const found = await baseFor(c);
  if (!found) return notFound(c);
  return renderPage(c, <DetailView base={found.base} t={found.t} notice={noticeOf(c, NOTICES)} />);
}

/** POST /dashboard/timesheets/{id}/edit: the times on the business's clock, a reason and a note, through editTimesheet. */
export async function postEdit(c: Context<AppEnv>): Promise<Response> {
  const found = await baseFor(c);
  if (!found) return notFound(c);
  const { base, t } = found;
  const tz = base.business!.timezone;
  const f = await formFields(c);
  const values: Record<EditField, string> = {
    in_at: f('in_at', 40),
    out_at: f('out_at', 40),
    reason: f('reason', 40),
    note: f('note', 500),
  };
  const idem = f('_idem', 255);
  const again = (status: ContentfulStatusCode, errors: Partial<Record<EditField, string>>, error: string) =>
    renderPage(c, <DetailView base={base} t={t} edit={{ values, errors, idem }} error={error} />, status);
  const inAt = values.in_at ? instantOfLocal(values.in_at, tz) : null;
  const outAt = values.out_at ? instantOfLocal(values.out_at, tz) : null;
  const errors: Partial<Record<EditField, string>> = {};
  if (values.in_at && !inAt) errors.in_at = 'Enter the start as a date and time.';
  if (values.out_at && !outAt) errors.out_at = 'Enter the end as a date and time.';
  if (Object.keys(errors).length) return again(400, errors, 'The timesheet was not changed: see the messages below.');
  // Only the ends that changed are sent: an unchanged end is not a correction.
  const input = {
    ...(inAt && inAt !== t.in_at ? { in_at: inAt } : {}),
    ...(outAt && outAt !== t.out_at ? { out_at: outAt } : {}),
    reason: values.reason,
    ...(values.note.trim() ? { note: values.note } : {}),
  };
  const parsed = editTimesheetInput.safeParse(input);
  if (!parsed.success) {
    const r = schemaRefusal(parsed.error, EDIT_FIELDS, {
      in_at: 'Change the start or the end: they are the times counted now.',
      reason: 'Choose the reason for the change.',
      note: 'Say what changed: the worker reads it.',
    });
    return again(400, r.errors, 'The timesheet was not changed: see the messages below.');
  }
  try {
    await editTimesheet(serviceCtx(c), t.id, parsed.data);
  } catch (err) {
    const r = refusalOf(err, EDIT_FIELDS, { 'TIMESHEET-CONSENT-ERR': 'in_at' });
    return again(r.status, r.errors, `The timesheet was not changed: ${r.message}`);
  }
  return c.redirect(dashboardHref(base, detailPath(t.id), { notice: 'edited' }), 303);
}

/** POST /dashboard/timesheets/{id}/resolve: accept the worker's times, or turn them down with a reason. */
export async function postResolve(c: Context<AppEnv>): Promise<Response> {
  const found = await baseFor(c);
  if (!found) return notFound(c);
  const { base, t } = found;
  const f = await formFields(c);
  const decision = f('decision', 10);
  const note = f('note', 1000);
  const idem = f('_idem', 255);
  const again = (status: ContentfulStatusCode, error: string | undefined, message: string) =>
    renderPage(c, <DetailView base={base} t={t} resolve={{ note, error, idem }} error={message} />, status);
  const parsed = resolveDisputeInput.safeParse({ decision, ...(note.trim() ? { note } : {}) });
  if (!parsed.success) {
    const r = schemaRefusal(parsed.error, RESOLVE_FIELDS, { note: 'Say why you turn it down: the worker reads it.' });
    return again(
      400,
      r.errors.note,
      r.errors.note ? 'The dispute was not answered: see the message below.' : 'Choose to accept or turn it down.',
    );
  }
  try {
    await resolveDispute(serviceCtx(c), t.id, parsed.data);
  } catch (err) {
    const r = refusalOf(err, RESOLVE_FIELDS);
    return again(r.status, r.errors.note, `The dispute was not answered: ${r.message}`);
  }
  return c.redirect(dashboardHref(base, detailPath(t.id), { notice: parsed.data.decision === 'accept' ? 'accepted' : 'rejected' }), 303);
}
