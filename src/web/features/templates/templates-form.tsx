// The forms the template pages show: a template's own form (its days and shift fields) and the
// form that opens a generate preview (the first week and how many weeks).
import { addDays, todayIn } from '@/lib/shift-time';
import { GENERATE_WEEKS, generateWeekStart, mondayOf, type TemplateView } from '@/services/templates';
import { formatDate } from '@/web/format';
import { CsrfField, IdempotencyField, SubmitButton, TextField } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { FlexibleAndNote, ShiftFields, type ShiftFormLookups, WhoFields } from '@/web/features/posting/shift-fields';
import { FIELDS, type FieldName, type TemplateFormValues, templatePath, WEEKDAYS } from './templates-values';

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

export function TemplateForm({ base, action, look, values, errors = {}, submit, idem }: FormProps) {
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

/** How many weeks the "Starting" list offers: this week, next week and the seven after it. */
const WEEK_CHOICES = 9;

/**
 * The weeks generate may start on, as the "Starting" list offers them: this week (its days already
 * begun are left out by the service), next week (the service's default) and the weeks after it,
 * each by its Monday in the business's zone.
 */
export function weekChoices(timeZone: string, nowMs: number): { value: string; label: string; byDefault: boolean }[] {
  const today = todayIn(timeZone, nowMs);
  const thisWeek = mondayOf(today);
  const next = generateWeekStart(today, undefined, 0);
  return Array.from({ length: WEEK_CHOICES }, (_, i) => {
    const monday = addDays(thisWeek, 7 * i);
    const from = formatDate(monday);
    const label = i === 0 ? `This week (from ${from})` : i === 1 ? `Next week (from ${from})` : `The week of ${from}`;
    return { value: monday, label, byDefault: monday === next };
  });
}

/** The weeks to preview: a GET form, so the preview is a page of its own and nothing is written. */
export function PreviewForm({
  base,
  t,
  weeks = GENERATE_WEEKS.default,
  weekOf,
  nowMs = Date.now(),
}: {
  base: DashboardBase;
  t: TemplateView;
  weeks?: number;
  /** The chosen first week's Monday; the service's default (next week) when absent. */
  weekOf?: string | undefined;
  nowMs?: number;
}) {
  const id = `weeks-${t.id}`;
  const startId = `week-of-${t.id}`;
  const options = Array.from({ length: GENERATE_WEEKS.max }, (_, i) => i + 1);
  const starts = weekChoices(base.business?.timezone ?? 'UTC', nowMs);
  return (
    <form method="get" action={templatePath(t.id, 'generate')} class="generate-form">
      {base.business ? <input type="hidden" name="business_id" value={base.business.id} /> : null}
      <div class="field">
        <label for={startId}>Starting</label>
        <select id={startId} name="week_of">
          {starts.map((w) => (
            <option value={w.value} selected={weekOf ? w.value === weekOf : w.byDefault}>
              {w.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id}>Number of weeks</label>
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
