/**
 * The shifter's timesheets ({app_url}/dashboard/shifter/timesheets): newest first, each with its
 * status, hours, pay, the business's edit and its answer to a dispute, in words; a dispute form
 * (start, end, unpaid break minutes, reason) where the timesheet allows one, with its deadline.
 * Times are on each business's clock. The timesheet services decide what is allowed.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { dateInZone } from '@/lib/shift-time';
import { getShiftRequest } from '@/services/shifts';
import { disputeTimesheet, disputeTimesheetInput, listShifterTimesheets, type TimesheetView } from '@/services/timesheets';
import { CsrfField, IdempotencyField, InputField, SubmitButton, TextareaField } from '@/web/components';
import { dateTimeIn, formatDate, formatMoney, timeIn } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf, refusalOf, schemaRefusal } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { breaksWords } from './timesheets';
import {
  APPROVED_HOW_WORDS,
  DISPUTE_STATUS_WORDS,
  instantOfLocal,
  localInput,
  REASON_WORDS,
  SHIFTER_TIMESHEETS,
  STATUS_WORDS,
  workedWords,
} from './timesheet-words';

const NOTICES = { disputed: 'Your dispute was sent: the business answers it, or your times are approved if it does not in time.' };

const DISPUTE_FIELDS = ['in_at', 'out_at', 'unpaid_break_minutes', 'reason'] as const;
type DisputeField = (typeof DISPUTE_FIELDS)[number];

interface DisputeState {
  id: string;
  values: Record<DisputeField, string>;
  errors: Partial<Record<DisputeField, string>>;
  idem?: string;
}

function DisputeForm({ t, tz, csrf, state }: { t: TimesheetView; tz: string; csrf: string; state?: DisputeState | undefined }) {
  const values = state?.values ?? {
    in_at: localInput(t.in_at, tz),
    out_at: localInput(t.out_at, tz),
    unpaid_break_minutes: String(t.unpaid_break_minutes),
    reason: '',
  };
  const errors = state?.errors ?? {};
  const p = `ts-${t.id}`;
  return (
    <details class="timesheet-dispute" open={state ? true : undefined}>
      <summary>Dispute these times</summary>
      <form method="post" action={`${SHIFTER_TIMESHEETS}/${encodeURIComponent(t.id)}/dispute`} class="form-grid">
        <CsrfField token={csrf} />
        <IdempotencyField value={state?.idem} />
        <InputField
          id={`${p}-in`}
          label="Start"
          name="in_at"
          type="datetime-local"
          value={values.in_at}
          error={errors.in_at}
          hint={`On the business's clock (${tz}).`}
          required
        />
        <InputField id={`${p}-out`} label="End" name="out_at" type="datetime-local" value={values.out_at} error={errors.out_at} required />
        <InputField
          id={`${p}-break`}
          label="Unpaid break minutes"
          name="unpaid_break_minutes"
          type="number"
          min="0"
          max="720"
          inputMode="numeric"
          value={values.unpaid_break_minutes}
          error={errors.unpaid_break_minutes}
        />
        <TextareaField
          label="What is not right"
          name="reason"
          value={values.reason}
          maxLength={1000}
          error={errors.reason}
          hint="The business reads it."
        />
        <div class="field-wide">
          <SubmitButton>Send the dispute</SubmitButton>
        </div>
      </form>
    </details>
  );
}

function TimesheetItem({ t, tz, csrf, state }: { t: TimesheetView; tz: string; csrf: string; state?: DisputeState | undefined }) {
  const day = formatDate(dateInZone(Date.parse(t.scheduled_start_at), tz));
  const d = t.dispute;
  return (
    <li class="timesheet-item" id={`timesheet-${t.id}`}>
      <h3>{`${t.business_name} · ${day}`}</h3>
      <dl class="pairs">
        <dt>Status</dt>
        <dd>
          {STATUS_WORDS[t.status]}
          {t.approved_how ? `, ${APPROVED_HOW_WORDS[t.approved_how]}` : ''}
        </dd>
        <dt>Counted</dt>
        <dd>{`${timeIn(t.in_at, tz)}–${t.out_at ? timeIn(t.out_at, tz) : '…'} (scheduled ${timeIn(t.scheduled_start_at, tz)}–${timeIn(t.scheduled_end_at, tz)})`}</dd>
        <dt>Breaks</dt>
        <dd>{breaksWords(t)}</dd>
        <dt>Hours</dt>
        <dd>{workedWords(t.worked_minutes)}</dd>
        {t.pay !== null ? (
          <>
            <dt>Pay</dt>
            <dd>{formatMoney(t.pay, t.currency)}</dd>
          </>
        ) : null}
        {t.edit ? (
          <>
            <dt>Changed by the business</dt>
            <dd>{`${REASON_WORDS[t.edit.reason]}${t.edit.note ? `: ${t.edit.note}` : ''}`}</dd>
          </>
        ) : null}
        {d ? (
          <>
            <dt>Your dispute</dt>
            <dd>{`${timeIn(d.proposed_in_at, tz)}–${timeIn(d.proposed_out_at, tz)}: ${DISPUTE_STATUS_WORDS[d.status]}`}</dd>
            {d.answer_note ? (
              <>
                <dt>The business's answer</dt>
                <dd>{d.answer_note}</dd>
              </>
            ) : null}
          </>
        ) : null}
        {t.allowed_actions.includes('dispute') && t.dispute_until ? (
          <>
            <dt>Dispute until</dt>
            <dd>
              <time datetime={t.dispute_until}>{dateTimeIn(t.dispute_until, tz)}</time>
            </dd>
          </>
        ) : null}
      </dl>
      {t.allowed_actions.includes('dispute') ? <DisputeForm t={t} tz={tz} csrf={csrf} state={state} /> : null}
    </li>
  );
}

function ShifterTimesheetsView(props: {
  base: DashboardBase;
  list: TimesheetView[];
  zones: Map<string, string>;
  state?: DisputeState | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { base, list, zones } = props;
  return (
    <AppShell base={base} side="shifter" title="My timesheets" current={SHIFTER_TIMESHEETS} notice={props.notice} error={props.error}>
      <p class="aside">
        Only approved time is paid. Times are on each business's clock; you may dispute a timesheet for a while after it is sent or changed.
      </p>
      {list.length ? (
        <ul class="list-plain timesheet-list">
          {list.map((t) => (
            <TimesheetItem
              t={t}
              tz={zones.get(t.business_id) ?? 'UTC'}
              csrf={base.csrfToken}
              state={props.state?.id === t.id ? props.state : undefined}
            />
          ))}
        </ul>
      ) : (
        <p class="empty">No timesheet yet: one starts when you clock in.</p>
      )}
    </AppShell>
  );
}

/** The timesheets, newest first, and each business's zone (read from one of its shifts). */
async function load(c: Context<AppEnv>, shifterId: string) {
  const ctx = serviceCtx(c);
  const list = (await listShifterTimesheets(ctx, shifterId, { limit: 50 })).data;
  const zones = new Map<string, string>();
  const firstOf = new Map<string, string>();
  for (const t of list) if (!firstOf.has(t.business_id)) firstOf.set(t.business_id, t.shift_request_id);
  await Promise.all(
    [...firstOf].map(async ([businessId, shiftId]) => {
      const s = await getShiftRequest(ctx, shiftId).catch(() => null);
      zones.set(businessId, s?.timezone ?? 'UTC');
    }),
  );
  return { list, zones };
}

export async function renderShifterTimesheets(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { list, zones } = await load(c, base.shifterId);
  return renderPage(c, <ShifterTimesheetsView base={base} list={list} zones={zones} notice={noticeOf(c, NOTICES)} />);
}

/** POST /dashboard/shifter/timesheets/{id}/dispute: the worker's times and reason, through disputeTimesheet. */
export async function postDispute(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const id = c.req.param('id') ?? '';
  const { list, zones } = await load(c, base.shifterId);
  const t = list.find((x) => x.id === id);
  if (!t) return c.notFound();
  const tz = zones.get(t.business_id) ?? 'UTC';
  const f = await formFields(c);
  const values: Record<DisputeField, string> = {
    in_at: f('in_at', 40),
    out_at: f('out_at', 40),
    unpaid_break_minutes: f('unpaid_break_minutes', 10).trim(),
    reason: f('reason', 1000),
  };
  const idem = f('_idem', 255);
  const again = (status: ContentfulStatusCode, errors: Partial<Record<DisputeField, string>>, error: string) =>
    renderPage(
      c,
      <ShifterTimesheetsView base={base} list={list} zones={zones} state={{ id, values, errors, idem }} error={error} />,
      status,
    );
  const inAt = instantOfLocal(values.in_at, tz);
  const outAt = instantOfLocal(values.out_at, tz);
  const minutes = values.unpaid_break_minutes === '' ? undefined : Number(values.unpaid_break_minutes);
  const errors: Partial<Record<DisputeField, string>> = {};
  if (!inAt) errors.in_at = 'Enter the start as a date and time.';
  if (!outAt) errors.out_at = 'Enter the end as a date and time.';
  if (minutes !== undefined && !(Number.isInteger(minutes) && minutes >= 0 && minutes <= 720))
    errors.unpaid_break_minutes = 'Enter whole minutes, from 0 to 720.';
  if (Object.keys(errors).length) return again(400, errors, 'The dispute was not sent: see the messages below.');
  const parsed = disputeTimesheetInput.safeParse({
    in_at: inAt,
    out_at: outAt,
    ...(minutes !== undefined ? { unpaid_break_minutes: minutes } : {}),
    reason: values.reason,
  });
  if (!parsed.success) {
    const r = schemaRefusal(parsed.error, DISPUTE_FIELDS, {
      out_at: 'The end comes after the start.',
      reason: 'Say what is not right: the business reads it.',
    });
    return again(400, r.errors, 'The dispute was not sent: see the messages below.');
  }
  try {
    await disputeTimesheet(serviceCtx(c), id, parsed.data);
  } catch (err) {
    const r = refusalOf(err, DISPUTE_FIELDS);
    return again(r.status, r.errors, `The dispute was not sent: ${r.message}`);
  }
  return c.redirect(`${SHIFTER_TIMESHEETS}?notice=disputed#timesheet-${encodeURIComponent(id)}`, 303);
}
