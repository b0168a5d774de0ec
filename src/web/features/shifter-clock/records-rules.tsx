// The records page's counter rules card: each rule with its edit form, and the folded form to add one.
import type { CounterRuleView } from '@/services/shifter-records';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton, TextField } from '@/web/components';
import type { DashboardBase } from '@/web/features/dashboard/context';
import { formatMoney } from '@/web/format';
import { EditForm, type Errors, PATH, type Refused, type Typed } from './records-shared';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

function ruleTyped(r: CounterRuleView): Typed {
  return {
    label: r.label,
    min_hourly_rate: String(r.min_hourly_rate),
    start_from: r.start_from ?? '',
    start_to: r.start_to ?? '',
    weekdays: (r.weekdays ?? []).join(','),
    is_active: r.is_active ? '1' : '0',
  };
}

function RuleFields({ id, typed, errors, currency }: { id: string; typed: Typed; errors: Errors; currency: string }) {
  const days = new Set((typed.weekdays ?? '').split(',').filter(Boolean));
  return (
    <>
      <TextField label="Name" name="label" value={typed.label} required maxLength={120} error={errors.label} id={`${id}-label`} />
      <InputField
        label={`Least per hour (${currency})`}
        name="min_hourly_rate"
        type="number"
        step={0.01}
        min="0.01"
        inputMode="decimal"
        value={typed.min_hourly_rate}
        required
        error={errors.min_hourly_rate}
        id={`${id}-rate`}
      />
      <InputField
        label="Shifts starting from"
        name="start_from"
        type="time"
        value={typed.start_from}
        error={errors.start_from}
        id={`${id}-from`}
        hint="With “until”, or leave both empty for any time."
      />
      <InputField label="Until" name="start_to" type="time" value={typed.start_to} error={errors.start_to} id={`${id}-to`} />
      <fieldset class="fieldset rule-days">
        <legend>Days (none: any day)</legend>
        {WEEKDAYS.map((d, i) => (
          <span class="choice">
            <input type="checkbox" id={`${id}-day-${i + 1}`} name="weekdays" value={String(i + 1)} checked={days.has(String(i + 1))} />
            <label for={`${id}-day-${i + 1}`}>{d}</label>
          </span>
        ))}
        {errors.weekdays ? <p class="field-error">{errors.weekdays}</p> : null}
      </fieldset>
      <div class="choice">
        <input type="checkbox" id={`${id}-active`} name="is_active" value="1" checked={typed.is_active !== '0'} />
        <label for={`${id}-active`}>On: suggest this rate on requests it matches</label>
      </div>
    </>
  );
}

export function RulesCard({
  base,
  rules,
  currency,
  refused,
}: {
  base: DashboardBase;
  rules: CounterRuleView[];
  currency: string;
  refused: Refused;
}) {
  const isNew = refused.target === 'new';
  return (
    <Card title="Counter rules">
      {rules.length ? (
        <ul class="list-plain record-list" data-rules>
          {rules.map((r) => {
            const mine = refused.target === r.id;
            return (
              <li>
                <strong>{r.label}</strong> {`· at least ${formatMoney(r.min_hourly_rate, r.currency)}/h`}
                {r.start_from && r.start_to ? <span class="muted">{` · starting ${r.start_from}–${r.start_to}`}</span> : null}
                {r.weekdays?.length ? <span class="muted">{` · ${r.weekdays.map((d) => WEEKDAYS[d - 1]).join(', ')}`}</span> : null}{' '}
                {r.is_active ? null : <span class="badge">Off</span>}
                <EditForm
                  summary={`Change or delete the rule “${r.label}”`}
                  action={`${PATH}/rules/${encodeURIComponent(r.id)}`}
                  csrfToken={base.csrfToken}
                  open={mine}
                  error={mine ? refused.errors._ : undefined}
                >
                  <RuleFields
                    id={`rule-${r.id}`}
                    typed={mine ? refused.typed : ruleTyped(r)}
                    errors={mine ? refused.errors : {}}
                    currency={r.currency}
                  />
                </EditForm>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="empty">No counter rule: requests are shown at the rate the business offers.</p>
      )}
      <details class="record-edit" open={isNew}>
        <summary>Add a counter rule</summary>
        {isNew && refused.errors._ ? <p class="field-error">{refused.errors._}</p> : null}
        <form method="post" action={`${PATH}/rules`} class="form-grid">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <RuleFields id="rule-new" typed={isNew ? refused.typed : {}} errors={isNew ? refused.errors : {}} currency={currency} />
          <SubmitButton>Add rule</SubmitButton>
        </form>
      </details>
    </Card>
  );
}
