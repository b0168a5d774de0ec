import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isChangeable, shiftWho } from './schedule.model';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import {
  changeRequest,
  changeRequestBody,
  findConflicts,
  getShiftRequest,
  type ShiftConflicts,
  type ShiftRequestView,
} from '@/services/shifts';
import { Card, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { formatDate, formatMoney, shiftHours } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { type Refusal, refusalOf, schemaRefusal } from '../dashboard/refusals';
import { ConflictsNotice, ShiftFields } from '../posting/shift-fields';
import { AppShell } from '../dashboard/shell';

/**
 * Changing a shift's date and times without script: the schedule's "Change" link and the keyboard
 * fallback of the calendar's drag. The change goes through the change request (spec 3.2,
 * services/shifts/change.ts): the original is superseded and a pending child with the new times goes
 * to the shifter (or the crew) to accept.
 */
interface ChangeValues {
  shift_date: string;
  shift_in: string;
  shift_out: string;
}
type FieldName = keyof ChangeValues;
const FIELDS: readonly FieldName[] = ['shift_date', 'shift_in', 'shift_out'];

interface ChangeViewProps {
  base: DashboardBase;
  shift: ShiftRequestView;
  values: ChangeValues;
  nowMs: number;
  errors?: Partial<Record<FieldName, string>>;
  error?: string | undefined;
  conflicts?: ShiftConflicts | null;
  idem?: string | undefined;
}

const pathOf = (id: string) => `/dashboard/shifts/${encodeURIComponent(id)}/change`;

/** The schema's refusals in words for people. */
const LABELS: Record<FieldName, string> = {
  shift_date: 'Enter a date.',
  shift_in: 'Enter a time as HH:MM.',
  shift_out: 'Enter a time as HH:MM.',
};

export function ShiftChangeView({ base, shift, values, nowMs, errors = {}, error, conflicts, idem }: ChangeViewProps) {
  const b = base.business!;
  const first = FIELDS.find((f) => errors[f]);
  const st = shift.state_words;
  const who = shiftWho(shift);
  const back = dashboardHref(base, '/dashboard/schedule', { date: shift.shift_date });
  const open = isChangeable(shift, nowMs);
  return (
    <AppShell base={base} title="Change a shift" current="/dashboard/schedule" error={error}>
      {conflicts ? (
        <ConflictsNotice
          conflicts={conflicts}
          tz={b.timezone}
          lead="The shifter is already busy then:"
          then="Send the change anyway below, or choose another time."
        />
      ) : null}
      <Card title="The shift now">
        <p>
          <strong>{formatDate(shift.shift_date)}</strong> {shiftHours(shift.shift_in, shift.shift_out)} · {shift.role ?? 'Shift'} · {who} ·{' '}
          {formatMoney(shift.hourly_rate, shift.currency)}/h <span class="badge">{st.label}</span>
        </p>
        <p class="aside">Times in {b.timezone}.</p>
      </Card>
      {open ? (
        <Card title="New date and times">
          <p id="change-explained">
            {shift.is_broadcast
              ? 'Sending the change replaces this open broadcast: the original is marked superseded and a new broadcast with these times goes to the crew.'
              : `Sending the change replaces this request: the original is marked superseded and a new pending request with these times goes to ${who}, who must accept it.`}
          </p>
          <form method="post" action={dashboardHref(base, pathOf(shift.id))} class="stack" novalidate>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={idem} />
            {conflicts ? <input type="hidden" name="confirm_conflicts" value="1" /> : null}
            <ShiftFields values={values} date errors={errors} first={first} />
            <div class="actions">
              <SubmitButton>{conflicts ? 'Send the change anyway' : 'Send the change'}</SubmitButton>
              <a href={back}>Cancel</a>
            </div>
          </form>
        </Card>
      ) : (
        <Card title="It cannot be changed">
          <p>
            Only a pending request that has not started can be changed; this one is {st.label.toLowerCase()}.{' '}
            <a href={back}>Back to the schedule</a>
          </p>
        </Card>
      )}
    </AppShell>
  );
}

/** The shift, as the person may see it, of the business the page is about; null when it is not theirs to change here. */
async function loadShift(c: Context<AppEnv>, base: DashboardBase): Promise<ShiftRequestView | null> {
  try {
    const shift = await getShiftRequest(serviceCtx(c), c.req.param('id') ?? '');
    return base.businesses.some((b) => b.id === shift.business_id) ? shift : null;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

/** Finds the shift and the business it belongs to, or answers: 404, or a redirect to the right business. */
async function start(c: Context<AppEnv>) {
  const base = await dashboardBase(c);
  const shift = await loadShift(c, base);
  if (!shift) return { response: await renderError(c, 404, 'Shift not found', 'There is no such shift among your businesses.') };
  if (base.business?.id !== shift.business_id) {
    return { response: c.redirect(`${pathOf(shift.id)}?business_id=${encodeURIComponent(shift.business_id)}`, 303) };
  }
  return { base, shift };
}

export async function renderShiftChange(c: Context<AppEnv>): Promise<Response> {
  const s = await start(c);
  if ('response' in s) return s.response!;
  const { base, shift } = s;
  const values = { shift_date: shift.shift_date, shift_in: shift.shift_in, shift_out: shift.shift_out };
  return renderPage(c, <ShiftChangeView base={base} shift={shift} values={values} nowMs={serviceCtx(c).now()} />);
}

export async function postShiftChange(c: Context<AppEnv>): Promise<Response> {
  const s = await start(c);
  if ('response' in s) return s.response!;
  const { base, shift } = s;
  const f = await formFields(c);
  const sent = { shift_date: f('shift_date', 20), shift_in: f('shift_in', 10), shift_out: f('shift_out', 10) };
  const idem = f('_idem', 255);
  const ctx = serviceCtx(c);
  const again = (status: ContentfulStatusCode, extra: Partial<ChangeViewProps>) =>
    renderPage(c, <ShiftChangeView base={base} shift={shift} values={sent} nowMs={ctx.now()} idem={idem} {...extra} />, status);
  const refused = (r: Refusal<FieldName>) => again(r.status, { errors: r.errors, error: r.message });

  const parsed = changeRequestBody.safeParse({ shift_request_id: shift.id, ...sent });
  if (!parsed.success) return refused(schemaRefusal(parsed.error, FIELDS, LABELS));
  try {
    if (shift.shifter_id && !shift.is_broadcast && f('confirm_conflicts') !== '1') {
      const conflicts = await findConflicts(ctx, {
        shifter_id: shift.shifter_id,
        date: sent.shift_date,
        shift_in: sent.shift_in,
        shift_out: sent.shift_out,
        exclude_shift_request_id: shift.id,
        business_id: shift.business_id,
      });
      if (conflicts.data.length || conflicts.busy.length) return again(409, { conflicts });
    }
    const changed = await changeRequest(ctx, parsed.data);
    return c.redirect(dashboardHref(base, '/dashboard/schedule', { date: changed.shift_request.shift_date, notice: 'changed' }), 303);
  } catch (err) {
    return refused(refusalOf(err, FIELDS));
  }
}
