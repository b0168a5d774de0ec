import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { isValidDate } from '@/lib/shift-time';
import {
  createTemplate,
  createTemplateInput,
  deleteTemplate,
  GENERATE_WEEKS,
  type GeneratePreview,
  generateFromTemplate,
  listTemplates,
  parseDays,
  previewTemplateGeneration,
  type TemplateView,
  updateTemplate,
  updateTemplateInput,
} from '@/services/templates';
import { Card, CsrfField, IdempotencyField, Notice, SubmitButton, TextField } from '@/web/components';
import { formatDate, formatMoney, shiftHours } from '@/web/format';
import { renderPage } from '@/web/render';
import { ConfirmPage } from '../dashboard/confirm-page';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { noticeOf, type Refusal, refusalOf, schemaRefusal } from '../dashboard/refusals';
import {
  FlexibleAndNote,
  SHIFT_FIELD_LABELS,
  ShiftFields,
  type ShiftFormLookups,
  shiftCodeFields,
  shiftFormLookups,
  WhoFields,
} from '../posting/shift-fields';
import { AppShell } from '../dashboard/shell';

/**
 * Shift templates (/dashboard/templates): the business's weekly templates, each created, changed,
 * paused or deleted with plain forms, and generated 1–12 weeks ahead in two steps: the preview
 * (services/templates previewTemplateGeneration: what would be created and what is skipped as
 * already there, nothing written) and then the confirmed generate, whose result (created, skipped)
 * is shown after it. The owner and active teammates may do all of it, as the service allows.
 */

const WEEKDAYS: readonly (readonly [number, string, string])[] = [
  [1, 'Mon', 'Monday'],
  [2, 'Tue', 'Tuesday'],
  [3, 'Wed', 'Wednesday'],
  [4, 'Thu', 'Thursday'],
  [5, 'Fri', 'Friday'],
  [6, 'Sat', 'Saturday'],
  [7, 'Sun', 'Sunday'],
];

/** "Mon, Wed, Fri", or "Every day". */
export function daysText(daysOfWeek: string): string {
  const days = parseDays(daysOfWeek);
  if (days.length === 7) return 'Every day';
  return days.map((d) => WEEKDAYS[d - 1]![1]).join(', ');
}

interface TemplateFormValues {
  label: string;
  days: number[];
  shift_in: string;
  shift_out: string;
  shiftrole_id: string;
  hourly_rate: string;
  mode: 'broadcast' | 'targeted';
  default_shifter_id: string;
  is_flexible: boolean;
  note: string;
  is_active: boolean;
}

type FieldName = 'label' | 'days_of_week' | 'shift_in' | 'shift_out' | 'shiftrole_id' | 'hourly_rate' | 'default_shifter_id' | 'note';
const FIELDS: readonly FieldName[] = [
  'label',
  'days_of_week',
  'shift_in',
  'shift_out',
  'shiftrole_id',
  'hourly_rate',
  'default_shifter_id',
  'note',
];
const BY_CODE = shiftCodeFields('default_shifter_id');
const LABELS: Partial<Record<FieldName, string>> = {
  label: 'Give the template a name (at most 120 characters).',
  days_of_week: 'Choose at least one day of the week.',
  ...SHIFT_FIELD_LABELS,
};

const EMPTY: TemplateFormValues = {
  label: '',
  days: [1, 2, 3, 4, 5],
  shift_in: '09:00',
  shift_out: '17:00',
  shiftrole_id: '',
  hourly_rate: '',
  mode: 'broadcast',
  default_shifter_id: '',
  is_flexible: false,
  note: '',
  is_active: true,
};

const valuesOf = (t: TemplateView): TemplateFormValues => ({
  label: t.label,
  days: parseDays(t.days_of_week),
  shift_in: t.shift_in,
  shift_out: t.shift_out,
  shiftrole_id: String(t.shiftrole_id),
  hourly_rate: String(t.hourly_rate),
  mode: t.is_broadcast ? 'broadcast' : 'targeted',
  default_shifter_id: t.default_shifter_id ?? '',
  is_flexible: t.is_flexible === 1,
  note: t.note ?? '',
  is_active: t.is_active === 1,
});

const lookups = (c: Context<AppEnv>, base: DashboardBase) => shiftFormLookups(c, base.business!.id);

const templatePath = (id: string, action: string) => `/dashboard/templates/${encodeURIComponent(id)}/${action}`;

/** Who a template's shifts go to, in words. */
function goesTo(t: TemplateView, crew: ShiftFormLookups['crew']): string {
  if (t.is_broadcast) return 'Broadcast to the crew';
  const who = crew.find((s) => s.id === t.default_shifter_id);
  return who ? `For ${who.name}` : 'For a shifter no longer in your crew';
}

function DaysField({ values, error }: { values: TemplateFormValues; error?: string | undefined }) {
  return (
    <fieldset aria-describedby={error ? 'field-days_of_week-error' : undefined}>
      <legend>Days of the week</legend>
      <div class="weekday-choices">
        {WEEKDAYS.map(([n, , long]) => (
          <div class="choice">
            <input type="checkbox" id={`day-${n}`} name="days" value={String(n)} checked={values.days.includes(n)} />
            <label for={`day-${n}`}>{long}</label>
          </div>
        ))}
      </div>
      {error ? (
        <p class="field-error" id="field-days_of_week-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

interface FormProps {
  base: DashboardBase;
  action: string;
  look: ShiftFormLookups;
  values: TemplateFormValues;
  errors?: Partial<Record<FieldName, string>>;
  submit: string;
  idem?: string | undefined;
}

function TemplateForm({ base, action, look, values, errors = {}, submit, idem }: FormProps) {
  const b = base.business!;
  const first = FIELDS.find((f) => errors[f]);
  return (
    <form method="post" action={dashboardHref(base, action)} novalidate>
      <CsrfField token={base.csrfToken} />
      <IdempotencyField value={idem} />
      <TextField
        label="Name"
        name="label"
        value={values.label}
        maxLength={120}
        required
        error={errors.label}
        autofocus={first === 'label'}
      />
      <DaysField values={values} error={errors.days_of_week} />
      <ShiftFields values={values} pay={{ roles: look.roles, currency: b.currency }} errors={errors} first={first} />
      <WhoFields kind="template" mode={values.mode} shifter={values.default_shifter_id} crew={look.crew} errors={errors} first={first} />
      <div class="field checkbox">
        <input type="checkbox" id="field-is_active" name="is_active" value="1" checked={values.is_active} />
        <label for="field-is_active">Active: generating creates shifts from it</label>
      </div>
      <FlexibleAndNote flexible={values.is_flexible} note={values.note} errors={errors} />
      <SubmitButton>{submit}</SubmitButton>
    </form>
  );
}

/** The weeks to preview: a GET form, so the preview is a page of its own and nothing is written. */
function PreviewForm({ base, t, weeks = GENERATE_WEEKS.default }: { base: DashboardBase; t: TemplateView; weeks?: number }) {
  const id = `weeks-${t.id}`;
  const options = Array.from({ length: GENERATE_WEEKS.max }, (_, i) => i + 1);
  return (
    <form method="get" action={templatePath(t.id, 'generate')} class="generate-form">
      {base.business ? <input type="hidden" name="business_id" value={base.business.id} /> : null}
      <div class="field">
        <label for={id}>Weeks ahead</label>
        <select id={id} name="weeks">
          {options.map((n) => (
            <option value={String(n)} selected={n === weeks}>
              {n === 1 ? '1 week' : `${n} weeks`}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="button button-secondary">
        Preview shifts<span class="visually-hidden">{` of ${t.label}`}</span>
      </button>
    </form>
  );
}

function TemplateCard({ base, t, look }: { base: DashboardBase; t: TemplateView; look: ShiftFormLookups }) {
  const role = look.roles.find((r) => r.id === t.shiftrole_id)?.label ?? 'Shift';
  const headId = `tpl-${t.id}`;
  return (
    <li class="card template-card" aria-labelledby={headId}>
      <div class="template-head">
        <h3 id={headId}>{t.label}</h3>
        <span class={`badge${t.is_active ? ' badge-ok' : ''}`}>{t.is_active ? 'Active' : 'Paused'}</span>
      </div>
      <p>
        {`${daysText(t.days_of_week)} · ${shiftHours(t.shift_in, t.shift_out)} · ${role} · ${formatMoney(t.hourly_rate, t.currency_id)} an hour`}
      </p>
      <p class="muted">
        {goesTo(t, look.crew)}
        {t.is_flexible ? ' · flexible hours' : ''}
      </p>
      {t.is_active ? <PreviewForm base={base} t={t} /> : <p class="aside">Activate it to generate shifts.</p>}
      <div class="actions">
        <a class="button button-secondary" href={dashboardHref(base, templatePath(t.id, 'edit'))}>
          Edit<span class="visually-hidden">{` ${t.label}`}</span>
        </a>
        <form method="post" action={dashboardHref(base, templatePath(t.id, 'active'))} class="inline-form">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <input type="hidden" name="is_active" value={t.is_active ? '0' : '1'} />
          <SubmitButton variant="secondary">
            {t.is_active ? 'Pause' : 'Activate'}
            <span class="visually-hidden">{` ${t.label}`}</span>
          </SubmitButton>
        </form>
        <a class="button button-danger" href={dashboardHref(base, templatePath(t.id, 'delete'))}>
          Delete<span class="visually-hidden">{` ${t.label}`}</span>
        </a>
      </div>
    </li>
  );
}

const NOTICES = {
  created: 'The template was saved. Preview its shifts below when you are ready to generate them.',
  updated: 'The template was changed. Shifts generated before keep their times.',
  paused: 'The template is paused: generating is off until you activate it.',
  activated: 'The template is active again.',
  deleted: 'The template was deleted. The shifts it generated stay as they are.',
} as const;

interface ListProps {
  base: DashboardBase;
  templates: TemplateView[];
  look: ShiftFormLookups;
  values?: TemplateFormValues;
  refusal?: Refusal<FieldName> | undefined;
  notice?: string | undefined;
  idem?: string | undefined;
}

function TemplatesView({ base, templates, look, values = EMPTY, refusal, notice, idem }: ListProps) {
  return (
    <AppShell base={base} title="Templates" current="/dashboard/templates" notice={notice} error={refusal?.message}>
      <p class="aside">
        A template is a weekly shift (the same days, times, role and rate). Generate it up to {GENERATE_WEEKS.max} weeks ahead: you see what
        will be created, and what is skipped because it is already there, before anything is posted.
      </p>
      <section aria-labelledby="templates-head">
        <h2 id="templates-head">Your templates</h2>
        {templates.length ? (
          <ul class="template-list">
            {templates.map((t) => (
              <TemplateCard base={base} t={t} look={look} />
            ))}
          </ul>
        ) : (
          <p class="empty">No templates yet. Make your first one below, e.g. “Weekday lunch, Monday to Friday 11:00–15:00”.</p>
        )}
      </section>
      <Card title="New template">
        <TemplateForm
          base={base}
          action="/dashboard/templates"
          look={look}
          values={values}
          errors={refusal?.errors}
          submit="Save the template"
          idem={idem}
        />
      </Card>
    </AppShell>
  );
}

/** The form's fields as sent, bounded (a form is never trusted to be short). */
async function sentValues(c: Context<AppEnv>): Promise<TemplateFormValues & { idem: string }> {
  const body = await c.req.parseBody({ all: true });
  const one = (name: string, max = 256) => {
    const v = body[name];
    const s = Array.isArray(v) ? v[0] : v;
    return typeof s === 'string' ? s.slice(0, max) : '';
  };
  const many = body.days;
  const days = (Array.isArray(many) ? many : [many])
    .filter((d): d is string => typeof d === 'string')
    .slice(0, 7)
    .map(Number)
    .filter((d) => Number.isInteger(d) && d >= 1 && d <= 7);
  return {
    label: one('label', 200),
    days: [...new Set(days)].sort(),
    shift_in: one('shift_in', 10),
    shift_out: one('shift_out', 10),
    shiftrole_id: one('shiftrole_id', 10),
    hourly_rate: one('hourly_rate', 30).trim(),
    mode: one('mode') === 'targeted' ? 'targeted' : 'broadcast',
    default_shifter_id: one('default_shifter_id', 100),
    is_flexible: one('is_flexible') === '1',
    note: one('note', 1100),
    is_active: one('is_active') === '1',
    idem: one('_idem', 255),
  };
}

/** The service's input from the form: every field, so an edit sets the template to what the form shows. */
function inputOf(v: TemplateFormValues) {
  const targeted = v.mode === 'targeted';
  return {
    label: v.label,
    days_of_week: v.days.length ? v.days : '',
    shift_in: v.shift_in,
    shift_out: v.shift_out,
    shiftrole_id: v.shiftrole_id === '' ? Number.NaN : Number(v.shiftrole_id),
    hourly_rate: v.hourly_rate === '' ? Number.NaN : Number(v.hourly_rate),
    is_broadcast: !targeted,
    default_shifter_id: targeted ? v.default_shifter_id || null : null,
    is_flexible: v.is_flexible,
    note: v.note.trim() ? v.note : null,
    is_active: v.is_active,
  };
}

/** A targeted template needs its shifter: said beside the field before the service is asked. */
function missingShifter(v: TemplateFormValues): Refusal<FieldName> | null {
  if (v.mode !== 'targeted' || v.default_shifter_id) return null;
  return {
    status: 400,
    errors: { default_shifter_id: 'Choose the shifter to ask, or broadcast the shifts.' },
    message: 'Check the fields marked below.',
  };
}

export async function renderTemplates(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const [list, look] = await Promise.all([listTemplates(ctx, base.business.id), lookups(c, base)]);
  return renderPage(c, <TemplatesView base={base} templates={list.data} look={look} notice={noticeOf(c, NOTICES)} />);
}

export async function postTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const sent = await sentValues(c);
  const ctx = serviceCtx(c);
  const again = async (refusal: Refusal<FieldName>) => {
    const [list, look] = await Promise.all([listTemplates(ctx, b.id), lookups(c, base)]);
    return renderPage(
      c,
      <TemplatesView base={base} templates={list.data} look={look} values={sent} refusal={refusal} idem={sent.idem} />,
      refusal.status,
    );
  };
  const parsed = createTemplateInput.safeParse({ business_id: b.id, ...inputOf(sent) });
  if (!parsed.success) return again(schemaRefusal(parsed.error, FIELDS, LABELS));
  const missing = missingShifter(sent);
  if (missing) return again(missing);
  try {
    await createTemplate(ctx, parsed.data);
  } catch (err) {
    return again(refusalOf(err, FIELDS, BY_CODE));
  }
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: 'created' }), 303);
}

/** The business's template by id: one of another business (or none) is not found on this page. */
async function templateOf(c: Context<AppEnv>, base: DashboardBase): Promise<TemplateView | null> {
  const id = c.req.param('id') ?? '';
  const list = await listTemplates(serviceCtx(c), base.business!.id);
  return list.data.find((t) => t.id === id) ?? null;
}

function NotFound({ base }: { base: DashboardBase }) {
  return (
    <AppShell base={base} title="Template not found" current="/dashboard/templates">
      <p>This template does not exist, or it belongs to another business.</p>
      <p>
        <a href={dashboardHref(base, '/dashboard/templates')}>Back to the templates</a>
      </p>
    </AppShell>
  );
}

function EditView(p: {
  base: DashboardBase;
  t: TemplateView;
  look: ShiftFormLookups;
  values: TemplateFormValues;
  refusal?: Refusal<FieldName>;
  idem?: string;
}) {
  return (
    <AppShell base={p.base} title={`Edit “${p.t.label}”`} current="/dashboard/templates" error={p.refusal?.message}>
      <p class="aside">Changes apply to shifts generated from now on; shifts generated before keep their times.</p>
      <Card title="The template">
        <TemplateForm
          base={p.base}
          action={templatePath(p.t.id, 'edit')}
          look={p.look}
          values={p.values}
          errors={p.refusal?.errors}
          submit="Save the changes"
          idem={p.idem}
        />
      </Card>
      <p>
        <a href={dashboardHref(p.base, '/dashboard/templates')}>Back to the templates</a>
      </p>
    </AppShell>
  );
}

export async function renderEditTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  return renderPage(c, <EditView base={base} t={t} look={await lookups(c, base)} values={valuesOf(t)} />);
}

export async function postEditTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const sent = await sentValues(c);
  const again = async (refusal: Refusal<FieldName>) =>
    renderPage(
      c,
      <EditView base={base} t={t} look={await lookups(c, base)} values={sent} refusal={refusal} idem={sent.idem} />,
      refusal.status,
    );
  const parsed = updateTemplateInput.safeParse(inputOf(sent));
  if (!parsed.success) return again(schemaRefusal(parsed.error, FIELDS, LABELS));
  const missing = missingShifter(sent);
  if (missing) return again(missing);
  try {
    await updateTemplate(serviceCtx(c), t.id, parsed.data);
  } catch (err) {
    return again(refusalOf(err, FIELDS, BY_CODE));
  }
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: 'updated' }), 303);
}

/** Pause or activate: reversible at once, so no confirmation. */
export async function postTemplateActive(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const active = (await c.req.parseBody()).is_active === '1';
  const ctx = serviceCtx(c);
  try {
    await updateTemplate(ctx, t.id, { is_active: active });
  } catch (err) {
    const refusal = refusalOf(err, FIELDS, BY_CODE);
    const [list, look] = await Promise.all([listTemplates(ctx, base.business.id), lookups(c, base)]);
    const message = Object.values(refusal.errors)[0] ?? refusal.message;
    return renderPage(
      c,
      <TemplatesView base={base} templates={list.data} look={look} refusal={{ ...refusal, errors: {}, message }} />,
      refusal.status,
    );
  }
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: active ? 'activated' : 'paused' }), 303);
}

export async function renderDeleteTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Delete a template"
      current="/dashboard/templates"
      action={templatePath(t.id, 'delete')}
      button="Delete the template"
      variant="danger"
      back="/dashboard/templates"
    >
      <p>{`Delete “${t.label}” (${daysText(t.days_of_week)}, ${shiftHours(t.shift_in, t.shift_out)})? The shifts it generated stay as they are; only the template goes.`}</p>
    </ConfirmPage>,
  );
}

export async function postDeleteTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  await deleteTemplate(serviceCtx(c), t.id);
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: 'deleted' }), 303);
}

/** `?weeks=` as the service reads it (default 4, clamped to 1–12 by the service). */
function weeksAsked(raw: string | undefined): number | undefined {
  return raw && /^\d{1,2}$/.test(raw) ? Number(raw) : undefined;
}

function DateList({ dates, t, label }: { dates: string[]; t: TemplateView; label: string }) {
  return (
    <ul class="date-list" aria-label={label}>
      {dates.map((d) => (
        <li>
          <time datetime={d}>{formatDate(d)}</time> <span class="muted">{shiftHours(t.shift_in, t.shift_out)}</span>
        </li>
      ))}
    </ul>
  );
}

function PreviewView(p: {
  base: DashboardBase;
  t: TemplateView;
  preview: GeneratePreview | null;
  weeks: number;
  error?: string | undefined;
  status?: ContentfulStatusCode;
}) {
  const { base, t, preview } = p;
  const dates = preview?.would_create.map((s) => s.shift_date) ?? [];
  return (
    <AppShell base={base} title={`Generate “${t.label}”`} current="/dashboard/templates" error={p.error}>
      <p class="aside">
        {`${daysText(t.days_of_week)} · ${shiftHours(t.shift_in, t.shift_out)} · times in ${base.business!.timezone}. Nothing is posted until you confirm.`}
      </p>
      <PreviewForm base={base} t={t} weeks={p.weeks} />
      {preview ? (
        <>
          <Card title={`Will be created (${dates.length})`}>
            {dates.length ? (
              <DateList dates={dates} t={t} label="Shifts that will be created" />
            ) : (
              <p class="empty">Nothing new to create in these weeks.</p>
            )}
          </Card>
          <Card title={`Skipped, already there (${preview.skipped.length})`}>
            {preview.skipped.length ? (
              <>
                <p class="aside">These dates already have a shift at this time (in any state), so they are left as they are.</p>
                <DateList dates={preview.skipped} t={t} label="Dates skipped as already there" />
              </>
            ) : (
              <p class="empty">None: no date of these weeks has this shift yet.</p>
            )}
          </Card>
          {dates.length ? (
            <form method="post" action={dashboardHref(base, templatePath(t.id, 'generate'))} class="actions">
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <input type="hidden" name="weeks" value={String(preview.weeks)} />
              <SubmitButton>{dates.length === 1 ? 'Create 1 shift' : `Create ${dates.length} shifts`}</SubmitButton>
              <a class="button button-secondary" href={dashboardHref(base, '/dashboard/templates')}>
                Cancel
              </a>
            </form>
          ) : null}
        </>
      ) : (
        <p>
          <a href={dashboardHref(base, templatePath(t.id, 'edit'))}>Edit the template</a> ·{' '}
          <a href={dashboardHref(base, '/dashboard/templates')}>Back to the templates</a>
        </p>
      )}
    </AppShell>
  );
}

export async function renderGenerate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const asked = weeksAsked(c.req.query('weeks'));
  try {
    const preview = await previewTemplateGeneration(serviceCtx(c), t.id, asked);
    return renderPage(c, <PreviewView base={base} t={t} preview={preview} weeks={preview.weeks} />);
  } catch (err) {
    const r = refusalOf(err, FIELDS, BY_CODE);
    const message = Object.values(r.errors)[0] ?? r.message;
    return renderPage(
      c,
      <PreviewView base={base} t={t} preview={null} weeks={asked ?? GENERATE_WEEKS.default} error={message} />,
      r.status,
    );
  }
}

export async function postGenerate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const raw = (await c.req.parseBody()).weeks;
  const asked = weeksAsked(typeof raw === 'string' ? raw : undefined);
  try {
    const r = await generateFromTemplate(serviceCtx(c), t.id, asked);
    const query = {
      weeks: String(r.weeks),
      created: r.created.map((s) => s.shift_date).join(','),
      skipped: r.skipped.join(','),
    };
    return c.redirect(dashboardHref(base, templatePath(t.id, 'generated'), query), 303);
  } catch (err) {
    const r = refusalOf(err, FIELDS, BY_CODE);
    const message = Object.values(r.errors)[0] ?? r.message;
    return renderPage(
      c,
      <PreviewView base={base} t={t} preview={null} weeks={asked ?? GENERATE_WEEKS.default} error={message} />,
      r.status,
    );
  }
}

/** Dates from the result's address: only well-formed dates, at most a generate's worth (12 weeks). */
function datesOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .filter((d) => isValidDate(d))
    .slice(0, GENERATE_WEEKS.max * 7);
}

/** After generating: what was created and what was skipped (the result's dates travel in the redirect). */
export async function renderGenerated(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const created = datesOf(c.req.query('created'));
  const skipped = datesOf(c.req.query('skipped'));
  const summary = `${created.length === 1 ? '1 shift was' : `${created.length} shifts were`} created from “${t.label}”.`;
  return renderPage(
    c,
    <AppShell base={base} title={`Generated “${t.label}”`} current="/dashboard/templates" notice={summary}>
      <Card title={`Created (${created.length})`}>
        {created.length ? <DateList dates={created} t={t} label="Shifts created" /> : <p class="empty">Nothing new was created.</p>}
      </Card>
      <Card title={`Skipped, already there (${skipped.length})`}>
        {skipped.length ? (
          <DateList dates={skipped} t={t} label="Dates skipped as already there" />
        ) : (
          <p class="empty">None: every date was free.</p>
        )}
      </Card>
      <p class="actions">
        <a class="button button-primary" href={dashboardHref(base, '/dashboard/schedule', { date: created[0] })}>
          See them in the schedule
        </a>
        <a class="button button-secondary" href={dashboardHref(base, '/dashboard/templates')}>
          Back to the templates
        </a>
      </p>
      <Notice kind="info">
        <p>Broadcasts are open to your crew now; a targeted shifter is asked for each shift.</p>
      </Notice>
    </AppShell>,
  );
}
