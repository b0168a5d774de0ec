import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../../http/app-types';
import { serviceCtx } from '../../../http/create-app';
import { AppError } from '../../../lib/errors';
import { addDays, todayIn } from '../../../lib/shift-time';
import { listConnections } from '../../../services/connections';
import { type GoingRate, goingRate } from '../../../services/insights';
import {
  findConflicts,
  listShiftRoles,
  type ShiftConflicts,
  type ShiftRoleView,
  sendRequest,
  sendRequestInput,
} from '../../../services/shifts';
import { Card, CsrfField, IdempotencyField, InputField, Notice, SelectField, SubmitButton, TextareaField } from '../../components';
import { WEB_ENTRIES } from '../../../../generated/web/assets';
import { formatMoney, shiftHours, timeIn } from '../../format';
import { formFields } from '../../forms';
import { renderPage } from '../../render';
import { type DashboardBase, dashboardBase, dashboardHref } from './context';
import { AppShell } from './shell';

/** What the form holds: the query's prefill, the stored defaults, or what was just sent. */
export interface ShiftFormValues {
  mode: 'broadcast' | 'targeted';
  shifter_id: string;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  shiftrole_id: string;
  hourly_rate: string;
  is_flexible: boolean;
  note: string;
}

type FieldName = keyof ShiftFormValues;
const FIELDS: readonly FieldName[] = [
  'mode',
  'shifter_id',
  'shift_date',
  'shift_in',
  'shift_out',
  'shiftrole_id',
  'hourly_rate',
  'is_flexible',
  'note',
];

/** Refusals that concern one field though the service sends no field name with them. */
const CODE_FIELDS: Partial<Record<string, FieldName>> = {
  'SHFT-NOT-CONNECTED-ERR': 'shifter_id',
  'SHIFTER-PAUSED-ERR': 'shifter_id',
  'SHIFTER-NOT-FND-ERR': 'shifter_id',
  'MONEY-PRECISION-ERR': 'hourly_rate',
};

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const YMD = /^\d{4}-\d{2}-\d{2}$/;

/** The form's starting values: `?date=&in=&out=&role=&rate=&shifter_id=` (the assistant's link uses date, in and out). */
export function prefill(c: Context<AppEnv>, today: string): ShiftFormValues {
  const q = (k: string) => c.req.query(k) ?? '';
  const shifter = q('shifter_id');
  return {
    mode: shifter ? 'targeted' : 'broadcast',
    shifter_id: shifter,
    shift_date: YMD.test(q('date')) ? q('date') : addDays(today, 1),
    shift_in: HH_MM.test(q('in')) ? q('in') : '09:00',
    shift_out: HH_MM.test(q('out')) ? q('out') : '17:00',
    shiftrole_id: /^\d+$/.test(q('role')) ? q('role') : '',
    hourly_rate: /^\d+(\.\d+)?$/.test(q('rate')) ? q('rate') : '',
    is_flexible: false,
    note: '',
  };
}

interface FormContext {
  roles: ShiftRoleView[];
  crew: { id: string; name: string }[];
  rate: GoingRate | null;
}

async function formContext(c: Context<AppEnv>, base: DashboardBase, roleId: string): Promise<FormContext> {
  const ctx = serviceCtx(c);
  const b = base.business!;
  const [roles, conns, rate] = await Promise.all([
    listShiftRoles(ctx),
    listConnections(ctx, { business_id: b.id, status: 'accepted' }),
    roleId && b.city_id
      ? goingRate(ctx, { city_id: b.city_id, shiftrole_id: Number(roleId), currency: b.currency })
      : Promise.resolve(null),
  ]);
  const crew = conns.accepted.map((x) => ({ id: x.shifter_id, name: x.shifter_name })).sort((x, y) => x.name.localeCompare(y.name));
  return { roles, crew, rate };
}

/** The going rate for the role and place, in words, beside the rate field. */
function GoingRateHint({ rate, currency }: { rate: GoingRate | null; currency: string }) {
  if (!rate || rate.median === null) return <span data-going-rate>Choose a role to see the going rate in your city.</span>;
  const few = rate.sufficient_data ? '' : ' (few shifts yet)';
  return (
    <span data-going-rate>
      {`Going rate here: median ${formatMoney(rate.median, currency)}`}
      {rate.p25 !== null && rate.p75 !== null ? `, middle half ${formatMoney(rate.p25, currency)}–${formatMoney(rate.p75, currency)}` : ''}
      {few}.
    </span>
  );
}

function ConflictsNotice({ conflicts, tz }: { conflicts: ShiftConflicts; tz: string }) {
  return (
    <Notice kind="error">
      <p>This shifter is already busy then:</p>
      <ul>
        {conflicts.data.map((s) => (
          <li>{`${s.business_name ?? 'Your business'}: ${s.shift_date} ${shiftHours(s.shift_in, s.shift_out)}`}</li>
        ))}
        {conflicts.busy.map((w) => (
          <li>{`Another business: ${timeIn(w.starts_at, tz)}–${timeIn(w.ends_at, tz)}`}</li>
        ))}
      </ul>
      <p>Post it anyway below, or change the time or the shifter.</p>
    </Notice>
  );
}

export interface PostShiftViewProps {
  base: DashboardBase;
  form: FormContext;
  values: ShiftFormValues;
  errors?: Partial<Record<FieldName, string>>;
  error?: string | undefined;
  notice?: string | undefined;
  conflicts?: ShiftConflicts | null;
  idem?: string | undefined;
}

export function PostShiftView({ base, form, values, errors = {}, error, notice, conflicts, idem }: PostShiftViewProps) {
  const b = base.business!;
  const first = FIELDS.find((f) => errors[f]);
  const island = WEB_ENTRIES.islands['post-shift'];
  return (
    <AppShell base={base} title="Post a shift" current="/dashboard/shifts/new" notice={notice} error={error} scripts={[island.js]}>
      {conflicts ? <ConflictsNotice conflicts={conflicts} tz={b.timezone} /> : null}
      <Card title={`A shift at ${b.name}`}>
        <form
          method="post"
          action={dashboardHref(base, '/dashboard/shifts/new')}
          class="stack"
          data-island="post-shift"
          data-props={JSON.stringify({ businessId: b.id, cityId: b.city_id, currency: b.currency })}
          novalidate
        >
          <CsrfField token={base.csrfToken} />
          <IdempotencyField value={idem} />
          {conflicts ? <input type="hidden" name="confirm_conflicts" value="1" /> : null}
          <fieldset>
            <legend>Who it goes to</legend>
            <div class="choice">
              <input type="radio" id="mode-broadcast" name="mode" value="broadcast" checked={values.mode === 'broadcast'} />
              <label for="mode-broadcast">Broadcast to the crew: the first to claim it gets it</label>
            </div>
            <div class="choice">
              <input type="radio" id="mode-targeted" name="mode" value="targeted" checked={values.mode === 'targeted'} />
              <label for="mode-targeted">Ask one shifter</label>
            </div>
          </fieldset>
          <div class="form-grid">
            <SelectField
              label="Shifter (when asking one)"
              name="shifter_id"
              value={values.shifter_id}
              options={[
                { value: '', label: form.crew.length ? 'Choose a shifter' : 'No one in your crew yet' },
                ...form.crew.map((s) => ({ value: s.id, label: s.name })),
              ]}
              error={errors.shifter_id}
              autofocus={first === 'shifter_id'}
            />
            <SelectField
              label="Role"
              name="shiftrole_id"
              required
              value={values.shiftrole_id}
              options={[{ value: '', label: 'Choose a role' }, ...form.roles.map((r) => ({ value: String(r.id), label: r.label }))]}
              error={errors.shiftrole_id}
              autofocus={first === 'shiftrole_id'}
            />
            <InputField
              label="Date"
              name="shift_date"
              type="date"
              required
              value={values.shift_date}
              error={errors.shift_date}
              autofocus={first === 'shift_date'}
            />
            <InputField
              label="Starts"
              name="shift_in"
              type="time"
              step={900}
              required
              value={values.shift_in}
              error={errors.shift_in}
              autofocus={first === 'shift_in'}
            />
            <InputField
              label="Ends"
              name="shift_out"
              type="time"
              step={900}
              required
              value={values.shift_out}
              hint="Earlier than the start: it ends the next day."
              error={errors.shift_out}
              autofocus={first === 'shift_out'}
            />
            <InputField
              label={`Hourly rate (${b.currency})`}
              name="hourly_rate"
              type="text"
              inputMode="decimal"
              required
              value={values.hourly_rate}
              hint={<GoingRateHint rate={form.rate} currency={b.currency} />}
              error={errors.hourly_rate}
              autofocus={first === 'hourly_rate'}
            />
          </div>
          <div class="field checkbox">
            <input type="checkbox" id="field-is_flexible" name="is_flexible" value="1" checked={values.is_flexible} />
            <label for="field-is_flexible">Flexible: the shifter may propose other hours</label>
          </div>
          <TextareaField label="Note for the shifter (optional)" name="note" value={values.note} maxLength={1000} error={errors.note} />
          <p class="hint" id="conflicts-live" aria-live="polite" />
          <SubmitButton>{conflicts ? 'Post anyway' : 'Post the shift'}</SubmitButton>
        </form>
      </Card>
    </AppShell>
  );
}

/** The form's fields as sent, bounded (a form is never trusted to be short). */
async function sentValues(c: Context<AppEnv>): Promise<ShiftFormValues & { confirm: boolean; idem: string }> {
  const f = await formFields(c);
  return {
    mode: f('mode') === 'targeted' ? 'targeted' : 'broadcast',
    shifter_id: f('shifter_id', 100),
    shift_date: f('shift_date', 20),
    shift_in: f('shift_in', 10),
    shift_out: f('shift_out', 10),
    shiftrole_id: f('shiftrole_id', 10),
    hourly_rate: f('hourly_rate', 30).trim(),
    is_flexible: f('is_flexible') === '1',
    note: f('note', 1100),
    confirm: f('confirm_conflicts') === '1',
    idem: f('_idem', 255),
  };
}

/**
 * A service's or the schema's refusal, as messages beside the fields they concern: the fields its
 * details name, else the field its code concerns (`codeFields`, this form's by default).
 */
export function fieldErrorsOf(
  err: unknown,
  fields: readonly string[],
  codeFields: Partial<Record<string, string>> = CODE_FIELDS,
): { errors: Record<string, string>; rest: string | null } {
  const errors: Record<string, string> = {};
  if (err instanceof AppError) {
    const details = Array.isArray(err.details) ? (err.details as { field?: unknown; message?: unknown }[]) : [];
    for (const d of details) {
      if (typeof d.field === 'string' && fields.includes(d.field) && typeof d.message === 'string') errors[d.field] ??= d.message;
    }
    const byCode = codeFields[err.code];
    if (byCode && !errors[byCode]) errors[byCode] = err.message;
    return { errors, rest: Object.keys(errors).length ? null : err.message };
  }
  throw err;
}

export async function renderPostShift(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const values = prefill(c, todayIn(base.business.timezone, serviceCtx(c).now()));
  const posted = c.req.query('notice') === 'posted';
  return renderPage(
    c,
    <PostShiftView
      base={base}
      form={await formContext(c, base, values.shiftrole_id)}
      values={values}
      notice={posted ? 'The shift was posted. Post another one below.' : undefined}
    />,
  );
}

export async function postShift(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const sent = await sentValues(c);
  const again = async (status: ContentfulStatusCode, extra: Partial<PostShiftViewProps>) =>
    renderPage(
      c,
      <PostShiftView base={base} form={await formContext(c, base, sent.shiftrole_id)} values={sent} idem={sent.idem} {...extra} />,
      status,
    );

  const input = {
    business_id: b.id,
    shift_date: sent.shift_date,
    shift_in: sent.shift_in,
    shift_out: sent.shift_out,
    shiftrole_id: sent.shiftrole_id === '' ? Number.NaN : Number(sent.shiftrole_id),
    hourly_rate: sent.hourly_rate === '' ? Number.NaN : Number(sent.hourly_rate),
    shifter_id: sent.mode === 'targeted' ? sent.shifter_id || null : null,
    is_broadcast: sent.mode === 'broadcast',
    is_flexible: sent.is_flexible,
    note: sent.note || null,
  };
  const parsed = sendRequestInput.safeParse(input);
  if (!parsed.success) {
    const errors: Partial<Record<FieldName, string>> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      const label =
        name === 'shiftrole_id'
          ? 'Choose a role.'
          : name === 'hourly_rate'
            ? 'Enter the hourly rate as a number, e.g. 18.50.'
            : issue.message;
      if ((FIELDS as readonly string[]).includes(name)) errors[name as FieldName] ??= label;
    }
    return again(400, { errors, error: 'Check the fields marked below.' });
  }
  if (sent.mode === 'targeted' && !input.shifter_id) {
    return again(400, {
      errors: { shifter_id: 'Choose the shifter to ask, or broadcast the shift.' },
      error: 'Check the fields marked below.',
    });
  }
  const ctx = serviceCtx(c);
  try {
    if (input.shifter_id && !sent.confirm) {
      const conflicts = await findConflicts(ctx, {
        shifter_id: input.shifter_id,
        date: parsed.data.shift_date,
        shift_in: parsed.data.shift_in,
        shift_out: parsed.data.shift_out,
        business_id: b.id,
      });
      if (conflicts.data.length || conflicts.busy.length) return again(409, { conflicts });
    }
    await sendRequest(ctx, parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, FIELDS);
    const status = (err instanceof AppError ? err.status : 400) as ContentfulStatusCode;
    return again(status, { errors, error: rest ?? 'Check the fields marked below.' });
  }
  return c.redirect(dashboardHref(base, '/dashboard/shifts/new', { notice: 'posted' }), 303);
}
