import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { addDays, todayIn } from '@/lib/shift-time';
import { type GoingRate, goingRate } from '@/services/insights';
import {
  emptyCrewWarning,
  findConflicts,
  type PostedShift,
  type PostingWarning,
  SHIFT_INPUT_BOUNDS,
  type ShiftConflicts,
  sendRequestInput,
  sendRequestWithWarnings,
} from '@/services/shifts';
import { Card, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { WEB_ENTRIES } from '@generated/web/assets';
import { formatMoney } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { type Refusal, refusalOf, schemaRefusal } from '../dashboard/refusals';
import {
  ConflictsNotice,
  EmptyCrewNotice,
  FlexibleAndNote,
  SHIFT_FIELD_LABELS,
  ShiftFields,
  type ShiftFormLookups,
  shiftCodeFields,
  shiftFormLookups,
  WhoFields,
} from './shift-fields';
import { AppShell } from '../dashboard/shell';

/** Its home is refusals.ts now; pages that imported it from here keep working. */
export { fieldErrorsOf } from '../dashboard/refusals';

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
const CODE_FIELDS = shiftCodeFields('shifter_id');

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

interface FormContext extends ShiftFormLookups {
  rate: GoingRate | null;
  /** The domain's warning when the business has no crew: a broadcast reaches nobody. */
  emptyCrew: PostingWarning | null;
}

async function formContext(c: Context<AppEnv>, base: DashboardBase, roleId: string): Promise<FormContext> {
  const b = base.business!;
  const [lookups, rate, emptyCrew] = await Promise.all([
    shiftFormLookups(c, b.id),
    roleId && b.city_id
      ? goingRate(serviceCtx(c), { city_id: b.city_id, shiftrole_id: Number(roleId), currency: b.currency })
      : Promise.resolve(null),
    emptyCrewWarning(serviceCtx(c), b.id),
  ]);
  return { ...lookups, rate, emptyCrew };
}

/** The going rate for the role and place, in words, beside the rate field. */
function GoingRateHint({ rate, currency, role }: { rate: GoingRate | null; currency: string; role: string }) {
  if (!role) return <span data-going-rate>Choose a role to see the going rate in your city.</span>;
  // The same words as the island's when the role has no rate here yet.
  if (!rate || rate.median === null) return <span data-going-rate>No going rate for this role in your city yet.</span>;
  const few = rate.sufficient_data ? '' : ' (few shifts yet)';
  return (
    <span data-going-rate>
      {`Going rate here: median ${formatMoney(rate.median, currency)}`}
      {rate.p25 !== null && rate.p75 !== null ? `, middle half ${formatMoney(rate.p25, currency)}–${formatMoney(rate.p75, currency)}` : ''}
      {few}.
    </span>
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
      {conflicts ? (
        <ConflictsNotice
          conflicts={conflicts}
          tz={b.timezone}
          lead="This shifter is already busy then:"
          then="Post it anyway below, or change the time or the shifter."
        />
      ) : null}
      {form.emptyCrew ? <EmptyCrewNotice warning={form.emptyCrew} crewHref={dashboardHref(base, '/dashboard/crew')} /> : null}
      <Card title={`A shift at ${b.name}`}>
        <form
          method="post"
          action={dashboardHref(base, '/dashboard/shifts/new')}
          class="stack"
          data-island="post-shift"
          data-props={JSON.stringify({ businessId: b.id, cityId: b.city_id, currency: b.currency, bounds: SHIFT_INPUT_BOUNDS })}
          novalidate
        >
          <CsrfField token={base.csrfToken} />
          <IdempotencyField value={idem} />
          {conflicts ? <input type="hidden" name="confirm_conflicts" value="1" /> : null}
          <WhoFields kind="shift" mode={values.mode} shifter={values.shifter_id} crew={form.crew} errors={errors} first={first} />
          <ShiftFields
            values={values}
            date
            pay={{
              roles: form.roles,
              currency: b.currency,
              rateHint: <GoingRateHint rate={form.rate} currency={b.currency} role={values.shiftrole_id} />,
            }}
            errors={errors}
            first={first}
          />
          <FlexibleAndNote flexible={values.is_flexible} note={values.note} errors={errors} />
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

/** The words after a post (`?notice=`): a broadcast of a business without crew reached nobody. */
const POSTED_NOTICES: Partial<Record<string, string>> = {
  posted: 'The shift was posted. Post another one below.',
  'posted-unheard': 'The shift was posted, but nobody was told about it: your business has no crew yet.',
};

export async function renderPostShift(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const values = prefill(c, todayIn(base.business.timezone, serviceCtx(c).now()));
  const notice = c.req.query('notice');
  return renderPage(
    c,
    <PostShiftView
      base={base}
      form={await formContext(c, base, values.shiftrole_id)}
      values={values}
      notice={POSTED_NOTICES[notice ?? '']}
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
  const refused = (r: Refusal<FieldName>) => again(r.status, { errors: r.errors, error: r.message });

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
  if (!parsed.success) return refused(schemaRefusal(parsed.error, FIELDS, SHIFT_FIELD_LABELS));
  if (sent.mode === 'targeted' && !input.shifter_id) {
    return refused({
      status: 400,
      errors: { shifter_id: 'Choose the shifter to ask, or broadcast the shift.' },
      message: 'Check the fields marked below.',
    });
  }
  const ctx = serviceCtx(c);
  let posted: PostedShift;
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
    posted = await sendRequestWithWarnings(ctx, parsed.data);
  } catch (err) {
    return refused(refusalOf(err, FIELDS, CODE_FIELDS));
  }
  // A broadcast nobody hears of says so on the next page (its conflicts, a targeted one's, were confirmed above).
  const unheard = posted.warnings?.some((w) => w.code === 'empty_crew');
  return c.redirect(dashboardHref(base, '/dashboard/shifts/new', { notice: unheard ? 'posted-unheard' : 'posted' }), 303);
}
